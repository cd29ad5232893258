/// The reference tokenizer (SPEC 2.2 and 9): a pushdown automaton that decides every line the
/// fast path (`JSONTokenizer.parseFast`) gives up on and builds its error, with the scanners for
/// strings, escapes, numbers and literals and the tape and stack appends it uses. It shares the
/// tape, the stack and their invariants with the fast path (see `JSONTokenizer.swift`).
extension JSONTokenizer {
  /// The reference tokenizer: decides every line the fast path gives up on, and builds the
  /// error. A pushdown automaton over the bytes; assumes valid UTF-8.
  mutating func parseReference(_ bytes: UnsafeBufferPointer<UInt8>) -> JSONError? {
    claimStorage()
    tapeCount = 0
    stackCount = 0
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
          guard stackCount < maxDepth else {
            return JSONError(.tooDeep, at: index, "nesting deeper than \(maxDepth) levels")
          }
          let isObject = byte == ASCII.openBrace
          pushContainer()
          append(
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
        guard stackCount > 0 else {
          if index < count {
            return JSONError(.syntax, at: index, "unexpected data after the JSON value")
          }
          return nil
        }
        guard index < count else {
          return JSONError(.syntax, at: index, "unterminated container")
        }
        // Safe because stack[0..<stackCount] holds indexes of tokens already on the tape.
        let isObject = tape[Int(stack[stackCount &- 1])].kind == .object
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
    // Safe because a container is closed only while it is open (stackCount > 0), and the
    // stack holds indexes of tokens already on the tape.
    stackCount &-= 1
    let open = Int(stack[stackCount])
    tape[open].end = UInt32(index + 1)
    tape[open].next = UInt32(tapeCount)
  }

  /// Appends a token to the tape, growing it when full.
  @inline(__always)
  private mutating func append(_ token: JSONToken) {
    if tapeCount == tapeCapacity { growTape() }
    // Safe because tapeCount < tapeCapacity, the number of tokens `tape` has room for.
    (tape + tapeCount).initialize(to: token)
    tapeCount &+= 1
  }

  /// Records the container about to be appended as open.
  @inline(__always)
  private mutating func pushContainer() {
    if stackCount == stackCapacity { growStack() }
    // Safe because stackCount < stackCapacity.
    (stack + stackCount).initialize(to: UInt32(tapeCount))
    stackCount &+= 1
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
        // Safe because the mask is 32 one-byte lanes of 0 or 0xFF, the size of SIMD4<UInt64>.
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
        append(
          JSONToken(
            kind: .string, flags: flags, start: UInt32(open + 1), end: UInt32(cursor),
            next: UInt32(tapeCount + 1)))
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
        // A high surrogate must be followed by an escaped low surrogate. If what follows is a
        // malformed escape, the unpaired high half is the first fault from the left (in replace
        // mode, the malformed escape is then scanned, and rejected, on its own).
        if cursor + 1 < count && base[cursor] == ASCII.backslash
          && base[cursor + 1] == ASCII.lowerU,
          let low = hex4(base, cursor + 2, count), low >= 0xDC00 && low <= 0xDFFF
        {
          cursor += 6
          return nil
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
    // Branch-free per digit (escaped text mixes digits and letters unpredictably): a digit's
    // value is `byte - '0'` when below 10, else `(byte | 0x20) - 'a' + 10` when below 16.
    var value: UInt32 = 0
    var valid = true
    for offset in 0..<4 {
      // Safe because at + 4 <= count (the guard). The `&-` wraps are intended: a byte below `0`
      // or `a` wraps high and fails its range test; `value` is used only when all are valid.
      let byte = base[at + offset]
      let decimal = byte &- ASCII.zero
      let letter = (byte | 0x20) &- ASCII.lowerA
      valid = valid && (decimal < 10 || letter < 6)
      value = value << 4 | UInt32(decimal < 10 ? decimal : letter &+ 10)
    }
    return valid ? value : nil
  }

  /// Scans `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?` starting at `index`.
  @inline(__always)
  private mutating func scanNumber(_ base: UnsafePointer<UInt8>, _ index: inout Int, _ count: Int)
    -> JSONError?
  {
    let start = index
    var cursor = index
    // Safe because the caller found the number's first byte at index < count; every later read
    // checks cursor < count first.
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
      if cursor < count && (base[cursor] == ASCII.plus || base[cursor] == ASCII.minus) {
        cursor += 1
      }
      guard cursor < count, isDigit(base[cursor]) else {
        return JSONError(.syntax, at: cursor, "expected a digit in the exponent")
      }
      while cursor < count && isDigit(base[cursor]) { cursor += 1 }
    }
    append(
      JSONToken(
        kind: .number, flags: flags, start: UInt32(start), end: UInt32(cursor),
        next: UInt32(tapeCount + 1)))
    index = cursor
    return nil
  }

  // Safe because the wrap is intended: a byte below `0` wraps above 9.
  @inline(__always)
  private func isDigit(_ byte: UInt8) -> Bool { byte &- ASCII.zero < 10 }

  @inline(__always)
  private mutating func scanLiteral(
    _ base: UnsafePointer<UInt8>, _ index: inout Int, _ count: Int, _ literal: StaticString,
    _ kind: JSONKind
  ) -> JSONError? {
    let length = literal.utf8CodeUnitCount
    let expected = literal.utf8Start
    // Safe because index + offset < count is checked before each read, and offset < length.
    for offset in 0..<length {
      guard index + offset < count, base[index + offset] == expected[offset] else {
        return JSONError(.syntax, at: index + offset, "invalid literal")
      }
    }
    append(
      JSONToken(
        kind: kind, flags: 0, start: UInt32(index), end: UInt32(index + length),
        next: UInt32(tapeCount + 1)))
    index += length
    return nil
  }
}
