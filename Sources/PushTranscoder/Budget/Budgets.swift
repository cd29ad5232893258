/// Byte budgets on whole payloads and field budgets on the field that carries ext (SPEC 4, 5, 9).
///
/// A payload's size is its size with an empty body plus the body's escaped length, so the check
/// needs no second render: the vendor renders once, remembers where the body's content went,
/// and only when the payload is over its budget is the body cut and spliced in place.
///
/// ```
///   payloadStart          body.lowerBound   body.upperBound          writer.count
///   |{"aps":{"alert":"     |Nickname:hello…  |"},"ext":"www.qq.com"}  |
///   size = writer.count − payloadStart; empty = size − body.count; room = budget − empty
/// ```
package enum ByteBudget {
  /// What `enforce` did to the payload.
  package enum Outcome: Equatable, Sendable {
    /// The payload fits as written.
    case fits
    /// The body was cut so that the payload fits.
    case cut
    /// Even `…` alone does not fit: the payload is rolled back. `size` is the payload's size as
    /// written, `emptySize` its size with an empty body.
    case tooSmall(size: Int, emptySize: Int)
  }

  /// Checks the payload written since `payloadStart` against `budget` (inclusive) and, when it
  /// is over, replaces the body content at `body` by its longest grapheme prefix that fits plus
  /// `…` (SPEC 5 step 2). When even `…` alone does not fit, rolls `writer` back to
  /// `payloadStart` and returns `.tooSmall` with the sizes (step 3): the vendor turns that into
  /// its refusal.
  ///
  /// `bodyWrittenShort`: `body` holds only the first bytes of the text, more than the budget
  /// (`PushText.writeBody` under a `bodyLimit`), so the payload is over it. `unwrittenBytes`:
  /// the payload's size as written leaves out that many bytes of another text, longer than
  /// the budget (`JSONWriter.boundedString`), so the payload is over it whatever the body.
  package static func enforce(
    _ budget: Int, payloadStart: Int, body: Range<Int>, bodyWrittenShort: Bool = false,
    unwrittenBytes: Int = 0, text: PushText, into writer: inout JSONWriter,
    memo: TextMemo? = nil
  ) -> Outcome {
    // The body lies in the payload, which lies in what the writer holds: the cut rewrites
    // those bytes through unchecked buffer accesses.
    assert(
      0 <= payloadStart && payloadStart <= body.lowerBound && body.upperBound <= writer.count,
      "the body must lie within the payload written")
    let emptySize = writer.count - payloadStart - body.count + unwrittenBytes
    if !bodyWrittenShort && writer.count - payloadStart + unwrittenBytes <= budget {
      return .fits
    }
    let room = budget - emptySize
    guard room >= TextCut.ellipsisBytes else {
      writer.truncate(to: payloadStart)
      // The whole body's length is measured only here, for the refusal's sizes.
      let bodySize = bodyWrittenShort ? text.escapedByteCount : body.count
      return .tooSmall(size: emptySize + bodySize, emptySize: emptySize)
    }
    let cut = TextCut.fittingEscaped(text, room: room, memo: memo)
    // The payload after the body moves to make room for the cut body.
    let tail = Array(writer.buffer[body.upperBound...])
    let kept = cut.count - TextCut.ellipsisBytes
    if let escapedKept = memo?.escapedSize(of: text, decodedBytes: kept),
      escapedKept <= body.count
    {
      // Canonical escaping goes byte by byte, so the body written holds the escaped kept
      // prefix at its start: keep those bytes and add `…`, instead of escaping the cut again.
      writer.truncate(to: body.lowerBound + escapedKept)
      // Safe because every cut ends with the 3 bytes of `…`, so 0 <= kept <= cut.count.
      cut.withUnsafeBufferPointer { writer.raw(UnsafeBufferPointer(rebasing: $0[kept...])) }
    } else {
      writer.truncate(to: body.lowerBound)
      cut.withUnsafeBufferPointer { writer.escapedContent($0) }
    }
    writer.raw(tail)
    return .cut
  }
}

