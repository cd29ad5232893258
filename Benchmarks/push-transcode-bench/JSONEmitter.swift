/// A JSON value tree the corpus generator builds before writing it in one line's style.
indirect enum GeneratedValue {
  case string(String)
  case integer(Int)
  /// A decimal written with a fixed number of fraction digits (`scaled / 10^digits`).
  case decimal(scaled: Int, digits: Int)
  case bool(Bool)
  case array([GeneratedValue])
  case object([(String, GeneratedValue)])
}

/// How one line is written, the way different real producers write JSON: escaping of strings,
/// key order, whitespace and line ending.
struct LineStyle {
  enum Escaping {
    /// Raw UTF-8, only what JSON requires escaped (Python `ensure_ascii=False`, Go's encoder).
    case raw
    /// Every non-ASCII scalar as `\uxxxx`, astral ones as surrogate pairs (lower-case hex).
    case ascii
    /// As `ascii` with upper-case hex (`\u00E9`, `\uD83D\uDE00`).
    case asciiUpperHex
    /// Raw UTF-8 with `<`, `>`, `&` as `\u003c`, `\u003e`, `\u0026` (Go's HTML-safe default).
    case htmlSafe
    /// A coin flip per non-ASCII scalar: raw, or escaped in either case.
    case mixed
  }

  var escaping: Escaping
  /// `\/` for every slash (PHP's `json_encode` default).
  var escapesSlash: Bool
  var shufflesKeys: Bool
  var spaced: Bool
  var crlf: Bool

  init(_ random: inout SeededRandom) {
    let roll = random.unit()
    escaping =
      roll < 0.66
      ? .raw
      : roll < 0.85
        ? .ascii
        : roll < 0.91
          ? .asciiUpperHex
          : roll < 0.95 ? .htmlSafe : .mixed
    escapesSlash = random.chance(0.1)
    shufflesKeys = random.chance(0.25)
    spaced = random.chance(0.07)
    crlf = random.chance(0.005)
  }
}

/// Writes generated values as JSON bytes in a `LineStyle`.
struct JSONEmitter {
  var style: LineStyle
  var random: SeededRandom
  var output: [UInt8] = []

  private static let hexLower = Array("0123456789abcdef".utf8)
  private static let hexUpper = Array("0123456789ABCDEF".utf8)

  mutating func whitespace() {
    guard style.spaced else { return }
    let choices = [" ", "", "  ", "\t", " \t ", " "]
    output.append(contentsOf: random.pick(choices).utf8)
  }

  mutating func emit(_ value: GeneratedValue) {
    switch value {
    case .string(let text): string(text)
    case .integer(let number): output.append(contentsOf: String(number).utf8)
    case .decimal(let scaled, let digits):
      if scaled < 0 { output.append(UInt8(ascii: "-")) }
      let magnitude = scaled.magnitude
      var power: UInt = 1
      for _ in 0..<digits { power *= 10 }
      output.append(contentsOf: String(magnitude / power).utf8)
      if digits > 0 {
        let fraction = String(magnitude % power)
        output.append(UInt8(ascii: "."))
        output.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: digits - fraction.count))
        output.append(contentsOf: fraction.utf8)
      }
    case .bool(let flag): output.append(contentsOf: (flag ? "true" : "false").utf8)
    case .array(let elements):
      output.append(UInt8(ascii: "["))
      for (index, element) in elements.enumerated() {
        if index > 0 { separator(",") }
        emit(element)
      }
      output.append(UInt8(ascii: "]"))
    case .object(var members):
      if style.shufflesKeys && members.count > 1 { members.shuffle(using: &random) }
      output.append(UInt8(ascii: "{"))
      for (index, (key, member)) in members.enumerated() {
        if index > 0 { separator(",") }
        string(key)
        separator(":")
        emit(member)
      }
      output.append(UInt8(ascii: "}"))
    }
  }

  private mutating func separator(_ mark: Unicode.Scalar) {
    whitespace()
    output.append(UInt8(ascii: mark))
    whitespace()
  }

  mutating func string(_ text: String) {
    output.append(UInt8(ascii: "\""))
    for scalar in text.unicodeScalars {
      let value = scalar.value
      switch value {
      case 0x22: output.append(contentsOf: #"\""#.utf8)
      case 0x5C: output.append(contentsOf: #"\\"#.utf8)
      case 0x08: output.append(contentsOf: #"\b"#.utf8)
      case 0x09: output.append(contentsOf: #"\t"#.utf8)
      case 0x0A: output.append(contentsOf: #"\n"#.utf8)
      case 0x0C: output.append(contentsOf: #"\f"#.utf8)
      case 0x0D: output.append(contentsOf: #"\r"#.utf8)
      case 0..<0x20: escape(value, upper: false)
      case 0x2F where style.escapesSlash: output.append(contentsOf: #"\/"#.utf8)
      case 0x26, 0x3C, 0x3E:
        // (A `where` clause would guard only the last pattern of the three.)
        if style.escaping == .htmlSafe {
          escape(value, upper: false)
        } else {
          output.append(UInt8(value))
        }
      case 0..<0x80: output.append(UInt8(value))
      default:
        switch style.escaping {
        case .raw, .htmlSafe: output.append(contentsOf: String(scalar).utf8)
        case .ascii: escape(value, upper: false)
        case .asciiUpperHex: escape(value, upper: true)
        case .mixed:
          if random.chance(0.5) {
            output.append(contentsOf: String(scalar).utf8)
          } else {
            escape(value, upper: random.chance(0.5))
          }
        }
      }
    }
    output.append(UInt8(ascii: "\""))
  }

  /// Writes `\uXXXX`, or a surrogate pair of them for a scalar above U+FFFF.
  private mutating func escape(_ scalar: UInt32, upper: Bool) {
    if scalar > 0xFFFF {
      let offset = scalar - 0x10000
      escape(0xD800 + (offset >> 10), upper: upper)
      escape(0xDC00 + (offset & 0x3FF), upper: upper)
      return
    }
    let digits = upper ? Self.hexUpper : Self.hexLower
    output.append(contentsOf: #"\u"#.utf8)
    for shift in stride(from: 12, through: 0, by: -4) {
      output.append(digits[Int(scalar >> UInt32(shift) & 0xF)])
    }
  }
}
