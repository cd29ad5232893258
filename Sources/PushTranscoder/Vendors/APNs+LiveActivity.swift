/// APNs Live Activity (`ApnsInfo.LiveActivity`, SPEC 4, 9): the record carries
/// `"push_type":"liveactivity","live_activity_id"` and the payload is
/// `{"aps":{"timestamp","event","content-state","dismissal-date"?,"alert":{"title"?,"body"}}}`,
/// without subtitle, sound, badge or ext. Live Activity wins over VoIP, so the budget is the
/// plain 4096 bytes.
extension APNs {
  func renderLiveActivity(
    _ notice: Notice, _ activity: Notice.LiveActivity, _ context: RenderContext, budget: Int,
    into writer: inout JSONWriter, effects: inout RenderEffects
  ) -> VendorRefusal? {
    guard let timestamp = activity.timestamp else {
      return VendorRefusal(
        reason: "missing-timestamp",
        detail: "a Live Activity push needs MsgTimeStamp or MsgTime")
    }
    let start = writer.count
    let title = Notice.present(notice.apns.title) ?? Notice.present(notice.title)
    let body = notice.bodyText(titled: title != nil)
    writer.raw("{\"aps\":{\"timestamp\":")
    writer.raw(timestamp)
    writer.raw(",\"event\":")
    writer.string(activity.event)
    writer.raw(",\"content-state\":")
    writer.value(context.document, activity.contentState)
    writer.optionalNumber(",\"dismissal-date\":", activity.dismissalDate)
    writer.raw(",\"alert\":")
    let bodyRange = writeAlertObject(title, nil, body, into: &writer)
    writer.raw("}}")
    return ByteBudget.enforce(
      budget, vendor: .apns, payloadStart: start, body: bodyRange, text: body, into: &writer,
      effects: &effects)
  }
}
