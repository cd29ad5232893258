/// An append-only byte buffer that writes canonical JSON (SPEC 4): no spaces between tokens,
/// strings escaped minimally (see `JSONEscapes`), numbers as their input lexeme.
///
/// Invariant: `bytes` only grows between `truncate(to:)` calls; a renderer can remember
/// `count`, write a candidate payload, measure it, and roll back to try a cut body.
public struct JSONWriter: Sendable {
  /// The bytes written so far.
  public var bytes: [UInt8]

  public init(capacity: Int = 1 << 16) {
    bytes = []
    bytes.reserveCapacity(capacity)
  }

  /// The number of bytes written so far.
  @inlinable
  public var count: Int { bytes.count }

  /// Drops everything after the first `count` bytes.
  public mutating func truncate(to count: Int) {
    bytes.removeSubrange(count...)
  }

  /// Appends literal JSON text (punctuation, keys with their quotes, `true`...).
  @inline(__always)
  public mutating func raw(_ text: StaticString) {
    bytes.append(
      contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
  }

  /// Appends one byte.
  @inline(__always)
  public mutating func byte(_ value: UInt8) {
    bytes.append(value)
  }

  /// Appends bytes as they are (a number lexeme, an already-canonical record).
  @inline(__always)
  public mutating func raw(_ buffer: UnsafeBufferPointer<UInt8>) {
    bytes.append(contentsOf: buffer)
  }

  /// Appends a decimal integer.
  public mutating func integer(_ value: Int) {
    if value < 0 { bytes.append(ASCII.minus) }
    // The magnitude as unsigned: `-Int.min` does not fit in an Int.
    unsigned(value.magnitude)
  }

  private mutating func unsigned(_ value: UInt) {
    if value >= 10 { unsigned(value / 10) }
    bytes.append(ASCII.zero + UInt8(value % 10))
  }

  /// Appends `"content"` in canonical form.
  @inline(__always)
  public mutating func string(_ slice: StringSlice) {
    bytes.append(ASCII.quote)
    stringContent(slice)
    bytes.append(ASCII.quote)
  }

  /// Appends a slice's content in canonical form, without quotes: copied as is when it has no
  /// escapes (the fast path), otherwise decoded and re-escaped.
  @inline(__always)
  public mutating func stringContent(_ slice: StringSlice) {
    if !slice.hasEscapes {
      bytes.append(contentsOf: slice.rawBytes)
    } else {
      appendReescaped(slice.rawBytes)
    }
  }

  /// Appends decoded UTF-8 as canonical string content (no quotes).
  public mutating func escapedContent(_ decoded: UnsafeBufferPointer<UInt8>) {
    JSONEscapes.appendEscaped(decoded, to: &bytes)
  }

  /// Appends decoded UTF-8 as a canonical JSON string, quotes included.
  public mutating func string(decoded: [UInt8]) {
    bytes.append(ASCII.quote)
    decoded.withUnsafeBufferPointer { JSONEscapes.appendEscaped($0, to: &bytes) }
    bytes.append(ASCII.quote)
  }

  /// The slow path: escaped content written canonically (one pass, no temporary buffer).
  private mutating func appendReescaped(_ content: UnsafeBufferPointer<UInt8>) {
    JSONEscapes.appendCanonical(content, to: &bytes)
  }

  /// The canonical byte length of a slice's content (what `stringContent` would append).
  public static func canonicalLength(_ slice: StringSlice) -> Int {
    slice.hasEscapes ? JSONEscapes.canonicalLength(slice.rawBytes) : slice.count
  }

  /// Re-writes any JSON value of a parsed document in canonical form: no whitespace, strings
  /// re-escaped, numbers and literals as their lexemes, duplicate keys kept at their first
  /// position with their last value (SPEC 9).
  public mutating func value(_ document: JSONDocument, _ index: Int) {
    switch document.kind(index) {
    case .string:
      string(document.string(index))
    case .number, .true, .false, .null:
      raw(document.lexeme(index))
    case .array:
      bytes.append(ASCII.openBracket)
      var first = true
      document.forEachElement(index) { element in
        if !first { bytes.append(ASCII.comma) }
        first = false
        value(document, element)
      }
      bytes.append(ASCII.closeBracket)
    case .object:
      bytes.append(ASCII.openBrace)
      var first = true
      document.forEachMember(index) { key, member in
        // A duplicate key is written once, where it first appears, with its last value.
        if isEarlierDuplicate(document, object: index, key: key) { return }
        if !first { bytes.append(ASCII.comma) }
        first = false
        string(document.string(key))
        bytes.append(ASCII.colon)
        value(document, lastValue(document, object: index, key: key) ?? member)
      }
      bytes.append(ASCII.closeBrace)
    }
  }

  private func isEarlierDuplicate(_ document: JSONDocument, object: Int, key: Int) -> Bool {
    var found = false
    document.forEachMember(object) { other, _ in
      if !found && other < key && sameKey(document, other, key) { found = true }
    }
    return found
  }

  private func lastValue(_ document: JSONDocument, object: Int, key: Int) -> Int? {
    var last: Int? = nil
    document.forEachMember(object) { other, member in
      if other > key && sameKey(document, other, key) { last = member }
    }
    return last
  }

  private func sameKey(_ document: JSONDocument, _ a: Int, _ b: Int) -> Bool {
    let left = document.string(a)
    let right = document.string(b)
    if !left.hasEscapes && !right.hasEscapes {
      return left.count == right.count && memcmp(left.pointer, right.pointer, left.count) == 0
    }
    return left.decodedBytes() == right.decodedBytes()
  }
}

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif
