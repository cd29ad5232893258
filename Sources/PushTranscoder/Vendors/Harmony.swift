/// HarmonyOS Push Kit (SPEC 4):
/// `{"payload":{"notification":{"category","title","body","image"?,"sound"?,"soundDuration"?,
/// "badge"?:{"addNum"|"setNum"},"clickAction":{"actionType":0,"data"?:{"ext":ext}}}}}`.
///
/// The title is required (`HarmonyInfo.Title`, else `Title`, else the fallback title), so the
/// body never carries the display prefix; `category` defaults to `IM`; `clickAction` is always
/// written. Values HarmonyOS refuses are left out (SPEC 9 [4, 6.8]).
struct Harmony: BudgetedVendor {
  static var id: VendorID { .harmony }
  static var name: StaticString { "harmony" }
  static var limits: VendorLimits { VendorLimits(payloadBytes: 4096, recipientsPerRecord: 1000) }

  func writePayload(
    _ notice: Notice, _ context: RenderContext, part: Int, into writer: inout JSONWriter,
    effects: inout RenderEffects
  ) throws(VendorRefusal) -> BudgetedBody {
    let harmony = notice.harmony
    // body is required: a blank one becomes the banner text (SPEC 9 [4, 6.8]).
    let body = notice.requiredBody(titled: true, memo: context.memo)
    // category ← `HarmonyInfo.Category` when HarmonyOS lists it, else the default `IM`.
    writer.raw("{\"payload\":{\"notification\":{\"category\":")
    if let category = Notice.present(harmony.category),
      AcceptedValues.contains(AcceptedValues.harmonyCategory, category)
    {
      writer.string(category)
    } else {
      if Notice.present(harmony.category) != nil { effects.drop(.category) }
      writer.raw("\"IM\"")
    }
    writer.raw(",\"title\":")
    // The title is not cut: one longer than the budget makes the payload over it.
    writer.boundedString(notice.requiredTitle(preferring: harmony.title, memo: context.memo))
    writer.raw(",\"body\":")
    let bodyRange = body.writeBody(into: &writer)
    // image, sound, soundDuration ← `HarmonyInfo.Image`, `.Sound`, `.SoundDuration`.
    writer.optionalString(",\"image\":", harmony.image)
    writer.optionalString(",\"sound\":", harmony.sound)
    writer.optionalNumber(",\"soundDuration\":", harmony.soundDuration)
    writer.checkedBadge(
      notice, set: "\"setNum\":", .setNum, add: "\"addNum\":", .addNum, &effects)
    writer.raw(",\"clickAction\":{\"actionType\":0")
    // clickAction.data.ext ← ext as a string.
    if let ext = notice.extText(context) {
      writer.raw(",\"data\":{\"ext\":")
      ext.write(into: &writer)
      writer.byte(ASCII.closeBrace)
    }
    writer.raw("}}}}")
    return BudgetedBody(range: bodyRange, text: body)
  }
}
