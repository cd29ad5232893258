import CZlib

/// Whole gzip files in one call, for batch files (SPEC 6.2): raw deflate between a gzip header
/// and trailer written here, with the trailer's CRC-32 from `CRC32` (folded with PCLMULQDQ),
/// which the manifest reuses. With the gzip wrapper, zlib 1.2 computed that CRC itself with its
/// table-driven `crc32`, about 3 % of a two-thread gzip batch run.
///
/// The bytes are those of zlib's own gzip wrapper (the same header fields, the same deflate
/// stream, the same trailer), so a file does not depend on which path wrote it: the tests
/// compare the two.
///
/// One compressor serves any number of files: `deflateReset` keeps zlib's quarter megabyte of
/// window and tables, where a new compressor per batch allocated it afresh (and faulted in its
/// pages whenever the allocator had given them back).
public final class GzipFileCompressor: @unchecked Sendable {
  // Safe because one owner at a time uses a compressor (the batch writer's job that took it
  // from the pool); nothing else holds the z_stream.

  private let stream: UnsafeMutablePointer<z_stream>
  private let level: Int

  /// A compressor at `level` (1–9).
  public init(level: Int = GzipCompressor.defaultLevel) {
    precondition(GzipCompressor.levels.contains(level), "gzip level must be 1...9")
    self.level = level
    // Negative window bits: raw deflate, no zlib or gzip wrapper. Safe because only this
    // compressor holds `stream`; `deinit` frees it once.
    stream = GzipCompressor.deflateStream(level: level, windowBits: -15)
  }

  deinit { GzipCompressor.release(stream) }

  /// Appends a complete gzip file holding `bytes` to `output` and returns the CRC-32 of
  /// `bytes`.
  public func compress(_ bytes: UnsafeBufferPointer<UInt8>, into output: inout JSONWriter)
    -> UInt32
  {
    // zlib counts in 32 bits: a file that large takes the streaming compressor.
    guard bytes.count < Int(UInt32.max / 2) else {
      let streaming = GzipCompressor(level: level)
      var array: [UInt8] = []
      streaming.append(UnsafeRawBufferPointer(bytes), to: &array)
      streaming.finish(to: &array)
      array.withUnsafeBufferPointer { output.raw($0) }
      return streaming.inputCRC
    }
    let crc = CRC32.checksum(bytes)
    let status = deflateReset(stream)
    precondition(status == Z_OK, "deflateReset failed (\(status))")
    // The header zlib writes for a gzip stream without a `gz_header`: magic, deflate, no flags,
    // no time, the extra flags zlib derives from the level, and OS 3 (Unix).
    let extraFlags: UInt8 = level == 9 ? 2 : (level < 2 ? 4 : 0)
    let header: [UInt8] = [0x1F, 0x8B, 8, 0, 0, 0, 0, 0, extraFlags, 3]
    header.withUnsafeBufferPointer { output.raw($0) }
    let bound = Int(deflateBound(stream, uLong(bytes.count)))
    // Safe because `reserve(bound)` makes room for raw deflate's worst case for `bytes.count`
    // input bytes; deflate only reads through next_in (zlib's API lacks const), and only what
    // it wrote is committed.
    let target = output.reserve(bound)
    stream.pointee.next_in = UnsafeMutablePointer(mutating: bytes.baseAddress)
    stream.pointee.avail_in = uInt(bytes.count)
    stream.pointee.next_out = target
    stream.pointee.avail_out = uInt(bound)
    let result = deflate(stream, Z_FINISH)
    precondition(result == Z_STREAM_END, "deflate did not finish within deflateBound (\(result))")
    output.advance(by: bound - Int(stream.pointee.avail_out))
    // The trailer: CRC-32 and length modulo 2^32, little-endian. Safe because `reserve(8)`
    // makes room for the two unaligned 4-byte stores.
    let trailer = UnsafeMutableRawPointer(output.reserve(8))
    trailer.storeBytes(of: crc.littleEndian, as: UInt32.self)
    trailer.storeBytes(
      of: UInt32(truncatingIfNeeded: bytes.count).littleEndian, toByteOffset: 4, as: UInt32.self)
    output.advance(by: 8)
    return crc
  }
}
