/// Tencent Cloud Chat lines (REST send, callback and history-export shapes; SPEC 3.1, 9).
///
/// Order: type checks of every field (elements, routing, `OfflinePushInfo` and its sub-objects,
/// the Live Activity and, only with it, the timestamp) → recipients → steps 1–5 of SPEC 3.1.
enum TencentReader {
  /// What the element pass found in `MsgBody`.
  private struct Elements {
    /// Non-empty texts and placeholders, in order (the notice's recycled `body` array).
    var pieces: [StringSlice]
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
    _ document: JSONDocument, top: RootMembers, line: UnsafeBufferPointer<UInt8>,
    options: MessageOptions, stats: inout MessageStats, into notice: inout Notice
  ) throws -> ReadVerdict {
    let fields = FieldReader(document)
    notice.recycle(
      dialect: .tencent, fallbackTitle: options.defaultTitle,
      banner: NoticeText.banner(options.locale))

    // Elements, read into the notice's body array (recycled from line to line).
    let body = try fields.requiredArray(value: top.body, "MsgBody")
    var elements = Elements(pieces: [])
    var recipients: [StringSlice] = []
    swap(&elements.pieces, &notice.body)
    swap(&recipients, &notice.recipients)
    // Whatever the verdict, the arrays go back to the notice (emptied or not) for the next line.
    defer {
      swap(&elements.pieces, &notice.body)
      swap(&recipients, &notice.recipients)
    }
    try readElements(fields, body, locale: options.locale, into: &elements)

    // Routing.
    let sender = try fields.string(value: top.from, "From_Account")
    let groupID = try fields.string(value: top.group, "GroupId")
    let msgKey = try fields.string(value: top.msgKey, "MsgKey")
    let msgID = try fields.string(value: top.msgID, "MsgId")
    try readRecipients(fields, fields.present(value: top.to), into: &recipients)

    // OfflinePushInfo.
    var pushFlag: Int? = nil
    var desc: StringSlice? = nil
    var offlineExt: StringSlice? = nil
    let info = try fields.object(value: top.info, "OfflinePushInfo")
    if let info {
      let member = document.collectMembers(info, Self.infoTable)
      pushFlag = try fields.integer(value: member[InfoMember.pushFlag], "OfflinePushInfo.PushFlag")
      notice.badgeSet = try fields.integer(
        value: member[InfoMember.badgeSetNum], "OfflinePushInfo.BadgeSetNum"
      ).map(
        document.lexeme)
      notice.badgeAdd = try fields.integer(
        value: member[InfoMember.badgeAddNum], "OfflinePushInfo.BadgeAddNum"
      ).map(
        document.lexeme)
      notice.title = try fields.string(value: member[InfoMember.title], "OfflinePushInfo.Title")
      desc = try fields.string(value: member[InfoMember.desc], "OfflinePushInfo.Desc")
      offlineExt = try fields.string(value: member[InfoMember.ext], "OfflinePushInfo.Ext")
      if let apns = try fields.object(
        value: member[InfoMember.apnsInfo], "OfflinePushInfo.ApnsInfo")
      {
        try readAPNs(fields, apns, top: top, into: &notice)
      }
      if let android = try fields.object(
        value: member[InfoMember.androidInfo], "OfflinePushInfo.AndroidInfo")
      {
        try readAndroid(fields, android, into: &notice.android)
      }
      if let harmony = try fields.object(
        value: member[InfoMember.harmonyInfo], "OfflinePushInfo.HarmonyInfo")
      {
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
      notice.groups.append(groupID)
      notice.fallbackTitles.append(
        MessageReader.fallbackTitle(sender: sender, group: groupID, options: options))
      recipients.removeAllKeepingStorage()
    }
    notice.fallbackTitle = MessageReader.fallbackTitle(
      sender: sender, group: groupID, options: options)
    // The untitled body is the body itself (`Notice.untitledPieces` nil, as `recycle` left it)
    // unless a display prefix applies.
    if let desc {
      elements.pieces.removeAllKeepingStorage()
      elements.pieces.append(desc)
    } else {
      let directory = options.directory
      if let display = NoticeText.tencentDisplay(
        elements.pieces, nickname: sender.flatMap { directory.nickname(of: $0) },
        groupName: groupID.flatMap { directory.groupName(of: $0) })
      {
        notice.untitledBody = display
      }
    }
    // 2. With OfflinePushInfo, the custom element's Ext and Sound are ignored.
    if info != nil {
      notice.ext = offlineExt.map { .string($0) }
    } else {
      notice.ext = elements.firstCustomExt.map { .string($0) }
      notice.sound = elements.firstCustomSound
    }
    // Decoding never lengthens: only raw lengths over the limit need the decoded count.
    if (desc?.count ?? 0) + (offlineExt?.count ?? 0) > 3072
      && MessageReader.decodedCount(desc) + MessageReader.decodedCount(offlineExt) > 3072
    {
      stats.descExtOver3KB += 1
    }
    notice.line = line
    return .notice
  }

  private static let elementTable = MemberTable(["MsgType", "MsgContent"])
  private static let contentTable = MemberTable(["Text", "Desc", "Ext", "Sound"])
  /// The element types a notice reads (SPEC 3.1), found with one table probe per element
  /// instead of a comparison per known type; other types are unknown.
  static let elementTypeTable = MemberTable([
    "TIMTextElem", "TIMCustomElem", "TIMImageElem", "TIMFaceElem", "TIMSoundElem",
    "TIMLocationElem", "TIMFileElem", "TIMVideoFileElem", "TIMRelayElem",
  ])
  /// The slots of `elementTypeTable`: each type's name without `TIM` and `Elem`, with a
  /// lowercase first letter (`video` is `TIMVideoFileElem`).
  enum ElementType: Int, CaseIterable {
    case text, custom, image, face, sound, location, file, video, relay
  }
  // Each table below is read through the enum beside it, whose cases name its slots in order:
  // the case is the member's name with a lowercase first letter (`TencentMemberTableTests`
  // checks that the two agree).

  static let infoTable = MemberTable([
    "PushFlag", "BadgeSetNum", "BadgeAddNum", "Title", "Desc", "Ext", "ApnsInfo", "AndroidInfo",
    "HarmonyInfo",
  ])
  /// The slots of `infoTable`: `OfflinePushInfo`'s members.
  enum InfoMember: Int, CaseIterable {
    case pushFlag, badgeSetNum, badgeAddNum, title, desc, ext, apnsInfo, androidInfo, harmonyInfo
  }

  static let apnsTable = MemberTable([
    "Sound", "Title", "SubTitle", "Image", "InterruptionLevel", "MutableContent",
    "ContentAvailable", "IsVoipPush", "LiveActivity",
  ])
  /// The slots of `apnsTable`: `OfflinePushInfo.ApnsInfo`'s members.
  enum APNsMember: Int, CaseIterable {
    case sound, title, subTitle, image, interruptionLevel, mutableContent, contentAvailable
    case isVoipPush, liveActivity
  }

  static let androidTable = MemberTable([
    "Sound", "HuaWeiChannelID", "HuaWeiCategory", "HuaWeiImportance", "HuaWeiImage",
    "HonorImportance", "HonorImage", "GoogleImage", "GooglePriority", "GoogleChannelID",
    "XiaoMiChannelID", "OPPOChannelID", "OPPOCategory", "VIVOCategory", "OPPONotifyLevel",
    "VIVOClassification", "VIVONotifyType", "MeiZuNoticeMsgType",
  ])
  /// The slots of `androidTable`: `OfflinePushInfo.AndroidInfo`'s members.
  enum AndroidMember: Int, CaseIterable {
    case sound, huaweiChannelID, huaweiCategory, huaweiImportance, huaweiImage
    case honorImportance, honorImage, googleImage, googlePriority, googleChannelID
    case xiaomiChannelID, oppoChannelID, oppoCategory, vivoCategory, oppoNotifyLevel
    case vivoClassification, vivoNotifyType, meizuNoticeMsgType
  }

  static let harmonyTable = MemberTable([
    "Title", "Category", "Image", "Sound", "SoundDuration",
  ])
  /// The slots of `harmonyTable`: `OfflinePushInfo.HarmonyInfo`'s members.
  enum HarmonyMember: Int, CaseIterable {
    case title, category, image, sound, soundDuration
  }

  private static func readElements(
    _ fields: FieldReader, _ body: Int, locale: PushLocale, into elements: inout Elements
  ) throws {
    let document = fields.document
    // Most messages have one to three elements: one allocation instead of growing from empty
    // (and none once the recycled array has this room).
    elements.pieces.reserveCapacity(4)
    // Safe because `body` and each `element` are indexes of this tape, and a token's `next` is
    // at most the tape's count.
    var element = body + 1
    let end = Int(document.tokens[body].next)
    // The tables read once, not once per element: each read of a `static let` is a call that
    // checks its one-time initialisation.
    let elementTable = Self.elementTable
    let elementTypeTable = Self.elementTypeTable
    let contentTable = Self.contentTable
    while element < end {
      let position = elements.count
      // Paths are built only on error (autoclosures): no allocation per element.
      guard document.kind(element) == .object else {
        throw fields.wrongType("MsgBody[\(position)]", element, expected: "an object")
      }
      let members = document.collectMembers(element, elementTable)
      let type = try fields.requiredString(value: members[0], "MsgBody[\(position)].MsgType")
      let kind = elementTypeTable.slot(of: type).flatMap(ElementType.init(rawValue:))
      var isCustom = false
      if kind == .text {
        let content = try fields.requiredObject(
          value: members[1], "MsgBody[\(position)].MsgContent")
        let text = document.collectMembers(content, contentTable)
        elements.pieces.append(
          try fields.requiredString(value: text[0], "MsgBody[\(position)].MsgContent.Text"))
      } else if kind == .custom {
        let content = try fields.requiredObject(
          value: members[1], "MsgBody[\(position)].MsgContent")
        isCustom = true
        let custom = document.collectMembers(content, contentTable)
        let desc = try fields.string(value: custom[1], "MsgBody[\(position)].MsgContent.Desc")
        let ext = try fields.string(value: custom[2], "MsgBody[\(position)].MsgContent.Ext")
        let sound = try fields.string(value: custom[3], "MsgBody[\(position)].MsgContent.Sound")
        if let desc { elements.pieces.append(desc) }
        if !elements.seenCustom {
          elements.seenCustom = true
          elements.firstCustomExt = ext
          elements.firstCustomSound = sound
        }
        if position == 0 { elements.customDesc = desc }
      } else {
        // Other elements' content is not read, but it must be an object when present.
        _ = try fields.object(value: members[1], "MsgBody[\(position)].MsgContent")
        if let kind, let placeholder = placeholder(kind, locale) {
          elements.pieces.append(placeholder)
        } else {
          elements.unknown += 1
        }
      }
      if position == 0 { elements.onlyElementIsCustom = isCustom }
      elements.count += 1
      element = Int(document.tokens[element].next)
    }
  }

  /// The placeholder of a non-text, non-custom element type.
  private static func placeholder(_ kind: ElementType, _ locale: PushLocale) -> StringSlice? {
    switch kind {
    case .text, .custom: nil
    case .image: NoticeText.image(locale)
    case .face: NoticeText.face(locale)
    case .sound: NoticeText.voice(locale)
    case .location: NoticeText.location(locale)
    case .file: NoticeText.file(locale)
    case .video: NoticeText.video(locale)
    case .relay: NoticeText.chatHistory(locale)
    }
  }

  /// `To_Account`: a string or an array of strings; empty strings are absent.
  private static func readRecipients(
    _ fields: FieldReader, _ to: Int?, into recipients: inout [StringSlice]
  ) throws {
    let document = fields.document
    guard let to else { return }
    switch document.kind(to) {
    case .string:
      let slice = document.string(to)
      if !slice.isEmpty { recipients.append(slice) }
    case .array:
      var position = 0
      // Safe because `to` and each `element` are indexes of this tape, and a token's `next` is
      // at most the tape's count.
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
    default:
      throw fields.wrongType("To_Account", to, expected: "a string or an array of strings")
    }
  }

  private static func readAPNs(
    _ fields: FieldReader, _ apns: Int, top: RootMembers, into notice: inout Notice
  ) throws {
    let document = fields.document
    let prefix = "OfflinePushInfo.ApnsInfo."
    let member = document.collectMembers(apns, Self.apnsTable)
    notice.sound = try fields.string(value: member[APNsMember.sound], prefix + "Sound")
    notice.apns.title = try fields.string(value: member[APNsMember.title], prefix + "Title")
    notice.apns.subtitle = try fields.string(
      value: member[APNsMember.subTitle], prefix + "SubTitle")
    notice.apns.image = try fields.string(value: member[APNsMember.image], prefix + "Image")
    notice.apns.interruptionLevel = try fields.string(
      value: member[APNsMember.interruptionLevel], prefix + "InterruptionLevel")
    if let flag = try fields.integer(
      value: member[APNsMember.mutableContent], prefix + "MutableContent")
    {
      notice.apns.mutableContent = document.isIntegerOne(flag)
    }
    if let flag = try fields.integer(
      value: member[APNsMember.contentAvailable], prefix + "ContentAvailable")
    {
      notice.apns.contentAvailable = document.isIntegerOne(flag)
    }
    if let flag = try fields.integer(value: member[APNsMember.isVoipPush], prefix + "IsVoipPush") {
      notice.apns.voip = document.isIntegerOne(flag)
    }
    guard
      let live = try fields.object(value: member[APNsMember.liveActivity], prefix + "LiveActivity")
    else { return }
    let livePrefix = "OfflinePushInfo.ApnsInfo.LiveActivity"
    let id = try fields.requiredString(live, "LaId", livePrefix)
    let event = try fields.requiredString(live, "Event", livePrefix)
    // APNs requires `content-state` to be a dictionary (SPEC 9 field table).
    let state = try fields.requiredObject(live, "ContentState", livePrefix)
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
    let prefix = "OfflinePushInfo.AndroidInfo."
    let member = document.collectMembers(android, Self.androidTable)
    info.sound = try fields.string(value: member[AndroidMember.sound], prefix + "Sound")
    info.huaweiChannelID = try fields.string(
      value: member[AndroidMember.huaweiChannelID], prefix + "HuaWeiChannelID")
    info.huaweiCategory = try fields.string(
      value: member[AndroidMember.huaweiCategory], prefix + "HuaWeiCategory")
    info.huaweiImportance = try fields.string(
      value: member[AndroidMember.huaweiImportance], prefix + "HuaWeiImportance")
    info.huaweiImage = try fields.string(
      value: member[AndroidMember.huaweiImage], prefix + "HuaWeiImage")
    info.honorImportance = try fields.string(
      value: member[AndroidMember.honorImportance], prefix + "HonorImportance")
    info.honorImage = try fields.string(
      value: member[AndroidMember.honorImage], prefix + "HonorImage")
    info.googleImage = try fields.string(
      value: member[AndroidMember.googleImage], prefix + "GoogleImage")
    info.googlePriority = try fields.string(
      value: member[AndroidMember.googlePriority], prefix + "GooglePriority")
    info.googleChannelID = try fields.string(
      value: member[AndroidMember.googleChannelID], prefix + "GoogleChannelID")
    info.xiaomiChannelID = try fields.string(
      value: member[AndroidMember.xiaomiChannelID], prefix + "XiaoMiChannelID")
    info.oppoChannelID = try fields.string(
      value: member[AndroidMember.oppoChannelID], prefix + "OPPOChannelID")
    info.oppoCategory = try fields.string(
      value: member[AndroidMember.oppoCategory], prefix + "OPPOCategory")
    info.vivoCategory = try fields.string(
      value: member[AndroidMember.vivoCategory], prefix + "VIVOCategory")
    info.oppoNotifyLevel = try fields.integer(
      value: member[AndroidMember.oppoNotifyLevel], prefix + "OPPONotifyLevel"
    ).map(
      document.lexeme)
    info.vivoClassification = try fields.integer(
      value: member[AndroidMember.vivoClassification], prefix + "VIVOClassification"
    )
    .map(
      document.lexeme)
    info.vivoNotifyType = try fields.integer(
      value: member[AndroidMember.vivoNotifyType], prefix + "VIVONotifyType"
    ).map(
      document.lexeme)
    info.meizuNoticeMsgType = try fields.integer(
      value: member[AndroidMember.meizuNoticeMsgType], prefix + "MeiZuNoticeMsgType"
    )
    .map(
      document.lexeme)
  }

  private static func readHarmony(
    _ fields: FieldReader, _ harmony: Int, into info: inout Notice.Harmony
  ) throws {
    let prefix = "OfflinePushInfo.HarmonyInfo."
    let member = fields.document.collectMembers(harmony, Self.harmonyTable)
    info.title = try fields.string(value: member[HarmonyMember.title], prefix + "Title")
    info.category = try fields.string(value: member[HarmonyMember.category], prefix + "Category")
    info.image = try fields.string(value: member[HarmonyMember.image], prefix + "Image")
    info.sound = try fields.string(value: member[HarmonyMember.sound], prefix + "Sound")
    info.soundDuration = try fields.integer(
      value: member[HarmonyMember.soundDuration], prefix + "SoundDuration"
    ).map(
      fields.document.lexeme)
  }
}
