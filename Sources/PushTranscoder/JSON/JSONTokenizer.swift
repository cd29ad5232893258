/// A validating, non-recursive JSON tokenizer that writes a tape of byte ranges (RFC 8259,
/// strict; SPEC 2.2 and 9).
///
/// One pass over the line, no allocation per token: `tokens` and the container stack keep their
/// capacity from line to line. Strings are recorded as ranges plus a has-escapes flag, their
/// bodies scanned 32 bytes at a time; escapes are checked here (including `\u` surrogate pairing)
/// but decoded only when a reader needs the value.
///
/// Fault precedence (SPEC 9): invalid UTF-8 anywhere in the line wins (offset of its first bad
/// byte); otherwise the first fault from the left decides: `syntax`, a lone surrogate escape
/// (`invalid-unicode`), or nesting deeper than `maxDepth` (`too-deep`).
public struct JSONTokenizer {
  /// The tape of the last parsed line.
  public private(set) var tokens: [JSONToken] = []
  private var stack: [UInt32] = []
  /// The deepest nesting accepted; the outermost container is depth 1.
  public var maxDepth: Int
  /// `--unicode replace`: lone surrogate escapes are accepted (decoded as U+FFFD) and counted.
  public var replaceLoneSurrogates: Bool
  /// Lone surrogate escapes accepted in the last parsed line (replace mode only).
  public private(set) var loneSurrogates: Int = 0

  public init(maxDepth: Int = 512, replaceLoneSurrogates: Bool = false) {
    self.maxDepth = maxDepth
    self.replaceLoneSurrogates = replaceLoneSurrogates
    tokens.reserveCapacity(256)
    stack.reserveCapacity(64)
  }

  /// Validates `bytes` as UTF-8 and as one JSON text, filling `tokens`.
  public mutating func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> JSONError? {
    if let bad = UTF8Validation.firstInvalidOffset(bytes) {
      return JSONError(.invalidUnicode, at: bad, "invalid UTF-8 byte sequence")
    }
    return parseValidatedUTF8(bytes)
  }

  /// Parses a line already known to be valid UTF-8.
  public mutating func parseValidatedUTF8(_ bytes: UnsafeBufferPointer<UInt8>) -> JSONError? {
    tokens.removeAll(keepingCapacity: true)
    stack.removeAll(keepingCapacity: true)
    loneSurrogates = 0
    guard let base = bytes.baseAddress, bytes.count > 0 else {
      return JSONError(.syntax, at: 0, "empty line")
    }
    guard bytes.count < Int(UInt32.max) else {
      return JSONError(.syntax, at: 0, "line too large for the tokenizer")
    }
    let count = bytes.count
    var index = skipWhitespace(base, 0, count)

    // The states of a pushdown automaton; the stack holds the tape indexes of open containers.
    enum State { case value, key, afterValue }
    var state = State.value

    while true {
      switch state {
      case .value:
        guard index < count else { return JSONError(.syntax, at: index, "expected a value") }
        let byte = base[index]
        switch byte {
        case ASCII.openBrace, ASCII.openBracket:
          guard stack.count < maxDepth else {
            return JSONError(.tooDeep, at: index, "nesting deeper than \(maxDepth) levels")
          }
          let isObject = byte == ASCII.openBrace
          stack.append(UInt32(tokens.count))
          tokens.append(
            JSONToken(
              kind: isObject ? .object : .array, flags: 0, start: UInt32(index), end: 0, next: 0))
          index = skipWhitespace(base, index + 1, count)
          let close = isObject ? ASCII.closeBrace : ASCII.closeBracket
          if index < count && base[index] == close {
            closeContainer(at: index)
            index += 1
            state = .afterValue
          } else {
            state = isObject ? .key : .value
          }
        case ASCII.quote:
          if let error = scanString(base, &index, count) { return error }
          state = .afterValue
        case ASCII.minus, ASCII.zero...ASCII.nine:
          if let error = scanNumber(base, &index, count) { return error }
          state = .afterValue
        case ASCII.lowerT:
          if let error = scanLiteral(base, &index, count, "true", .true) { return error }
          state = .afterValue
        case ASCII.lowerF:
          if let error = scanLiteral(base, &index, count, "false", .false) { return error }
          state = .afterValue
        case ASCII.lowerN:
          if let error = scanLiteral(base, &index, count, "null", .null) { return error }
          state = .afterValue
        default:
          return JSONError(.syntax, at: index, "unexpected byte where a value should start")
        }

      case .key:
        guard index < count, base[index] == ASCII.quote else {
          return JSONError(.syntax, at: index, "expected a string key")
        }
        if let error = scanString(base, &index, count) { return error }
        index = skipWhitespace(base, index, count)
        guard index < count, base[index] == ASCII.colon else {
          return JSONError(.syntax, at: index, "expected ':' after an object key")
        }
        index = skipWhitespace(base, index + 1, count)
        state = .value

      case .afterValue:
        index = skipWhitespace(base, index, count)
        guard let open = stack.last else {
          if index < count {
            return JSONError(.syntax, at: index, "unexpected data after the JSON value")
          }
          return nil
        }
        guard index < count else {
          return JSONError(.syntax, at: index, "unterminated container")
        }
        let isObject = tokens[Int(open)].kind == .object
        switch base[index] {
        case ASCII.comma:
          index = skipWhitespace(base, index + 1, count)
          state = isObject ? .key : .value
        case ASCII.closeBrace where isObject, ASCII.closeBracket where !isObject:
          closeContainer(at: index)
          index += 1
        default:
          return JSONError(
            .syntax, at: index, isObject ? "expected ',' or '}'" : "expected ',' or ']'")
        }
      }
    }
  }

