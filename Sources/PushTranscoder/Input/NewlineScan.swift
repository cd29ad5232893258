import CByteScan

/// Fast scans for `\n`: the count 64 bytes a step, the line ends recorded while counting (64
/// bytes a step), the search for the last one 32 at a time.
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

  /// Counts the `\n` bytes of `bytes[0..<count]`, as `count(_:_:)` does, and records where the
  /// first of them are: each newline's offset plus `offset` goes to `ends[recorded]`, and
  /// `recorded` goes up, until it reaches `limit`; the newlines after that are only counted.
  /// Returns the number of newlines.
  ///
  /// Each step takes the newline mask of 64 bytes (SSE2 `pmovmskb`, `pt_newlines64`) and walks
  /// its set bits, so a line end costs a few instructions on top of the scan, and the worker
  /// that splits the lines later reads them instead of searching again.
  ///
  /// - Precondition: `ends` holds `limit` slots, and unless `limit` is 0, `offset + count` fits
  ///   in `UInt32`.
  static func lineEnds(
    _ bytes: UnsafePointer<UInt8>, _ count: Int, offset: Int,
    into ends: UnsafeMutablePointer<UInt32>, recorded: inout Int, limit: Int
  ) -> Int {
    precondition(
      offset >= 0 && recorded <= limit && (limit == 0 || offset &+ count <= Int(UInt32.max)))
    var total = 0
    var index = 0
    var slot = recorded
    // While `slot <= roomFor64`, a whole mask's newlines can be recorded without a check each.
    let roomFor64 = limit &- 64
    while index &+ 64 <= count {
      // Safe because index + 64 <= count: the 64 bytes lie in `bytes`.
      var mask = pt_newlines64(bytes + index)
      if mask == 0 {
        // Most blocks of a log line hold no line end.
      } else if slot <= roomFor64 {
        // Room for every bit of the mask. Safe because slot + 64 <= limit, and each offset is
        // below offset + count, which fits in UInt32.
        let blockOffset = UInt32(truncatingIfNeeded: offset &+ index)
        while mask != 0 {
          ends[slot] = blockOffset &+ UInt32(truncatingIfNeeded: mask.trailingZeroBitCount)
          slot &+= 1
          mask &= mask &- 1
        }
      } else {
        while mask != 0 {
          // Safe because slot < limit before each store.
          if slot < limit {
            ends[slot] = UInt32(truncatingIfNeeded: offset &+ index &+ mask.trailingZeroBitCount)
            slot &+= 1
          } else {
            total &+= 1
          }
          mask &= mask &- 1
        }
      }
      index &+= 64
    }
    // Safe because index < count in the loop, and slot < limit before each store.
    while index < count {
      if bytes[index] == ASCII.newline {
        if slot < limit {
          ends[slot] = UInt32(truncatingIfNeeded: offset &+ index)
          slot &+= 1
        } else {
          total &+= 1
        }
      }
      index &+= 1
    }
    total &+= slot &- recorded
    recorded = slot
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
