import Dispatch

/// The result of a run, for the CLI to turn into a summary and an exit status.
package struct RunResult: Sendable {
  /// The run's counts, the directory's included.
  package var stats: RunStats
  /// Input bytes processed (lines plus terminators).
  package var inputBytes: Int
  /// Record and reject bytes the lines produced, framed and before any compression.
  package var outputBytes = 0
  /// Wall-clock seconds from the start of the run until its output is complete (the sink's
  /// finish included: a batch run's last flushes and manifest). The manifest's own `timing` and
  /// the `--report` page's, written during the finish, count up to their writing.
  package var seconds: Double
  /// A fatal error (corrupt input, I/O), already phrased for people.
  package var fatal: String?
  /// True when stdout was closed early.
  package var closedOutput: Bool
}

/// The parallel, streaming, ordered pipeline (SPEC 7).
///
/// ```
///  reader (own queue) ──item i──► WorkQueue ──► next idle worker (serial queue, LineProcessor)
///                                                        │ ChunkOutput i
///  writer (calling thread) ◄──────── in order ───────────┘ results table (lock + condition)
/// ```
/// At most `inFlight` work items exist between the reader and the writer (a semaphore), so memory
/// stays bounded whatever the input size; a chunk whose records pass `options.segmentBytes`
/// (one message to many recipients) reaches the writer in segments (`OutputSegments`), so
/// memory stays bounded whatever a line makes. Workers never wait on each other; only the writer
/// knows about order. Output bytes do not depend on the number of workers or on chunk size,
/// because every record depends only on its own line.
package final class Pipeline: Sendable {
  // Everything one run shares between its threads (results, counts, cancellation) lives in
  // a `RunState` made by that run: a pipeline holds only its configuration, so it can run
  // again, even while another of its runs is in progress.

  private let threads: Int
  /// True when the workers leave a core for the reader, which then indexes and hashes the lines
  /// (`IndexedLineBatch`).
  private let readerHasACore: Bool

  /// A pipeline of `threads` workers on a machine of `cores` cores.
  package init(threads: Int, cores: Int = RunConfiguration.defaultThreads) {
    self.threads = max(1, threads)
    self.readerHasACore = self.threads < cores
  }

  /// Runs `nextItem` (the reader) to exhaustion, processes items on the workers and feeds the
  /// outputs in order to `sink`.
  ///
  /// With one thread (`--threads 1`) everything runs on the calling thread, item after item:
  /// reading, hashing, rendering and writing share one core, which is what a user asking for
  /// one thread (a Spark task per core, many runs side by side) wants. A reader thread would
  /// take about 0.16 of a second core (read(2) copies and line hashing). With more
  /// threads, the reader and the writer get their own threads around the workers.
  package func run(
    options: TranscodeOptions, directory: NameDirectory, sink: RecordSink,
    initialStats: RunStats = RunStats(), progress: Progress? = nil,
    beforeCommit: (RunResult) throws -> Void = { _ in },
    nextItem: @escaping @Sendable () throws -> WorkItem?
  ) -> RunResult {
    let start = DispatchTime.now()
    let writer = SinkFeeder(sink: sink, stats: initialStats, progress: progress)
    if threads == 1 {
      runInline(options: options, directory: directory, writer: writer, nextItem: nextItem)
    } else {
      runParallel(options: options, directory: directory, writer: writer, nextItem: nextItem)
    }
    func elapsed() -> Double {
      Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
    }
    var result = writer.finish(elapsed: elapsed, beforeCommit: beforeCommit)
    result.seconds = elapsed()
    return result
  }

  /// `run` on the calling thread alone.
  private func runInline(
    options: TranscodeOptions, directory: NameDirectory, writer: SinkFeeder,
    nextItem: () throws -> WorkItem?
  ) {
    let worker = Worker(
      queue: DispatchQueue(label: "push-transcode.worker.0"),
      processor: LineProcessor(
        options: options, directory: directory, segments: InlineSegments(writer: writer)))
    var sequence = 0
    while true {
      let item: WorkItem?
      do {
        item = try nextItem()
      } catch {
        writer.stopAfterInputError("\(error)")
        return
      }
      guard let item else { return }
      let output = worker.process(item, sequence: sequence)
      sequence += 1
      guard writer.consume(output) else { return }
    }
  }

  /// `run` with a reader thread, `threads` workers and the calling thread as the writer.
  private func runParallel(
    options: TranscodeOptions, directory: NameDirectory, writer: SinkFeeder,
    nextItem: @escaping @Sendable () throws -> WorkItem?
  ) {
    // Created at 0 and raised to the limit: libdispatch traps when a semaphore is freed with a
    // value below the one it was created with, which a cancelled run (`| head`) can leave
    // behind (the reader takes permits the writer never returns).
    // One work item per worker and two waiting: both cores stay busy, and each item's records
    // (up to four times its input with nine vendors) are resident only while it is in flight.
    let inFlight = DispatchSemaphore.permits(threads + 2)
    let state = RunState()
    let workers = (0..<threads).map { index in
      Worker(
        queue: DispatchQueue(label: "push-transcode.worker.\(index)"),
        processor: LineProcessor(options: options, directory: directory, segments: state))
    }
    let queue = WorkQueue(workers, state: state)
    let indexOnReader = readerHasACore && workers[0].wantsLineHashes
    DispatchQueue(label: "push-transcode.reader").async {
      var sequence = 0
      while true {
        if state.isCancelled { break }
        let next: WorkItem?
        do {
          next = try nextItem()
        } catch {
          state.finishProducing(count: sequence, fatal: "\(error)")
          return
        }
        guard let next else { break }
        let item = indexOnReader ? next.indexed() : next
        inFlight.wait()
        // The next worker to be idle, not a fixed rotation: a chunk of long lines on one worker
        // must not leave the other idle while the in-flight window is full.
        queue.submit(item, sequence: sequence)
        sequence += 1
      }
      state.finishProducing(count: sequence, fatal: nil)
    }

    var next = 0
    while true {
      guard let output = state.waitForOutput(next) else {
        if let readerError = state.readerError { writer.stopAfterInputError(readerError) }
        break
      }
      let isSegment = output.isSegment
      guard writer.consume(output) else {
        state.cancel()
        break
      }
      // A segment: the rest of the same chunk follows.
      if isSegment { continue }
      inFlight.signal()
      next += 1
    }
    if writer.stopped {
      // Let the reader and workers wind down: release every permit they may wait on.
      for _ in 0..<(threads + 2) { inFlight.signal() }
    }
  }
}
