import Dispatch

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A unit of work the reader hands to the workers, in input order.
package enum WorkItem: Sendable {
  /// Whole lines of one source.
  case lines(any LineBatch)
  /// A line longer than `--max-line-bytes`, never buffered whole: its first `limit` bytes.
  case oversized(source: SourceName, line: Int, prefix: [UInt8], totalLength: Int)
  /// Whole lines whose boundaries and hashes are already found (`IndexedLines`).
  case indexed(IndexedLines)

  /// `.lines` as `.indexed`; any other item as it is.
  func indexed() -> WorkItem {
    if case .lines(let batch) = self { return .indexed(IndexedLines(batch)) }
    return self
  }
}

/// A batch of lines with each line's bounds, number and 64-bit FNV-1a hash (vivo `requestId`
/// without a key), hashed four lines at a time.
///
/// Where it is built depends on the cores (`Pipeline.init`): when the workers leave a core free
/// (`--threads 2` on four cores), the pipeline's reader thread, which otherwise waits on
/// `read(2)` most of the time, builds it, and the hashing (about 6 % of a nine-vendor run) is off
/// the workers' path. When every core runs a worker, each worker builds it for its own piece:
/// the CPU is the same, but on the reader the hashing of each chunk delayed the pieces behind
/// it, and two-thread nine-vendor runs took 3–4 % longer (BENCHMARKS.md, eighth pass). With
/// `--threads 1` the one thread builds it, piece by piece.
package final class IndexedLines: @unchecked Sendable {
  // Safe because the arrays are written only in `init`, before the object is shared, and the
  // line pointers point into `batch`, which this object keeps alive.
  /// The lines' batch, which owns their bytes.
  package let batch: any LineBatch
  let lines: [UnsafeBufferPointer<UInt8>]
  let numbers: [Int]
  let hashes: [UInt64]

  /// Finds the lines of `batch` and hashes them.
  package init(_ batch: any LineBatch) {
    self.batch = batch
    var lines: [UnsafeBufferPointer<UInt8>] = []
    var numbers: [Int] = []
    batch.forEachLine { line, number in
      lines.append(line)
      numbers.append(number)
    }
    var hashes = [UInt64](repeating: 0, count: lines.count)
    if !lines.isEmpty {
      // Safe because `hashes` has one slot per line and is not empty, so `baseAddress` is set.
      lines.withUnsafeBufferPointer { lines in
        hashes.withUnsafeMutableBufferPointer { FNV1a.hashes(lines, into: $0.baseAddress!) }
      }
    }
    self.lines = lines
    self.numbers = numbers
    self.hashes = hashes
  }
}

/// Whole lines of one source, in order (what `ChunkReader` produces).
package protocol LineBatch: Sendable {
  /// The source the lines come from.
  var source: SourceName { get }
  /// Calls `body(line, lineNumber)` for every line, without its terminator. The bytes stay
  /// valid for as long as the batch exists (`IndexedLines` keeps them past the call).
  func forEachLine(_ body: (UnsafeBufferPointer<UInt8>, Int) -> Void)
  /// The input bytes the batch covers, terminators included.
  var byteCount: Int { get }
}

