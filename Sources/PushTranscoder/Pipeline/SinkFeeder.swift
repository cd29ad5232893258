/// The writer's side of a run: hands outputs to the sink in input order, adds up their stats,
/// and remembers why the run stopped early (a closed stdout, a fatal error). A class: with one
/// thread, the worker hands it a chunk's segments itself (`InlineSegments`).
final class SinkFeeder {
  let sink: RecordSink
  var stats: RunStats
  let progress: Progress?
  var inputBytes = 0
  var outputBytes = 0
  var fatal: String? = nil
  var closed = false

  init(sink: RecordSink, stats: RunStats, progress: Progress?) {
    self.sink = sink
    self.stats = stats
    self.progress = progress
  }

  /// True once the run must stop: stdout closed or a fatal error.
  var stopped: Bool { fatal != nil || closed }

  /// Writes the next output in order (a segment, or a chunk's last output) and counts it; false
  /// when the run must stop. Once the run has stopped, outputs are dropped without reaching the
  /// sink: a sink that failed on one output and took the next would leave a hole in the output.
  /// An output the sink failed on is not counted in the run's stats.
  func consume(_ output: consuming ChunkOutput) -> Bool {
    guard !stopped else { return false }
    do {
      try sink.consume(output)
    } catch SinkError.closedOutput {
      closed = true
      return false
    } catch {
      fatal = SinkError.describe(error)
      return false
    }
    stats.merge(output.stats)
    inputBytes += output.inputBytes
    outputBytes += output.main.count + output.rejects.count
    progress?.update(bytes: inputBytes, lines: stats.lines)
    // The sink has written or copied the records: the buffer can serve another chunk.
    output.recycle()
    return true
  }

  /// Stops after a fatal input error, once every output before it is written.
  func stopAfterInputError(_ message: String) {
    fatal = message
    do { try sink.finishAfterInputError() } catch SinkError.closedOutput {} catch {
      fatal! += "; " + SinkError.describe(error)
    }
  }

  /// Finishes the sink unless the run stopped early, and returns the run's result.
  /// `beforeCommit` gets the complete run's result before the sink declares it complete, its
  /// time read then (`elapsed`: the run's seconds so far).
  func finish(elapsed: () -> Double, beforeCommit: (RunResult) throws -> Void) -> RunResult {
    progress?.finish()
    var result = RunResult(
      stats: stats, inputBytes: inputBytes, outputBytes: outputBytes, seconds: elapsed(),
      fatal: fatal, closedOutput: closed)
    if !stopped {
      do {
        try sink.finish(stats: stats, elapsed: elapsed, inputBytes: inputBytes) {
          var complete = result
          complete.seconds = elapsed()
          try beforeCommit(complete)
        }
      } catch SinkError.closedOutput {
        result.closedOutput = true
      } catch {
        result.fatal = SinkError.describe(error)
      }
    }
    return result
  }
}

/// `OutputSegments` for a run on one thread: the worker runs on the writer's thread, so a
/// segment is written at once. After the run has stopped (stdout closed, an I/O error), segments
/// are dropped.
final class InlineSegments: OutputSegments, @unchecked Sendable {
  // Safe because the run that makes it uses it on its one thread only.
  private let writer: SinkFeeder

  init(writer: SinkFeeder) { self.writer = writer }

  func deliver(_ segment: consuming ChunkOutput) {
    _ = writer.consume(segment)
  }
}
