import Glibc

/// A run of whole lines of one source, in a staging buffer the chunk holds (with the chunks cut
/// from the same buffer before it, when the reader hands out pieces: `ChunkReader.pieceBytes`).
///
/// ```
///  allocation            bytes (byteCount)
///  │                     │
///  ▼                     ▼
///  [ headroom / carry ...│line firstLine\n line firstLine+1\r\n ... last line\n]
///                        ▲
///                        decoded source offset `sourceOffset`
/// ```
/// Invariant: `bytes` holds `lineCount` whole lines: every line ends with `\n`, except that the
/// last line of a source may end without one. A chunk never spans two sources, and it is never
/// empty. The bytes are immutable after the reader builds the chunk.
///
/// Memory: the allocation is page-aligned (`SharedPageMemory`) and released to its pool when the
/// last chunk holding it, and the reader, let it go. Offsets cross thread boundaries, pointers
/// do not: hand the chunk whole to a worker, and use `Line.offset` (the line's byte offset
/// within the chunk) in anything that outlives a borrow.
package final class LineChunk: @unchecked Sendable {
  // Safe because every stored property is immutable after init, the bytes behind `base` are
  // written only before init and never after, and the allocation is freed only in deinit, when
  // no owner is left. The pipeline passes a chunk to one stage at a time.

  /// The event number within the run: 0, 1, 2, ... shared with `OverlongLine.sequence`, without
  /// gaps, so an ordered writer can put every event back in input order.
  package let sequence: Int
  /// The index of the source in the reader's input list.
  package let sourceIndex: Int
  /// The source as the user gave it: the path, `-` for stdin.
  package let source: String
  /// The 1-based number, within its source, of the chunk's first line.
  package let firstLine: Int
  /// The byte offset in the decoded (decompressed) source where the chunk starts. A skipped
  /// byte-order mark counts: the first chunk of a file with a BOM starts at offset 3.
  package let sourceOffset: UInt64
  /// The number of lines in the chunk (`\n` count, plus one for a final line without `\n`).
  package let lineCount: Int
  /// `--max-line-bytes`: a line whose bytes before the terminator exceed this is `line-too-long`.
  /// Lines that fit in a chunk are flagged by the consumer (`overlongLine(_:)`); longer ones
  /// arrive as `InputEvent.overlongLine`. Both give the same reject.
  package let maxLineBytes: Int
  /// The number of bytes in the chunk, terminators included.
  package let byteCount: Int
  /// The chunk cut at line boundaries into the batches the pipeline hands to workers one by one
  /// (`ChunkReader.batchBytes`): in order, covering the chunk, never empty.
  package let batches: [Batch]

  /// Whole lines of a chunk: bytes `start ..< end`, the first of them line `firstLine`.
  package struct Batch: Sendable, Equatable {
    /// The offset of the batch's first byte within the chunk.
    package let start: Int
    /// The offset just past the batch's last byte (its last `\n`, or the chunk's end).
    package let end: Int
    /// The 1-based line number, within the source, of the batch's first line.
    package let firstLine: Int
  }

  /// Keeps the bytes alive.
  private let memory: SharedPageMemory
  private let base: UnsafePointer<UInt8>

  init(
    memory: SharedPageMemory, start: Int, byteCount: Int, sequence: Int,
    sourceIndex: Int, source: String, firstLine: Int, sourceOffset: UInt64, lineCount: Int,
    maxLineBytes: Int, batches: [Batch]? = nil
  ) {
    self.memory = memory
    // Safe because the reader passes `byteCount` filled bytes at `start` in the allocation, which
    // is only ever accessed as bytes, and writes no byte of that range afterwards.
    self.base = UnsafePointer((memory.memory + start).assumingMemoryBound(to: UInt8.self))
    self.byteCount = byteCount
    self.sequence = sequence
    self.sourceIndex = sourceIndex
    self.source = source
    self.firstLine = firstLine
    self.sourceOffset = sourceOffset
    self.lineCount = lineCount
    self.maxLineBytes = maxLineBytes
    self.batches = batches ?? [Batch(start: 0, end: byteCount, firstLine: firstLine)]
  }

  /// Borrows the chunk's bytes (terminators included) for the duration of `body`.
  @inlinable
  package func withBytes<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
    try body(rawBytes)
  }

  // Safe because base[0..<byteCount] is filled before init and freed only in deinit.
  @usableFromInline
  var rawBytes: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: base, count: byteCount) }

  /// Calls `body(line, lineNumber)` for every line in order. `line` excludes its terminator
  /// (`\n`, or `\r\n`: exactly one `\r` before `\n` belongs to the ending; any other `\r` stays).
  /// Blank and whitespace-only lines are yielded like any other line. `line` is valid only
  /// inside `body`.
  package func forEachLine(
    _ body: (_ line: UnsafeBufferPointer<UInt8>, _ lineNumber: Int) throws -> Void
  ) rethrows {
    var iterator = makeLineIterator()
    while let line = iterator.next() {
      try body(line.bytes, line.number)
    }
  }

  /// Calls `body(line, lineNumber)` for every line of one batch, as `forEachLine` does.
  package func forEachLine(
    of batch: Batch,
    _ body: (_ line: UnsafeBufferPointer<UInt8>, _ lineNumber: Int) throws -> Void
  ) rethrows {
    var iterator = LineIterator(chunk: self, batch: batch)
    while let line = iterator.next() {
      try body(line.bytes, line.number)
    }
  }

  /// An iterator over the chunk's lines; it keeps the chunk alive while it exists.
  package func makeLineIterator() -> LineIterator {
    LineIterator(chunk: self, batch: Batch(start: 0, end: byteCount, firstLine: firstLine))
  }

  /// One line of a chunk: its bytes without the terminator, its 1-based number in its source and
  /// its byte offset within the chunk.
  package struct Line {
    /// The line's bytes, terminator excluded; valid while the chunk is alive.
    package let bytes: UnsafeBufferPointer<UInt8>
    /// The 1-based line number within the source.
    package let number: Int
    /// The offset of the line's first byte within the chunk.
    package let offset: Int
  }

  /// Walks the lines of a chunk with `memchr`.
  package struct LineIterator: IteratorProtocol {
    private let chunk: LineChunk
    private var position: Int
    private var number: Int
    private let count: Int

    init(chunk: LineChunk, batch: Batch) {
      precondition(0 <= batch.start && batch.start <= batch.end && batch.end <= chunk.byteCount)
      self.chunk = chunk
      self.position = batch.start
      self.count = batch.end
      self.number = batch.firstLine
    }

    /// The next line, or nil after the batch's last line.
    package mutating func next() -> Line? {
      guard position < count else { return nil }
      // Safe because position < count <= byteCount (checked in init): memchr and the line
      // stay in base[position..<count].
      let start = chunk.base + position
      let remaining = count - position
      let lineStart = position
      var lineEnd: Int
      if let found = memchr(start, Int32(ASCII.newline), remaining) {
        // Safe because memchr returns a pointer inside [start, start + remaining).
        let index = UnsafeRawPointer(found) - UnsafeRawPointer(start)
        lineEnd = index
        position += index + 1
        if index > 0 && start[index - 1] == ASCII.carriageReturn { lineEnd -= 1 }
      } else {
        lineEnd = remaining
        position = count
      }
      let line = Line(
        bytes: UnsafeBufferPointer(start: start, count: lineEnd), number: number,
        offset: lineStart)
      number += 1
      return line
    }
  }

  /// The `line-too-long` description of `line` when it exceeds `maxLineBytes`, else nil: the
  /// same value the reader yields for a line too long to buffer, so both paths write the same
  /// reject.
  package func overlongLine(_ line: Line) -> OverlongLine? {
    guard line.bytes.count > maxLineBytes else { return nil }
    // Safe because the guard above makes maxLineBytes < line.bytes.count.
    return OverlongLine(
      sequence: sequence, sourceIndex: sourceIndex, source: source, lineNumber: line.number,
      sourceOffset: sourceOffset + UInt64(line.offset),
      prefix: Array(UnsafeBufferPointer(rebasing: line.bytes[0..<maxLineBytes])),
      length: line.bytes.count, maxLineBytes: maxLineBytes)
  }
}

