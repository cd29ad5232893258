/// Decoding of JSON string escapes and canonical re-escaping (SPEC 4).
///
/// Canonical form: UTF-8 as is; only `"`, `\` and control characters are escaped; the controls
/// with a short form use it (`\b \f \n \r \t`), the others `\u00xx` with lower-case hex; `/` is
/// not escaped.
public enum JSONEscapes {
  /// The value of a hexadecimal digit, or nil.
  @inline(__always)
  public static func hexValue(_ byte: UInt8) -> UInt8? {
    switch byte {
    case ASCII.zero...ASCII.nine: return byte - ASCII.zero
    case ASCII.lowerA...ASCII.lowerF: return byte - ASCII.lowerA + 10
    case ASCII.upperA...ASCII.upperF: return byte - ASCII.upperA + 10
    default: return nil
    }
  }

  /// The length of `byte` once canonically escaped (1 for bytes written as is).
  @inline(__always)
  public static func escapedLength(_ byte: UInt8) -> Int {
    if byte >= ASCII.space {
      return byte == ASCII.quote || byte == ASCII.backslash ? 2 : 1
    }
    switch byte {
    case 0x08, 0x09, 0x0A, 0x0C, 0x0D: return 2
    default: return 6
    }
  }

  /// The canonically escaped length of decoded UTF-8 `bytes`.
  public static func escapedLength(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
    var total = 0
    for byte in bytes { total &+= escapedLength(byte) }
    return total
  }

  /// Appends the canonical escape of `byte` (which needs one) to `output`.
  @inline(__always)
  static func appendEscape(_ byte: UInt8, to output: inout [UInt8]) {
    switch byte {
    case ASCII.quote: output.append(contentsOf: [ASCII.backslash, ASCII.quote])
    case ASCII.backslash: output.append(contentsOf: [ASCII.backslash, ASCII.backslash])
    case 0x08: output.append(contentsOf: [ASCII.backslash, ASCII.lowerB])
    case 0x09: output.append(contentsOf: [ASCII.backslash, ASCII.lowerT])
    case 0x0A: output.append(contentsOf: [ASCII.backslash, ASCII.lowerN])
    case 0x0C: output.append(contentsOf: [ASCII.backslash, ASCII.lowerF])
    case 0x0D: output.append(contentsOf: [ASCII.backslash, ASCII.lowerR])
    default:
      let digits: StaticString = "0123456789abcdef"
      output.append(contentsOf: [ASCII.backslash, ASCII.lowerU, ASCII.zero, ASCII.zero])
      output.append(digits.utf8Start[Int(byte >> 4)])
      output.append(digits.utf8Start[Int(byte & 15)])
    }
  }

