import Foundation
import Testing

extension CLITests {
  /// SPEC 6.6: `validate` rejects exactly the lines that are not valid UTF-8 or JSON.
  @Suite(needsGenerator) struct ValidateTests {
    @Test(arguments: [["--threads", "1"], ["--threads", "2", "--chunk-bytes", "65536"]])
    func validateReportsExactlyTheInvalidLines(options: [String]) throws {
      let dir = try TemporaryDirectory()
      defer { dir.remove() }
      let input = try Corpus.malformed
      let result = try CLI.run(["validate", input] + options)
      #expect(result.status == 3)
      try dir.write("rejects.ndjson", result.stdout)
      let check = try CLI.python(PythonChecks.validate, [input, dir.file("rejects.ndjson"), input])
      #expect(check.status == 0, "\(check.stdoutText)\(check.stderrText)")
      // Blank lines are counted, not rejected.
      let blank = Int(check.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines))
      #expect(blank ?? 0 > 0)
      #expect(result.stderrText.contains("\(blank ?? -1) blank"), "\(result.stderrText)")
    }

    @Test func validateAcceptsAnyJSONValueAndCountsBlankLines() throws {
      let input = Data(
        "1\n\"s\"\n[]\n \t\r\n\n{\"a\":[null,true,false,-0.5e3]}\r\nNaN\n{\"a\":\"\\ud800\"}\n[1,]"
          .utf8)
      let result = try CLI.run(["validate"], stdin: input)
      #expect(result.status == 3)
      let rejects = try result.stdoutLines.map { try recordHeader($0) }
      #expect(rejects.map(\.line) == [7, 8, 9])
      #expect(result.stderrText.contains("9 lines"), "\(result.stderrText)")
      #expect(result.stderrText.contains("2 blank"), "\(result.stderrText)")
      // The summary adds up (it said "0 transcoded, 0 skipped" for the valid lines).
      #expect(
        result.stderrText.contains("9 lines: 4 valid, 3 rejected, 2 blank"), "\(result.stderrText)")
    }
  }

  /// SPEC 6.4: every line is accounted for.
  @Suite(needsGenerator) struct AccountingTests {
    @Test func statsBalanceAndMatchTheOutputs() throws {
      let dir = try TemporaryDirectory()
      defer { dir.remove() }
      let input = try Corpus.malformed
      let result = try CLI.run([
        input, "--threads", "2", "--stats", dir.file("stats.json"), "--rejects",
        dir.file("rejects.ndjson"),
      ])
      #expect(result.status == 0, "\(result.stderrText)")
      try dir.write("stream.ndjson", result.stdout)
      let check = try CLI.python(
        PythonChecks.accounting,
        [input, dir.file("stats.json"), dir.file("stream.ndjson"), dir.file("rejects.ndjson")])
      #expect(check.status == 0, "\(check.stdoutText)\(check.stderrText)")
      // The one-paragraph summary.
      let stats =
        try JSONSerialization.jsonObject(with: try dir.read("stats.json")) as! [String: Any]
      let lines = try #require(stats["lines"] as? Int)
      #expect(
        result.stderrText.hasPrefix("push-transcode: \(lines) lines:"), "\(result.stderrText)")
      #expect(CLI.lines(result.stderrText).count == 1)
    }

    @Test func inlineRejectsHaveTheSameShape() throws {
      let dir = try TemporaryDirectory()
      defer { dir.remove() }
      let input = try Corpus.smallMalformed
      let inline = try CLI.run([input, "--stats", dir.file("stats.json")])
      #expect(inline.status == 0)
      let rejects = inline.stdoutLines.filter { $0.contains("\"vendor\":\"reject\"") }
      let records = inline.stdoutLines.filter { !$0.contains("\"vendor\":\"reject\"") }
      try dir.write("stream.ndjson", Data(records.map { $0 + "\n" }.joined().utf8))
      try dir.write("rejects.ndjson", Data(rejects.map { $0 + "\n" }.joined().utf8))
      let check = try CLI.python(
        PythonChecks.accounting,
        [input, dir.file("stats.json"), dir.file("stream.ndjson"), dir.file("rejects.ndjson")])
      #expect(check.status == 0, "\(check.stdoutText)\(check.stderrText)")
    }
  }
}
