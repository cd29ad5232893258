import Foundation
import Testing

/// `../shared/conformance/JSONTestSuite/test_parsing`.
private let jsonTestSuite = CLI.shared.appendingPathComponent(
  "conformance/JSONTestSuite/test_parsing")

extension CLITests {
  /// JSONTestSuite through `validate`, one document per line, as a user would check a file:
  /// every single-line `y_` case is a valid line and every single-line `n_` case an invalid one
  /// (SPEC 2.2, 6.6). Cases with a line break inside are left to the tokenizer's own suite
  /// (`JSONTestSuiteTests`, whole files), since NDJSON framing splits them; so are the `n_` cases
  /// that are blank as a line (only whitespace or nothing, which SPEC 2.1 counts as `blank`).
  @Suite(
    .enabled(
      if: FileManager.default.fileExists(atPath: jsonTestSuite.path),
      "JSONTestSuite not found at ../shared/conformance/JSONTestSuite/test_parsing; skipped"))
  struct ValidateConformanceTests {
    static let suite = jsonTestSuite

    /// The cases named `prefix*`, as one line each, without those framing splits.
    static func singleLineCases(_ prefix: String) throws -> [(name: String, bytes: Data)] {
      let names = try FileManager.default.contentsOfDirectory(atPath: suite.path)
        .filter { $0.hasPrefix(prefix) && $0.hasSuffix(".json") }.sorted()
      return try names.compactMap { name in
        let bytes = try Data(contentsOf: suite.appendingPathComponent(name))
        if bytes.contains(0x0A) || bytes.contains(0x0D) { return nil }
        let body = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? bytes.dropFirst(3) : bytes[...]
        if body.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { return nil }
        return (name, bytes)
      }
    }

    /// All the cases as one NDJSON input, one case per line.
    static func input(_ cases: [(name: String, bytes: Data)]) -> Data {
      cases.reduce(into: Data()) { input, item in
        input.append(item.bytes)
        input.append(0x0A)
      }
    }

    @Test func everySingleLineYesCaseIsAValidLine() throws {
      let cases = try Self.singleLineCases("y_")
      #expect(cases.count > 80)
      // A BOM counts only at the start of a file: the one case that has it goes first.
      let ordered =
        cases.filter { $0.bytes.starts(with: [0xEF, 0xBB, 0xBF]) }
        + cases.filter { !$0.bytes.starts(with: [0xEF, 0xBB, 0xBF]) }
      let result = try CLI.run(["validate"], stdin: Self.input(ordered))
      #expect(result.status == 0, "\(result.stdoutText.prefix(2000))")
      #expect(result.stdout.isEmpty)
      #expect(result.stderrText.contains("\(cases.count) lines: \(cases.count) valid"))
    }

    @Test func everySingleLineNoCaseIsAnInvalidLine() throws {
      let cases = try Self.singleLineCases("n_")
      #expect(cases.count > 150)
      let result = try CLI.run(["validate"], stdin: Self.input(cases))
      #expect(result.status == 3)
      var rejected: [Int: String] = [:]
      for line in result.stdoutLines {
        let header = try recordHeader(line)
        rejected[header.line] =
          ["syntax", "invalid-unicode", "too-deep"].first { line.contains("\"reason\":\"\($0)\"") }
      }
      for (index, item) in cases.enumerated() {
        #expect(rejected[index + 1] != nil, "\(item.name) (line \(index + 1)) was not rejected")
      }
      #expect(rejected.count == cases.count)
    }
  }
}
