/// Xiaomi Push (SPEC 4):
/// `{"title","description","payload"?:ext,"pass_through":0,"notify_type":-1,
/// "extra"?:{"channel_id"}}`.
///
/// Title (required: `Title`, else the fallback title) and description are capped at 49 / 127
/// scalars; `payload` (ext) may hold at most 4096 UTF-8 bytes and is never cut.
struct Xiaomi: CappedVendor {
  static var id: VendorID { .xiaomi }
  static var name: StaticString { "xiaomi" }
  static var limits: VendorLimits {
    VendorLimits(
      titleScalars: 49, bodyScalars: 127,
      extField: FieldBudget(field: "payload", unit: .extUTF8Bytes, limit: 4096),
      recipientsPerRecord: 100)
  }

  func writePayload(
    _ notice: Notice, _ texts: CappedTexts, ext: PushText?, _ context: RenderContext,
    part: Int, parts: Int, into writer: inout JSONWriter, effects: inout RenderEffects
  ) {
    writer.raw("{\"title\":")
    texts.title.write(into: &writer)
    writer.raw(",\"description\":")
    texts.body.write(into: &writer)
    if let ext {
      writer.raw(",\"payload\":")
      ext.write(into: &writer)
    }
    writer.raw(",\"pass_through\":0,\"notify_type\":-1")
    // extra.channel_id ← `XiaoMiChannelID`.
    if let channel = Notice.present(notice.android.xiaomiChannelID) {
      writer.raw(",\"extra\":{\"channel_id\":")
      writer.string(channel)
      writer.byte(ASCII.closeBrace)
    }
    writer.byte(ASCII.closeBrace)
  }
}