/// A limit on the field that carries ext (xiaomi `payload`, oppo `action_parameters`, vivo
/// `clientCustomMap`, meizu `parameters`). Ext is never cut: over the limit, the vendor refuses
/// the message (`over-budget`). All limits are inclusive (SPEC 9).
package struct FieldBudget: Sendable {
  /// What is counted (SPEC 9 "Field budget units").
  package enum Unit: Sendable {
    /// UTF-8 bytes of the decoded ext string (xiaomi).
    case extUTF8Bytes
    /// Unicode scalars of the ext string (oppo).
    case extScalars
    /// Scalars of the key `ext` (3) plus those of the ext string (vivo).
    case keyAndExtScalars
    /// Bytes of `{"ext":"…"}` as written, canonically escaped.
    case writtenObjectBytes
    /// Scalars of the JSON text `{"ext":"…"}` in canonical form (oppo `action_parameters`).
    case writtenObjectScalars
  }

  /// The vendor's own field name, for the refusal's detail.
  package var field: StaticString
  /// What `limit` counts.
  package var unit: Unit
  /// The largest accepted size, in `unit` (inclusive).
  package var limit: Int

  /// A budget of `limit` `unit`s on the vendor's field `field`.
  package init(field: StaticString, unit: Unit, limit: Int) {
    self.field = field
    self.unit = unit
    self.limit = limit
  }

  /// `"ext"` counted in scalars.
  static let extKeyScalars = 3
  /// The bytes of `{"ext":""}`: everything but the string content.
  static let extObjectOverhead = 10

  /// The size of the field carrying `ext`, in this budget's unit.
  package func size(of ext: PushText, memo: TextMemo? = nil) -> Int {
    switch unit {
    case .extUTF8Bytes: ext.decodedByteCount
    case .extScalars: memo?.scalarCount(ext) ?? ext.scalarCount
    case .keyAndExtScalars: FieldBudget.extKeyScalars + (memo?.scalarCount(ext) ?? ext.scalarCount)
    case .writtenObjectBytes: FieldBudget.extObjectOverhead + ext.escapedByteCount
    case .writtenObjectScalars:
      // Escapes are ASCII, so the canonical content has the decoded text's scalars plus one per
      // byte an escape adds: its bytes less the decoded text's continuation bytes.
      FieldBudget.extObjectOverhead + ext.escapedByteCount
        - (ext.decodedByteCount - (memo?.scalarCount(ext) ?? ext.scalarCount))
    }
  }

  /// An upper bound of `size(of: ext)` from the stored length alone, without walking the text:
  /// every scalar takes at least one stored byte, an escape decodes to fewer bytes than it
  /// takes, and canonical escaping never lengthens escaped content (`JSONEscapes`). Nil for
  /// decoded bytes written as escaped JSON, which escaping can lengthen.
  func sizeUpperBound(of ext: PushText) -> Int? {
    let stored = ext.storedByteCount
    switch unit {
    case .extUTF8Bytes, .extScalars:
      return stored
    case .keyAndExtScalars:
      return FieldBudget.extKeyScalars + stored
    case .writtenObjectBytes, .writtenObjectScalars:
      if case .decoded = ext { return nil }
      return FieldBudget.extObjectOverhead + stored
    }
  }

  /// The name of the unit, for people.
  package var unitName: String {
    switch unit {
    case .extUTF8Bytes, .writtenObjectBytes: "bytes"
    case .extScalars, .keyAndExtScalars, .writtenObjectScalars: "scalars"
    }
  }

  /// Nil when `ext` fits, else the size of the field carrying it (in `unit`), which is over
  /// the limit: the vendor turns that into its `over-budget` refusal.
  package func sizeOverLimit(_ ext: PushText, memo: TextMemo? = nil) -> Int? {
    // Most ext strings are far below their limit, which their stored length already proves.
    if let bound = sizeUpperBound(of: ext), bound <= limit { return nil }
    let size = size(of: ext, memo: memo)
    return size <= limit ? nil : size
  }
}
