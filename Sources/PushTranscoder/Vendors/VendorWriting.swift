/// Helpers shared by the vendor renderers: optional keys, title and body selection, ext as a
/// string, and the caps of the four capped vendors (SPEC 4, 5, 9).
///
/// Keys are written as static JSON text with their leading comma (`,"sound":`), so a vendor file
/// reads like its payload shape. "Only values that are present and non-empty are written": an
/// empty string counts as absent; numbers (0 included) are written when present.
extension JSONWriter {
  /// Writes `key` and `value` as a string when `value` is present and non-empty.
  @inline(__always)
  mutating func optionalString(_ key: StaticString, _ value: StringSlice?) {
    guard let value, !value.isEmpty else { return }
    raw(key)
    string(value)
  }

  /// Writes `key` and the number lexeme when present.
  @inline(__always)
  mutating func optionalNumber(_ key: StaticString, _ lexeme: UnsafeBufferPointer<UInt8>?) {
    guard let lexeme else { return }
    raw(key)
    raw(lexeme)
  }

  /// Writes `key` (without a leading comma) and `value` inside an object whose members are all
  /// optional: a comma precedes every member but the first.
  mutating func optionalString(_ key: StaticString, _ value: StringSlice?, first: inout Bool) {
    guard let value, !value.isEmpty else { return }
    if !first { byte(ASCII.comma) }
    first = false
    raw(key)
    string(value)
  }

  /// The number form of `optionalString(_:_:first:)`.
  mutating func optionalNumber(
    _ key: StaticString, _ lexeme: UnsafeBufferPointer<UInt8>?, first: inout Bool
  ) {
    guard let lexeme else { return }
    if !first { byte(ASCII.comma) }
    first = false
    raw(key)
    raw(lexeme)
  }

  /// `"title":T,` when `title` is present, then `"subtitle":S,` when `subtitle` is, then
  /// `"body":B`: the members that open the notification object of the vendors whose title is
  /// optional. Returns the range of the body's content, for the byte budget.
  @inline(__always)
  mutating func titleThenBody(
    _ title: StringSlice?, subtitle: StringSlice? = nil, _ body: PushText
  ) -> Range<Int> {
    if let title {
      raw("\"title\":")
      string(title)
      byte(ASCII.comma)
    }
    if let subtitle {
      raw("\"subtitle\":")
      string(subtitle)
      byte(ASCII.comma)
    }
    raw("\"body\":")
    return body.writeBody(into: &self)
  }
}

/// The title and body of a capped vendor, after the caps (SPEC 5 step 1).
struct CappedTexts {
  var title: PushText
  var body: PushText
}

extension Notice {
  /// `value` when present and non-empty.
  @inline(__always)
  static func present(_ value: StringSlice?) -> StringSlice? {
    guard let value, !value.isEmpty else { return nil }
    return value
  }

  /// The body for a payload with or without a title: `body`, or `untitledBody` (which carries
  /// the display prefix) when the payload has no title (SPEC 3.1, 3.2).
  @inline(__always)
  func bodyText(titled: Bool) -> PushText {
    // No local copy of the array (`titled ? body : untitledBody` retained it once per vendor
    // and line): a one-piece body, the common case, then touches no reference count.
    if titled || untitledPieces == nil {
      return body.count == 1 ? .slice(body[0]) : .pieces(body)
    }
    // Safe because `untitledPieces` was just found not nil.
    return untitledPieces!.count == 1 ? .slice(untitledPieces![0]) : .pieces(untitledPieces!)
  }

  /// The title of the vendors that require one (SPEC 4): `preferred`, else `title`, else the
  /// fallback (nickname, group name, or `--default-title`). A blank title counts as absent
  /// (SPEC 9 [4, 6.8]).
  @inline(__always)
  func requiredTitle(preferring preferred: StringSlice? = nil, memo: TextMemo) -> StringSlice {
    Notice.presentAndNotBlank(preferred, memo: memo)
      ?? Notice.presentAndNotBlank(title, memo: memo) ?? fallbackTitle
  }

  /// ext as the string the vendors other than Easemob apns `e` carry: the string itself, or for
  /// a JSON value its canonical JSON text (SPEC 9). Nil when absent or empty. A JSON value's
  /// text is made once per line (the context's memo keeps it; every part of a split message
  /// has the same ext).
  @inline(__always)
  func extText(_ context: RenderContext) -> PushText? {
    switch ext {
    case nil:
      return nil
    case .string(let slice):
      return slice.isEmpty ? nil : .slice(slice)
    case .json(let index):
      return context.memo.extText { Self.jsonExtText(index, context.document) }
    }
  }

  /// `extText` for ext given as a JSON value (Easemob).
  private static func jsonExtText(_ index: Int, _ document: JSONDocument) -> PushText? {
    if document.kind(index) == .string {
      let slice = document.string(index)
      return slice.isEmpty ? nil : .slice(slice)
    }
    if document.kind(index) == .null { return nil }
    var text = JSONWriter(capacity: 256)
    text.value(document, index)
    return .decoded(text.bytes)
  }

  /// Title and body of a capped vendor (xiaomi, oppo, vivo, meizu), cut to the scalar caps
  /// (ext is never cut). Called only when the vendor will render, so the effects recorded are
  /// the vendor's.
  func cappedTexts(
    _ limits: VendorLimits, context: RenderContext, effects: inout RenderEffects
  ) -> CappedTexts {
    // Each text is built once and moved into the result: no text value is overwritten.
    let title = PushText.slice(requiredTitle(memo: context.memo))
    let body = requiredBody(titled: true, memo: context.memo)
    // The body's cut, the longer one, may borrow the memo's storage: it is the last cut asked
    // for before the caller writes the texts. The title's is an array of its own, whatever
    // the body's cut does to the memo.
    let cutTitle = limits.titleScalars.flatMap {
      TextCut.capped(title, scalars: $0, memo: context.memo)
    }
    let cutBody = limits.bodyScalars.flatMap {
      TextCut.cappedForWriting(body, scalars: $0, memo: context.memo)
    }
    if cutTitle != nil { effects.titleCut = true }
    if cutBody != nil { effects.bodyCut = true }
    return CappedTexts(title: cutTitle ?? title, body: cutBody ?? body)
  }
}
