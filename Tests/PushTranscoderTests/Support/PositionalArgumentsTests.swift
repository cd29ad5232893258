import Testing

@testable import PushTranscoder

/// The command-line tool takes its input files out of a long command line before the argument
/// parser sees it (`LargeArgumentLists`): options keep their values and order, positionals
/// keep theirs.
@Suite struct PositionalArgumentsTests {
  static let valueOptions: Set<String> = ["--vendors", "-o", "--rejects", "--threads"]

  @Test func optionsKeepTheirValuesAndEverythingElseIsPositional() {
    let split = PositionalArguments.split(
      [
        "a.ndjson", "--vendors", "fcm", "b.ndjson", "-o", "-", "--force", "c.ndjson",
        "--threads=2", "-", "--rejects", "--looks-like-an-option", "d.ndjson",
      ], valueOptions: Self.valueOptions)
    #expect(
      split.options == [
        "--vendors", "fcm", "-o", "-", "--force", "--threads=2", "--rejects",
        "--looks-like-an-option",
      ])
    #expect(split.positionals == ["a.ndjson", "b.ndjson", "c.ndjson", "-", "d.ndjson"])
  }

  @Test func everythingAfterTheTerminatorIsPositional() {
    let split = PositionalArguments.split(
      ["--vendors", "apns", "--", "-x.ndjson", "--vendors", "--"], valueOptions: Self.valueOptions)
    #expect(split.options == ["--vendors", "apns"])
    #expect(split.positionals == ["-x.ndjson", "--vendors", "--"])
  }

  @Test func aValueOptionAtTheEndIsLeftForTheParserToReport() {
    let split = PositionalArguments.split(["a.ndjson", "-o"], valueOptions: Self.valueOptions)
    #expect(split.options == ["-o"])
    #expect(split.positionals == ["a.ndjson"])
  }

  @Test func repeatedValuesLeaveButTheFirstStaysInPlace() {
    let extracted = PositionalArguments.extractRepeated(
      [
        "explain", "--line", "3", "in.ndjson", "--line=5", "--vendors", "fcm", "--line", "-2",
        "--directory", "a.ndjson", "--directory=b.ndjson", "--directory", "c.ndjson", "--json",
      ], valueOptions: ["--line", "--vendors", "--directory"],
      repeating: ["--line", "--directory"])
    #expect(
      extracted.arguments == [
        "explain", "--line", "3", "in.ndjson", "--vendors", "fcm", "--directory", "a.ndjson",
        "--json",
      ])
    // `-2` is `--line`'s value, as the parser reads it; the first `--line` may be `--line=`.
    #expect(extracted.values == ["--line": ["5", "-2"], "--directory": ["b.ndjson", "c.ndjson"]])
    let equalsFirst = PositionalArguments.extractRepeated(
      ["--line=1", "--line", "2"], valueOptions: ["--line"], repeating: ["--line"])
    #expect(equalsFirst.arguments == ["--line=1"])
    #expect(equalsFirst.values == ["--line": ["2"]])
  }

  @Test func nothingAfterTheTerminatorNorAnOptionThatDoesNotRepeatIsTaken() {
    let extracted = PositionalArguments.extractRepeated(
      ["--vendors", "fcm", "--vendors", "apns", "--line", "1", "--", "--line", "2", "-"],
      valueOptions: ["--line", "--vendors"], repeating: ["--line"])
    #expect(
      extracted.arguments == [
        "--vendors", "fcm", "--vendors", "apns", "--line", "1", "--", "--line", "2", "-",
      ])
    #expect(extracted.values.isEmpty)
    // A repeated option at the end without its value is left for the parser to report.
    let dangling = PositionalArguments.extractRepeated(
      ["--line", "1", "--line"], valueOptions: ["--line"], repeating: ["--line"])
    #expect(dangling.arguments == ["--line", "1", "--line"])
    #expect(dangling.values.isEmpty)
  }

  @Test func aValueTheCallerRefusesStaysInPlaceWithItsOption() {
    let extracted = PositionalArguments.extractRepeated(
      ["--directory", "a", "--directory", "--help", "--directory=", "--directory", "b"],
      valueOptions: ["--directory"], repeating: ["--directory"]
    ) { _, value in !value.isEmpty && !value.hasPrefix("-") }
    #expect(extracted.arguments == ["--directory", "a", "--directory", "--help", "--directory="])
    #expect(extracted.values == ["--directory": ["b"]])
    #expect(extracted.refused)
    let plain = PositionalArguments.extractRepeated(
      ["--directory", "a", "--directory", "b"], valueOptions: ["--directory"],
      repeating: ["--directory"])
    #expect(!plain.refused)
  }
}
