import Glibc

/// The content of a JSON string (the bytes between its quotes) somewhere in memory that outlives
/// the current line's processing: the line buffer, a directory entry, or a static literal.
///
/// Invariant: `pointer ..< pointer + count` is valid UTF-8 JSON string content. When
/// `hasEscapes` is false it contains no `"`, no `\` and no control byte, so it is already
/// canonical JSON (SPEC 4) and is copied to the output as is; when true it must be decoded and
/// re-escaped (the slow path, `JSONWriter.stringContent`).
///
/// A slice never owns memory. It is valid only while the owner of its bytes is: the chunk that
/// holds the line (for the duration of that line's rendering), the `NameDirectory` (for the run), or
/// the program image (for `StaticString` literals).
package struct StringSlice {
  /// The first byte of the raw content (borrowed, never owned).
  package var pointer: UnsafePointer<UInt8>
  /// The byte count, stored in 32 bits so that a slice takes 16 bytes (a notice holds dozens
  /// and is moved from stage to stage); lines are shorter than 4 GiB (the tokenizer checks).
  @usableFromInline var storedCount: UInt32
  /// The raw content holds at least one backslash escape, so it must be decoded to be read.
  package var hasEscapes: Bool
  /// The raw content is already canonical although it has escapes (only `\"`, `\\`, `\n`-style
  /// escapes, as canonical form writes them): writers copy it as it is; readers still decode it.
  package var rawIsCanonical = false

  /// True when the raw content is its own canonical form (no escapes, or only canonical ones):
  /// writers copy it as it is.
  @inlinable
  package var isCanonical: Bool { !hasEscapes || rawIsCanonical }

  /// A slice of `count` bytes of JSON string content at `pointer`, which must stay valid.
  @inlinable
  package init(pointer: UnsafePointer<UInt8>, count: Int, hasEscapes: Bool) {
    self.pointer = pointer
    self.storedCount = UInt32(count)
    self.hasEscapes = hasEscapes
  }

  /// The number of bytes of raw content.
  @inlinable
  package var count: Int {
    get { Int(storedCount) }
    set { storedCount = UInt32(newValue) }
  }

  /// A slice of a static literal that needs no escaping (placeholders such as `[Image]`).
  @inlinable
  package init(_ literal: StaticString) {
    // Safe because a StaticString's UTF-8 storage lives in the program image for the whole run.
    self.init(pointer: literal.utf8Start, count: literal.utf8CodeUnitCount, hasEscapes: false)
  }

  /// True when both describe the same bytes with the same flags (not a comparison of text).
  @inlinable
  package func isIdentical(to other: StringSlice) -> Bool {
    pointer == other.pointer && storedCount == other.storedCount
      && hasEscapes == other.hasEscapes && rawIsCanonical == other.rawIsCanonical
  }

  /// The raw bytes of the slice (JSON string content, escapes not decoded).
  @inlinable
  package var rawBytes: UnsafeBufferPointer<UInt8> {
    // Safe because of the invariant: pointer ..< pointer + count is valid while its owner is.
    UnsafeBufferPointer(start: pointer, count: count)
  }

  /// True when the decoded string is empty (an empty slice; an escape always decodes to ≥1 byte).
  @inlinable
  package var isEmpty: Bool { count == 0 }

  /// The decoded UTF-8 bytes (escapes resolved). Allocates: for the slow path and tests.
  package func decodedBytes() -> [UInt8] {
    if !hasEscapes { return Array(rawBytes) }
    var out: [UInt8] = []
    out.reserveCapacity(count)
    JSONEscapes.decode(rawBytes, into: &out)
    return out
  }

  /// The decoded string. Allocates: for the slow path (cuts, directory keys) and tests.
  package func decodedString() -> String {
    String(decoding: decodedBytes(), as: UTF8.self)
  }

  /// Compares the decoded content with `literal` (bytes, no escapes in `literal`).
  package func equals(_ literal: StaticString) -> Bool {
    if !hasEscapes {
      guard count == literal.utf8CodeUnitCount else { return false }
      // Safe because both hold `count` bytes (checked just above).
      return ShortBytes.equal(pointer, literal.utf8Start, count)
    }
    let decoded = decodedBytes()
    guard decoded.count == literal.utf8CodeUnitCount else { return false }
    // Safe because an escape decodes to at least one byte, so the buffer is non-empty, and both
    // sides hold `decoded.count` bytes.
    return decoded.withUnsafeBufferPointer {
      memcmp($0.baseAddress!, literal.utf8Start, decoded.count) == 0
    }
  }
}