/// Where ordered chunk outputs go: the stdout stream or the batch directory.
package protocol RecordSink: AnyObject {
  /// Consumes one chunk's output, in input order. Throws `SinkError` to stop the run.
  func consume(_ output: ChunkOutput) throws
  /// Called once after the last chunk (not after a fatal input error).
  func finish(stats: RunStats, seconds: Double, inputBytes: Int) throws
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

/// The result of a run, for the CLI to turn into a summary and an exit status.
package struct RunResult: Sendable {
  /// The run's counts, the directory's included.
  package var stats: RunStats
  /// Input bytes processed (lines plus terminators).
  package var inputBytes: Int
  /// Record and reject bytes the lines produced, framed and before any compression.
  package var outputBytes = 0
  /// Wall-clock seconds from the start of the run to the last chunk consumed.
  package var seconds: Double
  /// A fatal error (corrupt input, I/O), already phrased for people.
  package var fatal: String?
  /// True when stdout was closed early.
  package var closedOutput: Bool
}

/// The parallel, streaming, ordered pipeline (SPEC 7).
///
/// ```
///  reader (own queue) ──chunk i──► an idle worker (serial queues, one LineProcessor each)
///                                          │ ChunkOutput i
///  writer (calling thread) ◄── in order ───┘ results table (lock + condition)
/// ```
/// At most `inFlight` chunks exist between the reader and the writer (a semaphore), so memory
/// stays bounded whatever the input size. Workers never wait on each other; only the writer
/// knows about order. Output bytes do not depend on the number of workers or on chunk size,
/// because every record depends only on its own line.
package final class Pipeline: Sendable {
  // Everything one run shares between its threads (results, counts, cancellation) lives in
  // a `RunState` made by that run: a pipeline holds only its configuration, so it can run
  // again, even while another of its runs is in progress.

  private let threads: Int
  /// True when the workers leave a core for the reader, which then indexes and hashes the lines
  /// (`IndexedLines`).
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
  /// take about 0.16 of a second core (read(2) copies and vivo's line hashing). With more
  /// threads, the reader and the writer get their own threads around the workers.
  package func run(
    options: TranscodeOptions, directory: Directory, sink: RecordSink,
    initialStats: RunStats = RunStats(), progress: Progress? = nil,
    nextItem: @escaping @Sendable () throws -> WorkItem?
  ) -> RunResult {
    let start = DispatchTime.now()
    var writer = OrderedWriter(sink: sink, stats: initialStats, progress: progress)
    if threads == 1 {
      runInline(options: options, directory: directory, writer: &writer, nextItem: nextItem)
    } else {
      runParallel(options: options, directory: directory, writer: &writer, nextItem: nextItem)
    }
    let seconds = Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
    return writer.finish(seconds: seconds)
  }

  /// `run` on the calling thread alone.
  private func runInline(
    options: TranscodeOptions, directory: Directory, writer: inout OrderedWriter,
    nextItem: () throws -> WorkItem?
  ) {
    let worker = WorkerBox(
      queue: DispatchQueue(label: "push-transcode.worker.0"),
      processor: LineProcessor(options: options, directory: directory))
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
    options: TranscodeOptions, directory: Directory, writer: inout OrderedWriter,
    nextItem: @escaping @Sendable () throws -> WorkItem?
  ) {
    // Created at 0 and raised to the limit: libdispatch traps when a semaphore is freed with a
    // value below the one it was created with, which a cancelled run (`| head`) can leave
    // behind (the reader takes permits the writer never returns).
    let inFlight = DispatchSemaphore.permits(threads * 2 + 2)
    let workers = (0..<threads).map { index in
      WorkerBox(
        queue: DispatchQueue(label: "push-transcode.worker.\(index)"),
        processor: LineProcessor(options: options, directory: directory))
    }
    let idle = IdleWorkers(workers)
    let indexOnReader = readerHasACore && workers[0].wantsLineHashes
    let state = RunState()
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
        // The next idle worker, not a fixed rotation: a chunk of long lines on one worker must
        // not leave the other idle while the in-flight window is full.
        let worker = idle.take()
        let number = sequence
        worker.queue.async {
          let output = worker.process(item, sequence: number)
          idle.put(worker)
          state.deliver(output)
        }
        sequence += 1
      }
      state.finishProducing(count: sequence, fatal: nil)
    }

    var next = 0
    while true {
      let (output, readerError) = state.waitForOutput(next)
      guard let output else {
        if let readerError { writer.stopAfterInputError(readerError) }
        break
      }
      guard writer.consume(output) else {
        state.cancel()
        break
      }
      inFlight.signal()
      next += 1
    }
    if writer.stopped {
      // Let the reader and workers wind down: release every permit they may wait on.
      for _ in 0..<(threads * 2 + 2) { inFlight.signal() }
    }
  }

  static func describe(_ error: Error) -> String {
    if case SinkError.io(let message) = error { return message }
    return "\(error)"
  }
}

/// What the threads of one parallel run share: the outputs waiting for the writer, the number
/// of items the reader produced once it is done, its fatal error, and whether the writer
/// stopped the run. One per run, so a pipeline's second run starts from nothing.
final class RunState: @unchecked Sendable {
  // Safe because every property is only touched under `condition`'s lock.
  private let condition = Condition()
  private var results: [Int: ChunkOutput] = [:]
  private var producedCount: Int? = nil
  private var readerFatal: String? = nil
  private var cancelled = false

  /// Waits until output `sequence` is delivered or the reader is done without it; returns the
  /// output (nil when the reader produced fewer items) and the reader's fatal error, if any.
  func waitForOutput(_ sequence: Int) -> (ChunkOutput?, String?) {
    condition.lock()
    defer { condition.unlock() }
    while results[sequence] == nil && (producedCount == nil || sequence < producedCount!) {
      condition.wait()
    }
    return (results.removeValue(forKey: sequence), readerFatal)
  }

  var isCancelled: Bool {
    condition.lock()
    defer { condition.unlock() }
    return cancelled
  }

  func cancel() {
    condition.lock()
    cancelled = true
    condition.unlock()
  }

