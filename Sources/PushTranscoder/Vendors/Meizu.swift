/// Meizu Push (SPEC 4):
/// `{"noticeBarInfo":{"title","content","noticeMsgType"?},"clickTypeInfo":{"clickType":0,
/// "parameters"?:{"ext":ext}}}`.
///
/// Title (required: `Title`, else the fallback title) and content are capped at 32 / 100
/// scalars; `parameters` has no size limit (Meizu documents none; SPEC 4).
struct Meizu: CappedVendor {
  static var id: VendorID { .meizu }
  static var name: StaticString { "meizu" }
  static var limits: VendorLimits {
    // Meizu documents no limit on `parameters` (SPEC 4).
    VendorLimits(titleScalars: 32, bodyScalars: 100, recipientsPerRecord: 100)
  }

  func writePayload(
    _ notice: Notice, _ texts: CappedTexts, ext: PushText?, _ context: RenderContext,
    part: Int, parts: Int, into writer: inout JSONWriter, effects: inout RenderEffects
  ) {
    writer.raw("{\"noticeBarInfo\":{\"title\":")
    texts.title.write(into: &writer)
    writer.raw(",\"content\":")
    texts.body.write(into: &writer)
    // noticeMsgType ← `MeiZuNoticeMsgType` when 0 or 1 (SPEC 9 [4, 6.8]).
    writer.acceptedNumber(
      ",\"noticeMsgType\":", notice.android.meizuNoticeMsgType, .noticeMsgType, &effects
    ) { AcceptedValues.integer($0, in: 0...1) }
    writer.raw("},\"clickTypeInfo\":{\"clickType\":0")
    if let ext {
      writer.raw(",\"parameters\":{\"ext\":")
      ext.write(into: &writer)
      writer.byte(ASCII.closeBrace)
    }
    writer.raw("}}")
  }
}