  /// Appends decoded UTF-8 `bytes` canonically escaped (no quotes).
  public static func appendEscaped(_ bytes: UnsafeBufferPointer<UInt8>, to output: inout [UInt8]) {
    var runStart = 0
    var index = 0
    let count = bytes.count
    while index < count {
      let byte = bytes[index]
      if byte >= ASCII.space && byte != ASCII.quote && byte != ASCII.backslash {
        index += 1
        continue
      }
      if runStart < index {
        output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<index]))
      }
      appendEscape(byte, to: &output)
      index += 1
      runStart = index
    }
    if runStart < count {
      output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<count]))
    }
  }

  /// Appends escaped JSON string content (validated by the tokenizer) in canonical form, in one
  /// pass without an intermediate buffer: runs between backslashes are already canonical (raw
  /// string content holds no `"`, `\` or control byte) and are copied; each escape is decoded
  /// and written again canonically.
  public static func appendCanonical(
    _ content: UnsafeBufferPointer<UInt8>, to output: inout [UInt8]
  ) {
    var index = 0
    var runStart = 0
    let count = content.count
    while index < count {
      guard content[index] == ASCII.backslash, index + 1 < count else {
        index += 1
        continue
      }
      if runStart < index {
        output.append(contentsOf: UnsafeBufferPointer(rebasing: content[runStart..<index]))
      }
      let kind = content[index + 1]
      index += 2
      switch kind {
      case ASCII.lowerB: appendEscape(0x08, to: &output)
      case ASCII.lowerF: appendEscape(0x0C, to: &output)
      case ASCII.lowerN: appendEscape(0x0A, to: &output)
      case ASCII.lowerR: appendEscape(0x0D, to: &output)
      case ASCII.lowerT: appendEscape(0x09, to: &output)
      case ASCII.quote, ASCII.backslash: appendEscape(kind, to: &output)
      case ASCII.lowerU:
        let scalar = decodeUnicodeEscape(content, &index)
        if scalar < 0x20 {
          appendEscape(UInt8(scalar), to: &output)
        } else if scalar == UInt32(ASCII.quote) || scalar == UInt32(ASCII.backslash) {
          appendEscape(UInt8(scalar), to: &output)
        } else {
          appendUTF8(scalar, to: &output)
        }
      default: output.append(kind)  // `/`
      }
      runStart = index
    }
    if runStart < count {
      output.append(contentsOf: UnsafeBufferPointer(rebasing: content[runStart..<count]))
    }
  }

  /// The length `appendCanonical` would append, without writing anything.
  public static func canonicalLength(_ content: UnsafeBufferPointer<UInt8>) -> Int {
    var index = 0
    var length = 0
    let count = content.count
    while index < count {
      guard content[index] == ASCII.backslash, index + 1 < count else {
        length += 1
        index += 1
        continue
      }
      let kind = content[index + 1]
      index += 2
      switch kind {
      case ASCII.lowerU:
        let scalar = decodeUnicodeEscape(content, &index)
        switch scalar {
        case 0..<0x20: length += escapedLength(UInt8(scalar))
        case UInt32(ASCII.quote), UInt32(ASCII.backslash): length += 2
        case 0x20..<0x80: length += 1
        case 0x80..<0x800: length += 2
        case 0x800..<0x10000: length += 3
        default: length += 4
        }
      case ASCII.slash: length += 1
      default: length += 2  // \b \f \n \r \t \" \\ stay two bytes
      }
    }
    return length
  }

  /// Decodes the `\u` escape whose hex digits start at `index` (a surrogate pair included) and
  /// moves `index` past it. A lone surrogate decodes to U+FFFD.
  @inline(__always)
  static func decodeUnicodeEscape(_ content: UnsafeBufferPointer<UInt8>, _ index: inout Int)
    -> UInt32
  {
    let count = content.count
    var scalar = hex4(content, index)
    index += 4
    if scalar >= 0xD800 && scalar <= 0xDBFF && index + 6 <= count
      && content[index] == ASCII.backslash && content[index + 1] == ASCII.lowerU
    {
      let low = hex4(content, index + 2)
      if low >= 0xDC00 && low <= 0xDFFF {
        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
        index += 6
      }
    }
    if scalar >= 0xD800 && scalar <= 0xDFFF { scalar = 0xFFFD }
    return scalar
  }

  /// Decodes JSON string content (validated by the tokenizer) into UTF-8. A lone surrogate
  /// escape (accepted only with `--unicode replace`) decodes to U+FFFD.
  public static func decode(_ content: UnsafeBufferPointer<UInt8>, into output: inout [UInt8]) {
    decode(content, into: &output, maxScalars: Int.max)
  }

  /// Decodes at most the first `maxScalars` scalars of JSON string content (cuts need only a
  /// prefix; long texts are not decoded whole).
  public static func decode(
    _ content: UnsafeBufferPointer<UInt8>, into output: inout [UInt8], maxScalars: Int
  ) {
    var index = 0
    let count = content.count
    var scalars = 0
    while index < count {
      if content[index] & 0xC0 != 0x80 {
        // A lead byte or an escape starts the next scalar.
        if scalars == maxScalars { return }
        scalars += 1
      }
      let byte = content[index]
      guard byte == ASCII.backslash, index + 1 < count else {
        output.append(byte)
        index += 1
        continue
      }
      let kind = content[index + 1]
      index += 2
      switch kind {
      case ASCII.lowerB: output.append(0x08)
      case ASCII.lowerF: output.append(0x0C)
      case ASCII.lowerN: output.append(0x0A)
      case ASCII.lowerR: output.append(0x0D)
      case ASCII.lowerT: output.append(0x09)
      case ASCII.lowerU:
        appendUTF8(decodeUnicodeEscape(content, &index), to: &output)
      default: output.append(kind)  // `"`, `\` and `/` stand for themselves
      }
    }
  }

  @inline(__always)
  static func hex4(_ content: UnsafeBufferPointer<UInt8>, _ at: Int) -> UInt32 {
    var value: UInt32 = 0
    var offset = at
    while offset < at + 4 && offset < content.count {
      value = value << 4 | UInt32(hexValue(content[offset]) ?? 0)
      offset += 1
    }
    return value
  }

  /// Appends the UTF-8 encoding of a Unicode scalar value.
  @inline(__always)
  public static func appendUTF8(_ scalar: UInt32, to output: inout [UInt8]) {
    switch scalar {
    case 0..<0x80:
      output.append(UInt8(scalar))
    case 0x80..<0x800:
      output.append(UInt8(0xC0 | scalar >> 6))
      output.append(UInt8(0x80 | scalar & 0x3F))
    case 0x800..<0x10000:
      output.append(UInt8(0xE0 | scalar >> 12))
      output.append(UInt8(0x80 | scalar >> 6 & 0x3F))
      output.append(UInt8(0x80 | scalar & 0x3F))
    default:
      output.append(UInt8(0xF0 | scalar >> 18))
      output.append(UInt8(0x80 | scalar >> 12 & 0x3F))
      output.append(UInt8(0x80 | scalar >> 6 & 0x3F))
      output.append(UInt8(0x80 | scalar & 0x3F))
    }
  }
}
