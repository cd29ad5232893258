/// Where ordered chunk outputs go: the stdout stream or the batch directory.
package protocol RecordSink: AnyObject {
  /// Consumes one chunk's output, in input order. Throws `SinkError` to stop the run.
  func consume(_ output: borrowing ChunkOutput) throws
  /// Called once after the last chunk (not after a fatal input error or a failed output, which
  /// stop the run first). `beforeCommit` runs once
  /// every record is written and before the run is declared complete (`manifest.json` in batch
  /// mode): the files that describe the run (`--stats`, `--report`) are written there, so that
  /// failing to write them leaves the run visibly incomplete, as its status 1 says. `elapsed`
  /// gives the run's wall-clock seconds so far, for a sink that records the run's time.
  func finish(
    stats: RunStats, elapsed: () -> Double, inputBytes: Int, beforeCommit: () throws -> Void
  ) throws
  /// Called instead of `finish` after a fatal input error, once the output of every line before
  /// it is consumed: make that output usable without declaring the run complete.
  func finishAfterInputError() throws
}

extension RecordSink {
  /// Nothing to do by default: an incomplete run stays visibly incomplete.
  package func finishAfterInputError() throws {}
}

/// Why a sink stopped.
package enum SinkError: Error {
  /// The reader of stdout went away (`| head`): stop quietly with status 0 (SPEC 6.3).
  case closedOutput
  /// An I/O error writing the output: a fatal error (status 1).
  case io(String)
}

extension SinkError {
  /// `error` phrased for people: an I/O error's own message, any other error as it prints.
  package static func describe(_ error: Error) -> String {
    if case SinkError.io(let message) = error { return message }
    return "\(error)"
  }
}
