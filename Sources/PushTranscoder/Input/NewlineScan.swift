import CByteScan

/// Fast scans for `\n`: every line end 128 bytes a step, the search for the last one 32 at a
/// time.
enum NewlineScan {
  private static let newlines = SIMD32<UInt8>(repeating: ASCII.newline)

  /// Appends `base + i` to `ends` for every `\n` at `bytes[i]`, `i < count`, in order: the line
  /// ends of a chunk, found in the one pass that also counts its lines (the line walk then
  /// reads them instead of searching each line).
  ///
  /// 128 bytes a step are tested for any newline; a step that has one takes two 64-bit masks
  /// (SSE2 `pmovmskb` through the shim), then one trailing-zero count per newline.
  static func appendEnds(
    _ bytes: UnsafePointer<UInt8>, _ count: Int, base: Int, to ends: inout [Int]
  ) {
    @inline(__always)
    func append(_ mask: UInt64, at offset: Int) {
      var mask = mask
      while mask != 0 {
        ends.append(offset &+ mask.trailingZeroBitCount)
        mask &= mask &- 1
      }
    }
    var index = 0
    // Safe because index + 128 <= count for every 128-byte step (its two 64-byte masks inside
    // it), index + 64 <= count for the last 64-byte mask, and the tail is read byte by byte
    // below `count`; offsets stay below `base + count`, so `&+` cannot wrap.
    while index &+ 128 <= count {
      if pt_has_newline128(bytes + index) != 0 {
        append(pt_newlines64(bytes + index), at: base &+ index)
        append(pt_newlines64(bytes + (index &+ 64)), at: base &+ index &+ 64)
      }
      index &+= 128
    }
    if index &+ 64 <= count {
      append(pt_newlines64(bytes + index), at: base &+ index)
      index &+= 64
    }
    while index < count {
      if bytes[index] == ASCII.newline { ends.append(base &+ index) }
      index &+= 1
    }
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
