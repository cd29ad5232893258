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
    let colour = !json && isatty(1) == 1 && getenv("NO_COLOR") == nil
    var output = ExplanationOutput(json: json)
    do {
      try LineExplainer.explain(
        input: input, lines: line, options: options, directories: records.directory
      ) { explanation in
        output.write(
          json ? ExplainFormat.json(explanation) : ExplainFormat.text(explanation, colour: colour))
      }
    } catch {
      // What was printed stays (a JSON array is closed after it); the fault follows on stderr.
      try output.finish()
      if error.isUsage { throw ValidationError(error.description) }
      // Worded as `transcode` words a fatal error (`push-transcode: error: ...`).
      FileDescriptorWriter.writeAll(
        2, Array("push-transcode: error: \(error.description)\n".utf8))
      throw ExitCode(1)
    }
    try output.finish()
  }
}

/// Explanations printed to stdout one at a time, as `LineExplainer` delivers them: text
/// separated by a blank line, or the elements of one JSON array.
///
/// A closed pipe (`| head`) ends quietly, as `transcode` does (SPEC 6.3); any other failure (a
/// full disk) is an I/O error, not a success with a cut explanation.
struct ExplanationOutput {
  /// JSON array elements instead of text.
  let json: Bool
  /// Explanations written so far.
  private var count = 0
  /// The `errno` of a failed write; nothing more is written after one.
  private var failure: Int32?

  init(json: Bool) { self.json = json }

  /// Writes one formatted explanation; false once stdout has failed or closed (stop explaining).
  mutating func write(_ formatted: String) -> Bool {
    let separator = count == 0 ? (json ? "[" : "") : (json ? "," : "\n")
    count += 1
    return emit(separator + formatted)
  }

  /// Ends the output (closes the JSON array when one was opened), then reports a failed write:
  /// exit 1 with the reason, or nothing for a closed pipe.
  mutating func finish() throws {
    if json && count > 0 { _ = emit("]\n") }
    guard let failure, failure != EPIPE else { return }
    FileDescriptorWriter.writeAll(
      2,
      Array("push-transcode: error: cannot write to stdout: \(Errno(rawValue: failure))\n".utf8))
    throw ExitCode(1)
  }

  private mutating func emit(_ text: String) -> Bool {
    guard failure == nil else { return false }
    failure = FileDescriptorWriter.writeAll(1, Array(text.utf8))
    return failure == nil
  }
}