  @inline(__always)
  private mutating func closeContainer(at index: Int) {
    let open = Int(stack.removeLast())
    tokens[open].end = UInt32(index + 1)
    tokens[open].next = UInt32(tokens.count)
  }

  @inline(__always)
  private func skipWhitespace(_ base: UnsafePointer<UInt8>, _ start: Int, _ count: Int) -> Int {
    var index = start
    while index < count && ASCII.isWhitespace(base[index]) { index += 1 }
    return index
  }

  /// Scans the string whose opening quote is at `index`; on success `index` is past its closing
  /// quote and a `.string` token is on the tape.
  @inline(__always)
  private mutating func scanString(_ base: UnsafePointer<UInt8>, _ index: inout Int, _ count: Int)
    -> JSONError?
  {
    let open = index
    var cursor = index + 1
    var flags: UInt8 = 0
    let quotes = SIMD32<UInt8>(repeating: ASCII.quote)
    let backslashes = SIMD32<UInt8>(repeating: ASCII.backslash)
    let controls = SIMD32<UInt8>(repeating: ASCII.space)
    while true {
      // Skip 32 plain bytes at a time; stop at the block holding a quote, backslash or control.
      while cursor &+ 32 <= count {
        // Safe because cursor + 32 <= count: the unaligned 32-byte load stays inside the line.
        let block = UnsafeRawPointer(base + cursor).loadUnaligned(as: SIMD32<UInt8>.self)
        let special = (block .== quotes) .| (block .== backslashes) .| (block .< controls)
        let lanes = unsafeBitCast(special, to: SIMD4<UInt64>.self)
        let any = lanes[0] | lanes[1] | lanes[2] | lanes[3]
        if any == 0 {
          cursor &+= 32
          continue
        }
        // Each true lane is 0xFF: the first set bit gives the byte position.
        var lane = 0
        while lanes[lane] == 0 { lane += 1 }
        cursor &+= lane &* 8 &+ lanes[lane].trailingZeroBitCount / 8
        break
      }
      guard cursor < count else {
        return JSONError(.syntax, at: open, "unterminated string")
      }
      let byte = base[cursor]
      if byte == ASCII.quote {
        tokens.append(
          JSONToken(
            kind: .string, flags: flags, start: UInt32(open + 1), end: UInt32(cursor),
            next: UInt32(tokens.count + 1)))
        index = cursor + 1
        return nil
      }
      if byte == ASCII.backslash {
        flags = JSONToken.hasEscapes
        if let error = scanEscape(base, &cursor, count) { return error }
        continue
      }
      if byte < ASCII.space {
        return JSONError(.syntax, at: cursor, "unescaped control character in a string")
      }
      cursor += 1
    }
  }

