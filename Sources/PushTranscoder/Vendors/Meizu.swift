/// Meizu Push (SPEC 4):
/// `{"noticeBarInfo":{"title","content","noticeMsgType"?},"clickTypeInfo":{"clickType":0,
/// "parameters"?:{"ext":ext}}}`.
///
/// Title (required: `Title`, else the fallback title) and content are capped at 32 / 100
/// scalars; `parameters` has no size limit (Meizu documents none; SPEC 4).
struct Meizu: PushVendor {
  var id: VendorID { .meizu }

  func renderPayload(
    _ notice: Notice, _ context: RenderContext, part: Int, parts: Int,
    into writer: inout JSONWriter, effects: inout RenderEffects
  ) -> VendorRefusal? {
    let texts: CappedTexts
    do {
      texts = try notice.cappedTexts(
        VendorLimits.of(.meizu), vendor: .meizu, context: context, effects: &effects)
    } catch {
      return error
    }
    writer.raw("{\"noticeBarInfo\":{\"title\":")
    texts.title.write(into: &writer)
    writer.raw(",\"content\":")
    texts.body.write(into: &writer)
    // noticeMsgType ← `MeiZuNoticeMsgType` when 0 or 1 (SPEC 9 [4, 6.8]).
    writer.rangedNumber(
      ",\"noticeMsgType\":", notice.android.meizuNoticeMsgType, 0...1, .noticeMsgType, &effects)
    writer.raw("},\"clickTypeInfo\":{\"clickType\":0")
    if let ext = texts.ext {
      writer.raw(",\"parameters\":{\"ext\":")
      ext.write(into: &writer)
      writer.byte(ASCII.closeBrace)
    }
    writer.raw("}}")
    return nil
  }
}
