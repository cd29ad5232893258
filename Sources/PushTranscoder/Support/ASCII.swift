/// Byte constants used by the tokenizer, the framing code and the writers.
///
/// Keeping them in one namespace means no magic numbers are scattered across hot loops.
package enum ASCII {
  /// `\t` (horizontal tab), JSON whitespace.
  package static let tab: UInt8 = 0x09
  /// `\n` (line feed): the line terminator, and JSON whitespace.
  package static let newline: UInt8 = 0x0A
  /// `\r` (carriage return), JSON whitespace.
  package static let carriageReturn: UInt8 = 0x0D
  /// Space, JSON whitespace; the bytes below it are control characters.
  package static let space: UInt8 = 0x20
  /// `"`, which opens and closes a JSON string.
  package static let quote: UInt8 = 0x22
  /// `+`, the optional sign of a number's exponent.
  package static let plus: UInt8 = 0x2B
  /// `,`, between array elements and object members.
  package static let comma: UInt8 = 0x2C
  /// `-`, the sign of a number or of its exponent.
  package static let minus: UInt8 = 0x2D
  /// `.`, before a number's fraction.
  package static let period: UInt8 = 0x2E
  /// `/`, which JSON may escape as `\/`.
  package static let slash: UInt8 = 0x2F
  /// `0`, the first decimal digit.
  package static let zero: UInt8 = 0x30
  /// `1`, the digit one.
  package static let one: UInt8 = 0x31
  /// `9`, the last decimal digit.
  package static let nine: UInt8 = 0x39
  /// `:`, between an object key and its value.
  package static let colon: UInt8 = 0x3A
  /// `A`, the first upper-case hex digit letter.
  package static let upperA: UInt8 = 0x41
  /// `E`, which may start a number's exponent.
  package static let upperE: UInt8 = 0x45
  /// `F`, the last upper-case hex digit letter.
  package static let upperF: UInt8 = 0x46
  /// `[`, which opens an array.
  package static let openBracket: UInt8 = 0x5B
  /// `\`, which starts an escape in a JSON string.
  package static let backslash: UInt8 = 0x5C
  /// `]`, which closes an array.
  package static let closeBracket: UInt8 = 0x5D
  /// `a`, the first lower-case hex digit letter.
  package static let lowerA: UInt8 = 0x61
  /// `b`, as in the escape `\b` (backspace).
  package static let lowerB: UInt8 = 0x62
  /// `e`, which may start a number's exponent.
  package static let lowerE: UInt8 = 0x65
  /// `f`, as in the escape `\f` (form feed) and the literal `false`.
  package static let lowerF: UInt8 = 0x66
  /// `n`, as in the escape `\n` (line feed) and the literal `null`.
  package static let lowerN: UInt8 = 0x6E
  /// `r`, as in the escape `\r` (carriage return).
  package static let lowerR: UInt8 = 0x72
  /// `t`, as in the escape `\t` (tab) and the literal `true`.
  package static let lowerT: UInt8 = 0x74
  /// `u`, as in the escape `\uXXXX`.
  package static let lowerU: UInt8 = 0x75
  /// `{`, which opens an object.
  package static let openBrace: UInt8 = 0x7B
  /// `}`, which closes an object.
  package static let closeBrace: UInt8 = 0x7D

  /// The UTF-8 byte-order mark, skipped at the start of a file.
  package static let byteOrderMark: (UInt8, UInt8, UInt8) = (0xEF, 0xBB, 0xBF)

  /// True for the four bytes JSON treats as whitespace between tokens (RFC 8259 §2).
  @inline(__always)
  package static func isWhitespace(_ byte: UInt8) -> Bool {
    byte == space || byte == newline || byte == carriageReturn || byte == tab
  }
}

/// Word-at-a-time (SWAR) helpers shared by the scanners.
enum SWAR {
  /// The number of bytes of `mask` whose bit 7 is set, for a mask with no other bit set (what
  /// the byte-class tests produce). A shift and a multiply sum the bytes into the top one (at
  /// most 8, so nothing carries out), where `nonzeroBitCount` compiles, for the baseline x86-64
  /// target (no POPCNT), to a long bit-twiddling sequence.
  @inline(__always)
  static func countHighBits(_ mask: UInt64) -> Int {
    // Safe because the multiply's wrap only drops partial sums above the top byte, as intended.
    Int(truncatingIfNeeded: ((mask &>> 7) &* 0x0101_0101_0101_0101) &>> 56)
  }

  /// Bit 7 set in exactly the bytes of `word` equal to `byte` (no borrow between bytes, unlike
  /// `matches`), for counting them.
  @inline(__always)
  static func exactMatches(_ word: UInt64, _ byte: UInt8) -> UInt64 {
    let ones: UInt64 = 0x0101_0101_0101_0101
    let low: UInt64 = 0x7F7F_7F7F_7F7F_7F7F
    let x = word ^ (ones &* UInt64(byte))
    // A byte's low seven bits plus 0x7F carry into bit 7 unless they are all zero; or-ing the
    // byte itself sets bit 7 for any byte with its own bit 7 set: bit 7 stays clear only for a
    // zero byte. Safe because no byte's sum exceeds 0xFE, so nothing carries between bytes.
    return ~(((x & low) &+ low) | x | low)
  }

  /// Bit 7 set in each byte of `word` equal to `byte`, as a zero-byte test: exact as a whole
  /// (zero when no byte matches) and for its lowest set bit; a higher bit can be set by the
  /// borrow of a match below it.
  @inline(__always)
  static func matches(_ word: UInt64, _ byte: UInt8) -> UInt64 {
    let ones: UInt64 = 0x0101_0101_0101_0101
    let x = word ^ (ones &* UInt64(byte))
    // Safe because the borrow of `&-` is the zero-byte test itself (see above); `ones &* byte`
    // cannot wrap (at most 0xFF per byte).
    return (x &- ones) & ~x & 0x8080_8080_8080_8080
  }
}
