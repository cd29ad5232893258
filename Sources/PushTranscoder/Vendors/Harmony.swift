/// HarmonyOS Push Kit (SPEC 4):
/// `{"payload":{"notification":{"category","title","body","image"?,"sound"?,"soundDuration"?,
/// "badge"?:{"addNum"|"setNum"},"clickAction":{"actionType":0,"data"?:{"ext":ext}}}}}`.
///
/// The title is required (`HarmonyInfo.Title`, else `Title`, else the fallback title), so the
/// body never carries the display prefix; `category` defaults to `IM`; `clickAction` is always
/// written.
struct Harmony: PushVendor {
  var id: VendorID { .harmony }

  func renderPayload(
    _ notice: Notice, _ context: RenderContext, part: Int, parts: Int,
    into writer: inout JSONWriter, effects: inout RenderEffects
  ) -> VendorRefusal? {
    let start = writer.count
    let harmony = notice.harmony
    let body = notice.bodyText(titled: true)
    // category ← `HarmonyInfo.Category`, default `IM`.
    writer.raw("{\"payload\":{\"notification\":{\"category\":")
    if let category = Notice.present(harmony.category) {
      writer.string(category)
    } else {
      writer.raw("\"IM\"")
    }
    writer.raw(",\"title\":")
    writer.string(notice.requiredTitle(preferring: harmony.title))
    writer.raw(",\"body\":")
    let bodyRange = body.write(into: &writer)
    // image, sound, soundDuration ← `HarmonyInfo.Image`, `.Sound`, `.SoundDuration`.
    writer.optionalString(",\"image\":", harmony.image)
    writer.optionalString(",\"sound\":", harmony.sound)
    writer.optionalNumber(",\"soundDuration\":", harmony.soundDuration)
    writer.badge(notice, set: "\"setNum\":", add: "\"addNum\":")
    writer.raw(",\"clickAction\":{\"actionType\":0")
    // clickAction.data.ext ← ext as a string.
    if let ext = notice.extText(context) {
      writer.raw(",\"data\":{\"ext\":")
      ext.write(into: &writer)
      writer.byte(ASCII.closeBrace)
    }
    writer.raw("}}}}")
    return ByteBudget.enforce(
      VendorLimits.of(.harmony).payloadBytes!, vendor: .harmony, payloadStart: start,
      body: bodyRange, text: body, into: &writer, effects: &effects, memo: context.memo)
  }
}
