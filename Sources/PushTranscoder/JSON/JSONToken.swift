/// The kinds of JSON value a token describes.
package enum JSONKind: UInt8, Sendable {
  /// `{...}`: followed on the tape by its keys and values, alternating.
  case object = 1
  /// `[...]`: followed on the tape by its elements.
  case array
  /// A string value or an object key; the token covers the content between the quotes.
  case string
  /// A number; the token covers its lexeme.
  case number
  /// The literal `true`.
  case `true`
  /// The literal `false`.
  case `false`
  /// The literal `null`.
  case null
}

/// One entry of the tokenizer's tape: a value (or an object key) as a byte range of the line.
///
/// The tape lists values in document order. A container is followed by its children (for an
/// object: key, value, key, value, ...) and `next` is the index just past its last descendant,
/// so a reader skips any subtree in O(1). Offsets are 0-based byte offsets into the line the
/// tape was built from.
///
/// ```
///   {"a":[1,2],"b":"x"}
///   tape: 0 object(next 7)  1 "a"  2 array(next 5)  3 1  4 2  5 "b"  6 "x" ... (next of 0 = 7)
/// ```
package struct JSONToken: Sendable {
  /// Flag bit: a string whose content contains at least one backslash escape.
  package static let hasEscapes: UInt8 = 1
  /// Flag bit: a number whose lexeme is an integer, `-?(0|[1-9][0-9]*)` (SPEC 9).
  package static let isInteger: UInt8 = 2

  /// What the value is.
  package var kind: JSONKind
  /// `hasEscapes` and `isInteger` bits.
  package var flags: UInt8
  /// String: first content byte (after the quote). Others: first byte of the value.
  package var start: UInt32
  /// String: offset of the closing quote. Others: one past the last byte of the value.
  package var end: UInt32
  /// Tape index of the first token after this value and all of its descendants.
  package var next: UInt32

  /// A token with every field given (the tokenizers fill containers' `end` and `next` later).
  @inlinable
  package init(kind: JSONKind, flags: UInt8, start: UInt32, end: UInt32, next: UInt32) {
    self.kind = kind
    self.flags = flags
    self.start = start
    self.end = end
    self.next = next
  }
}

/// Why a line is not acceptable JSON (SPEC 2.2, 9). The raw values are the reject reasons.
package enum JSONFault: String, Sendable {
  /// Not RFC 8259 JSON (a bad token, a missing separator, trailing data, an empty line...).
  case syntax = "syntax"
  /// Invalid UTF-8, or a lone surrogate escape (unless `--unicode replace`).
  case invalidUnicode = "invalid-unicode"
  /// Containers nested deeper than the tokenizer's `maxDepth`.
  case tooDeep = "too-deep"
}

/// A JSON fault with the 0-based byte offset within the line where it was detected.
package struct JSONError: Error, Sendable, Equatable {
  /// The kind of fault: the reject reason.
  package var fault: JSONFault
  /// The 0-based byte offset within the line where the fault was detected.
  package var offset: Int
  /// A short human explanation ("unterminated string", "expected ':'").
  package var message: String

  /// A `fault` detected at byte `offset`, explained by `message`.
  package init(_ fault: JSONFault, at offset: Int, _ message: String) {
    self.fault = fault
    self.offset = offset
    self.message = message
  }
}
