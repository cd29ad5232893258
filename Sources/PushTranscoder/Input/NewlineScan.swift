/// Fast scans for `\n`, 32 bytes at a time.
///
/// Each compare yields a lane mask of 0 / 0xFF; subtracting it from a byte accumulator adds 1
/// per newline, and the accumulator is widened and summed every 255 blocks before it can wrap.
enum NewlineScan {
  private static let newlines = SIMD32<UInt8>(repeating: ASCII.newline)

  /// The number of `\n` bytes in `bytes[0..<count]`.
  static func count(_ bytes: UnsafeRawPointer, _ count: Int) -> Int {
    var total = 0
    var index = 0
    while index + 32 <= count {
      var lanes = SIMD32<UInt8>()
      let blockEnd = min(count, index + 32 * 255)
      while index + 32 <= blockEnd {
        // Safe because index + 32 <= blockEnd <= count.
        let block = bytes.loadUnaligned(fromByteOffset: index, as: SIMD32<UInt8>.self)
        // Safe because SIMDMask<SIMD32<Int8>> is 32 lanes of 0 or -1, the size of SIMD32<UInt8>;
        // `&-` of 0xFF adds 1 per lane, and 255 blocks at most keep every lane below 256.
        lanes &-= unsafeBitCast(block .== newlines, to: SIMD32<UInt8>.self)
        index += 32
      }
      // Safe because 32 lanes of at most 255 sum to at most 8160, which UInt16 holds.
      total += Int(SIMD32<UInt16>(truncatingIfNeeded: lanes).wrappedSum())
    }
    // Safe because index < count.
    while index < count {
      if bytes.load(fromByteOffset: index, as: UInt8.self) == ASCII.newline { total += 1 }
      index += 1
    }
    return total
  }

  /// The index of the last `\n` in `bytes[0..<count]`, or nil.
  static func lastIndex(_ bytes: UnsafeRawPointer, _ count: Int) -> Int? {
    var end = count
    // Safe because 32 <= end <= count for the block loads and 0 <= end < count for the bytes.
    while end >= 32 {
      let block = bytes.loadUnaligned(fromByteOffset: end - 32, as: SIMD32<UInt8>.self)
      if any(block .== newlines) { break }
      end -= 32
    }
    while end > 0 {
      end -= 1
      if bytes.load(fromByteOffset: end, as: UInt8.self) == ASCII.newline { return end }
    }
    return nil
  }
}
