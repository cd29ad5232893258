/// Apple Push Notification service (SPEC 4, 9): two payload shapes chosen by the dialect, plus
/// VoIP (5120-byte budget) and Live Activity (the extension at the end of this file).
///
/// Tencent: `{"aps":{"alert":A,"badge"?,"sound"?,"mutable-content"?:1,"content-available"?:1,
/// "interruption-level"?},"image"?,"ext"?}`, A the body string when there is neither title nor
/// subtitle, else `{"title"?,"subtitle"?,"body"}`. Tencent apns never writes `category`.
///
/// Easemob: `{"aps":{"alert":{"title"?,"subtitle"?,"body"},"badge"?,"sound":S,
/// "mutable-content"?:1,"category"?},"f","t"?,"g"?,"m"?,"e"?}`, S default `"default"`.
struct APNs: BudgetedVendor {
  static var id: VendorID { .apns }
  static var name: StaticString { "apns" }
  static var limits: VendorLimits {
    VendorLimits(payloadBytes: 4096, voipPayloadBytes: 5120, recipientsPerRecord: 1)
  }

  func writeRecordExtras(_ notice: Notice, into writer: inout JSONWriter) {
    if let activity = notice.apns.liveActivity {
      // Live Activity wins over VoIP (SPEC 9).
      writer.raw(",\"push_type\":\"liveactivity\",\"live_activity_id\":")
      writer.string(activity.id)
    } else if notice.apns.voip {
      writer.raw(",\"push_type\":\"voip\"")
    }
  }

  func hasRecordExtras(_ notice: Notice) -> Bool {
    notice.apns.liveActivity != nil || notice.apns.voip
  }

  /// Easemob payloads name their record's recipient (`t`) or group (`g`); a send to several
  /// groups that a directory names gives each record its own title too.
  func partPayloads(_ notice: Notice) -> PartPayloads {
    if notice.groups.count > 1 && notice.groupsTitleTheirRecords { return .differ }
    return notice.dialect == .easemob && notice.apns.liveActivity == nil
      ? .differInOneField : .same
  }

  /// Easemob `t` / `g`: the recipient (C2C) or group of *this* record. apns carries one
  /// recipient per record, so part p (1-based) of a C2C message is recipients[p − 1], the same
  /// id as the record's "to"; were apns records ever to hold several recipients, `t` would be
  /// the first of the record's own slice. A group message makes one record per group: part p
  /// is groups[p − 1]. Out-of-range parts fall back to the first.
  func writePartField(_ notice: Notice, part: Int, into writer: inout JSONWriter) {
    if notice.groups.isEmpty {
      let index = (part - 1) * recipientsPerRecord
      let recipient =
        notice.recipients.indices.contains(index)
        ? notice.recipients[index] : notice.recipients.first
      writer.optionalString(",\"t\":", recipient)
    } else {
      let group =
        notice.groups.indices.contains(part - 1)
        ? notice.groups[part - 1] : notice.groups[0]
      writer.optionalString(",\"g\":", group)
    }
  }

  /// VoIP pushes have their own budget; Live Activity wins over VoIP (SPEC 9), so a Live
  /// Activity has the plain one.
  func payloadBudget(_ notice: Notice) -> Int {
    notice.apns.voip && notice.apns.liveActivity == nil
      ? Self.limits.voipPayloadBytes! : Self.limits.payloadBytes!
  }

  func writePayload(
    _ notice: Notice, _ context: RenderContext, part: Int, into writer: inout JSONWriter,
    effects: inout RenderEffects
  ) throws(VendorRefusal) -> BudgetedBody {
    if let activity = notice.apns.liveActivity {
      return try writeLiveActivity(notice, activity, context, into: &writer)
    }
    // `title` ← `ApnsInfo.Title`, else the notice title (Easemob: `em_push_title`).
    let title = Notice.present(notice.apns.title) ?? Notice.present(notice.title)
    let subtitle = Notice.present(notice.apns.subtitle)
    // A subtitle without a title still gets the untitled body (display prefix, SPEC 9).
    let body = notice.bodyText(titled: title != nil)
    let bodyRange: Range<Int>
    switch notice.dialect {
    case .tencent:
      bodyRange = writeTencent(
        notice, context, title, subtitle, body, into: &writer, effects: &effects)
    case .easemob:
      bodyRange = writeEasemob(
        notice, context, title, subtitle, body, part: part, into: &writer, effects: &effects)
    }
    return BudgetedBody(range: bodyRange, text: body)
  }

