/// Huawei Push Kit, Android message body (SPEC 4):
/// `{"data"?:ext,"android":{"category"?,"notification":{"title"?,"body","channel_id"?,
/// "importance"?,"image"?,"sound"?,"default_sound"?:false,"badge"?:{"add_num"|"set_num"},
/// "click_action":{"type":3}}}}`. Values Huawei refuses are left out (SPEC 9 [4, 6.8]).
struct Huawei: BudgetedVendor {
  static var id: VendorID { .huawei }
  static var name: StaticString { "huawei" }
  static var limits: VendorLimits { VendorLimits(payloadBytes: 4096, recipientsPerRecord: 1000) }

  func writePayload(
    _ notice: Notice, _ context: RenderContext, part: Int, into writer: inout JSONWriter,
    effects: inout RenderEffects
  ) throws(VendorRefusal) -> BudgetedBody {
    let android = notice.android
    // notification.title ← `Title` (SPEC 9: huawei titles come from `Title`).
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
    writer.raw("\"android\":{")
    // android.category ← `HuaWeiCategory`, when Huawei lists it.
    if let category = Notice.present(android.huaweiCategory) {
      if AcceptedValues.contains(AcceptedValues.huaweiCategory, category) {
        writer.raw("\"category\":")
        writer.string(category)
        writer.byte(ASCII.comma)
      } else {
        effects.drop(.category)
      }
    }
    writer.raw("\"notification\":{")
    let bodyRange = writer.titleThenBody(title, body)
    // channel_id ← `HuaWeiChannelID`; importance ← `HuaWeiImportance`; image ← `HuaWeiImage`.
    writer.optionalString(",\"channel_id\":", android.huaweiChannelID)
    writer.enumeratedString(
      ",\"importance\":", android.huaweiImportance, AcceptedValues.huaweiImportance, .importance,
      &effects)
    writer.optionalString(",\"image\":", android.huaweiImage)
    // sound ← `AndroidInfo.Sound`, then `default_sound:false` so the custom sound plays.
    if let sound = Notice.present(android.sound) {
      writer.raw(",\"sound\":")
      writer.string(sound)
      writer.raw(",\"default_sound\":false")
    }
    writer.checkedBadge(
      notice, set: "\"set_num\":", .setNumSnake, add: "\"add_num\":", .addNumSnake, &effects)
    writer.raw(",\"click_action\":{\"type\":3}}}}")
    return BudgetedBody(range: bodyRange, text: body)
  }
}
