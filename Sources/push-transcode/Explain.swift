import ArgumentParser
import Glibc
import PushTranscoder
import SystemPackage

/// `explain`: what one line became and why, with the records `transcode` writes for it.
struct Explain: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "explain",
    abstract: "Explain what one input line becomes: outcome, notice, each vendor, records.")

  @Argument(help: "The input file (NDJSON, gzip or LZ4 detected by content), or '-' for stdin.")
  var input: String

  @Option(parsing: .unconditionalSingleValue, help: "The line to explain (1-based); repeatable.")
  var line: [Int] = []

  @Flag(help: "Print JSON for a program instead of text for a person.")
  var json = false

  @OptionGroup var records: RecordOptions

  @Option(help: "Invalid UTF-8 and lone surrogates: strict (reject) or replace (U+FFFD).")
  var unicode: UnicodeMode = .strict

  @Option(
    parsing: .unconditional, help: "Reject lines longer than this many bytes (line-too-long).")
  var maxLineBytes: Int = 16 * 1024 * 1024

  func validate() throws {
    guard !line.isEmpty else { throw ValidationError("explain needs --line N") }
    if let bad = line.first(where: { $0 < 1 }) {
      throw ValidationError("--line must be at least 1 (got \(bad))")
    }
    guard maxLineBytes >= 1 else { throw ValidationError("--max-line-bytes must be at least 1") }
  }

  func run() throws {
    var options = TranscodeOptions()
    try records.apply(to: &options)
    options.unicode = unicode
    options.maxLineBytes = maxLineBytes
    let explanations: [LineExplanation]
    do {
      explanations = try LineExplainer.explain(
        input: input, lines: line, options: options, directories: records.directory)
    } catch {
      if error.isUsage { throw ValidationError(error.description) }
      // Worded as `transcode` words a fatal error (`push-transcode: error: ...`).
      FileDescriptorWriter.writeAll(
        2, Array("push-transcode: error: \(error.description)\n".utf8))
      throw ExitCode(1)
    }
    let colour = !json && isatty(1) == 1 && getenv("NO_COLOR") == nil
    var text = ""
    if json {
      text = "[" + explanations.map(ExplainFormat.json).joined(separator: ",") + "]\n"
    } else {
      text = explanations.map { ExplainFormat.text($0, colour: colour) }.joined(separator: "\n")
    }
    // A closed pipe (`| head`) ends quietly, as `transcode` does (SPEC 6.3); any other failure
    // (a full disk) is an I/O error, not a success with a cut explanation.
    if let failure = FileDescriptorWriter.writeAll(1, Array(text.utf8)), failure != EPIPE {
      FileDescriptorWriter.writeAll(
        2,
        Array("push-transcode: error: cannot write to stdout: \(Errno(rawValue: failure))\n".utf8))
      throw ExitCode(1)
    }
  }
}
