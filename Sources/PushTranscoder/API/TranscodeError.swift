/// Why the library refused a request or a run stopped: what went wrong, phrased for people.
///
/// Per-line problems are never errors: a bad line becomes a reject record (`TranscodedRecord`)
/// and the run goes on. An error is a request the library cannot carry out (an option out of
/// range) or a fatal fault of a run (I/O, a corrupt compressed input, an existing output
/// directory), which the command reports with exit status 64 or 1.
public enum TranscodeError: Error, Sendable, Equatable, CustomStringConvertible {
  /// An option is out of range or inconsistent; the command would exit with status 64.
  case invalidOption(String)
  /// A run stopped on a fatal fault; the command would exit with status 1.
  case fatal(String)

  /// The message, as the command prints it after `push-transcode: `.
  public var description: String {
    switch self {
    case .invalidOption(let message): message
    case .fatal(let message): "error: " + message
    }
  }
}
