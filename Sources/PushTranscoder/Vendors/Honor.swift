/// Honor Push, Android message body (SPEC 4):
/// `{"data"?:ext,"android":{"notification":{"title"?,"body","importance"?,"image"?,
/// "badge"?:{"addNum"|"setNum"},"clickAction":{"type":3}}}}`. Values Honor refuses are left
/// out (SPEC 9 [4, 6.8]).
struct Honor: BudgetedVendor {
  static var id: VendorID { .honor }
  static var name: StaticString { "honor" }
  static var limits: VendorLimits { VendorLimits(payloadBytes: 4096, recipientsPerRecord: 1000) }

  func writePayload(
    _ notice: Notice, _ context: RenderContext, part: Int, into writer: inout JSONWriter,
    effects: inout RenderEffects
  ) throws(VendorRefusal) -> BudgetedBody {
    let android = notice.android
    // notification.title ← `Title` (SPEC 9: honor titles come from `Title`).
    let title = Notice.present(notice.title)
    // body is required: a blank one becomes the banner text (SPEC 9 [4, 6.8]).
    let body = notice.requiredBody(titled: title != nil, memo: context.memo)
    writer.byte(ASCII.openBrace)
    // data ← ext as a string.
    if let ext = notice.extText(context) {
      writer.raw("\"data\":")
      ext.write(into: &writer)
      writer.byte(ASCII.comma)
    }
    writer.raw("\"android\":{\"notification\":{")
    let bodyRange = writer.titleThenBody(title, body)
    // importance ← `HonorImportance`; image ← `HonorImage`; badge as for huawei, camelCase.
    writer.enumeratedString(
      ",\"importance\":", android.honorImportance, AcceptedValues.honorImportance, .importance,
      &effects)
    writer.optionalString(",\"image\":", android.honorImage)
    writer.checkedBadge(
      notice, set: "\"setNum\":", .setNum, add: "\"addNum\":", .addNum, &effects)
    writer.raw(",\"clickAction\":{\"type\":3}}}}")
    return BudgetedBody(range: bodyRange, text: body)
  }
}