  /// Checks the escape whose backslash is at `cursor` and moves past it.
  private mutating func scanEscape(_ base: UnsafePointer<UInt8>, _ cursor: inout Int, _ count: Int)
    -> JSONError?
  {
    let start = cursor
    guard cursor + 1 < count else { return JSONError(.syntax, at: start, "unterminated escape") }
    switch base[cursor + 1] {
    case ASCII.quote, ASCII.backslash, ASCII.slash, ASCII.lowerB, ASCII.lowerF, ASCII.lowerN,
      ASCII.lowerR, ASCII.lowerT:
      cursor += 2
      return nil
    case ASCII.lowerU:
      guard let unit = hex4(base, cursor + 2, count) else {
        return JSONError(.syntax, at: start, "invalid \\u escape")
      }
      cursor += 6
      if unit >= 0xD800 && unit <= 0xDBFF {
        // A high surrogate must be followed by an escaped low surrogate.
        if cursor + 1 < count && base[cursor] == ASCII.backslash && base[cursor + 1] == ASCII.lowerU {
          guard let low = hex4(base, cursor + 2, count) else {
            return JSONError(.syntax, at: cursor, "invalid \\u escape")
          }
          if low >= 0xDC00 && low <= 0xDFFF {
            cursor += 6
            return nil
          }
        }
        return loneSurrogate(at: start)
      }
      if unit >= 0xDC00 && unit <= 0xDFFF { return loneSurrogate(at: start) }
      return nil
    default:
      return JSONError(.syntax, at: start, "invalid escape")
    }
  }

  private mutating func loneSurrogate(at offset: Int) -> JSONError? {
    if replaceLoneSurrogates {
      loneSurrogates += 1
      return nil
    }
    return JSONError(.invalidUnicode, at: offset, "unpaired surrogate escape")
  }

  @inline(__always)
  private func hex4(_ base: UnsafePointer<UInt8>, _ at: Int, _ count: Int) -> UInt32? {
    guard at + 4 <= count else { return nil }
    var value: UInt32 = 0
    for offset in 0..<4 {
      guard let digit = JSONEscapes.hexValue(base[at + offset]) else { return nil }
      value = value << 4 | UInt32(digit)
    }
    return value
  }

  /// Scans `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?` starting at `index`.
  @inline(__always)
  private mutating func scanNumber(_ base: UnsafePointer<UInt8>, _ index: inout Int, _ count: Int)
    -> JSONError?
  {
    let start = index
    var cursor = index
    if base[cursor] == ASCII.minus { cursor += 1 }
    guard cursor < count, isDigit(base[cursor]) else {
      return JSONError(.syntax, at: cursor, "expected a digit")
    }
    if base[cursor] == ASCII.zero {
      cursor += 1
    } else {
      while cursor < count && isDigit(base[cursor]) { cursor += 1 }
    }
    var flags = JSONToken.isInteger
    if cursor < count && base[cursor] == ASCII.period {
      flags = 0
      cursor += 1
      guard cursor < count, isDigit(base[cursor]) else {
        return JSONError(.syntax, at: cursor, "expected a digit after '.'")
      }
      while cursor < count && isDigit(base[cursor]) { cursor += 1 }
    }
    if cursor < count && (base[cursor] == ASCII.lowerE || base[cursor] == ASCII.upperE) {
      flags = 0
      cursor += 1
      if cursor < count && (base[cursor] == ASCII.plus || base[cursor] == ASCII.minus) { cursor += 1 }
      guard cursor < count, isDigit(base[cursor]) else {
        return JSONError(.syntax, at: cursor, "expected a digit in the exponent")
      }
      while cursor < count && isDigit(base[cursor]) { cursor += 1 }
    }
    tokens.append(
      JSONToken(
        kind: .number, flags: flags, start: UInt32(start), end: UInt32(cursor),
        next: UInt32(tokens.count + 1)))
    index = cursor
    return nil
  }

  @inline(__always)
  private func isDigit(_ byte: UInt8) -> Bool { byte &- ASCII.zero < 10 }

  @inline(__always)
  private mutating func scanLiteral(
    _ base: UnsafePointer<UInt8>, _ index: inout Int, _ count: Int, _ literal: StaticString,
    _ kind: JSONKind
  ) -> JSONError? {
    let length = literal.utf8CodeUnitCount
    let expected = literal.utf8Start
    for offset in 0..<length {
      guard index + offset < count, base[index + offset] == expected[offset] else {
        return JSONError(.syntax, at: index + offset, "invalid literal")
      }
    }
    tokens.append(
      JSONToken(
        kind: kind, flags: 0, start: UInt32(index), end: UInt32(index + length),
        next: UInt32(tokens.count + 1)))
    index += length
    return nil
  }

  /// The parsed line as a document (valid until the next `parse`).
  public func withDocument<R>(
    _ bytes: UnsafeBufferPointer<UInt8>, _ body: (JSONDocument) throws -> R
  ) rethrows -> R {
    try tokens.withUnsafeBufferPointer { tape in
      try body(JSONDocument(bytes: bytes, tokens: tape))
    }
  }
}
