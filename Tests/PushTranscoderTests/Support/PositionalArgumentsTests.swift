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

  /// The parser's two ways to find a value: the next argument if it is a value (`default`),
  /// or whatever it is (`unconditional`, here `--threads`). `--name=` is `--name`; `-o=` is
  /// `-o` with an empty value.
  @Test func anOptionFindsItsValueAsTheParserFindsIt() {
    let split = PositionalArguments.split(
      [
        "--rejects", "-x.ndjson", "a.ndjson", "--threads", "-3", "--rejects=", "r.ndjson",
        "-o=", "b.ndjson", "--vendors=", "--stats", "c.ndjson", "-o", "-", "--vendors", "",
        "d.ndjson",
      ], valueOptions: Self.valueOptions.union(["--stats"]), unconditional: ["--threads"])
    #expect(
      split.options == [
        "--rejects", "-x.ndjson", "--threads", "-3", "--rejects=", "r.ndjson", "-o=",
        "--vendors=", "--stats", "c.ndjson", "-o", "-", "--vendors", "",
      ])
    #expect(split.positionals == ["a.ndjson", "b.ndjson", "d.ndjson"])
    #expect(PositionalArguments.isValue("-") && PositionalArguments.isValue(""))
    #expect(!PositionalArguments.isValue("--") && !PositionalArguments.isValue("-1"))
  }

  /// An option that lacks its value keeps its neighbour: taking a later repeat out from
  /// behind it would hand it a value the parser never gives it.
  @Test func theArgumentAfterAnOptionWithoutItsValueStays() {
    let extracted = PositionalArguments.extractRepeated(
      [
        "--directory", "a", "--rejects", "--directory", "b", "in.ndjson", "--directory", "c",
        "--line", "--directory", "--directory", "d",
      ], valueOptions: ["--directory", "--rejects", "--line"], unconditional: ["--line"],
      repeating: ["--directory"])
    // `--line` (unconditional) takes `--directory` as its value; the `d` after it is a repeat.
    #expect(
      extracted.arguments == [
        "--directory", "a", "--rejects", "--directory", "b", "in.ndjson", "--line",
        "--directory",
      ])
    #expect(extracted.values == ["--directory": ["c", "d"]])
  }

  @Test func repeatedValuesLeaveButTheFirstStaysInPlace() {
    let extracted = PositionalArguments.extractRepeated(
      [
        "explain", "--line", "3", "in.ndjson", "--line=5", "--vendors", "fcm", "--line", "-2",
        "--directory", "a.ndjson", "--directory=b.ndjson", "--directory", "c.ndjson", "--json",
      ], valueOptions: ["--line", "--vendors", "--directory"], unconditional: ["--line"],
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
      ["--directory", "a", "--directory", "-", "--directory", "", "--directory", "b"],
      valueOptions: ["--directory"], repeating: ["--directory"]
    ) { _, value in !value.isEmpty && value != "-" }
    #expect(extracted.arguments == ["--directory", "a", "--directory", "-", "--directory", ""])
    #expect(extracted.values == ["--directory": ["b"]])
    #expect(extracted.refused)
    let plain = PositionalArguments.extractRepeated(
      ["--directory", "a", "--directory", "b"], valueOptions: ["--directory"],
      repeating: ["--directory"])
    #expect(!plain.refused)
  }
}
