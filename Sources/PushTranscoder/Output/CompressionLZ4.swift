import CLZ4

/// Streaming LZ4 frame compression (liblz4's frame API, content checksum on) for batch files and
/// compressed stdout (SPEC 6.2, 6.3). The output is one standard LZ4 frame: `lz4 -t` passes.
///
/// Use: `append` any number of times, then `finish` once; each call appends compressed bytes to
/// the caller's array. The frame header is written by the first call.
package final class LZ4FrameCompressor: @unchecked Sendable {
  // Safe because one owner at a time uses a compressor; nothing else holds the context.

  /// `--level` range and default for lz4 (SPEC 6.7).
  package static let levels = 1...12
  /// liblz4's fast mode, the `--level` default for lz4.
  package static let defaultLevel = 1

  /// The frame's block size (`LZ4F_max64KB`); liblz4 compresses at most one block per call, so
  /// the scratch output stays small.
  private static let blockBytes = 64 << 10

  private var context: OpaquePointer?
  private var preferences: LZ4F_preferences_t
  private let scratch: UnsafeMutableRawPointer
  private let scratchCapacity: Int
  /// Bytes of the current block liblz4 holds in its own buffer. liblz4 compresses a block
  /// straight from the caller's memory when handed a whole one while its buffer is empty, and
  /// from its buffer otherwise; with linked blocks the two paths can pick different matches, so
  /// the frame's bytes would depend on where the caller's pieces begin and end (the stream's
  /// chunks, so on `--chunk-bytes`; SPEC 7). Every block takes the second path: a block's first
  /// piece is at most one byte short of a whole block, so liblz4 always gathers the block in its
  /// buffer and compresses it from there.
  private var held = 0
  private var started = false
  private var finished = false

  /// A compressor at `level` (1–12; 1 is liblz4's fast mode, 3 and up its HC mode); without
  /// `contentChecksum`, the frame carries no xxHash-32 of its content (as `compress(_:level:
  /// contentChecksum:into:)`).
  package init(level: Int = LZ4FrameCompressor.defaultLevel, contentChecksum: Bool = true) {
    precondition(Self.levels.contains(level), "lz4 level must be 1...12")
    var preferences = Self.framePreferences(level: level, contentChecksum: contentChecksum)
    self.preferences = preferences
    let bound = LZ4F_compressBound(Self.blockBytes, &preferences)
    scratchCapacity = max(bound, Int(LZ4F_HEADER_SIZE_MAX)) + 64
    // Safe because only this compressor holds `scratch`, and its `deinit` frees it once.
    scratch = .allocate(byteCount: scratchCapacity, alignment: 16)
    let status = LZ4F_createCompressionContext(&context, UInt32(LZ4F_VERSION))
    precondition(LZ4F_isError(status) == 0, "LZ4F_createCompressionContext failed")
  }

  deinit {
    LZ4F_freeCompressionContext(context)
    // Safe because nothing else holds `scratch`, and the compressor is gone.
    scratch.deallocate()
  }

  /// Compresses `bytes`, appending whatever compressed output is ready to `output`.
  package func append(_ bytes: UnsafeRawBufferPointer, to output: inout [UInt8]) {
    precondition(!finished, "append after finish")
    // Nothing to add writes nothing, not even the frame header: that comes with the first
    // bytes (or `finish`), so a stream whose first write fails has its records' counts right.
    guard var pointer = bytes.baseAddress, bytes.count > 0 else { return }
    begin(&output)
    var remaining = bytes.count
    // Safe because liblz4 writes at most `scratchCapacity` bytes to `scratch`, and `pointer`
    // advances by `piece <= remaining`, so it stays within `bytes`.
    while remaining > 0 {
      let room = Self.blockBytes - held - (held == 0 ? 1 : 0)
      let piece = min(remaining, room)
      let written = LZ4F_compressUpdate(context, scratch, scratchCapacity, pointer, piece, nil)
      check(written)
      emit(written, &output)
      // A piece that completes the block has it compressed; otherwise liblz4 keeps it.
      held = (held + piece) % Self.blockBytes
      pointer += piece
      remaining -= piece
    }
  }

  /// Compresses `bytes`, appending whatever compressed output is ready to `output`.
  package func append(_ bytes: [UInt8], to output: inout [UInt8]) {
    bytes.withUnsafeBytes { append($0, to: &output) }
  }

  /// Ends the frame (end mark and content checksum) and appends the rest.
  package func finish(to output: inout [UInt8]) {
    precondition(!finished, "finish called twice")
    begin(&output)
    let written = LZ4F_compressEnd(context, scratch, scratchCapacity, nil)
    check(written)
    emit(written, &output)
    finished = true
  }

  /// A complete LZ4 frame holding `bytes`.
  package static func compress(_ bytes: [UInt8], level: Int = defaultLevel) -> [UInt8] {
    bytes.withUnsafeBufferPointer { compress($0, level: level) }
  }

  /// The same for bytes in memory the caller owns.
  package static func compress(_ bytes: UnsafeBufferPointer<UInt8>, level: Int = defaultLevel)
    -> [UInt8]
  {
    let compressor = LZ4FrameCompressor(level: level)
    var output: [UInt8] = []
    output.reserveCapacity(bytes.count / 2 + 64)
    compressor.append(UnsafeRawBufferPointer(bytes), to: &output)
    compressor.finish(to: &output)
    return output
  }

  /// Appends a complete LZ4 frame holding `bytes` to `output` in one call, compressed straight
  /// into the writer's buffer (no scratch copy, no growth). liblz4 may pick other matches at
  /// block boundaries than the streaming `append` path: the bytes can differ, the content not.
  ///
  /// `contentChecksum: false` leaves out the frame's xxHash-32 of the content (the frame is
  /// still standard; `lz4 -t` checks its structure and blocks): for batch files, whose content
  /// the manifest's CRC-32 already covers: hashing the content twice would only repeat that
  /// check.
  package static func compress(
    _ bytes: UnsafeBufferPointer<UInt8>, level: Int = defaultLevel, contentChecksum: Bool = true,
    into output: inout JSONWriter
  ) {
    precondition(levels.contains(level), "lz4 level must be 1...12")
    var preferences = framePreferences(level: level, contentChecksum: contentChecksum)
    let bound = LZ4F_compressFrameBound(bytes.count, &preferences)
    // Safe because `reserve(bound)` makes room for the largest frame liblz4 can write for
    // `bytes.count` input bytes with these preferences; only what it wrote is committed.
    let target = output.reserve(bound)
    let written = LZ4F_compressFrame(target, bound, bytes.baseAddress, bytes.count, &preferences)
    precondition(LZ4F_isError(written) == 0, String(cString: LZ4F_getErrorName(written)))
    output.advance(by: written)
  }

  /// 64 KiB linked blocks and (unless asked not to) a content checksum, at `level`.
  private static func framePreferences(level: Int, contentChecksum: Bool = true)
    -> LZ4F_preferences_t
  {
    var preferences = LZ4F_preferences_t()
    preferences.compressionLevel = Int32(level)
    preferences.frameInfo.contentChecksumFlag =
      contentChecksum ? LZ4F_contentChecksumEnabled : LZ4F_noContentChecksum
    preferences.frameInfo.blockSizeID = LZ4F_max64KB
    return preferences
  }

  private func begin(_ output: inout [UInt8]) {
    guard !started else { return }
    started = true
    let written = LZ4F_compressBegin(context, scratch, scratchCapacity, &preferences)
    check(written)
    emit(written, &output)
  }

  private func check(_ code: Int) {
    precondition(LZ4F_isError(code) == 0, String(cString: LZ4F_getErrorName(code)))
  }

  private func emit(_ count: Int, _ output: inout [UInt8]) {
    // Safe because `count` is what liblz4 just wrote to `scratch`, at most `scratchCapacity`.
    output.append(
      contentsOf: UnsafeRawBufferPointer(start: UnsafeRawPointer(scratch), count: count))
  }
}
