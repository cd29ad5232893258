import CZlib

/// Streaming gzip compression (deflate with a gzip header, `windowBits 31`) for batch files and
/// compressed stdout (SPEC 6.2, 6.3). The output is a standard single-member gzip file:
/// `gzip -t` passes.
///
/// Use: `append` any number of times, then `finish` once; each call appends compressed bytes to
/// the caller's array. The output is a pure function of the input and the level.
package final class GzipCompressor: @unchecked Sendable {
  // Safe because one owner at a time uses a compressor (a batch writer, or the worker it hands
  // the batch to); nothing else holds the z_stream.

  /// `--level` range and default for gzip (SPEC 6.7).
  package static let levels = 1...9
  /// zlib's default level, the `--level` default for gzip.
  package static let defaultLevel = 6

  private let stream: UnsafeMutablePointer<z_stream>
  private let scratch: UnsafeMutablePointer<UInt8>
  private let scratchCapacity = 64 << 10
  private var finished = false

  /// A compressor at `level` (1–9).
  package init(level: Int = GzipCompressor.defaultLevel) {
    precondition(Self.levels.contains(level), "gzip level must be 1...9")
    // Safe because only this compressor holds `stream` and `scratch`; `deinit` frees them once.
    stream = Self.deflateStream(level: level, windowBits: 15 + 16)
    scratch = .allocate(capacity: scratchCapacity)
  }

  deinit {
    Self.release(stream)
    scratch.deallocate()
  }

  /// A deflate stream at `level` with zlib's `windowBits` (31: gzip wrapper; -15: raw deflate),
  /// default memory level and strategy; freed with `release`.
  static func deflateStream(level: Int, windowBits: Int32) -> UnsafeMutablePointer<z_stream> {
    let stream = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
    stream.initialize(to: z_stream())
    let status = deflateInit2_(
      stream, Int32(level), Z_DEFLATED, windowBits, 8, Z_DEFAULT_STRATEGY, ZLIB_VERSION,
      Int32(MemoryLayout<z_stream>.size))
    precondition(status == Z_OK, "deflateInit2 failed (\(status))")
    return stream
  }

  /// Ends and frees a stream `deflateStream` made.
  static func release(_ stream: UnsafeMutablePointer<z_stream>) {
    deflateEnd(stream)
    // Safe because zlib has released the stream's state, and only the caller, which is done
    // with it, held the pointer.
    stream.deinitialize(count: 1)
    stream.deallocate()
  }

  /// Compresses `bytes`, appending whatever compressed output is ready to `output`.
  package func append(_ bytes: UnsafeRawBufferPointer, to output: inout [UInt8]) {
    precondition(!finished, "append after finish")
    guard var pointer = bytes.baseAddress, !bytes.isEmpty else { return }
    var remaining = bytes.count
    while remaining > 0 {
      let piece = min(remaining, 1 << 30)
      // Safe because deflate only reads through next_in (zlib's API lacks const).
      stream.pointee.next_in = UnsafeMutablePointer(
        mutating: pointer.assumingMemoryBound(to: Bytef.self))
      stream.pointee.avail_in = uInt(piece)
      run(Z_NO_FLUSH, &output)
      // Safe because `piece <= remaining`, so `pointer` stays within `bytes`.
      pointer += piece
      remaining -= piece
    }
  }

  /// Compresses `bytes`, appending whatever compressed output is ready to `output`.
  package func append(_ bytes: [UInt8], to output: inout [UInt8]) {
    bytes.withUnsafeBytes { append($0, to: &output) }
  }

  /// Ends the stream (the gzip trailer with CRC-32 and length) and appends the rest.
  package func finish(to output: inout [UInt8]) {
    precondition(!finished, "finish called twice")
    stream.pointee.next_in = nil
    stream.pointee.avail_in = 0
    run(Z_FINISH, &output)
    finished = true
  }

  /// A complete gzip file holding `bytes`.
  package static func compress(_ bytes: [UInt8], level: Int = defaultLevel) -> [UInt8] {
    bytes.withUnsafeBufferPointer { compress($0, level: level) }
  }

  /// The same for bytes in memory the caller owns.
  package static func compress(_ bytes: UnsafeBufferPointer<UInt8>, level: Int = defaultLevel)
    -> [UInt8]
  {
    let compressor = GzipCompressor(level: level)
    var output: [UInt8] = []
    output.reserveCapacity(bytes.count / 3 + 64)
    compressor.append(UnsafeRawBufferPointer(bytes), to: &output)
    compressor.finish(to: &output)
    return output
  }

  /// Appends a complete gzip file holding `bytes` to `output`, compressed in one call by
  /// libdeflate straight into the writer's buffer (`GzipFileCompressor`, what batch files use):
  /// other bytes than `compress`'s zlib stream, the same content.
  package static func compress(
    _ bytes: UnsafeBufferPointer<UInt8>, level: Int = defaultLevel, into output: inout JSONWriter
  ) {
    _ = GzipFileCompressor(level: level).compress(bytes, into: &output)
  }

  /// The CRC-32 zlib computed of everything compressed so far (valid after `finish`).
  var inputCRC: UInt32 { UInt32(truncatingIfNeeded: stream.pointee.adler) }

  private func run(_ flush: Int32, _ output: inout [UInt8]) {
    while true {
      stream.pointee.next_out = scratch
      stream.pointee.avail_out = uInt(scratchCapacity)
      let status = deflate(stream, flush)
      precondition(status == Z_OK || status == Z_STREAM_END || status == Z_BUF_ERROR)
      // Safe because deflate writes at most `avail_out = scratchCapacity` bytes to `scratch`,
      // and only the `produced` bytes it wrote are read.
      let produced = scratchCapacity - Int(stream.pointee.avail_out)
      output.append(contentsOf: UnsafeBufferPointer(start: scratch, count: produced))
      if flush == Z_FINISH {
        if status == Z_STREAM_END { return }
      } else if stream.pointee.avail_in == 0 && stream.pointee.avail_out != 0 {
        return
      }
    }
  }
}
