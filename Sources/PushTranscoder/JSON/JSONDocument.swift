import Glibc

/// A read-only view of one parsed line: its bytes and the tokenizer's tape.
///
/// Invariant: `bytes` and `tokens` are borrowed from the chunk and the tokenizer that produced
/// them; a document is valid only until the tokenizer parses its next line. Everything here
/// reads; nothing allocates except the explicitly decoding helpers.
package struct JSONDocument {
  /// The line's bytes, which the tokens' offsets index.
  package let bytes: UnsafeBufferPointer<UInt8>
  /// The tokenizer's tape for the line, in document order.
  package let tokens: UnsafeBufferPointer<JSONToken>

  /// A view of `tokens`, the tape the tokenizer built from `bytes`.
  @inlinable
  package init(bytes: UnsafeBufferPointer<UInt8>, tokens: UnsafeBufferPointer<JSONToken>) {
    self.bytes = bytes
    self.tokens = tokens
  }

  /// The index of the top-level value.
  package var root: Int { 0 }

  /// The kind of the value (or key) at tape index `index`.
  @inlinable
  package func kind(_ index: Int) -> JSONKind { tokens[index].kind }

  /// True for `null` (which SPEC 9 treats as absent for optional fields).
  @inlinable
  package func isNull(_ index: Int) -> Bool { tokens[index].kind == .null }

  /// The value of `key` in the object at `object`; the last occurrence wins (SPEC 9).
  /// Returns nil when `object` is not an object or has no such key.
  package func member(_ object: Int, _ key: StaticString) -> Int? {
    let container = tokens[object]
    guard container.kind == .object else { return nil }
    var found: Int? = nil
    // Safe because a container's `next` is at most the tape's count, and in an object every key
    // below it is followed by its value.
    var index = object + 1
    let end = Int(container.next)
    while index < end {
      if keyEquals(index, key) { found = index + 1 }
      index = Int(tokens[index + 1].next)
    }
    return found
  }

  /// Calls `body(keyIndex, valueIndex)` for each member of the object at `object`, in order.
  @inlinable
  package func forEachMember(_ object: Int, _ body: (Int, Int) throws -> Void) rethrows {
    let container = tokens[object]
    guard container.kind == .object else { return }
    // Safe because `next` bounds the members within the tape, each key followed by its value.
    var index = object + 1
    let end = Int(container.next)
    while index < end {
      try body(index, index + 1)
      index = Int(tokens[index + 1].next)
    }
  }

  /// Calls `body(elementIndex)` for each element of the array at `array`, in order.
  @inlinable
  package func forEachElement(_ array: Int, _ body: (Int) throws -> Void) rethrows {
    let container = tokens[array]
    guard container.kind == .array else { return }
    // Safe because every element's `next` stays at most the array's, which the tape holds.
    var index = array + 1
    let end = Int(container.next)
    while index < end {
      try body(index)
      index = Int(tokens[index].next)
    }
  }

  /// The number of elements (array) or members (object).
  package func count(_ index: Int) -> Int {
    var n = 0
    if tokens[index].kind == .object {
      forEachMember(index) { _, _ in n += 1 }
    } else {
      forEachElement(index) { _ in n += 1 }
    }
    return n
  }

  /// True when the key token at `keyIndex` decodes to exactly `key`.
  @inlinable
  package func keyEquals(_ keyIndex: Int, _ key: StaticString) -> Bool {
    let token = tokens[keyIndex]
    // Safe because the tokenizer records start <= end, so `&-` cannot wrap.
    let length = Int(token.end &- token.start)
    if token.flags & JSONToken.hasEscapes == 0 {
      guard length == key.utf8CodeUnitCount else { return false }
      // Safe because start..<end lies inside `bytes` (the tokenizer only records in-range tokens).
      return ShortBytes.equal(bytes.baseAddress! + Int(token.start), key.utf8Start, length)
    }
    return string(keyIndex).equals(key)
  }

  /// The content of the string token at `index` as a slice of the line.
  @inlinable
  package func string(_ index: Int) -> StringSlice {
    let token = tokens[index]
    // Safe because start..<end lies inside `bytes`.
    return StringSlice(
      pointer: bytes.baseAddress! + Int(token.start), count: Int(token.end &- token.start),
      hasEscapes: token.flags & JSONToken.hasEscapes != 0)
  }

  /// The raw bytes of a scalar value (a number's lexeme, `true`...), or a container's full text.
  @inlinable
  package func lexeme(_ index: Int) -> UnsafeBufferPointer<UInt8> {
    let token = tokens[index]
    // Safe because start..<end lies inside `bytes`.
    return UnsafeBufferPointer(rebasing: bytes[Int(token.start)..<Int(token.end)])
  }

  /// True for a number whose lexeme is an integer (`-?(0|[1-9][0-9]*)`).
  @inlinable
  package func isInteger(_ index: Int) -> Bool {
    let token = tokens[index]
    return token.kind == .number && token.flags & JSONToken.isInteger != 0
  }

  /// True for the integer lexeme `1` exactly (flags such as `PushFlag == 1`).
  @inlinable
  package func isIntegerOne(_ index: Int) -> Bool {
    let token = tokens[index]
    // Safe because start <= end and a number's one byte lies inside `bytes`.
    return token.kind == .number && token.end &- token.start == 1
      && bytes[Int(token.start)] == ASCII.one
  }
}
