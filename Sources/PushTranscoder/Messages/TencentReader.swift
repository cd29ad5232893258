/// Tencent Cloud Chat lines (REST send, callback and history-export shapes; SPEC 3.1, 9).
///
/// Order: type checks of every field (elements, routing, `OfflinePushInfo` and its sub-objects,
/// the Live Activity and, only with it, the timestamp) → recipients → steps 1–5 of SPEC 3.1.
enum TencentReader {
  /// The top-level members a Tencent line is read from, found in one pass over the root
  /// object (a lookup per field would scan the root's keys eight times). The last duplicate
  /// wins (SPEC 9), as with `JSONDocument.member`.
  struct TopLevel {
    var from: Int? = nil
    var group: Int? = nil
    var msgKey: Int? = nil
    var msgID: Int? = nil
    var to: Int? = nil
    var info: Int? = nil
    var timeStamp: Int? = nil
    var time: Int? = nil

    init(_ document: JSONDocument, _ root: Int) {
      document.forEachMember(root) { key, value in
        let token = document.tokens[key]
        // An escaped key's raw length says nothing about its decoded length: try every name.
        let length =
          token.flags & JSONToken.hasEscapes == 0 ? Int(token.end &- token.start) : 0
        switch length {
        case 0, 5, 6, 7, 10, 12, 15:
          if length == 0 || length == 12 {
            if document.keyEquals(key, "From_Account") { from = value }
            if document.keyEquals(key, "MsgTimeStamp") { timeStamp = value }
          }
          if length == 0 || length == 7 {
            if document.keyEquals(key, "GroupId") { group = value }
            if document.keyEquals(key, "MsgTime") { time = value }
          }
          if (length == 0 || length == 6) && document.keyEquals(key, "MsgKey") { msgKey = value }
          if (length == 0 || length == 5) && document.keyEquals(key, "MsgId") { msgID = value }
          if (length == 0 || length == 10) && document.keyEquals(key, "To_Account") { to = value }
          if (length == 0 || length == 15) && document.keyEquals(key, "OfflinePushInfo") {
            info = value
          }
        default:
          break
        }
      }
    }
  }

  /// What the element pass found in `MsgBody`.
  private struct Elements {
    /// Non-empty texts and placeholders, in order.
    var pieces: [StringSlice] = []
    var count = 0
    var unknown = 0
    /// The element is exactly one TIMCustomElem (SPEC 3.1 step 4); set when `count == 1`.
    var onlyElementIsCustom = false
    var seenCustom = false
    /// `Desc` of the single custom element (step 4).
    var customDesc: StringSlice? = nil
    /// `Ext` / `Sound` of the first TIMCustomElem (used only without `OfflinePushInfo`).
    var firstCustomExt: StringSlice? = nil
    var firstCustomSound: StringSlice? = nil
  }

  static func read(
    _ document: JSONDocument, line: UnsafeBufferPointer<UInt8>, options: MessageOptions,
    stats: inout MessageStats
  ) throws -> MessageOutcome {
    let fields = FieldReader(document)
    let root = document.root

    // Elements.
    let body = try fields.requiredArray(root, "MsgBody", "")
    let elements = try readElements(fields, body, locale: options.locale)

    // Routing.
    let top = TopLevel(document, root)
    let sender = try fields.string(value: top.from, "From_Account")
    let groupID = try fields.string(value: top.group, "GroupId")
    let msgKey = try fields.string(value: top.msgKey, "MsgKey")
    let msgID = try fields.string(value: top.msgID, "MsgId")
    let recipients = try readRecipients(fields, fields.present(value: top.to))

    // OfflinePushInfo.
    var notice = Notice(
      dialect: .tencent, body: [], untitledBody: [], fallbackTitle: options.defaultTitle,
      lineHash: 0)
    var pushFlag: Int? = nil
    var desc: StringSlice? = nil
    var offlineExt: StringSlice? = nil
    let info = try fields.object(value: top.info, "OfflinePushInfo")
    if let info {
      let prefix = "OfflinePushInfo"
      pushFlag = try fields.integer(info, "PushFlag", prefix)
      notice.badgeSet = try fields.integer(info, "BadgeSetNum", prefix).map(document.lexeme)
      notice.badgeAdd = try fields.integer(info, "BadgeAddNum", prefix).map(document.lexeme)
      notice.title = try fields.string(info, "Title", prefix)
      desc = try fields.string(info, "Desc", prefix)
      offlineExt = try fields.string(info, "Ext", prefix)
      if let apns = try fields.object(info, "ApnsInfo", prefix) {
        try readAPNs(fields, apns, top: top, into: &notice)
      }
      if let android = try fields.object(info, "AndroidInfo", prefix) {
        try readAndroid(fields, android, into: &notice.android)
      }
      if let harmony = try fields.object(info, "HarmonyInfo", prefix) {
        try readHarmony(fields, harmony, into: &notice.harmony)
      }
    }

    // Recipients (SPEC 3.3): a non-empty GroupId wins over To_Account.
    if groupID == nil && recipients.isEmpty {
      throw MessageReject(
        path: "To_Account", detail: "To_Account: no recipient (To_Account) and no group (GroupId)")
    }

    // The message is well-formed: from here on only skips and the notice.
    stats.unknownElements += elements.unknown

    // 1. PushFlag == 1.
    if let pushFlag, document.isIntegerOne(pushFlag) { return .skip(.pushDisabled) }
    // 4. Exactly one TIMCustomElem, with neither its Desc nor OfflinePushInfo.Desc.
    if elements.count == 1 && elements.onlyElementIsCustom && elements.customDesc == nil
      && desc == nil
    {
      return .skip(.customWithoutDesc)
    }
    // 3. and 5.
    if desc == nil && elements.pieces.isEmpty && notice.title == nil { return .skip(.emptyText) }

    // The notice.
    notice.key = msgKey ?? msgID
    notice.sender = sender
    if let groupID {
      notice.groups = [groupID]
      notice.fallbackTitles = [
        MessageReader.fallbackTitle(sender: sender, group: groupID, options: options)
      ]
    } else {
      notice.recipients = recipients
    }
    notice.fallbackTitle = MessageReader.fallbackTitle(
      sender: sender, group: groupID, options: options)
    if let desc {
      notice.body = [desc]
      notice.untitledBody = notice.body
    } else {
      notice.body = elements.pieces
      let directory = options.directory
      notice.untitledBody = NoticeText.tencentDisplay(
        elements.pieces, nickname: sender.flatMap { directory.nickname(of: $0) },
        groupName: groupID.flatMap { directory.groupName(of: $0) })
    }
    // 2. With OfflinePushInfo, the custom element's Ext and Sound are ignored.
    if info != nil {
      notice.ext = offlineExt.map { .string($0) }
    } else {
      notice.ext = elements.firstCustomExt.map { .string($0) }
      notice.sound = elements.firstCustomSound
    }
    if MessageReader.decodedCount(desc) + MessageReader.decodedCount(offlineExt) > 3072 {
      stats.descExtOver3KB += 1
    }
    notice.line = line
    return .notice(notice)
  }

