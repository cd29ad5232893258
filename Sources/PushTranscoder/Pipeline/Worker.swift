import Dispatch

/// One worker: a serial queue and the line processor only that queue touches.
final class Worker: @unchecked Sendable {
  // Safe because `processor` is only used from blocks running on `queue`, which is serial.
  let queue: DispatchQueue
  // Safe because only blocks on `queue` (serial) touch it, one at a time, after `run` reads
  // `wantsLineHashes` before dispatching any; dynamic exclusivity checks per line buy nothing.
  @exclusivity(unchecked) private var processor: LineProcessor

  init(queue: DispatchQueue, processor: consuming LineProcessor) {
    self.queue = queue
    self.processor = processor
  }

  /// True when lines need their hashes (see `LineProcessor.wantsLineHashes`).
  var wantsLineHashes: Bool { processor.wantsLineHashes }

  // Safe because only blocks on `queue` (serial) touch it, like `processor`.
  /// The lines of a batch waiting to be hashed and processed.
  @exclusivity(unchecked) private var window = LineWindow()

  /// Whether the next window's lines are hashed ahead, four side by side (see `processWindow`).
  package private(set) var hashesLinesAhead = true

  /// Processes the lines in `window` in order, and empties it. Only a message without a key
  /// reads its line's hash (vivo `requestId`, SPEC 9 [4]): lines are hashed ahead, four side by
  /// side, while at least a quarter of the previous window's lines were keyless; otherwise a
  /// keyless line's notice hashes its line alone when vivo asks (`Notice.lineHash`), which costs
  /// about four times as much a byte but is rare then. Keyed exports (Easemob's always carry
  /// `msg_id`) thus skip a hash that costs about a tenth of a nine-vendor run, and a keyless
  /// log is hashed as before. Both ways give the same hashes, so the output does not depend on
  /// which was taken.
  private func processWindow(into output: inout ChunkOutput) {
    guard window.count > 0 else { return }
    let keylessBefore = processor.keylessNotices
    if hashesLinesAhead {
      window.hash()
      for index in 0..<window.count {
        processor.process(
          line: window.lines[index], number: window.numbers[index],
          lineHash: window.hashes[index], into: &output)
      }
    } else {
      for index in 0..<window.count {
        processor.process(line: window.lines[index], number: window.numbers[index], into: &output)
      }
    }
    // Safe because the window's keyless notices are at most its 128 lines: no wrap.
    hashesLinesAhead = (processor.keylessNotices &- keylessBefore) &* 4 >= window.count
    window.count = 0
  }

  func process(_ item: WorkItem, sequence: Int) -> ChunkOutput {
    switch item {
    case .lines(let batch):
      var output = ChunkOutput(
        sequence: sequence, source: batch.source,
        expectedBytes: processor.expectedOutputBytes(input: batch.byteCount))
      output.inputBytes = batch.byteCount
      if processor.wantsLineHashes {
        // Every core runs a worker, so the reader left the hashing to the workers: a window of
        // lines at a time, hashed side by side, then processed.
        batch.forEachLine { line, number in
          if window.add(line, number) { processWindow(into: &output) }
        }
        processWindow(into: &output)
      } else {
        batch.forEachLine { line, number in
          processor.process(line: line, number: number, into: &output)
        }
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

/// Up to `capacity` lines of a batch with their numbers, hashed together (`FNV1a.hashes` keeps
/// four lanes busy across a window's lines): memory of a fixed size per worker, where indexing a
/// whole batch first (`IndexedLineBatch`) took 32 bytes a line, allocated per batch (a batch of
/// blank lines spent its time in page faults).
struct LineWindow {
  static let capacity = 128
  var lines = [UnsafeBufferPointer<UInt8>](
    repeating: UnsafeBufferPointer(start: nil, count: 0), count: capacity)
  var numbers = [Int](repeating: 0, count: capacity)
  var hashes = [UInt64](repeating: 0, count: capacity)
  var count = 0

  /// Adds a line; true when the window is full.
  mutating func add(_ line: UnsafeBufferPointer<UInt8>, _ number: Int) -> Bool {
    lines[count] = line
    numbers[count] = number
    count += 1
    return count == Self.capacity
  }

  /// Hashes the window's lines into `hashes`.
  mutating func hash() {
    guard count > 0 else { return }
    // Safe because `hashes` has `capacity` slots, at least `count`, and the buffers live for the
    // call.
    lines.withUnsafeBufferPointer { lines in
      hashes.withUnsafeMutableBufferPointer {
        FNV1a.hashes(UnsafeBufferPointer(rebasing: lines[..<count]), into: $0.baseAddress!)
      }
    }
  }
}
