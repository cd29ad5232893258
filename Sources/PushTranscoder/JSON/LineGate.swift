/// `--unicode` (SPEC 2.2).
package enum UnicodeMode: String, Sendable, CaseIterable { case strict, replace }

/// The checks every line passes before its content is read, written once for message lines and
/// directory lines ("bad directory lines are reported like bad input lines", SPEC 2.4): length,
/// blank, UTF-8 repair (`--unicode replace`), parse (SPEC 2, 6.4, 9 [2.1, 2.2]).
///
/// A gate holds reusable scratch state (the tokenizer's tape, a repair buffer), so one instance
/// belongs to one thread. After `check` answers `.parsed`, `withDocument(of:)` reads the line.
package struct LineGate {
  /// `--max-line-bytes`: longer lines are `line-too-long`.
  package let maxLineBytes: Int
  /// `--unicode`: reject invalid UTF-8 and lone surrogates, or replace them with U+FFFD.
  package let unicode: UnicodeMode
  private var tokenizer: JSONTokenizer
  private var repaired: [UInt8] = []
  /// True when the last line parsed was the repaired copy in `repaired`, not the line itself.
  private var parsedRepaired = false
  /// The U+FFFD replacements `--unicode replace` made in the last line checked (SPEC 6.4
  /// `unicode_replacements`), invalid bytes and unpaired surrogate escapes alike.
  package private(set) var replacements = 0

  /// What the gate made of a line.
  package enum Verdict {
    /// Only JSON whitespace (SPEC 9 [2.1]): no record, no reject.
    case blank
    /// The line is turned away; the fault says why and what its reject record shows.
    case rejected(LineFault)
    /// The line is one JSON value, ready for `withDocument(of:)`.
    case parsed
  }

  /// A gate for lines of at most `maxLineBytes` bytes.
  package init(maxLineBytes: Int, unicode: UnicodeMode) {
    self.maxLineBytes = maxLineBytes
    self.unicode = unicode
    self.tokenizer = JSONTokenizer(replaceLoneSurrogates: unicode == .replace)
  }

  /// Checks one line (without its terminator). Length comes first: a line too long to buffer
  /// reaches the gate as its prefix only (`oversized`), so a long line of spaces must be
  /// `line-too-long` here too, or the verdict would depend on the chunk size.
  @inline(__always)
  package mutating func check(_ line: UnsafeBufferPointer<UInt8>) -> Verdict {
    replacements = 0
    parsedRepaired = false
    if line.count > maxLineBytes {
      // Safe because `line.count > maxLineBytes`, so `0 ..< maxLineBytes` lies within `line`.
      return .rejected(
        oversized(
          prefix: UnsafeBufferPointer(rebasing: line[0..<maxLineBytes]), totalLength: line.count))
    }
    if Self.isBlank(line) { return .blank }
    if unicode == .replace, UTF8Validation.firstInvalidOffset(line) != nil {
      replacements = UTF8Validation.replacingInvalid(line, into: &repaired)
      parsedRepaired = true
      // `repaired` is not touched again until the next line, so its buffer outlives the parse.
      let error = repaired.withUnsafeBufferPointer { tokenizer.parseValidatedUTF8($0) }
      guard let error else { return accepted() }
      return repaired.withUnsafeBufferPointer {
        .rejected(fault(error, parsed: $0, original: line))
      }
    }
    let error =
      unicode == .replace ? tokenizer.parseValidatedUTF8(line) : tokenizer.parse(line)
    guard let error else { return accepted() }
    return .rejected(fault(error, parsed: line, original: line))
  }

  /// The fault of a line longer than `--max-line-bytes` of which only `prefix` (its first
  /// `maxLineBytes` bytes) was kept, because the reader never buffered it whole.
  package func oversized(prefix: UnsafeBufferPointer<UInt8>, totalLength: Int) -> LineFault {
    LineFault(
      kind: .tooLong, offset: maxLineBytes,
      detail: "line of \(totalLength) bytes is longer than --max-line-bytes \(maxLineBytes)",
      raw: prefix)
  }

  /// The line `check` last answered `.parsed` for, as a document; `line` is the line that was
  /// checked (the repaired copy is used in its place when there is one).
  /// The document of the line `check` accepted last (`line`, as passed to `check`), valid
  /// until the next `check`; nil when the parse read a repaired copy of the line (`--unicode
  /// replace`), whose document only `withDocument` lends. For a caller that mutates itself
  /// while it reads the document, where `withDocument`'s closure would make it copy the gate.
  @inline(__always)
  func document(of line: UnsafeBufferPointer<UInt8>) -> JSONDocument? {
    parsedRepaired ? nil : tokenizer.document(of: line)
  }

  @inline(__always)
  package func withDocument<R>(
    of line: UnsafeBufferPointer<UInt8>, _ body: (JSONDocument) throws -> R
  ) rethrows -> R {
    if parsedRepaired {
      return try repaired.withUnsafeBufferPointer { try tokenizer.withDocument($0, body) }
    }
    return try tokenizer.withDocument(line, body)
  }

  @inline(__always)
  private mutating func accepted() -> Verdict {
    replacements += tokenizer.loneSurrogates
    return .parsed
  }

  /// The fault of a parse error found in `parsed`, placed in the line as read, `original`.
  /// Under `--unicode replace`, `parsed` may be a repaired copy, longer wherever a replacement
  /// is longer than the bytes it replaced, so the offset is mapped back (SPEC 6.4); and every
  /// unpaired surrogate escape of the line counts as a replacement, since each is replaced before
  /// parsing (SPEC 9 [2.2]), also those after the fault that the tokenizer never reached.
  private mutating func fault(
    _ error: JSONError, parsed: UnsafeBufferPointer<UInt8>, original: UnsafeBufferPointer<UInt8>
  ) -> LineFault {
    if unicode == .replace {
      replacements += JSONEscapes.unpairedSurrogateEscapes(in: parsed)
    }
    let offset =
      parsed.baseAddress == original.baseAddress
      ? error.offset
      : UTF8Validation.originalOffset(ofRepairedOffset: error.offset, in: original)
    return LineFault(kind: .json(error.fault), offset: offset, detail: error.message, raw: original)
  }

  /// True when the line holds only JSON whitespace (SPEC 9 [2.1]).
  @inline(__always)
  package static func isBlank(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
    for byte in line where !ASCII.isWhitespace(byte) { return false }
    return true
  }
}

/// Why `LineGate` turned a line away, and what its reject record shows.
package struct LineFault {
  /// The kind of fault.
  package enum Kind: Equatable {
    /// Longer than `--max-line-bytes`.
    case tooLong
    /// Not one valid JSON value.
    case json(JSONFault)
  }

  /// The kind of fault (the reject reason).
  package var kind: Kind
  /// The 0-based byte offset in the line as read where the fault lies.
  package var offset: Int
  /// A short human explanation.
  package var detail: String
  /// The bytes the reject record shows: the line, or its first `--max-line-bytes` bytes.
  package var raw: UnsafeBufferPointer<UInt8>
}