  private static func readElements(_ fields: FieldReader, _ body: Int, locale: NoticeText.Locale)
    throws -> Elements
  {
    let document = fields.document
    var elements = Elements()
    var element = body + 1
    let end = Int(document.tokens[body].next)
    while element < end {
      let position = elements.count
      // Paths are built only on error (autoclosures): no allocation per element.
      guard document.kind(element) == .object else {
        throw fields.wrongType("MsgBody[\(position)]", element, expected: "an object")
      }
      let type = try fields.requiredString(element, "MsgType", "MsgBody[\(position)]")
      var isCustom = false
      if type.equals("TIMTextElem") {
        let content = try fields.requiredObject(element, "MsgContent", "MsgBody[\(position)]")
        elements.pieces.append(
          try fields.requiredString(content, "Text", "MsgBody[\(position)].MsgContent"))
      } else if type.equals("TIMCustomElem") {
        let content = try fields.requiredObject(element, "MsgContent", "MsgBody[\(position)]")
        isCustom = true
        let desc = try fields.string(content, "Desc", "MsgBody[\(position)].MsgContent")
        let ext = try fields.string(content, "Ext", "MsgBody[\(position)].MsgContent")
        let sound = try fields.string(content, "Sound", "MsgBody[\(position)].MsgContent")
        if let desc { elements.pieces.append(desc) }
        if !elements.seenCustom {
          elements.seenCustom = true
          elements.firstCustomExt = ext
          elements.firstCustomSound = sound
        }
        if position == 0 { elements.customDesc = desc }
      } else {
        // Other elements' content is not read, but it must be an object when present.
        _ = try fields.object(element, "MsgContent", "MsgBody[\(position)]")
        if let placeholder = placeholder(type, locale) {
          elements.pieces.append(placeholder)
        } else {
          elements.unknown += 1
        }
      }
      if position == 0 { elements.onlyElementIsCustom = isCustom }
      elements.count += 1
      element = Int(document.tokens[element].next)
    }
    return elements
  }

  /// The placeholder of a non-text, non-custom element type, or nil for an unknown type.
  private static func placeholder(_ type: StringSlice, _ locale: NoticeText.Locale) -> StringSlice?
  {
    if type.equals("TIMImageElem") { return NoticeText.image(locale) }
    if type.equals("TIMFaceElem") { return NoticeText.face(locale) }
    if type.equals("TIMSoundElem") { return NoticeText.voice(locale) }
    if type.equals("TIMLocationElem") { return NoticeText.location(locale) }
    if type.equals("TIMFileElem") { return NoticeText.file(locale) }
    if type.equals("TIMVideoFileElem") { return NoticeText.video(locale) }
    if type.equals("TIMRelayElem") { return NoticeText.chatHistory(locale) }
    return nil
  }

