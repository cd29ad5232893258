@testable import PushTranscoder

/// Small JSON helpers for tests: string literals in raw or fully escaped form, and reading a
/// value back out of a rendered payload with the project tokenizer.
enum TestJSON {
  /// `text` as a JSON string literal. `escapeAll` writes every non-ASCII scalar as `\uXXXX`
  /// (surrogate pairs above the BMP) and every ASCII letter as-is, so both forms of the same
  /// text can be compared.
  static func literal(_ text: String, escapeAll: Bool = false) -> String {
    var out = "\""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case "\n": out += escapeAll ? "\\u000A" : "\\n"
      case _ where scalar.value < 0x20: out += "\\u" + hex4(scalar.value)
      case _ where escapeAll && scalar.value >= 0x10000:
        let value = scalar.value - 0x10000
        out += "\\u" + hex4(0xD800 + (value >> 10)) + "\\u" + hex4(0xDC00 + (value & 0x3FF))
      case _ where escapeAll && scalar.value >= 0x80:
        out += "\\u" + hex4(scalar.value)
      default: out.unicodeScalars.append(scalar)
      }
    }
    return out + "\""
  }

  static func hex4(_ value: UInt32) -> String {
    let digits = String(value, radix: 16, uppercase: false)
    return String(repeating: "0", count: 4 - digits.count) + digits
  }

  /// Parses `payload` with the project tokenizer (nil when it is not one JSON text) and reads
  /// the string at `path` (nil when missing or not a string).
  static func string(_ payload: [UInt8], _ path: [StaticString]) -> String? {
    payload.withUnsafeBufferPointer { buffer in
      var tokenizer = JSONTokenizer()
      guard tokenizer.parse(buffer) == nil else { return nil }
      return tokenizer.withDocument(buffer) { document -> String? in
        var index = document.root
        for key in path {
          guard let next = document.member(index, key) else { return nil }
          index = next
        }
        guard document.kind(index) == .string else { return nil }
        return document.string(index).decodedString()
      }
    }
  }

  /// True when `payload` is one valid JSON text.
  static func parses(_ payload: [UInt8]) -> Bool {
    payload.withUnsafeBufferPointer { buffer in
      var tokenizer = JSONTokenizer()
      return tokenizer.parse(buffer) == nil
    }
  }
}
