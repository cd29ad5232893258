/// UTF-8 validation and repair of whole lines (SPEC 2.2, 9).
///
/// A line that is not valid UTF-8 anywhere is `invalid-unicode`, whatever else is wrong with it,
/// so validation runs over the whole line before the tokenizer (the tokenizer's fast path checks
/// the bytes inside strings itself and falls back to this when anything is wrong). ASCII runs are
/// checked 32 bytes at a time; multi-byte sequences follow Unicode's Table 3-7 (well-formed byte
/// sequences), four bytes at a time when the line has that many left.
package enum UTF8Validation {
  /// The high bit of every byte of a word.
  static let highBits: UInt64 = 0x8080_8080_8080_8080

  /// The offset of the first byte of the first ill-formed subsequence, or nil if `bytes` is
  /// valid UTF-8.
  package static func firstInvalidOffset(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
    guard let base = bytes.baseAddress else { return nil }
    let count = bytes.count
    var index = 0
    while index < count {
      // ASCII fast path: 32 bytes per iteration while whole blocks remain.
      while index &+ 32 <= count {
        // Safe because index + 32 <= count, so both unaligned 16-byte loads are in bounds.
        let raw = UnsafeRawPointer(base + index)
        let block =
          raw.loadUnaligned(as: SIMD16<UInt8>.self)
          | raw.loadUnaligned(fromByteOffset: 16, as: SIMD16<UInt8>.self)
        // Safe because SIMD16<UInt8> and SIMD2<UInt64> are both 16 bytes of plain bits.
        let lanes = unsafeBitCast(block, to: SIMD2<UInt64>.self)
        if (lanes[0] | lanes[1]) & highBits != 0 { break }
        index &+= 32
      }
      // Then to the first non-ASCII byte, eight bytes at a time.
      while index &+ 8 <= count {
        // Safe because index + 8 <= count.
        let word = UInt64(
          littleEndian: UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self))
        let high = word & highBits
        if high != 0 {
          // Safe because the lowest high bit marks a byte of this word: index stays < count.
          index &+= high.trailingZeroBitCount &>> 3
          break
        }
        index &+= 8
      }
      guard index < count else { return nil }
      // Safe because index < count.
      if base[index] < 0x80 {
        // Fewer than eight bytes remain.
        index &+= 1
        continue
      }
      // A run of multi-byte sequences (CJK text is mostly unbroken runs of them).
      repeat {
        // Safe because index < count: the sequence check reads at most count - index bytes.
        let length = validSequenceLength(base + index, count &- index)
        if length == 0 { return index }
        index &+= length
      } while index < count && base[index] >= 0x80  // Safe because index < count.
    }
    return nil
  }

  /// The length of the well-formed multi-byte sequence at `p` (whose first byte is at least
  /// 0x80), or 0 if the sequence there is ill-formed or cut short by the end of the `available`
  /// bytes. The same rules as `wellFormedPrefixLength`, checked on one 32-bit word when four
  /// bytes are available.
  @inline(__always)
  static func validSequenceLength(_ p: UnsafePointer<UInt8>, _ available: Int) -> Int {
    guard available >= 4 else {
      let length = wellFormedPrefixLength(p, available)
      return length.isComplete ? length.bytes : 0
    }
    // Safe because available >= 4: the unaligned 4-byte load stays inside the buffer. The
    // first byte is the word's low byte.
    let word = UInt32(littleEndian: UnsafeRawPointer(p).loadUnaligned(as: UInt32.self))
    if word & 0x00C0_C0F0 == 0x0080_80E0 {
      // 1110xxxx 10xxxxxx 10xxxxxx: E0 needs a second byte of A0...BF (bit 5 set; else
      // overlong), ED one of 80...9F (bit 5 clear; else a surrogate).
      let check = word & 0x200F
      return check != 0 && check != 0x200D ? 3 : 0
    }
    if word & 0xC0E0 == 0x80C0 {
      // 110xxxxx 10xxxxxx: C0 and C1 are overlong.
      return word & 0x1E != 0 ? 2 : 0
    }
    if word & 0xC0C0_C0F8 == 0x8080_80F0 {
      // 11110xxx 10xxxxxx 10xxxxxx 10xxxxxx: the scalar's bits above the low 12 must be
      // 0x10...0x10F (U+10000...U+10FFFF).
      let plane = (word & 0x07) << 6 | (word >> 8) & 0x3F
      // Safe because the wrap is intended: a plane below 0x10 wraps above 0x100 and fails too.
      return plane &- 0x10 < 0x100 ? 4 : 0
    }
    return 0
  }

  /// The length of the (possibly partial) well-formed sequence starting at `p`: `bytes` is the
  /// length of the maximal valid prefix (at least 1), `isComplete` whether it forms a scalar.
  @inline(__always)
  static func wellFormedPrefixLength(_ p: UnsafePointer<UInt8>, _ available: Int) -> (
    bytes: Int, isComplete: Bool
  ) {
    // Safe because callers pass available >= 1 (an index below their count), and `p[length]`
    // is read only when length < available.
    let lead = p[0]
    var needed: Int
    var low: UInt8 = 0x80
    var high: UInt8 = 0xBF
    switch lead {
    case 0x00...0x7F: return (1, true)
    case 0xC2...0xDF: needed = 1
    case 0xE0:
      needed = 2
      low = 0xA0
    case 0xE1...0xEC, 0xEE...0xEF: needed = 2
    case 0xED:
      needed = 2
      high = 0x9F
    case 0xF0:
      needed = 3
      low = 0x90
    case 0xF1...0xF3: needed = 3
    case 0xF4:
      needed = 3
      high = 0x8F
    default: return (1, false)
    }
    var length = 1
    while needed > 0 {
      guard length < available else { return (length, false) }
      let byte = p[length]
      guard byte >= low && byte <= high else { return (length, false) }
      low = 0x80
      high = 0xBF
      length += 1
      needed -= 1
    }
    return (length, true)
  }

  /// Copies `bytes` into `output`, replacing each maximal ill-formed subsequence with U+FFFD
  /// (`--unicode replace`). Returns the number of replacements.
  package static func replacingInvalid(
    _ bytes: UnsafeBufferPointer<UInt8>, into output: inout [UInt8]
  )
    -> Int
  {
    output.removeAll(keepingCapacity: true)
    guard let base = bytes.baseAddress else { return 0 }
    var replaced = 0
    var index = 0
    let count = bytes.count
    // Safe because index < count, and a prefix's `bytes` never exceeds the count - index given.
    while index < count {
      if base[index] < 0x80 {
        output.append(base[index])
        index += 1
        continue
      }
      let length = wellFormedPrefixLength(base + index, count - index)
      if length.isComplete {
        output.append(contentsOf: UnsafeBufferPointer(start: base + index, count: length.bytes))
      } else {
        output.append(contentsOf: [0xEF, 0xBF, 0xBD])
        replaced += 1
      }
      index += length.bytes
    }
    return replaced
  }

  /// The offset in `bytes` (the line as read) of byte `repairedOffset` of its repaired copy
  /// (`replacingInvalid`): a fault found in the repaired line is reported where it is in the
  /// line as read (SPEC 6.4). An offset inside a U+FFFD that replaced ill-formed bytes maps to
  /// the first of them.
  package static func originalOffset(
    ofRepairedOffset repairedOffset: Int, in bytes: UnsafeBufferPointer<UInt8>
  )
    -> Int
  {
    guard let base = bytes.baseAddress else { return 0 }
    var index = 0
    var repaired = 0
    let count = bytes.count
    // Safe because index < count, and a prefix's `bytes` never exceeds the count - index given.
    while index < count && repaired < repairedOffset {
      if base[index] < 0x80 {
        index += 1
        repaired += 1
        continue
      }
      let length = wellFormedPrefixLength(base + index, count - index)
      let written = length.isComplete ? length.bytes : 3
      if repaired + written > repairedOffset { return index }
      index += length.bytes
      repaired += written
    }
    return index + (repairedOffset - repaired)
  }
}
