/// Honor Push, Android message body (SPEC 4):
/// `{"data"?:ext,"android":{"notification":{"title"?,"body","importance"?,"image"?,
/// "badge"?:{"addNum"|"setNum"},"clickAction":{"type":3}}}}`. Values Honor refuses are left
/// out (SPEC 9 [4, 6.8]).
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
    // body is required: a blank one becomes the banner text (SPEC 9 [4, 6.8]).
    let body = notice.requiredBody(titled: title != nil)
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
    writer.enumeratedString(
      ",\"importance\":", android.honorImportance, AcceptedValues.honorImportance, .importance,
      &effects)
    writer.optionalString(",\"image\":", android.honorImage)
    writer.checkedBadge(
      notice, set: "\"setNum\":", .setNum, add: "\"addNum\":", .addNum, &effects)
    writer.raw(",\"clickAction\":{\"type\":3}}}}")
    return ByteBudget.enforce(
      VendorLimits.of(.honor).payloadBytes!, vendor: .honor, payloadStart: start,
      body: bodyRange, text: body, into: &writer, effects: &effects, memo: context.memo)
  }
}
