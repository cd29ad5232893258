import Foundation
import Testing

/// Thousands of input files on the command line (`push-transcode logs/*.ndjson.gz`): above 256
/// arguments the input files are taken out before the argument parser sees the rest, whose
/// time was quadratic in their number (8,000 files: 1.9 s before the first line was read). What
/// a user sees must be what a short command line gives: the files in their order, every option
/// with its value, wherever the options stand among the files.
@Suite struct ManyInputFilesTests {
  /// `count` one-line input files named `f00000.ndjson`..., each a message with its number.
  static func files(_ count: Int, in directory: TemporaryDirectory) throws -> [String] {
    try (0..<count).map { index in
      let name = String(format: "f%05d.ndjson", index)
      let line =
        #"{"From_Account":"a","To_Account":"b","MsgKey":"k\#(index)","MsgBody":[{"MsgType":"TIMTextElem","MsgContent":{"Text":"hi \#(index)"}}]}"#
      try directory.write(name, Data((line + "\n").utf8))
      return name
    }
  }

  @Test func optionsAmongThreeHundredFilesMeanWhatTheyMeanAmongFew() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let names = try Self.files(300, in: directory)
    try directory.write("-dash.ndjson", Data(#"{"bad"#.utf8 + [0x0A]))
    // Options before, among and after the files, with values that look like files, and a file
    // whose name starts with a dash after `--`.
    let long =
      ["--vendors", "fcm,oppo"] + names[..<100] + ["--rejects", "rej.ndjson", "--threads=1"]
      + names[100..<200] + ["--locale", "zh", "-o", "-"] + names[200...] + ["--", "-dash.ndjson"]
    let whole = try CLI.run(long, in: directory.url)
    #expect(whole.status == 2 || whole.status == 0, "\(whole.stderrText)")
    // The same files in two short runs give the same records, in the same order.
    let options = ["--vendors", "fcm,oppo", "--locale", "zh", "--threads", "1", "-o", "-"]
    let first = try CLI.run(options + names[..<150], in: directory.url)
    let second = try CLI.run(
      options + names[150...] + ["--rejects", "rej2.ndjson", "--", "-dash.ndjson"],
      in: directory.url)
    #expect(first.status == 0 && second.stderrText.contains("1 rejected"))
    #expect(whole.stdout == first.stdout + second.stdout)
    #expect(whole.stdoutLines.count == 600)
    #expect(whole.stderrText.contains("301 lines"))
    // `--rejects` took its value: the reject is in the file, not read as an input.
    let rejects = String(decoding: try directory.read("rej.ndjson"), as: UTF8.self)
    #expect(rejects.contains(#""source":"-dash.ndjson""#))
    #expect(try directory.read("rej2.ndjson") == directory.read("rej.ndjson"))
  }

  @Test func validateTakesThreeHundredFilesInOrder() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    var names = try Self.files(300, in: directory)
    try directory.write("bad.ndjson", Data("{bad\n".utf8))
    names.insert("bad.ndjson", at: 150)
    let result = try CLI.run(["validate", "--threads", "1"] + names, in: directory.url)
    #expect(result.stdoutLines.count == 1)
    #expect(result.stdoutText.contains(#""source":"bad.ndjson","line":1"#))
    #expect(result.stderrText.contains("301 lines"))
  }

  /// An option that is not unconditional takes no `-x` as its value: its value is missing
  /// among three hundred files as among three; `--name=` takes the next argument.
  @Test func anOptionFindsItsValueAmongManyFilesAsAmongFew() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let names = try Self.files(300, in: directory)
    for few in [false, true] {
      let files = few ? Array(names[..<3]) : names
      let missing = try CLI.run(files + ["--rejects", "-x.ndjson", "-o", "-"], in: directory.url)
      #expect(missing.status == 64, "\(missing.stderrText)")
      #expect(missing.stderrText.contains("Missing value for '--rejects"), "\(missing.stderrText)")
      #expect(!FileManager.default.fileExists(atPath: directory.url.path + "/-x.ndjson"))
      let joined = try CLI.run(["--stats=", "s.json"] + files + ["-o", "-"], in: directory.url)
      #expect(joined.status == 0, "\(joined.stderrText)")
      #expect(joined.stdoutLines.count == files.count * 9)
      #expect(try directory.read("s.json").count > 0)
    }
  }

  @Test func aBadOptionAmongManyFilesIsStillBadUsage() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let names = try Self.files(300, in: directory)
    let result = try CLI.run(names + ["--vendor", "fcm"], in: directory.url)
    #expect(result.status == 64)
    #expect(result.stderrText.contains("--vendor"))
    #expect(result.stdout.isEmpty)
  }
}
