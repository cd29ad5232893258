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
  }
}
