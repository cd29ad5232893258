import Foundation
import Testing

extension CLITests {
  /// `--directory` files are read like input lines (SPEC 2.4), `--unicode` included.
  @Suite struct DirectoryFileTests {
    /// A nickname with an invalid byte and a group name with a lone surrogate escape, and a
    /// group message that shows both in its display prefix (apns has no title).
    static func run(_ extra: [String]) throws -> (ProcessResult, stats: [String: Any]) {
      let dir = try TemporaryDirectory()
      defer { dir.remove() }
      var names = Data(
        #"{"To_Account":"u1","ProfileItem":[{"Tag":"Tag_Profile_IM_Nick","Value":"A"#.utf8)
      names.append(0xFF)
      names.append(Data(#"B"}]}"#.utf8))
      names.append(Data("\n".utf8))
      names.append(Data(#"{"GroupId":"g1","Name":"T\ud800"}"#.utf8))
      names.append(Data("\n".utf8))
      try dir.write("names.ndjson", names)
      try dir.write(
        "in.ndjson",
        Data(
          (#"{"From_Account":"u1","GroupId":"g1","MsgBody":[{"MsgType":"TIMTextElem","MsgContent":{"Text":"hi"}}]}"#
            + "\n").utf8))
      let result = try CLI.run(
        ["in.ndjson", "--directory", "names.ndjson", "--vendors", "apns", "--stats", "s.json"]
          + extra, in: dir.url)
      let stats =
        try JSONSerialization.jsonObject(
          with: Data(contentsOf: dir.url.appendingPathComponent("s.json")))
        as? [String: Any] ?? [:]
      return (result, stats)
    }

    @Test func strictRejectsTheDirectoryLines() throws {
      let (result, stats) = try Self.run([])
      #expect(result.status == 0, "\(result.stderrText)")
      let lines = result.stdoutLines
      #expect(lines.count == 3)
      #expect(lines[0].contains(#""source":"names.ndjson","line":1,"offset":73,"#))
      #expect(lines[0].contains(#""reason":"invalid-unicode""#))
      #expect(lines[1].contains(#""source":"names.ndjson","line":2,"offset":"#))
      #expect(lines[1].contains(#""reason":"invalid-unicode""#))
      #expect(lines[2].contains(#""alert":"hi""#))
      #expect(stats["unicode_replacements"] as? Int == 0)
    }

    /// The entries are kept with U+FFFD in place of each fault, counted as replacements; the
    /// directory section counts them as entries, not rejects.
    @Test func replaceKeepsTheEntries() throws {
      let (result, stats) = try Self.run(["--unicode", "replace"])
      #expect(result.status == 0, "\(result.stderrText)")
      #expect(result.stdoutLines.count == 1)
      #expect(result.stdoutText.contains(#""alert":"A\#u{FFFD}B(T\#u{FFFD}):hi""#))
      #expect(stats["unicode_replacements"] as? Int == 2)
      let directory = stats["directory"] as? [String: Any]
      #expect(directory?["entries"] as? Int == 2)
      #expect((directory?["rejected"] as? [String: Any])?.isEmpty != false)
    }

    /// Stdout closing while the directory's rejects are written (`| head`) ends the run quietly,
    /// and `--stats` is still written, as when it closes during the records.
    @Test func aClosedStdoutDuringTheDirectoryRejectsStillWritesTheStats() throws {
      let dir = try TemporaryDirectory()
      defer { dir.remove() }
      // 2,000 bad directory lines: their rejects (about 240 KB) outgrow a pipe's buffer.
      try dir.write("names.ndjson", Data(String(repeating: "not json\n", count: 2000).utf8))
      try dir.write(
        "in.ndjson",
        Data(
          #"{"From_Account":"u1","To_Account":"b","MsgBody":[{"MsgType":"TIMTextElem","MsgContent":{"Text":"hi"}}]}"#
            .utf8))
      let result = try CLI.sh(
        """
        { "$BIN" in.ndjson --directory names.ndjson --stats s.json; echo $? > status.txt; } | head -c 100 > /dev/null
        """, in: dir.url)
      #expect(result.status == 0)
      #expect(String(decoding: try dir.read("status.txt"), as: UTF8.self) == "0\n")
      #expect(FileManager.default.fileExists(atPath: dir.file("s.json")))
    }

    /// A truncated gzip directory file stops the run as a truncated input does: status 1, the
    /// summary, `--stats`, and the rejects of the directory lines before the fault, in the
    /// stream and in `-o DIR` (complete, not a temporary file). Before, the run failed with the
    /// error alone: no summary, no stats file, the rejects lost, `.rejects.ndjson.tmp` left.
    @Test(arguments: [["-o", "-"], ["-o", "out"]])
    func aTruncatedDirectoryFileStopsTheRunAsAnInputWould(output: [String]) throws {
      let dir = try TemporaryDirectory()
      defer { dir.remove() }
      let setup = try CLI.sh(
        """
        { echo 'not json'; seq 1 20000 | sed 's/.*/{"username":"u&","nickname":"N&"}/'; } | gzip -c > full.gz &&
        head -c $(( $(wc -c < full.gz) / 2 )) full.gz > names.gz &&
        echo '{"From_Account":"u1","To_Account":"b","MsgBody":[{"MsgType":"TIMTextElem","MsgContent":{"Text":"hi"}}]}' > in.ndjson
        """, in: dir.url)
      try #require(setup.status == 0, "\(setup.stderrText)")
      let result = try CLI.run(
        ["in.ndjson", "--directory", "names.gz", "--vendors", "apns", "--stats", "s.json"]
          + output, in: dir.url)
      #expect(result.status == 1)
      #expect(result.stderrText.contains("names.gz: truncated gzip stream"), "\(result.stderrText)")
      #expect(result.stderrText.hasPrefix("push-transcode: 0 lines:"), "\(result.stderrText)")
      let stats =
        try JSONSerialization.jsonObject(with: try dir.read("s.json")) as? [String: Any] ?? [:]
      let directory = stats["directory"] as? [String: Any]
      #expect((directory?["entries"] as? Int ?? 0) > 100)
      #expect(directory?["rejected"] as? [String: Int] == ["syntax": 1])
      let rejects =
        output[1] == "-"
        ? result.stdoutText : String(decoding: try dir.read("out/rejects.ndjson"), as: UTF8.self)
      #expect(CLI.lines(rejects).count == 1)
      #expect(rejects.hasPrefix(#"{"source":"names.gz","line":1,"#), "\(rejects)")
      if output[1] == "out" {
        let names = try FileManager.default.contentsOfDirectory(atPath: dir.file("out"))
        #expect(Set(names) == [".lock", "rejects.ndjson"], "\(names)")
      }
    }
  }
}
