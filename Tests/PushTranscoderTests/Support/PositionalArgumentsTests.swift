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
}
