/// UTF-8 validation and repair of whole lines (SPEC 2.2, 9).
///
/// A line that is not valid UTF-8 anywhere is `invalid-unicode`, whatever else is wrong with it,
/// so validation runs over the whole line before the tokenizer. ASCII runs are checked eight
/// bytes at a time; multi-byte sequences follow Unicode's Table 3-7 (well-formed byte sequences).
public enum UTF8Validation {
  /// The offset of the first byte of the first ill-formed subsequence, or nil if `bytes` is
  /// valid UTF-8.
  public static func firstInvalidOffset(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
    guard let base = bytes.baseAddress else { return nil }
    let count = bytes.count
    var index = 0
    while index < count {
      // ASCII fast path: 32 bytes per iteration while whole words remain.
      while index &+ 32 <= count {
        // Safe because index + 32 <= count, so the four unaligned 8-byte loads are in bounds.
        let raw = UnsafeRawPointer(base + index)
        let a = raw.loadUnaligned(as: UInt64.self)
        let b = raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self)
        let c = raw.loadUnaligned(fromByteOffset: 16, as: UInt64.self)
        let d = raw.loadUnaligned(fromByteOffset: 24, as: UInt64.self)
        if (a | b | c | d) & 0x8080_8080_8080_8080 != 0 { break }
        index &+= 32
      }
      guard index < count else { return nil }
      let lead = base[index]
      if lead < 0x80 {
        index &+= 1
        continue
      }
      let length = wellFormedPrefixLength(base + index, count - index)
      if length.isComplete {
        index &+= length.bytes
      } else {
        return index
      }
    }
    return nil
  }

  /// The length of the (possibly partial) well-formed sequence starting at `p`: `bytes` is the
  /// length of the maximal valid prefix (at least 1), `isComplete` whether it forms a scalar.
  @inline(__always)
  static func wellFormedPrefixLength(_ p: UnsafePointer<UInt8>, _ available: Int) -> (
    bytes: Int, isComplete: Bool
  ) {
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
  public static func replacingInvalid(
    _ bytes: UnsafeBufferPointer<UInt8>, into output: inout [UInt8]
  )
    -> Int
  {
    output.removeAll(keepingCapacity: true)
    guard let base = bytes.baseAddress else { return 0 }
    var replaced = 0
    var index = 0
    let count = bytes.count
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
}
