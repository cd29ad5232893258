/// OPPO Push (SPEC 4):
/// `{"title","content","channel_id"?,"category"?,"notify_level"?,"click_action_type":0,
/// "action_parameters"?:ext}`.
///
/// Title (required: `Title`, else the fallback title) and content are capped at 50 / 50
/// scalars; `action_parameters` (ext) may hold at most 4000 scalars and is never cut.
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
    // channel_id ← `OPPOChannelID`; category ← `OPPOCategory`; notify_level ←
    // `OPPONotifyLevel`.
    writer.optionalString(",\"channel_id\":", android.oppoChannelID)
    writer.optionalString(",\"category\":", android.oppoCategory)
    writer.optionalNumber(",\"notify_level\":", android.oppoNotifyLevel)
    writer.raw(",\"click_action_type\":0")
    if let ext = texts.ext {
      writer.raw(",\"action_parameters\":")
      ext.write(into: &writer)
    }
    writer.byte(ASCII.closeBrace)
    return nil
  }
}
