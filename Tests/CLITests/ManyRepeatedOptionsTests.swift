import Foundation
import Testing

/// A repeatable option given hundreds of times (`explain --line` for every rejected line of a
/// run, a `--directory` per tenant): above 256 arguments all but each option's first value are
/// taken out before the argument parser sees the command line, whose time was quadratic in
/// their number (`explain` with 4,000 `--line`: 2.7 s before the first line was read), and set
/// on the parsed command. What a user sees must be what a short command line gives: every
/// value, in order, checked as the parser checks it.
@Suite struct ManyRepeatedOptionsTests {
  /// Ten messages from `u1`, `u2`, ... to `r`, each with its own text.
  static func messages(in directory: TemporaryDirectory) throws {
    let lines = (1...10).map { index in
      #"{"From_Account":"u\#(index)","To_Account":"r","MsgKey":"k\#(index)","MsgBody":[{"MsgType":"TIMTextElem","MsgContent":{"Text":"text \#(index)"}}]}"#
    }
    try directory.write("messages.ndjson", Data((lines.joined(separator: "\n") + "\n").utf8))
  }

  /// A directory file `file` that names `user` `nickname`.
  static func nickname(
    of user: String, _ nickname: String, file: String, in directory: TemporaryDirectory
  ) throws {
    let line =
      #"{"To_Account":""# + user + #"","ProfileItem":[{"Tag":"Tag_Profile_IM_Nick","Value":""#
      + nickname + #""}]}"#
    try directory.write(file, Data((line + "\n").utf8))
  }

