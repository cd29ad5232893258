/// The writer's side of a run: hands outputs to the sink in input order, adds up their stats,
/// and remembers why the run stopped early (a closed stdout, a fatal error).
struct SinkFeeder {
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

  /// Writes the next output in order; false when the run must stop.
  mutating func consume(_ output: consuming ChunkOutput) -> Bool {
    stats.merge(output.stats)
    inputBytes += output.inputBytes
    outputBytes += output.main.count + output.rejects.count
    progress?.update(bytes: inputBytes, lines: stats.lines)
    do {
      try sink.consume(output)
    } catch SinkError.closedOutput {
      closed = true
      return false
    } catch {
      fatal = SinkError.describe(error)
      return false
    }
    // The sink has written or copied the records: the buffer can serve another chunk.
    output.recycle()
    return true
  }

  /// Stops after a fatal input error, once every output before it is written.
  mutating func stopAfterInputError(_ message: String) {
    fatal = message
    do { try sink.finishAfterInputError() } catch SinkError.closedOutput {} catch {
      fatal! += "; " + SinkError.describe(error)
    }
  }

  /// Finishes the sink unless the run stopped early, and returns the run's result.
  mutating func finish(seconds: Double) -> RunResult {
    progress?.finish()
    if !stopped {
      do {
        try sink.finish(stats: stats, seconds: seconds, inputBytes: inputBytes)
      } catch SinkError.closedOutput {
        closed = true
      } catch {
        fatal = SinkError.describe(error)
      }
    }
    return RunResult(
      stats: stats, inputBytes: inputBytes, outputBytes: outputBytes, seconds: seconds,
      fatal: fatal, closedOutput: closed)
  }
}
