import Dispatch
import Glibc
import Synchronization

/// Reads the inputs in order as one stream and yields chunks of whole lines (SPEC 2.1, 7).
///
/// Pull-based: call `next()` from one thread (the reader stage) until it returns nil; hand each
/// event on. Decoded bytes go into a page-aligned staging buffer:
/// ```
///  0            start          headroom (page-aligned)                      capacity
///  │ unused     │ carry (partial line of the previous chunk) │ read area ─────────────│
///                                                    reads start here ▲
/// ```
/// When the read area is full (or the source ends) the bytes up to the last `\n` become a
/// `LineChunk`, which holds the staging memory; the bytes after it are copied into a fresh
/// staging buffer whose headroom is rounded up to pages, so every `read(2)` still lands on a
/// page boundary. With `pieceBytes` set, the read area is filled a piece at a time, and the
/// whole lines of each piece become a chunk at once, sharing the staging memory; the reader
/// then writes only past them. A partial line that fills the whole buffer grows it (at most to
/// about `maxLineBytes + chunkBytes`); once it holds `maxLineBytes + 2` bytes without a `\n`
/// the line is certainly too long, and the reader keeps its first `maxLineBytes` bytes, reads
/// and drops the rest (into a buffer of its own) up to the next `\n`, and yields an
/// `OverlongLine`. Memory stays below roughly `2 × (chunkBytes + maxLineBytes)` for the reader,
/// plus the chunks still held downstream.
///
/// Faults: a source that cannot be opened or read, or a truncated or corrupt compressed stream,
/// is fatal. The complete lines decoded before the fault are yielded first (a final chunk);
/// the partial line after them is dropped; then `next()` throws the `InputError`, and keeps
/// throwing it.
package final class ChunkReader: @unchecked Sendable {
  // Safe because a reader has one owner at a time: it is built on one thread and moved whole to
  // the reader thread, which alone calls `next()`. `progress` is the only state shared with
  // other threads, and it is atomic.

  /// The inputs, in order.
  package let inputs: [InputSource]
  /// The read area of a staging buffer: `--chunk-bytes` rounded up to whole pages, at least
  /// 64 KiB.
  package let chunkBytes: Int
  /// `--max-line-bytes`, measured on the bytes before the terminator.
  package let maxLineBytes: Int
  /// Bytes read so far and the total input size when known.
  package let progress: InputProgress

  /// `maxLineBytes + 2`: this many bytes without `\n` prove a line too long even if `\r\n`
  /// follows (saturating, so `Int.max` means no limit).
  private let tooLongThreshold: Int

  /// The smallest accepted chunk size (SPEC 6.7).
  package static let minimumChunkBytes = 64 << 10
  /// The default `--chunk-bytes`: 4 MiB.
  package static let defaultChunkBytes = 4 << 20
  /// The default `--max-line-bytes`: 16 MiB.
  package static let defaultMaxLineBytes = 16 << 20
  /// The carry room of a standard staging buffer (see `makeStaging`).
  static let standardHeadroom = 64 << 10

  private struct Staging {
    /// The allocation (at least `capacity` bytes; see `makeStaging`), shared with the chunks
    /// cut from it. A `var` for `isKnownUniquelyReferenced` (`moveCarry`).
    var owner: SharedPageMemory
    var capacity: Int
    /// The first byte not handed out in a chunk yet.
    var start: Int
    /// The end of the bytes read.
    var end: Int
    /// Where the search for a piece's last line end starts: the bytes from `start` up to it hold
    /// no `\n` (each piece is searched once, so a long line read in many pieces stays linear).
    var searched: Int
    /// The buffer is full and its whole lines went out: the bytes from `start` on, the start
    /// of a line, move to the front of a buffer before the next read (`moveCarry`).
    var carryPending = false

    var memory: UnsafeMutableRawPointer { owner.memory }
  }

  private struct OpenSource {
    let index: Int
    let name: String
    let format: InputFormat
    let file: FileInput
    let decoder: any ByteDecoder
  }

  private struct OverlongState {
    var prefix: [UInt8]
    var length: Int
    var lastWasCarriageReturn: Bool
  }

  private var nextInput = 0
  private var current: OpenSource?
  private var staging: Staging?
  private var overlong: OverlongState?
  private var sequence = 0
  /// The line number of the first line in staging.
  private var lineNumber = 1
  /// The decoded source offset of `staging.start`.
  private var stagingOffset: UInt64 = 0
  private var decodedBytes: UInt64 = 0
  private var sourceEnded = false
  private var sourceFailure: DecodeFailure?
  private var atSourceStart = false
  private var fatal: InputError?
  /// The largest staging buffer so far (tests check that memory stays bounded).
  private(set) var peakStagingBytes = 0
  /// Each chunk is also cut, at line boundaries, into batches of about this many bytes
  /// (`LineChunk.batches`): the pipeline's work items. Default: one batch per chunk.
  package var batchBytes = Int.max
  /// When smaller than the chunk: the staging buffer is read this many bytes at a time, and the
  /// whole lines of each piece are handed out as a chunk of their own, sharing the buffer,
  /// while the rest of it is still to be read. The lines then reach a worker while the copy
  /// `read(2)` made is still in the core's cache, instead of after the whole chunk (4 MiB by
  /// default, more than a core's L2). The chunk size still bounds the buffers and the reads.
  /// Default: one piece per buffer.
  var pieceBytes = Int.max

  /// How long a whole line read from a plain pipe or terminal may wait for more before it goes
  /// out without a full buffer: records of a live feed follow its lines within this delay,
  /// whether the feed then goes quiet or goes on writing (a log of ten lines a second is never
  /// quiet for 100 ms), while a writer that keeps up (`zcat big.gz |`) still fills whole
  /// chunks.
  static let idleMilliseconds: Int32 = 100

  /// Reads `inputs` in order; no inputs means stdin. `chunkBytes` is raised to 64 KiB and
  /// rounded up to whole pages.
  package init(
    inputs: [InputSource], chunkBytes: Int = ChunkReader.defaultChunkBytes,
    maxLineBytes: Int = ChunkReader.defaultMaxLineBytes
  ) {
    precondition(maxLineBytes >= 0, "maxLineBytes must not be negative")
    self.inputs = inputs.isEmpty ? [.standardInput] : inputs
    self.chunkBytes = PageAlignedMemory.roundUp(max(chunkBytes, Self.minimumChunkBytes))
    self.maxLineBytes = maxLineBytes
    self.tooLongThreshold = maxLineBytes > Int.max - 2 ? Int.max : maxLineBytes + 2
    var total: UInt64? = 0
    for input in self.inputs {
      let size: UInt64?
      switch input {
      case .path(let path): size = FileInput.regularFileSize(path)
      case .standardInput: size = FileInput.regularFileBytesLeft(0)
      case .descriptor: size = nil
      }
      guard let size else {
        total = nil
        break
      }
      total! += size
    }
    self.progress = InputProgress(totalBytes: total)
  }

  /// Reads command-line arguments: paths, `-` for stdin, none for stdin.
  package convenience init(
    paths: [String], chunkBytes: Int = ChunkReader.defaultChunkBytes,
    maxLineBytes: Int = ChunkReader.defaultMaxLineBytes
  ) {
    self.init(
      inputs: paths.map(InputSource.init(argument:)), chunkBytes: chunkBytes,
      maxLineBytes: maxLineBytes)
  }

  /// The next chunk or over-long line in input order; nil when every input is read. Throws the
  /// fatal `InputError` after yielding everything decoded before it.
  package func next() throws(InputError) -> InputEvent? {
    while true {
      if let fatal { throw fatal }
      if current == nil {
        guard nextInput < inputs.count else { return nil }
        try openNextInput()
      }
      if let event = try advance() { return event }
    }
  }

  // MARK: - Sources

  private func openNextInput() throws(InputError) {
    let index = nextInput
    nextInput += 1
    let input = inputs[index]
    do {
      let file: FileInput
      switch input {
      case .standardInput: file = FileInput(descriptor: 0)
      case .path(let path): file = try FileInput(path: path)
      case .descriptor(let fd, _): file = FileInput(descriptor: fd)
      }
      let progress = self.progress
      file.onRead = { progress.add($0) }
      let format = InputFormat.detect(try file.peek(4))
      let decoder: any ByteDecoder =
        switch format {
        case .plain: PlainDecoder(file: file)
        case .gzip: GzipDecoder(file: file)
        case .lz4: LZ4Decoder(file: file)
        }
      current = OpenSource(
        index: index, name: input.name, format: format, file: file, decoder: decoder)
    } catch {
      throw fail(
        InputError(
          reason: error.reason, source: input.name, sourceIndex: index, format: .plain,
          compressedBytes: 0, uncompressedBytes: 0, completeLines: 0, detail: error.detail))
    }
    lineNumber = 1
    stagingOffset = 0
    decodedBytes = 0
    sourceEnded = false
    sourceFailure = nil
    atSourceStart = true
    staging = makeStaging(carry: nil, count: 0, readArea: chunkBytes)
  }

  private func closeSource() {
    current = nil
    staging = nil
    overlong = nil
  }

  /// Records `error` as the run's fatal error and returns it.
  private func fail(_ error: InputError) -> InputError {
    fatal = error
    closeSource()
    return error
  }

  private func inputError(_ failure: DecodeFailure) -> InputError {
    let source = current!
    return InputError(
      reason: failure.reason, source: source.name, sourceIndex: source.index,
      format: source.format,
      compressedBytes: failure.at ?? source.decoder.compressedBytesConsumed,
      uncompressedBytes: decodedBytes, completeLines: lineNumber - 1, detail: failure.detail)
  }

  // MARK: - Chunking

  /// A staging buffer whose first bytes are the `count` bytes at `carry`, followed by
  /// `readArea` bytes to read into: `reusing`'s memory when it is large enough (the carry may
  /// then lie in it), else a buffer of its own.
  private func makeStaging(
    carry: UnsafeRawPointer?, count: Int, readArea: Int, reusing: SharedPageMemory? = nil
  ) -> Staging {
    let headroom = PageAlignedMemory.roundUp(count)
    let capacity = headroom + readArea
    // Buffers of one size are recycled (`PageAlignedMemory.release`): a carry of up to 64 KiB
    // still gets the standard size, so nearly every chunk reuses a buffer.
    let owner =
      reusing.flatMap { $0.bytes >= capacity ? $0 : nil }
      ?? SharedPageMemory(bytes: max(capacity, chunkBytes + Self.standardHeadroom))
    // Safe because headroom >= count puts the copy inside the allocation, and every caller
    // passes a carry of `count` bytes in a buffer it holds until after this call; `memmove`,
    // because a carry moved within its own buffer may overlap where it goes.
    if let carry, count > 0 {
      memmove(owner.memory + headroom - count, carry, count)
    }
    peakStagingBytes = max(peakStagingBytes, capacity)
    return Staging(
      owner: owner, capacity: capacity, start: headroom - count, end: headroom,
      searched: headroom - count)
  }

  /// Reads into the staging buffer until it is full, the source ends, the decoder fails, or
  /// `pieceBytes` more bytes are read; or, from a plain pipe or terminal, until it holds a
  /// whole line that has waited `idleMilliseconds` since it was read, or no more data comes
  /// meanwhile.
  private func fill() {
    guard var buffer = staging, let source = current else { return }
    defer { staging = buffer }
    // The piece ends `pieceBytes` on, or at the buffer's end when less than a piece is left.
    let pieceEnd =
      buffer.end > buffer.capacity - pieceBytes ? buffer.capacity : buffer.end + pieceBytes
    let live = source.format == .plain && source.file.isStream
    var lineStaged = false
    // When the first whole line was found (monotonic nanoseconds).
    var stagedAt: UInt64 = 0
    while buffer.end < pieceEnd && !sourceEnded && sourceFailure == nil {
      if live {
        // A feed that has gone quiet (`tail -f log |`): its whole lines go out now instead of
        // waiting for the buffer to fill. Each byte is searched once: `searched` moves past
        // the bytes found to hold no line end, and the search stops at the first one found.
        let from = max(buffer.searched, buffer.start)
        if !lineStaged && from < buffer.end {
          // Safe because `from ..< end` lies within the bytes read into the buffer.
          if memchr(buffer.memory + from, Int32(ASCII.newline), buffer.end - from) != nil {
            lineStaged = true
            stagedAt = DispatchTime.now().uptimeNanoseconds
          } else {
            buffer.searched = buffer.end
          }
        }
        if lineStaged {
          let waited = (DispatchTime.now().uptimeNanoseconds - stagedAt) / 1_000_000
          let left = Int64(Self.idleMilliseconds) - Int64(waited)
          if left <= 0 || !source.file.hasDataReady(within: Int32(left)) { break }
        }
      }
      do {
        // Safe because end < capacity <= allocation: the read fills only the free read area,
        // past every byte a chunk covers.
        let n = try source.decoder.read(
          into: buffer.memory + buffer.end, capacity: pieceEnd - buffer.end)
        if n == 0 {
          sourceEnded = true
        } else {
          buffer.end += n
          decodedBytes += UInt64(n)
        }
      } catch {
        sourceFailure = error
      }
    }
  }

  /// One step: yields a chunk or an over-long line, or nil to be called again.
  private func advance() throws(InputError) -> InputEvent? {
    if overlong != nil { return try discardOverlong() }
    moveCarry()
    fill()
    guard var buffer = staging else { return nil }
    if atSourceStart {
      // A byte-order mark is looked for once three bytes are staged (a piece may hold fewer).
      if buffer.end - buffer.start < 3 && buffer.end < buffer.capacity && !sourceEnded
        && sourceFailure == nil
      {
        return nil
      }
      atSourceStart = false
      let bytes = buffer.memory + buffer.start
      // Safe because the three loads run only when at least 3 bytes are staged.
      if buffer.end - buffer.start >= 3 && bytes.load(as: UInt8.self) == 0xEF
        && bytes.load(fromByteOffset: 1, as: UInt8.self) == 0xBB
        && bytes.load(fromByteOffset: 2, as: UInt8.self) == 0xBF
      {
        buffer.start += 3
        stagingOffset += 3
        staging = buffer
      }
    }
    // Safe because staging holds `count` decoded bytes from `start` on.
    let base = buffer.memory + buffer.start
    let count = buffer.end - buffer.start

    if let failure = sourceFailure {
      // Deliver the complete lines decoded before the fault, drop the partial one, then fail.
      if let last = NewlineScan.lastIndex(base, count) {
        staging = nil
        let chunk = makeChunk(buffer, count: last + 1)
        _ = fail(inputError(failure))
        return .chunk(chunk)
      }
      throw fail(inputError(failure))
    }
    if sourceEnded {
      staging = nil
      if count == 0 {
        closeSource()
        return nil
      }
      let chunk = makeChunk(buffer, count: count)
      closeSource()
      return .chunk(chunk)
    }
    // The last `\n` staged: only the bytes read since the last search can hold it.
    let searched = max(buffer.searched - buffer.start, 0)
    buffer.searched = buffer.end
    let last = NewlineScan.lastIndex(base + searched, count - searched).map { searched + $0 }
    if buffer.end < buffer.capacity {
      // A piece of the buffer is read: its whole lines go out now, the rest stays in place.
      guard let last else {
        staging = buffer
        return nil
      }
      let chunk = makeChunk(buffer, count: last + 1)
      buffer.start += last + 1
      staging = buffer
      return .chunk(chunk)
    }
    // The buffer is full.
    if let last {
      // The bytes after the last `\n` stay where they are until the next call (`moveCarry`),
      // when this chunk may have let go of the buffer.
      let chunk = makeChunk(buffer, count: last + 1)
      buffer.start += last + 1
      buffer.carryPending = true
      staging = buffer
      return .chunk(chunk)
    }
    if count >= tooLongThreshold {
      // No `\n` in the first maxLineBytes + 2 bytes: longer than the limit even if the next
      // bytes are "\r\n". Keep the prefix.
      // Safe because staging is only ever accessed as bytes and count >= maxLineBytes + 2.
      let bytes = base.assumingMemoryBound(to: UInt8.self)
      overlong = OverlongState(
        prefix: Array(UnsafeBufferPointer(start: bytes, count: maxLineBytes)), length: count,
        lastWasCarriageReturn: bytes[count - 1] == ASCII.carriageReturn)
      // A fresh buffer as scratch for the rest: chunks cut from the front of this one may still
      // be with the workers.
      staging = makeStaging(carry: nil, count: 0, readArea: chunkBytes)
      return try discardOverlong()
    }
    // One partial line fills the buffer: grow (double, but no further than the limit needs).
    let wanted = min(count, tooLongThreshold - count)
    let readArea = max(chunkBytes, PageAlignedMemory.roundUp(wanted))
    staging = makeStaging(carry: base, count: count, readArea: readArea)
    return nil
  }

  /// Moves the carry of a full buffer (`Staging.carryPending`) to the front of a buffer for the
  /// next read: of the same buffer when no chunk holds it any more (with one worker, or
  /// workers that keep up, the chunks cut from it are done by the next call), else of another.
  /// So a run touches one chunk buffer's fresh memory, not two: the first write to a fresh
  /// page is a page fault, and on a VM whose host takes freed memory back, a costly one.
  private func moveCarry() {
    guard var buffer = staging, buffer.carryPending else { return }
    // `buffer` holds the reader's one reference: a chunk's is the only other kind.
    staging = nil
    var reusable: SharedPageMemory? = nil
    if isKnownUniquelyReferenced(&buffer.owner) {
      // A worker's reads of its chunk come before its release of the buffer; the fence orders
      // them before the writes below (the release pairs with it).
      atomicMemoryFence(ordering: .acquiring)
      reusable = buffer.owner
    }
    // Safe because the buffer holds its bytes read up to `end`, and `start <= end`.
    staging = makeStaging(
      carry: buffer.memory + buffer.start, count: buffer.end - buffer.start,
      readArea: chunkBytes, reusing: reusable)
  }

  /// Turns `buffer[start ..< start + count]` into a chunk that holds the buffer's memory.
  private func makeChunk(_ buffer: Staging, count: Int) -> LineChunk {
    let base = buffer.memory + buffer.start
    // Batches end after the first `\n` at or past `batchBytes` bytes; counting each batch's
    // newlines is the chunk's one newline count.
    var batches: [LineChunk.Batch] = []
    var lines = 0
    var offset = 0
    while offset < count {
      var end = count
      if count - offset > batchBytes {
        // Safe because count - offset > batchBytes puts `from` inside the chunk.
        let from = offset + batchBytes - 1
        if let found = memchr(base + from, Int32(ASCII.newline), count - from) {
          // Safe because memchr returns a pointer inside base[from ..< count].
          end = UnsafeRawPointer(found) - UnsafeRawPointer(base) + 1
        }
      }
      batches.append(LineChunk.Batch(start: offset, end: end, firstLine: lineNumber + lines))
      lines += NewlineScan.count(base + offset, end - offset)
      offset = end
    }
    // Safe because a chunk is never empty: both callers pass count >= 1.
    if base.load(fromByteOffset: count - 1, as: UInt8.self) != ASCII.newline { lines += 1 }
    let source = current!
    let chunk = LineChunk(
      memory: buffer.owner, start: buffer.start, byteCount: count, sequence: sequence,
      sourceIndex: source.index, source: source.name, firstLine: lineNumber,
      sourceOffset: stagingOffset, lineCount: lines, maxLineBytes: maxLineBytes, batches: batches)
    sequence += 1
    lineNumber += lines
    stagingOffset += UInt64(count)
    return chunk
  }

  /// Reads and drops the rest of an over-long line, then yields it.
  private func discardOverlong() throws(InputError) -> InputEvent? {
    guard var state = overlong, let buffer = staging, let source = current else { return nil }
    // Safe because staging is only accessed as bytes; each read fills at most `capacity` of it,
    // and the reads below stay in scratch[0..<n].
    let scratch = buffer.memory.assumingMemoryBound(to: UInt8.self)
    while true {
      let n: Int
      do {
        n = try source.decoder.read(into: buffer.memory, capacity: buffer.capacity)
      } catch {
        // The over-long line is the partial last line: it is not processed (SPEC 9 [2.1]).
        throw fail(inputError(error))
      }
      decodedBytes += UInt64(n)
      if n == 0 {
        // A final line without `\n`: everything read is the line.
        let event = makeOverlong(state, consumed: UInt64(state.length))
        closeSource()
        return event
      }
      if let found = memchr(scratch, Int32(ASCII.newline), n) {
        // Safe because memchr returns a pointer inside scratch[0..<n].
        let index = UnsafeRawPointer(found) - UnsafeRawPointer(scratch)
        let carriageReturn =
          index > 0 ? scratch[index - 1] == ASCII.carriageReturn : state.lastWasCarriageReturn
        let consumed = UInt64(state.length + index + 1)
        state.length += index - (carriageReturn ? 1 : 0)
        let event = makeOverlong(state, consumed: consumed)
        overlong = nil
        staging = makeStaging(
          carry: scratch + index + 1, count: n - index - 1, readArea: chunkBytes)
        return event
      }
      state.length += n
      state.lastWasCarriageReturn = scratch[n - 1] == ASCII.carriageReturn
      overlong = state
    }
  }

  private func makeOverlong(_ state: OverlongState, consumed: UInt64) -> InputEvent {
    let source = current!
    let line = OverlongLine(
      sequence: sequence, sourceIndex: source.index, source: source.name, lineNumber: lineNumber,
      sourceOffset: stagingOffset, prefix: state.prefix, length: state.length,
      maxLineBytes: maxLineBytes)
    sequence += 1
    lineNumber += 1
    stagingOffset += consumed
    return .overlongLine(line)
  }
}
