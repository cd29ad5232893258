import CDeflate

/// Whole gzip files in one call, for batch files (SPEC 6.2), compressed by libdeflate
/// (`libdeflate_gzip_compress`): a standard single-member gzip file (`gzip -t`, `zcat`, Python's
/// `gzip` and Spark read it), whose trailer carries the CRC-32 of the content, which the
/// manifest reuses (no second pass over the batch).
///
/// libdeflate compresses a buffer held whole in memory, which is how a batch is held, and does
/// it faster than zlib at each level for a similar ratio. `--level` 1–9 maps to libdeflate's
/// level of the same number (SPEC 6.7's range; docs/DECISIONS.md); the compressor also takes
/// libdeflate's 10–12, which the CLI does not offer.
///
/// The bytes differ from zlib's for the same content and level (another compressor: other
/// matches, and libdeflate writes OS 255, "unknown", in the header); the content they decode
/// to does not.
///
/// One compressor serves any number of files: libdeflate's state (a few hundred kilobytes at
/// the default level) is allocated once per compressor, and the batch sink keeps one per
/// compression job in a pool.
package final class GzipFileCompressor: @unchecked Sendable {
  // Safe because one owner at a time uses a compressor (the batch writer's job that took it
  // from the pool); libdeflate's compressor is not shared beyond that owner.

  /// The levels libdeflate accepts (`--level` offers 1–9 of them for gzip).
  package static let levels = 1...12

  private let compressor: OpaquePointer

  /// A compressor at `level` (1–12; the CLI's 1–9 are the same numbers).
  package init(level: Int = OutputCompression.gzipDefaultLevel) {
    precondition(Self.levels.contains(level), "gzip file level must be 1...12")
    // Safe because only this compressor holds the pointer; `deinit` frees it once.
    guard let compressor = libdeflate_alloc_compressor(Int32(level)) else {
      fatalError("libdeflate_alloc_compressor failed (out of memory)")
    }
    self.compressor = compressor
  }

  deinit { libdeflate_free_compressor(compressor) }

  /// A complete gzip file holding `bytes`, from a compressor of its own (for one-off files; the
  /// batch sink reuses its compressors).
  package static func compress(
    _ bytes: [UInt8], level: Int = OutputCompression.gzipDefaultLevel
  ) -> [UInt8] {
    var file = JSONWriter(capacity: bytes.count / 3 + 64)
    _ = bytes.withUnsafeBufferPointer { GzipFileCompressor(level: level).compress($0, into: &file) }
    return file.bytes
  }

  /// Appends a complete gzip file holding `bytes` to `output` and returns the CRC-32 of
  /// `bytes` (read back from the file's trailer).
  package func compress(_ bytes: UnsafeBufferPointer<UInt8>, into output: inout JSONWriter)
    -> UInt32
  {
    let bound = libdeflate_gzip_compress_bound(compressor, bytes.count)
    // libdeflate reads no input byte for an empty buffer, but wants a pointer all the same.
    let empty: UInt8 = 0
    return withUnsafePointer(to: empty) { emptyInput in
      // Safe because `reserve(bound)` makes room for libdeflate's worst case for
      // `bytes.count` input bytes, libdeflate writes at most `bound` bytes and only reads
      // `bytes`, and only what it reports written is committed.
      let target = output.reserve(bound)
      let written = libdeflate_gzip_compress(
        compressor, bytes.baseAddress ?? emptyInput, bytes.count, target, bound)
      precondition(written >= 18, "libdeflate_gzip_compress did not fit its bound")
      // The trailer: CRC-32 then length modulo 2^32, little-endian. Safe because a gzip file
      // of `written >= 18` bytes ends with that 8-byte trailer, inside the reserved room.
      let crc = UnsafeRawPointer(target + written - 8).loadUnaligned(as: UInt32.self)
      output.advance(by: written)
      return UInt32(littleEndian: crc)
    }
  }
}
