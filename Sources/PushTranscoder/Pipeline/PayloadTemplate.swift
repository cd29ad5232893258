/// The payload of one record of a split message, from which `LineRecords.writeParts` makes the
/// other records' payloads instead of rendering each (a batch send to many recipients): as it
/// is when every record gets the same payload, or with the field that names the record written
/// anew (Easemob apns `t`), as `PushVendor.partPayloads` says.
///
/// A payload made from the template is the bytes rendering would write. For `.same` they are
/// the template's. For `.differInOneField` the template's body was not cut and the payload fit
/// its budget, and the vendor writes the same bytes around the field for every record, so a
/// record whose field is no longer than the template's makes a payload no longer than one that
/// fit: rendered, it would fit uncut too, and be the template with its own field. A longer
/// field is rendered instead, since its payload might not fit.
struct PayloadTemplate {
  /// The payload's bytes.
  private let bytes: [UInt8]
  /// Where the field that names the record lies in `bytes` (empty, at the end, for `.same`).
  private let field: Range<Int>
  /// True for `.differInOneField`: each record writes its own field.
  let writesField: Bool
  /// What rendering the payload did (cuts, fields left out): the same for each copy.
  let effects: RenderEffects

  /// The template of the payload `writer` holds from `start` on, rendered with `effects`, or
  /// nil when the records cannot be made from it: the vendor renders each record, or the body
  /// was cut (where a cut falls depends on the field's length), or the field is not marked.
  init?(
    _ kind: PartPayloads, _ writer: borrowing JSONWriter, from start: Int,
    effects: RenderEffects
  ) {
    // Safe because `start ..< writer.count` lies within the writer's written bytes.
    let payload = UnsafeBufferPointer(rebasing: writer.buffer[start..<writer.count])
    switch kind {
    case .same:
      field = payload.count..<payload.count
      writesField = false
    case .differInOneField:
      guard !effects.bodyCut && !effects.titleCut, let marked = effects.partField,
        marked.lowerBound >= start, marked.upperBound <= writer.count
      else { return nil }
      field = (marked.lowerBound - start)..<(marked.upperBound - start)
      writesField = true
    case .differ:
      return nil
    }
    bytes = Array(payload)
    self.effects = effects
  }

  /// Writes record `part`'s payload from the template, or returns false having written
  /// nothing when its field is longer than the template's (the record is then rendered).
  func write<Vendor: PushVendor>(
    _ vendor: Vendor, _ notice: Notice, part: Int, into writer: inout JSONWriter
  ) -> Bool {
    bytes.withUnsafeBufferPointer { bytes in
      let start = writer.count
      // Safe because `field` lies within `bytes` (checked when the template was made).
      writer.raw(UnsafeBufferPointer(rebasing: bytes[..<field.lowerBound]))
      if writesField {
        let fieldStart = writer.count
        vendor.writePartField(notice, part: part, into: &writer)
        guard writer.count - fieldStart <= field.count else {
          writer.truncate(to: start)
          return false
        }
      }
      writer.raw(UnsafeBufferPointer(rebasing: bytes[field.upperBound...]))
      return true
    }
  }
}
