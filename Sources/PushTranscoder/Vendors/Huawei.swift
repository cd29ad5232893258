/// Huawei Push Kit, Android message body (SPEC 4):
/// `{"data"?:ext,"android":{"category"?,"notification":{"title"?,"body","channel_id"?,
/// "importance"?,"image"?,"sound"?,"default_sound"?:false,"badge"?:{"add_num"|"set_num"},
/// "click_action":{"type":3}}}}`. Values Huawei refuses are left out (SPEC 9 [4, 6.8]).
struct Huawei: PushVendor {
  var id: VendorID { .huawei }

  func renderPayload(
    _ notice: Notice, _ context: RenderContext, part: Int, parts: Int,
    into writer: inout JSONWriter, effects: inout RenderEffects
  ) -> VendorRefusal? {
    let start = writer.count
    let android = notice.android
    // notification.title ← `Title` (SPEC 9: huawei titles come from `Title`).
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
    if let title {
      writer.raw("\"title\":")
      writer.string(title)
      writer.byte(ASCII.comma)
    }
    writer.raw("\"body\":")
    let bodyRange = body.write(into: &writer)
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
    return ByteBudget.enforce(
      VendorLimits.of(.huawei).payloadBytes!, vendor: .huawei, payloadStart: start,
      body: bodyRange, text: body, into: &writer, effects: &effects, memo: context.memo)
  }
}
