import CZlib
import Testing

@testable import PushTranscoder

/// `CRC32` (libdeflate's folded CRC-32) must give zlib's `crc32`, the reference, for every
/// length, alignment, starting value and way of feeding the bytes.
@Suite struct CRC32Tests {
  /// zlib's `crc32` alone, the reference.
  static func zlibCRC(_ bytes: UnsafeRawBufferPointer, from start: UInt32 = 0) -> UInt32 {
    guard let base = bytes.baseAddress else { return start }
    return UInt32(
      truncatingIfNeeded: crc32(
        uLong(start), base.assumingMemoryBound(to: Bytef.self), uInt(bytes.count)))
  }

  static func randomBytes(_ count: Int, seed: UInt64) -> [UInt8] {
    var generator = SplitMix64(seed: seed)
    return (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) }
  }

  @Test func knownValues() {
    #expect(CRC32.checksum(Array("123456789".utf8)) == 0xCBF4_3926)
    #expect(CRC32.checksum([UInt8]()) == 0)
    // 64 and more bytes take the folded path.
    let zeros = [UInt8](repeating: 0, count: 4096)
    #expect(CRC32.checksum(zeros) == zeros.withUnsafeBytes { Self.zlibCRC($0) })
    let ones = [UInt8](repeating: 0xFF, count: 1000)
    #expect(CRC32.checksum(ones) == ones.withUnsafeBytes { Self.zlibCRC($0) })
  }

  @Test func everyLengthAndAlignmentMatchesZlib() {
    let bytes = Self.randomBytes(4096 + 64, seed: 7)
    bytes.withUnsafeBytes { all in
      for offset in 0..<17 {
        for length in Array(0...300) + [511, 512, 513, 1023, 1024, 4000, 4096] {
          let slice = UnsafeRawBufferPointer(rebasing: all[offset..<(offset + length)])
          var crc = CRC32()
          crc.update(slice)
          #expect(crc.value == Self.zlibCRC(slice), "offset \(offset), length \(length)")
        }
      }
    }
  }

  @Test func piecesGiveTheWholeChecksum() {
    let bytes = Self.randomBytes(50_000, seed: 11)
    let whole = bytes.withUnsafeBytes { Self.zlibCRC($0) }
    for pieceLength in [1, 3, 63, 64, 65, 100, 4096, 10_000] {
      var crc = CRC32()
      var start = 0
      bytes.withUnsafeBytes { all in
        while start < all.count {
          let end = min(all.count, start + pieceLength)
          crc.update(UnsafeRawBufferPointer(rebasing: all[start..<end]))
          start = end
        }
      }
      #expect(crc.value == whole, "pieces of \(pieceLength)")
    }
  }

  @Test func largeInputMatchesZlib() {
    let bytes = Self.randomBytes(3 << 20, seed: 13)
    #expect(CRC32.checksum(bytes) == bytes.withUnsafeBytes { Self.zlibCRC($0) })
  }

}
