import Dispatch

/// What the threads of one parallel run share: the outputs waiting for the writer, the number
/// of items the reader produced once it is done, its fatal error, and whether the writer
/// stopped the run. One per run, so a pipeline's second run starts from nothing. It is the
/// workers' `OutputSegments`: a segment waits in the same table as a chunk's last output (a
/// worker delivers a chunk's outputs one after the other, each once the writer took the one
/// before).
final class RunState: OutputSegments, @unchecked Sendable {
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
    guard let delivered = results.removeValue(forKey: sequence) else { return nil }
    // A worker waits for its segment to be taken.
    condition.broadcast()
    return delivered.output.take()
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
    // A worker waiting for the writer to take its segment stops waiting.
    condition.broadcast()
    condition.unlock()
  }

  /// Hands a chunk's output to the writer: a segment (`OutputSegments`), once the writer has
  /// taken it or the run has stopped; a chunk's last output at once.
  func deliver(_ output: consuming ChunkOutput) {
    let segment = output.isSegment
    let sequence = output.sequence
    condition.lock()
    defer { condition.unlock() }
    results[sequence] = DeliveredOutput(output)
    condition.broadcast()
    guard segment else { return }
    // A segment: wait until the writer takes it (or the run stops, which drops it), so a worker
    // holds one segment at most.
    while results[sequence] != nil && !cancelled { condition.wait() }
    results[sequence] = nil
  }

  func finishProducing(count: Int, fatal: String?) {
    condition.lock()
    producedCount = count
    readerFatal = fatal
    condition.broadcast()
    condition.unlock()
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
