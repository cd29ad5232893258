/// The two kinds of vendor (SPEC 4, 5): budgeted vendors (apns, fcm, huawei, honor, harmony)
/// have a byte budget on the whole payload and cut the body to fit it; capped vendors (xiaomi,
/// oppo, vivo, meizu) cap title and body in scalars and refuse an ext over its field's limit.
/// Each kind's envelope around the payload is written here once, so a vendor file holds only its
/// payload shape and its limits.

/// The body a budgeted vendor wrote: where its content went, and the text it came from.
struct BudgetedBody {
  /// The range of the body's content (without quotes) in the writer.
  var range: Range<Int>
  /// The body text, for a cut when the payload is over its budget.
  var text: PushText
}

/// A vendor with a byte budget on its whole payload (SPEC 5 step 2, 3): it writes the payload
/// once, and `renderPayload` cuts the body when the payload is over the budget, or refuses the
/// message when even `…` does not fit.
protocol BudgetedVendor: PushVendor {
  /// The payload's byte budget for `notice`; by default `limits.payloadBytes`.
  func payloadBudget(_ notice: Notice) -> Int

  /// Writes the whole payload object for `notice` and returns its body, or throws a refusal
  /// having written nothing.
  func writePayload(
    _ notice: Notice, _ context: RenderContext, part: Int, into writer: inout JSONWriter,
    effects: inout RenderEffects
  ) throws(VendorRefusal) -> BudgetedBody
}

extension BudgetedVendor {
  /// The vendor's one payload budget.
  func payloadBudget(_ notice: Notice) -> Int { Self.limits.payloadBytes! }

  /// The payload within the byte budget (see `BudgetedVendor`). Inlined into the pipeline's
  /// per-vendor record writer, as a vendor's own `renderPayload` would be.
  @inline(__always)
  package func renderPayload(
    _ notice: Notice, _ context: RenderContext, part: Int, parts: Int,
    into writer: inout JSONWriter, effects: inout RenderEffects
  ) -> VendorRefusal? {
    let start = writer.count
    let budget = payloadBudget(notice)
    let body: BudgetedBody
    // A body longer than the budget is written only as far as a cut could keep
    // (`PushText.writeBody`): 8 bytes more than the budget, so that it is over for sure.
    writer.bodyLimit = budget + 8
    writer.bodyWrittenShort = false
    writer.unwrittenBytes = 0
    do {
      defer { writer.bodyLimit = Int.max }
      body = try writePayload(notice, context, part: part, into: &writer, effects: &effects)
    } catch {
      return error
    }
    switch ByteBudget.enforce(
      budget, payloadStart: start, body: body.range, bodyWrittenShort: writer.bodyWrittenShort,
      unwrittenBytes: writer.unwrittenBytes, text: body.text, into: &writer, memo: context.memo)
    {
    case .fits:
      return nil
    case .cut:
      effects.bodyCut = true
      return nil
    case .tooSmall(let size, let emptySize):
      return VendorRefusal(
        reason: .overBudget,
        detail: "\(Self.name) payload is \(size) bytes, \(emptySize) with an empty body; "
          + "the budget is \(budget) bytes and \"…\" needs \(TextCut.ellipsisBytes)")
    }
  }
}

/// A vendor that caps title and body in scalars and limits the field carrying ext (SPEC 5 step
/// 1): `renderPayload` checks the ext field and cuts the texts, then the vendor writes them.
protocol CappedVendor: PushVendor {
  /// Writes the whole payload object for `notice` with the capped `texts` and `ext`
  /// (`Notice.extText`, already checked against the ext field's limit).
  func writePayload(
    _ notice: Notice, _ texts: CappedTexts, ext: PushText?, _ context: RenderContext,
    part: Int, parts: Int, into writer: inout JSONWriter, effects: inout RenderEffects)
}

extension CappedVendor {
  /// The payload with capped texts (see `CappedVendor`), or an `over-budget` refusal when ext
  /// is over its field's limit. Inlined into the pipeline's per-vendor record writer, as a
  /// vendor's own `renderPayload` would be.
  @inline(__always)
  package func renderPayload(
    _ notice: Notice, _ context: RenderContext, part: Int, parts: Int,
    into writer: inout JSONWriter, effects: inout RenderEffects
  ) -> VendorRefusal? {
    let limits = Self.limits
    let ext = notice.extText(context)
    if let ext, let field = limits.extField,
      let size = field.sizeOverLimit(ext, memo: context.memo)
    {
      return VendorRefusal(
        reason: .overBudget,
        detail: "\(Self.name) \(field.field) is \(size) \(field.unitName); "
          + "the limit is \(field.limit)")
    }
    let texts = notice.cappedTexts(limits, context: context, effects: &effects)
    writePayload(
      notice, texts, ext: ext, context, part: part, parts: parts, into: &writer,
      effects: &effects)
    return nil
  }
}
