/// Fast scans for `\n`: the count 64 bytes a step, the search for the last one 32 at a time.
///
/// Each compare yields a lane mask of 0 / 0xFF; subtracting it from a byte accumulator adds 1
/// per newline, and the accumulators are summed every 255 steps before a lane can wrap.
enum NewlineScan {
  private static let newlines = SIMD32<UInt8>(repeating: ASCII.newline)

  /// The number of `\n` bytes in `bytes[0..<count]`.
  static func count(_ bytes: UnsafeRawPointer, _ count: Int) -> Int {
    // A local copy: the static's lazy initialisation is checked once, not in the loop.
    let newlines = Self.newlines
    var total = 0
    var index = 0
    // Two accumulators of 32 lanes, 64 bytes a step: the two compares are independent.
    while index &+ 64 <= count {
      var even = SIMD32<UInt8>()
      var odd = SIMD32<UInt8>()
      // At most 255 steps, so no lane of either accumulator passes 255.
      let blockEnd = index &+ min(count &- index, 64 &* 255)
      // Safe because index + 64 <= blockEnd <= count for both 32-byte loads; offsets stay
      // below `count`, so `&+` cannot wrap.
      while index &+ 64 <= blockEnd {
        let first = bytes.loadUnaligned(fromByteOffset: index, as: SIMD32<UInt8>.self)
        let second = bytes.loadUnaligned(fromByteOffset: index &+ 32, as: SIMD32<UInt8>.self)
        // Safe because SIMDMask<SIMD32<Int8>> is 32 lanes of 0 or -1, the size of
        // SIMD32<UInt8>; `&-` of 0xFF adds 1 per lane.
        even &-= unsafeBitCast(first .== newlines, to: SIMD32<UInt8>.self)
        odd &-= unsafeBitCast(second .== newlines, to: SIMD32<UInt8>.self)
        index &+= 64
      }
      total &+= laneSum(even) &+ laneSum(odd)
    }
    // Safe because index < count.
    while index < count {
      if bytes.load(fromByteOffset: index, as: UInt8.self) == ASCII.newline { total &+= 1 }
      index &+= 1
    }
    return total
  }

  /// The sum of 32 byte lanes, by halving widths in plain 64-bit words: bytes to 16-bit lanes,
  /// then one multiply adds the four 16-bit lanes of a word (at most 8 × 255, no carry out of
  /// 16 bits) into its top lane.
  @inline(__always)
  private static func laneSum(_ lanes: SIMD32<UInt8>) -> Int {
    // Safe because SIMD32<UInt8> and SIMD4<UInt64> are both 32 bytes of plain bits.
    let words = unsafeBitCast(lanes, to: SIMD4<UInt64>.self)
    let low: UInt64 = 0x00FF_00FF_00FF_00FF
    let pairs = (words & low) &+ ((words &>> 8) & low)
    let sum = pairs[0] &+ pairs[1] &+ pairs[2] &+ pairs[3]
    // Each 16-bit lane of `sum` holds at most 4 words × 2 bytes × 255 = 2040.
    return Int(truncatingIfNeeded: (sum &* 0x0001_0001_0001_0001) &>> 48)
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
