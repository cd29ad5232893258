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

  func process(_ item: WorkItem, sequence: Int) -> ChunkOutput {
    switch item {
    case .lines(let batch):
      if processor.wantsLineHashes {
        // Every core runs a worker, so the reader left the hashing to the workers
        // (`IndexedLineBatch`).
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
