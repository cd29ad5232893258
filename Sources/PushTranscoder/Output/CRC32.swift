import CZlib

/// An incremental CRC-32 (the gzip / zlib polynomial) via zlib's `crc32`, for the manifest's
/// `crc32` of each batch's uncompressed content (SPEC 6.8).
public struct CRC32: Sendable, Equatable {
  /// The checksum of everything fed so far (0 for nothing).
  public private(set) var value: UInt32 = 0

  /// A checksum of no bytes yet (value 0).
  public init() {}

  /// Feeds `bytes`.
  public mutating func update(_ bytes: UnsafeRawBufferPointer) {
    // Safe because `Bytef` is `UInt8` and zlib only reads the bytes; `pointer` advances by
    // `piece <= remaining`, so it never passes the end of `bytes`.
    guard var pointer = bytes.baseAddress?.assumingMemoryBound(to: Bytef.self) else { return }
    var remaining = bytes.count
    var crc = uLong(value)
    // zlib takes a 32-bit length: feed at most 1 GiB at a time.
    while remaining > 0 {
      let piece = min(remaining, 1 << 30)
      crc = crc32(crc, pointer, uInt(piece))
      pointer += piece
      remaining -= piece
    }
    value = UInt32(truncatingIfNeeded: crc)
  }

  /// Feeds `bytes`.
  public mutating func update(_ bytes: [UInt8]) {
    bytes.withUnsafeBytes { update($0) }
  }

  /// The checksum of `bytes` alone.
  public static func checksum(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt32 {
    var crc = CRC32()
    crc.update(UnsafeRawBufferPointer(bytes))
    return crc.value
  }

  /// The checksum of `bytes` alone.
  public static func checksum(_ bytes: [UInt8]) -> UInt32 {
    var crc = CRC32()
    crc.update(bytes)
    return crc.value
  }

  /// The value as 8 lower-case hex digits, as the manifest writes it.
  public var hex: String { Self.hex(value) }

  /// `value` as 8 lower-case hex digits (the manifest's `crc32`).
  public static func hex(_ value: UInt32) -> String {
    String(value, radix: 16).leftPadded(to: 8)
  }
}