/// A line longer than `--max-line-bytes`: only its first `maxLineBytes` bytes were kept, the
/// rest was read and discarded up to the next `\n` (SPEC 2.1). The consumer writes one
/// `line-too-long` reject whose `raw` is `prefix`.
package struct OverlongLine: Sendable {
  /// The event number (shared with chunks) when the reader yielded it; the chunk's sequence
  /// when built by `LineChunk.overlongLine(_:)`.
  package let sequence: Int
  /// The index of the source in the reader's input list.
  package let sourceIndex: Int
  /// The path as given, `-` for stdin.
  package let source: String
  /// The 1-based line number within the source.
  package let lineNumber: Int
  /// The byte offset of the line's first byte in the decoded source.
  package let sourceOffset: UInt64
  /// The first `maxLineBytes` bytes of the line.
  package let prefix: [UInt8]
  /// The full length of the line in bytes, terminator excluded.
  package let length: Int
  /// The limit in force.
  package let maxLineBytes: Int
}

/// What `ChunkReader.next()` yields, in input order.
package enum InputEvent: Sendable {
  /// Whole lines of one source.
  case chunk(LineChunk)
  /// One line too long to buffer; it sits between the previous and the next chunk.
  case overlongLine(OverlongLine)

  /// The event number: 0, 1, 2, ... across the run.
  package var sequence: Int {
    switch self {
    case .chunk(let chunk): chunk.sequence
    case .overlongLine(let line): line.sequence
    }
  }
}
