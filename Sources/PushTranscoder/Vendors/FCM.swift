/// Firebase Cloud Messaging, HTTP v1 message body (SPEC 4):
/// `{"notification":{"title"?,"body","image"?},"android":{"priority","notification":
/// {"channel_id"?,"sound"?,"notification_count"?}},"data"?:{"ext":ext}}`.
///
/// `android.notification` is always written (`{}` when empty); `priority` defaults to `high`.
struct FCM: BudgetedVendor {
  static var id: VendorID { .fcm }
  static var name: StaticString { "fcm" }
  static var limits: VendorLimits { VendorLimits(payloadBytes: 4000, recipientsPerRecord: 500) }

  func writePayload(
    _ notice: Notice, _ context: RenderContext, part: Int, into writer: inout JSONWriter,
    effects: inout RenderEffects
  ) throws(VendorRefusal) -> BudgetedBody {
    let android = notice.android
    // notification.title ← `Title`.
    let title = Notice.present(notice.title)
    let body = notice.bodyText(titled: title != nil)
    writer.raw("{\"notification\":{")
    let bodyRange = writer.titleThenBody(title, body)
    // notification.image ← `AndroidInfo.GoogleImage`.
    writer.optionalString(",\"image\":", android.googleImage)
    // android.priority ← `AndroidInfo.GooglePriority`, default `high`.
    writer.raw("},\"android\":{\"priority\":")
    if let priority = Notice.present(android.googlePriority) {
      writer.string(priority)
    } else {
      writer.raw("\"high\"")
    }
    writer.raw(",\"notification\":{")
    var first = true
    // android.notification.channel_id ← `GoogleChannelID`; sound ← `AndroidInfo.Sound`;
    // notification_count ← `BadgeSetNum`.
    writer.optionalString("\"channel_id\":", android.googleChannelID, first: &first)
    writer.optionalString("\"sound\":", android.sound, first: &first)
    // notification_count must be >= 0 (SPEC 9 [4, 6.8]).
    if let count = notice.badgeSet {
      if AcceptedValues.nonNegativeInteger(count) {
        writer.optionalNumber("\"notification_count\":", count, first: &first)
      } else {
        effects.drop(.notificationCount)
      }
    }
    writer.raw("}}")
    // data.ext ← ext as a string (FCM data values are strings).
    if let ext = notice.extText(context) {
      writer.raw(",\"data\":{\"ext\":")
      ext.write(into: &writer)
      writer.byte(ASCII.closeBrace)
    }
    writer.byte(ASCII.closeBrace)
    return BudgetedBody(range: bodyRange, text: body)
  }
}