  /// The JSON array `explain --json` printed.
  static func explanations(_ result: ProcessResult) throws -> [[String: Any]] {
    try #require(
      JSONSerialization.jsonObject(with: result.stdout) as? [[String: Any]],
      "explain --json printed \(result.stdoutText.prefix(200))")
  }

  @Test func threeHundredLinesToExplainAreExplainedInTheirOrder() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    try Self.messages(in: directory)
    // Both spellings, repeats, and an order that is not the file's.
    let wanted = (0..<300).map { ($0 * 7) % 10 + 1 }
    let options = wanted.enumerated().flatMap { index, line in
      index % 3 == 0 ? ["--line=\(line)"] : ["--line", "\(line)"]
    }
    let long = try CLI.run(
      ["explain", "messages.ndjson", "--json"] + options + ["--vendors", "fcm"],
      in: directory.url)
    #expect(long.status == 0, "\(long.stderrText)")
    let explained = try Self.explanations(long)
    // The same lines asked for a hundred at a time (below the threshold).
    var pieces: [[String: Any]] = []
    for start in stride(from: 0, to: 300, by: 100) {
      let short = try CLI.run(
        ["explain", "messages.ndjson", "--json", "--vendors", "fcm"]
          + wanted[start..<(start + 100)].flatMap { ["--line", "\($0)"] }, in: directory.url)
      #expect(short.status == 0, "\(short.stderrText)")
      pieces += try Self.explanations(short)
    }
    #expect(explained.count == 300)
    #expect(explained.compactMap { $0["line"] as? Int } == wanted)
    #expect(
      try JSONSerialization.data(withJSONObject: explained, options: .sortedKeys)
        == JSONSerialization.data(withJSONObject: pieces, options: .sortedKeys))
  }

  @Test func aBadLineAmongThreeHundredIsStillBadUsage() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    try Self.messages(in: directory)
    let many = (1...300).flatMap { ["--line", "\($0 % 10 + 1)"] }
    // Below 1, far from the first `--line`: checked with every value, not only the parser's.
    let zero = try CLI.run(
      ["explain", "messages.ndjson"] + many + ["--line", "0"], in: directory.url)
    #expect(zero.status == 64)
    #expect(zero.stderrText.contains("--line must be at least 1 (got 0)"))
    #expect(zero.stdout.isEmpty)
    // Not a number: the parser's own message.
    let word = try CLI.run(
      ["explain", "messages.ndjson"] + many + ["--line=seven"], in: directory.url)
    #expect(word.status == 64)
    #expect(word.stderrText.contains("'seven'"))
    #expect(word.stdout.isEmpty)
  }

  @Test func threeHundredDirectoriesAreReadInTheirOrder() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    try Self.messages(in: directory)
    // Two directories naming u1 differently: which name a message shows depends on their order.
    try Self.nickname(of: "u1", "Ann", file: "ann.ndjson", in: directory)
    try Self.nickname(of: "u1", "Bob", file: "bob.ndjson", in: directory)
    let options = ["--vendors", "apns", "-o", "-", "--threads", "1", "messages.ndjson"]
    func run(_ files: [String]) throws -> ProcessResult {
      let result = try CLI.run(files.flatMap { ["--directory", $0] } + options, in: directory.url)
      #expect(result.status == 0, "\(result.stderrText)")
      return result
    }
    let annThenBob = try run(
      Array(repeating: "ann.ndjson", count: 150) + Array(repeating: "bob.ndjson", count: 150))
    let bobThenAnn = try run(
      Array(repeating: "bob.ndjson", count: 150) + Array(repeating: "ann.ndjson", count: 150))
    #expect(annThenBob.stdout == (try run(["ann.ndjson", "bob.ndjson"])).stdout)
    #expect(bobThenAnn.stdout == (try run(["bob.ndjson", "ann.ndjson"])).stdout)
    // The order reached the run: one of the two names wins in each.
    #expect(annThenBob.stdout != bobThenAnn.stdout)
    // `explain` takes them the same way.
    let explained = try CLI.run(
      ["explain", "messages.ndjson", "--line", "1", "--json"]
        + (Array(repeating: "ann.ndjson", count: 150) + Array(repeating: "bob.ndjson", count: 150))
        .flatMap { ["--directory", $0] }, in: directory.url)
    let short = try CLI.run(
      [
        "explain", "messages.ndjson", "--line", "1", "--json", "--directory", "ann.ndjson",
        "--directory", "bob.ndjson",
      ], in: directory.url)
    #expect(explained.status == 0 && explained.stdout == short.stdout)
  }

  /// What the parser refuses among few values it refuses among many, with the same message:
  /// a later `--directory` whose value looks like an option (even a file of that name) or is
  /// empty, and a later `--line 0` beside another fault, which the parser's order reports
  /// first (found by a differential probe against the parser alone).
  @Test func aValueTheParserRefusesIsRefusedWhereverItStands() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    try Self.messages(in: directory)
    try Self.nickname(of: "u1", "Ann", file: "-dash.ndjson", in: directory)
    try Self.nickname(of: "u1", "Ann", file: "ann.ndjson", in: directory)
    let many = Array(repeating: "--unicode=strict", count: 260)
    for value in ["-dash.ndjson", "--help", "--"] {
      let result = try CLI.run(
        many + ["messages.ndjson", "-o", "-", "--directory", "ann.ndjson", "--directory", value],
        in: directory.url)
      #expect(result.status == 64, "\(value): \(result.stderrText)")
      #expect(result.stderrText.contains("Missing value for '--directory"), "\(result.stderrText)")
      #expect(result.stdout.isEmpty)
    }
    // `--directory=` is `--directory`, whose value is the next argument when that is a value:
    // the file it names is read as a directory file, not as the input.
    let joinedEmpty = ["-o", "-", "--directory", "ann.ndjson", "--directory=", "messages.ndjson"]
    let empty = try CLI.run(many + joinedEmpty, stdin: Data(), in: directory.url)
    let shortEmpty = try CLI.run(joinedEmpty, stdin: Data(), in: directory.url)
    #expect(empty.status == 0 && shortEmpty.status == 0, "\(empty.stderrText)")
    #expect(empty.stdout == shortEmpty.stdout)
    #expect(empty.stderrText.contains("0 lines") && empty.stderrText.contains("1 entries"))
    let explained = try CLI.run(
      ["explain", "messages.ndjson"] + many + ["--line", "1", "--line", "0", "--vendor"],
      in: directory.url)
    #expect(explained.status == 64)
    #expect(
      explained.stderrText.contains("--line must be at least 1 (got 0)"), "\(explained.stderrText)")
  }
}
