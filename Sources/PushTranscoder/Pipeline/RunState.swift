import Dispatch

/// What the threads of one parallel run share: the outputs waiting for the writer, the number
/// of items the reader produced once it is done, its fatal error, and whether the writer
/// stopped the run. One per run, so a pipeline's second run starts from nothing.
final class RunState: @unchecked Sendable {
  // Safe because every property is only touched under `condition`'s lock.
  private let condition = Condition()
  private var results: [Int: DeliveredOutput] = [:]
  private var producedCount: Int? = nil
  private var readerFatal: String? = nil
  private var cancelled = false

  /// One delivered output, waiting in `results` (which, as a dictionary, holds only copyable
  /// values) for the writer: the box is its one owner until the writer takes it out.
  private final class DeliveredOutput {
    var output: ChunkOutput?
    init(_ output: consuming ChunkOutput) { self.output = .some(output) }
  }

  /// Waits until output `sequence` is delivered or the reader is done without it; returns the
  /// output, or nil when the reader produced fewer items (then `readerError` tells why, if it
  /// failed).
  func waitForOutput(_ sequence: Int) -> ChunkOutput? {
    condition.lock()
    defer { condition.unlock() }
    while results[sequence] == nil && (producedCount == nil || sequence < producedCount!) {
      condition.wait()
    }
    return results.removeValue(forKey: sequence)?.output.take() ?? nil
  }

  /// The reader's fatal error, once it has stopped on one.
  var readerError: String? {
    condition.lock()
    defer { condition.unlock() }
    return readerFatal
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

  func deliver(_ output: consuming ChunkOutput) {
    condition.lock()
    results[output.sequence] = DeliveredOutput(output)
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
  private var workers: [Worker]
  private let available: DispatchSemaphore

  init(_ workers: [Worker]) {
    self.workers = workers
    available = DispatchSemaphore.permits(workers.count)
  }

  /// An idle worker, waiting until one is.
  func take() -> Worker {
    available.wait()
    lock.lock()
    defer { lock.unlock() }
    return workers.removeLast()
  }

  /// Gives a worker back once its chunk is done.
  func put(_ worker: Worker) {
    lock.lock()
    workers.append(worker)
    lock.unlock()
    available.signal()
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