  func deliver(_ output: ChunkOutput) {
    condition.lock()
    results[output.sequence] = output
    condition.broadcast()
    condition.unlock()
  }

  func finishProducing(count: Int, fatal: String?) {
    condition.lock()
    producedCount = count
    readerFatal = fatal
    condition.broadcast()
    condition.unlock()
  }
}

/// The workers not processing a chunk; `take` waits for one.
final class IdleWorkers: @unchecked Sendable {
  // Safe because `workers` is only touched under `lock`; `available` counts its entries.
  private let lock = Lock()
  private var workers: [WorkerBox]
  private let available: DispatchSemaphore

  init(_ workers: [WorkerBox]) {
    self.workers = workers
    available = DispatchSemaphore.permits(workers.count)
  }

  /// An idle worker, waiting until one is.
  func take() -> WorkerBox {
    available.wait()
    lock.lock()
    defer { lock.unlock() }
    return workers.removeLast()
  }

  /// Gives a worker back once its chunk is done.
  func put(_ worker: WorkerBox) {
    lock.lock()
    workers.append(worker)
    lock.unlock()
    available.signal()
  }
}

/// The writer's side of a run: hands outputs to the sink in input order, adds up their stats,
/// and remembers why the run stopped early (a closed stdout, a fatal error).
struct OrderedWriter {
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
  mutating func consume(_ output: ChunkOutput) -> Bool {
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
      fatal = Pipeline.describe(error)
      return false
    }
    // The sink has written or copied the records: the buffer can serve another chunk.
    OutputBuffers.recycle(output.main)
    return true
  }

  /// Stops after a fatal input error, once every output before it is written.
  mutating func stopAfterInputError(_ message: String) {
    fatal = message
    do { try sink.finishAfterInputError() } catch SinkError.closedOutput {} catch {
      fatal! += "; " + Pipeline.describe(error)
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
        fatal = Pipeline.describe(error)
      }
    }
    return RunResult(
      stats: stats, inputBytes: inputBytes, outputBytes: outputBytes, seconds: seconds,
      fatal: fatal, closedOutput: closed)
  }
}

/// One worker: a serial queue and the line processor only that queue touches.
final class WorkerBox: @unchecked Sendable {
  // Safe because `processor` is only used from blocks running on `queue`, which is serial.
  let queue: DispatchQueue
  // Safe because only blocks on `queue` (serial) touch it, one at a time, after `run` reads
  // `wantsLineHashes` before dispatching any; dynamic exclusivity checks per line buy nothing.
  @exclusivity(unchecked) private var processor: LineProcessor

  init(queue: DispatchQueue, processor: LineProcessor) {
    self.queue = queue
    self.processor = processor
  }

  /// True when lines need their hashes (see `LineProcessor.wantsLineHashes`).
  var wantsLineHashes: Bool { processor.wantsLineHashes }

  func process(_ item: WorkItem, sequence: Int) -> ChunkOutput {
    switch item {
    case .lines(let batch):
      if processor.wantsLineHashes {
        // Every core runs a worker, so the reader left the hashing to the workers
        // (`IndexedLines`).
        return process(item.indexed(), sequence: sequence)
      }
      var output = ChunkOutput(
        sequence: sequence, source: batch.source,
        expectedBytes: processor.expectedOutputBytes(input: batch.byteCount))
      output.inputBytes = batch.byteCount
      batch.forEachLine { line, number in
        processor.process(line: line, number: number, into: &output)
      }
      return output
    case .indexed(let indexed):
      var output = ChunkOutput(
        sequence: sequence, source: indexed.batch.source,
        expectedBytes: processor.expectedOutputBytes(input: indexed.batch.byteCount))
      output.inputBytes = indexed.batch.byteCount
      for index in indexed.lines.indices {
        processor.process(
          line: indexed.lines[index], number: indexed.numbers[index],
          lineHash: indexed.hashes[index], into: &output)
      }
      return output
    case .oversized(let source, let line, let prefix, let totalLength):
      var output = ChunkOutput(sequence: sequence, source: source)
      output.inputBytes = totalLength + 1
      prefix.withUnsafeBufferPointer {
        processor.processOversized(
          prefix: $0, totalLength: totalLength, number: line, into: &output)
      }
      return output
    }
  }
}

extension DispatchSemaphore {
  /// A semaphore holding `count` permits that may be freed whatever permits are still taken:
  /// created at 0 (libdispatch checks the value at free against the creation value) and
  /// signalled `count` times.
  package static func permits(_ count: Int) -> DispatchSemaphore {
    let semaphore = DispatchSemaphore(value: 0)
    for _ in 0..<count { semaphore.signal() }
    return semaphore
  }
}