  private func writeTencent(
    _ notice: Notice, _ context: RenderContext, _ title: StringSlice?, _ subtitle: StringSlice?,
    _ body: PushText, into writer: inout JSONWriter, effects: inout RenderEffects
  ) -> Range<Int> {
    writer.raw("{\"aps\":{\"alert\":")
    let bodyRange: Range<Int>
    if title == nil && subtitle == nil {
      bodyRange = body.writeBody(into: &writer)
    } else {
      bodyRange = writeAlertObject(title, subtitle, body, into: &writer)
    }
    // badge must be >= 0 (SPEC 9 [4, 6.8]).
    writer.acceptedNumber(
      ",\"badge\":", notice.badgeSet, .badge, &effects,
      accepted: AcceptedValues.nonNegativeInteger)
    writer.optionalString(",\"sound\":", notice.sound)
    if notice.apns.mutableContent { writer.raw(",\"mutable-content\":1") }
    if notice.apns.contentAvailable { writer.raw(",\"content-available\":1") }
    writer.optionalString(",\"interruption-level\":", notice.apns.interruptionLevel)
    writer.byte(ASCII.closeBrace)
    writer.optionalString(",\"image\":", notice.apns.image)
    if let ext = notice.extText(context) {
      writer.raw(",\"ext\":")
      ext.write(into: &writer)
    }
    writer.byte(ASCII.closeBrace)
    return bodyRange
  }

  private func writeEasemob(
    _ notice: Notice, _ context: RenderContext, _ title: StringSlice?, _ subtitle: StringSlice?,
    _ body: PushText, part: Int, into writer: inout JSONWriter, effects: inout RenderEffects
  ) -> Range<Int> {
    writer.raw("{\"aps\":{\"alert\":")
    let bodyRange = writeAlertObject(title, subtitle, body, into: &writer)
    // badge must be >= 0 (SPEC 9 [4, 6.8]).
    writer.acceptedNumber(
      ",\"badge\":", notice.badgeSet, .badge, &effects,
      accepted: AcceptedValues.nonNegativeInteger)
    writer.raw(",\"sound\":")
    if let sound = Notice.present(notice.sound) {
      writer.string(sound)
    } else {
      writer.raw("\"default\"")
    }
    if notice.apns.mutableContent { writer.raw(",\"mutable-content\":1") }
    writer.optionalString(",\"category\":", notice.apns.category)
    // `f` is always written: Easemob requires `from`; a missing sender writes "".
    writer.raw("},\"f\":")
    writer.string(notice.sender ?? StringSlice(""))
    let fieldStart = writer.count
    writePartField(notice, part: part, into: &writer)
    effects.partField = fieldStart..<writer.count
    writer.optionalString(",\"m\":", notice.easemobMessageID)
    switch notice.ext {
    case .string(let slice):
      writer.optionalString(",\"e\":", slice)
    case .json(let index):
      // `extern` may be any JSON value; `e` carries it as given, re-written canonically
      // (`null` counts as absent, SPEC 9).
      if !context.document.isNull(index) {
        writer.raw(",\"e\":")
        context.memo.writeCanonicalValue(context.document, index, into: &writer)
      }
    case nil:
      break
    }
    writer.byte(ASCII.closeBrace)
    return bodyRange
  }

  /// `{"title"?,"subtitle"?,"body"}`; returns the range of the body's content.
  func writeAlertObject(
    _ title: StringSlice?, _ subtitle: StringSlice?, _ body: PushText,
    into writer: inout JSONWriter
  ) -> Range<Int> {
    writer.byte(ASCII.openBrace)
    let range = writer.titleThenBody(title, subtitle: subtitle, body)
    writer.byte(ASCII.closeBrace)
    return range
  }
}

/// APNs Live Activity (`ApnsInfo.LiveActivity`, SPEC 4, 9): the record carries
/// `"push_type":"liveactivity","live_activity_id"` and the payload is
/// `{"aps":{"timestamp","event","content-state","dismissal-date"?,"alert":{"title"?,"body"}}}`,
/// without subtitle, sound, badge or ext. Live Activity wins over VoIP, so the budget is the
/// plain 4096 bytes (`payloadBudget`).
extension APNs {
  func writeLiveActivity(
    _ notice: Notice, _ activity: Notice.LiveActivity, _ context: RenderContext,
    into writer: inout JSONWriter
  ) throws(VendorRefusal) -> BudgetedBody {
    guard let timestamp = activity.timestamp else {
      throw VendorRefusal(
        reason: .missingTimestamp,
        detail: "a Live Activity push needs MsgTimeStamp or MsgTime")
    }
    let title = Notice.present(notice.apns.title) ?? Notice.present(notice.title)
    let body = notice.bodyText(titled: title != nil)
    writer.raw("{\"aps\":{\"timestamp\":")
    writer.raw(timestamp)
    writer.raw(",\"event\":")
    writer.string(activity.event)
    writer.raw(",\"content-state\":")
    context.memo.writeCanonicalValue(context.document, activity.contentState, into: &writer)
    writer.optionalNumber(",\"dismissal-date\":", activity.dismissalDate)
    writer.raw(",\"alert\":")
    let bodyRange = writeAlertObject(title, nil, body, into: &writer)
    writer.raw("}}")
    return BudgetedBody(range: bodyRange, text: body)
  }
}
