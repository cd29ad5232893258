/// Honor Push, Android message body (SPEC 4):
/// `{"data"?:ext,"android":{"notification":{"title"?,"body","importance"?,"image"?,
/// "badge"?:{"addNum"|"setNum"},"clickAction":{"type":3}}}}`.
struct Honor: PushVendor {
  var id: VendorID { .honor }

  func renderPayload(
    _ notice: Notice, _ context: RenderContext, part: Int, parts: Int,
    into writer: inout JSONWriter, effects: inout RenderEffects
  ) -> VendorRefusal? {
    let start = writer.count
    let android = notice.android
    // notification.title ← `Title` (SPEC 9: honor titles come from `Title`).
    let title = Notice.present(notice.title)
    let body = notice.bodyText(titled: title != nil)
    writer.byte(ASCII.openBrace)
    // data ← ext as a string.
    if let ext = notice.extText(context) {
      writer.raw("\"data\":")
      ext.write(into: &writer)
      writer.byte(ASCII.comma)
    }
    writer.raw("\"android\":{\"notification\":{")
    if let title {
      writer.raw("\"title\":")
      writer.string(title)
      writer.byte(ASCII.comma)
    }
    writer.raw("\"body\":")
    let bodyRange = body.write(into: &writer)
    // importance ← `HonorImportance`; image ← `HonorImage`; badge as for huawei, camelCase.
    writer.optionalString(",\"importance\":", android.honorImportance)
    writer.optionalString(",\"image\":", android.honorImage)
    writer.badge(notice, set: "\"setNum\":", add: "\"addNum\":")
    writer.raw(",\"clickAction\":{\"type\":3}}}}")
    return ByteBudget.enforce(
      VendorLimits.of(.honor).payloadBytes!, vendor: .honor, payloadStart: start,
      body: bodyRange, text: body, into: &writer, effects: &effects, memo: context.memo)
  }
}