  /// `To_Account`: a string or an array of strings; empty strings are absent.
  private static func readRecipients(_ fields: FieldReader, _ to: Int?) throws -> [StringSlice] {
    let document = fields.document
    guard let to else { return [] }
    switch document.kind(to) {
    case .string:
      let slice = document.string(to)
      return slice.isEmpty ? [] : [slice]
    case .array:
      var recipients: [StringSlice] = []
      var position = 0
      var element = to + 1
      let end = Int(document.tokens[to].next)
      while element < end {
        guard document.kind(element) == .string else {
          throw fields.wrongType("To_Account[\(position)]", element, expected: "a string")
        }
        let slice = document.string(element)
        if !slice.isEmpty { recipients.append(slice) }
        position += 1
        element = Int(document.tokens[element].next)
      }
      return recipients
    default:
      throw fields.wrongType("To_Account", to, expected: "a string or an array of strings")
    }
  }

  private static func readAPNs(
    _ fields: FieldReader, _ apns: Int, top: TopLevel, into notice: inout Notice
  ) throws {
    let document = fields.document
    let prefix = "OfflinePushInfo.ApnsInfo"
    notice.sound = try fields.string(apns, "Sound", prefix)
    notice.apns.title = try fields.string(apns, "Title", prefix)
    notice.apns.subtitle = try fields.string(apns, "SubTitle", prefix)
    notice.apns.image = try fields.string(apns, "Image", prefix)
    notice.apns.interruptionLevel = try fields.string(apns, "InterruptionLevel", prefix)
    if let flag = try fields.integer(apns, "MutableContent", prefix) {
      notice.apns.mutableContent = document.isIntegerOne(flag)
    }
    if let flag = try fields.integer(apns, "ContentAvailable", prefix) {
      notice.apns.contentAvailable = document.isIntegerOne(flag)
    }
    if let flag = try fields.integer(apns, "IsVoipPush", prefix) {
      notice.apns.voip = document.isIntegerOne(flag)
    }
    guard let live = try fields.object(apns, "LiveActivity", prefix) else { return }
    let livePrefix = "OfflinePushInfo.ApnsInfo.LiveActivity"
    let id = try fields.requiredString(live, "LaId", livePrefix)
    let event = try fields.requiredString(live, "Event", livePrefix)
    let state = try fields.requiredValue(live, "ContentState", livePrefix)
    let dismissal = try fields.integer(live, "DismissalDate", livePrefix)
    // The timestamp is read only for a Live Activity (SPEC 9); MsgTimeStamp wins over MsgTime.
    let stamp = try fields.integer(value: top.timeStamp, "MsgTimeStamp")
    let time = try fields.integer(value: top.time, "MsgTime")
    notice.apns.liveActivity = Notice.LiveActivity(
      id: id, event: event, contentState: state, dismissalDate: dismissal.map(document.lexeme),
      timestamp: (stamp ?? time).map(document.lexeme))
  }

  private static func readAndroid(
    _ fields: FieldReader, _ android: Int, into info: inout Notice.Android
  ) throws {
    let document = fields.document
    let prefix = "OfflinePushInfo.AndroidInfo"
    info.sound = try fields.string(android, "Sound", prefix)
    info.huaweiChannelID = try fields.string(android, "HuaWeiChannelID", prefix)
    info.huaweiCategory = try fields.string(android, "HuaWeiCategory", prefix)
    info.huaweiImportance = try fields.string(android, "HuaWeiImportance", prefix)
    info.huaweiImage = try fields.string(android, "HuaWeiImage", prefix)
    info.honorImportance = try fields.string(android, "HonorImportance", prefix)
    info.honorImage = try fields.string(android, "HonorImage", prefix)
    info.googleImage = try fields.string(android, "GoogleImage", prefix)
    info.googlePriority = try fields.string(android, "GooglePriority", prefix)
    info.googleChannelID = try fields.string(android, "GoogleChannelID", prefix)
    info.xiaomiChannelID = try fields.string(android, "XiaoMiChannelID", prefix)
    info.oppoChannelID = try fields.string(android, "OPPOChannelID", prefix)
    info.oppoCategory = try fields.string(android, "OPPOCategory", prefix)
    info.vivoCategory = try fields.string(android, "VIVOCategory", prefix)
    info.oppoNotifyLevel = try fields.integer(android, "OPPONotifyLevel", prefix).map(
      document.lexeme)
    info.vivoClassification = try fields.integer(android, "VIVOClassification", prefix).map(
      document.lexeme)
    info.vivoNotifyType = try fields.integer(android, "VIVONotifyType", prefix).map(
      document.lexeme)
    info.meizuNoticeMsgType = try fields.integer(android, "MeiZuNoticeMsgType", prefix).map(
      document.lexeme)
  }

  private static func readHarmony(
    _ fields: FieldReader, _ harmony: Int, into info: inout Notice.Harmony
  ) throws {
    let prefix = "OfflinePushInfo.HarmonyInfo"
    info.title = try fields.string(harmony, "Title", prefix)
    info.category = try fields.string(harmony, "Category", prefix)
    info.image = try fields.string(harmony, "Image", prefix)
    info.sound = try fields.string(harmony, "Sound", prefix)
    info.soundDuration = try fields.integer(harmony, "SoundDuration", prefix).map(
      fields.document.lexeme)
  }
}
