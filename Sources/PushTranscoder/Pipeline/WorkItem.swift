/// A unit of work the reader hands to the workers, in input order.
package enum WorkItem: Sendable {
  /// Whole lines of one source.
  case lines(any LineBatch)
  /// A line longer than `--max-line-bytes`, never buffered whole: its first `limit` bytes.
  case oversized(source: SourceName, line: Int, prefix: [UInt8], totalLength: Int)
  /// Whole lines whose boundaries and hashes are already found (`IndexedLineBatch`).
  case indexed(IndexedLineBatch)

  /// `.lines` as `.indexed`; any other item as it is.
  func indexed() -> WorkItem {
    if case .lines(let batch) = self { return .indexed(IndexedLineBatch(batch)) }
    return self
  }
}

/// A batch of lines with each line's bounds, number and 64-bit FNV-1a hash (for the vendors
/// that read it, `PushVendor.hashesLines`), hashed four lines at a time.
///
/// Built only when the workers leave a core free (`--threads 2` on four cores; `Pipeline.init`):
/// the pipeline's reader thread, which otherwise waits on `read(2)` most of the time, builds it,
/// and the hashing is off the workers' path. When every core runs a worker (and with
/// `--threads 1`), each worker hashes its own batch's lines a window at a time as it processes
/// them (`LineWindow`): the CPU is the same, hashing on the reader would delay the batches behind
/// each chunk, and a window takes fixed memory where this index takes 32 bytes a line.
package final class IndexedLineBatch: @unchecked Sendable {
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
  /// valid for as long as the batch exists (`IndexedLineBatch` keeps them past the call).
  func forEachLine(_ body: (UnsafeBufferPointer<UInt8>, Int) -> Void)
  /// The input bytes the batch covers, terminators included.
  var byteCount: Int { get }
}
