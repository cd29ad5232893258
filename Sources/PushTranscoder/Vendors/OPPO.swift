/// OPPO Push (SPEC 4):
/// `{"title","content","channel_id"?,"category"?,"notify_level"?,"click_action_type":0,
/// "action_parameters"?:P}`, P a string holding the JSON text `{"ext":ext}` (OPPO requires
/// JSON there).
///
/// Title (required: `Title`, else the fallback title) and content are capped at 50 / 50
/// scalars; the JSON text of `action_parameters` may hold at most 4000 scalars and is never cut.
struct OPPO: PushVendor {
  var id: VendorID { .oppo }

  func renderPayload(
    _ notice: Notice, _ context: RenderContext, part: Int, parts: Int,
    into writer: inout JSONWriter, effects: inout RenderEffects
  ) -> VendorRefusal? {
    let texts: CappedTexts
    do {
      texts = try notice.cappedTexts(
        VendorLimits.of(.oppo), vendor: .oppo, context: context, effects: &effects)
    } catch {
      return error
    }
    let android = notice.android
    writer.raw("{\"title\":")
    texts.title.write(into: &writer)
    writer.raw(",\"content\":")
    texts.body.write(into: &writer)
    // channel_id ← `OPPOChannelID`; category ← `OPPOCategory`.
    let category = Notice.present(android.oppoCategory)
    writer.optionalString(",\"channel_id\":", android.oppoChannelID)
    writer.optionalString(",\"category\":", category)
    // notify_level ← `OPPONotifyLevel` when 1, 2 or 16, and only with a written category
    // (SPEC 9 [4, 6.8]).
    if let level = android.oppoNotifyLevel {
      if category != nil, let value = AcceptedValues.integer(level),
        value == 1 || value == 2 || value == 16
      {
        writer.raw(",\"notify_level\":")
        writer.raw(level)
      } else {
        effects.drop(.notifyLevel)
      }
    }
    writer.raw(",\"click_action_type\":0")
    if let ext = texts.ext {
      writer.raw(",\"action_parameters\":")
      OPPO.writeActionParameters(ext, into: &writer)
    }
    writer.byte(ASCII.closeBrace)
    return nil
  }

  /// Writes the JSON string whose value is the canonical JSON text `{"ext":ext}`: the text's
  /// escapes escaped once more.
  static func writeActionParameters(_ ext: PushText, into writer: inout JSONWriter) {
    writer.raw("\"{\\\"ext\\\":\\\"")
    if ext.isPlain {
      // Plain content holds no `"`, `\` or control byte: escaping it again changes nothing.
      ext.writeContent(into: &writer)
    } else {
      var inner = JSONWriter(capacity: ext.storedByteCount * 2 + 16)
      ext.writeContent(into: &inner)
      writer.escapedContent(inner.buffer)
    }
    writer.raw("\\\"}\"")
  }
}
