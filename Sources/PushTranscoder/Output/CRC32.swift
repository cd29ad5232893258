import CCRCFold
import CZlib

/// An incremental CRC-32 (the gzip / zlib polynomial), for the manifest's `crc32` of each
/// batch's uncompressed content (SPEC 6.8) and the trailers of gzip batch files.
///
/// Whole 64-byte blocks are folded with PCLMULQDQ where the CPU has it (`CCRCFold`, about
/// ten times zlib 1.2's table-driven `crc32` on the benchmark machine), and zlib's `crc32`
/// takes the folded block and the rest; elsewhere zlib does it all. The value is the same.
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
    if remaining >= 64 {
      var block: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) =
        (0, 0, 0, 0, 0, 0, 0, 0)
      // Safe because `block` is 64 bytes and `pointer` has `remaining` readable bytes; the fold
      // reads only whole 64-byte blocks of them and returns how many bytes it folded.
      let folded = withUnsafeMutableBytes(of: &block) { block in
        let out = block.baseAddress!.assumingMemoryBound(to: UInt8.self)
        let folded = push_transcode_crc32_fold(pointer, remaining, ~UInt32(crc), out)
        // A register of 0 over the folded block is where the input's register stands:
        // zlib's `crc32(0xFFFFFFFF, …)` starts from 0 (it inverts what it is given).
        if folded > 0 { crc = crc32(0xFFFF_FFFF, out, 64) }
        return folded
      }
      pointer += folded
      remaining -= folded
    }
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
