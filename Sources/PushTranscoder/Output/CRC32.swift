import CDeflate

/// An incremental CRC-32 (the gzip / zlib polynomial), for the manifest's `crc32` of each
/// batch's uncompressed content (SPEC 6.8).
///
/// Computed by libdeflate's `libdeflate_crc32`, which folds with PCLMULQDQ where the CPU has it
/// (docs/DECISIONS.md) and takes a `size_t`
/// length. gzip batch files get theirs from the trailer libdeflate writes (`GzipFileCompressor`).
package struct CRC32: Sendable, Equatable {
  /// The checksum of everything fed so far (0 for nothing).
  package private(set) var value: UInt32 = 0

  /// A checksum of no bytes yet (value 0).
  package init() {}

  /// Feeds `bytes`.
  package mutating func update(_ bytes: UnsafeRawBufferPointer) {
    // Safe because libdeflate reads exactly `bytes.count` bytes from the buffer's start.
    guard let pointer = bytes.baseAddress, !bytes.isEmpty else { return }
    value = libdeflate_crc32(value, pointer, bytes.count)
  }

  /// Feeds `bytes`.
  package mutating func update(_ bytes: [UInt8]) {
    bytes.withUnsafeBytes { update($0) }
  }

  /// The checksum of `bytes` alone.
  package static func checksum(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt32 {
    var crc = CRC32()
    crc.update(UnsafeRawBufferPointer(bytes))
    return crc.value
  }

  /// The checksum of `bytes` alone.
  package static func checksum(_ bytes: [UInt8]) -> UInt32 {
    var crc = CRC32()
    crc.update(bytes)
    return crc.value
  }

  /// The value as 8 lower-case hex digits, as the manifest writes it.
  package var hex: String { Self.hex(value) }

  /// `value` as 8 lower-case hex digits (the manifest's `crc32`).
  package static func hex(_ value: UInt32) -> String {
    String(value, radix: 16).leftPadded(to: 8)
  }
}
