/// One payload record's place in a `ChunkOutput` (batch mode routes records per vendor with
/// these; rejects never appear here: in batch mode they go to `ChunkOutput.rejects`).
package struct RecordRef: Sendable {
  /// One past the record's last byte (its newline) in `ChunkOutput.main`.
  package var end: Int
  /// The record's source line (a file may hold more than 2^32 lines).
  package var line: Int
  /// `VendorID.rawValue`.
  package var vendor: UInt8
}

/// Everything a worker produced from one chunk: rendered records in input order, then vendor
/// order, plus the chunk's stats. A value that is moved, not copied (it owns its writers): the
/// worker fills it through `inout` (no class, so no dynamic exclusivity checks on the hot
/// path), then moves it to the writer.
package struct ChunkOutput: ~Copyable, Sendable {
  /// The sequence number of the chunk (the writer's order).
  package let sequence: Int
  /// The source the chunk's lines come from.
  package let source: SourceName
  /// Records (framed as the run asks), and inline rejects when `rejectsInline`. No default
  /// value: a default would take a pooled buffer in every initializer, and the sized one would
  /// then drop it (freeing its pages) for a second, so the pool never saved a page fault.
  package var main: JSONWriter
  /// Reject records when they go to their own channel (NDJSON, one per line).
  package var rejects = JSONWriter(capacity: 0)
  /// Per-record vendor and end offset in `main` (batch mode only).
  package var refs: [RecordRef] = []
  /// The counts of the chunk's lines, merged into the run's by the writer.
  package var stats = RunStats()
  /// Input bytes the chunk covered (lines plus terminators), for progress and throughput.
  package var inputBytes = 0
  /// True for a segment (`takeSegment()`): records of the chunk so far, which the rest of the
  /// chunk follows under the same sequence number. Its stats and input bytes are zero: they
  /// travel with the chunk's last output.
  package private(set) var isSegment = false

  /// An output whose record buffer is any free pooled one.
  package init(sequence: Int, source: SourceName) {
    self.sequence = sequence
    self.source = source
    self.main = OutputBuffers.take()
  }

  /// An output whose record buffer has room for about `expectedBytes` (no growth, and so no
  /// copy and no fresh pages, when the estimate holds).
  package init(sequence: Int, source: SourceName, expectedBytes: Int) {
    self.sequence = sequence
    self.source = source
    self.main = OutputBuffers.take(minimumCapacity: expectedBytes)
  }
}

extension ChunkOutput {
  /// Ends the output and gives its record buffer back to the pool, once nobody reads its
  /// records any more (the sink has written or copied them).
  package consuming func recycle() { OutputBuffers.recycle(main) }

  /// The records and rejects written so far, as a segment for the writer (`OutputSegments`);
  /// this output goes on with empty buffers of the same sizes, and keeps the stats.
  package mutating func takeSegment() -> ChunkOutput {
    var segment = ChunkOutput(
      sequence: sequence, source: source, expectedBytes: main.buffer.count)
    segment.isSegment = true
    swap(&segment.main, &main)
    swap(&segment.rejects, &rejects)
    swap(&segment.refs, &refs)
    refs.reserveCapacity(segment.refs.count)
    return segment
  }

  /// Hands the records and rejects written so far to `segments` once either passes `bytes`
  /// (`TranscodeOptions.segmentBytes`). Called only where nothing written before can be taken
  /// back: after a line's reject, or after a vendor's. Sizes first: binding `segments` would
  /// retain it at every call.
  mutating func handOverSegment(past bytes: Int, to segments: (any OutputSegments)?) {
    if main.count >= bytes || rejects.count >= bytes, let segments {
      segments.deliver(takeSegment())
    }
  }
}

/// Recycled `ChunkOutput.main` buffers: the writer returns each chunk's buffer once the sink has
/// consumed it, so a run allocates (and page-faults in) only as many megabyte buffers as it has
/// chunks in flight, instead of one per chunk.
package enum OutputBuffers {
  /// More than the pipeline keeps in flight (`threads + 2`) on the machines we target.
  private static let pool = WriterPool(limit: 24, smallest: 1 << 20)

  /// A buffer with nothing written, recycled when one is free.
  package static func take() -> JSONWriter { pool.take() }

  /// A buffer with room for `minimumCapacity` bytes, recycled when one that large is free. A
  /// buffer too small for the chunk would grow by doubling: each step a fresh allocation
  /// (zeroed pages) and a copy.
  package static func take(minimumCapacity: Int) -> JSONWriter {
    pool.take(minimumCapacity: minimumCapacity)
  }

  /// The power of two at or above `minimumCapacity`, and at least 1 MiB.
  static func roundedCapacity(_ minimumCapacity: Int) -> Int {
    pool.roundedCapacity(minimumCapacity)
  }

  /// Gives back a buffer that nobody reads any more.
  package static func recycle(_ writer: consuming JSONWriter) { pool.recycle(writer) }
}

/// A pool of free writer buffers (chunk record buffers, batch contents, compressed batch
/// files), handed out as empty writers.
///
/// Capacities are rounded up to a power of two: the buffers asked for differ by a few bytes
/// (chunks cut at line boundaries, batches of whole records), and a buffer sized exactly for
/// one would often be just too small for the next, filling the pool with near misses while every
/// request faulted in fresh pages. Address space is cheap; only the pages written are backed.
final class WriterPool: Sendable {
  private let pool: BufferPool<WriterBuffer>
  /// The smallest capacity handed out.
  private let smallest: Int

  init(limit: Int, smallest: Int) {
    pool = BufferPool(limit: limit)
    self.smallest = smallest
  }

  /// The number of free buffers kept.
  var count: Int { pool.count }

  /// A writer over any free buffer, or a new one of the smallest capacity.
  func take() -> JSONWriter {
    guard let buffer = pool.take() else { return JSONWriter(capacity: smallest) }
    return JSONWriter(adopting: buffer)
  }

  /// A writer with room for at least `minimumCapacity` bytes.
  func take(minimumCapacity: Int) -> JSONWriter {
    let capacity = roundedCapacity(minimumCapacity)
    guard let buffer = pool.take(where: { $0.capacity >= capacity }) else {
      // Every free buffer is too small: one of them is dropped for the new one, so that the
      // pool does not fill with small buffers that keep their written pages resident while
      // the requests they cannot serve make larger ones (resident memory grew with the run).
      pool.take()?.free()
      return JSONWriter(capacity: capacity)
    }
    return JSONWriter(adopting: buffer)
  }

  /// The power of two at or above `minimumCapacity`, and at least `smallest`.
  func roundedCapacity(_ minimumCapacity: Int) -> Int {
    let wanted = max(minimumCapacity, smallest, 2)
    // Safe because `wanted - 1 > 0`, so the shift is below `Int.bitWidth`.
    return 1 << (Int.bitWidth - (wanted - 1).leadingZeroBitCount)
  }

  /// Ends a writer that nobody reads any more and keeps its buffer (its bytes are forgotten);
  /// a full pool frees its oldest buffer instead.
  func recycle(_ writer: consuming JSONWriter) {
    pool.put(writer.releaseBuffer())?.free()
  }
}
