/// Easemob / Agora Chat lines: the history-export shape and the REST send shape (SPEC 3.2, 9).
///
/// Order (SPEC 9): type checks → recipients → any `cmd` body (`command-message`) →
/// `em_ignore_notification` (`ignore-notification`) → `em_push_content` → `empty-text`.
///
/// Each object's members are found in one pass over its keys (`JSONDocument.collectMembers`
/// with the tables below; the root's with `RootMembers`), not by a scan per field: `ext` alone is asked for six members and
/// `em_apns_ext` for eight. The fields are then checked in the order the SPEC's precedence
/// needs, from the slots.
enum EasemobReader {
  // Each table below is read through the enum beside it, whose cases name its slots in order:
  // the case is the member's name without its underscores, in lower camel case
  // (`EasemobMemberTableTests` checks that the two agree).

  static let payloadTable = MemberTable(["bodies", "ext"])
  /// The slots of `payloadTable`: an export line's `payload`.
  enum PayloadMember: Int, CaseIterable {
    case bodies, ext
  }

  static let bodyTable = MemberTable(["type", "msg"])
  /// The slots of `bodyTable`: a body (`payload.bodies[i]`, REST `msg`).
  enum BodyMember: Int, CaseIterable {
    case type, msg
  }

  static let extTable = MemberTable([
    "em_ignore_notification", "em_force_notification", "em_push_template", "em_apns_ext",
    "em_android_push_ext", "em_harmony_push_ext",
  ])
  /// The slots of `extTable`: `ext` (REST) or `payload.ext` (export).
  enum ExtMember: Int, CaseIterable {
    case emIgnoreNotification, emForceNotification, emPushTemplate, emApnsExt, emAndroidPushExt
    case emHarmonyPushExt
  }

  static let apnsTable = MemberTable([
    "em_push_content", "em_push_title", "em_alert_subTitle", "em_push_sound", "em_push_category",
    "em_push_badge", "em_push_mutable_content", "extern",
  ])
  /// The slots of `apnsTable`: `em_apns_ext`.
  enum APNsMember: Int, CaseIterable {
    case emPushContent, emPushTitle, emAlertSubTitle, emPushSound, emPushCategory, emPushBadge
    case emPushMutableContent, extern
  }

  static let androidTable = MemberTable([
    "fcm_channel_id", "huawei_channel_id", "huawei_category", "honor_importance",
    "oppo_channel_id", "vivo_category", "xiaomi_channel_id",
  ])
  /// The slots of `androidTable`: `em_android_push_ext`.
  enum AndroidMember: Int, CaseIterable {
    case fcmChannelId, huaweiChannelId, huaweiCategory, honorImportance, oppoChannelId
    case vivoCategory, xiaomiChannelId
  }

  static func read(
    _ document: JSONDocument, top: RootMembers, line: UnsafeBufferPointer<UInt8>,
    options: MessageOptions, into notice: inout Notice
  ) throws -> ReadVerdict {
    let fields = FieldReader(document)
    let rest = !top.isEasemobExport
    notice.recycle(
      dialect: .easemob, fallbackTitle: options.defaultTitle,
      banner: NoticeText.banner(options.locale))

    // The envelope: who, to whom, the bodies, the ext object.
    let sender: StringSlice
    var isGroup = false
    var targets: [StringSlice] = []
    var bodies = Bodies()
    let ext: Int?
    let extPrefix: String
    if rest {
      let targetType = try fields.requiredString(
        value: top[.targetType], "target_type")
      if targetType.equals("chatgroups") {
        isGroup = true
      } else if !targetType.equals("users") {
        throw MessageReject(
          path: "target_type",
          detail: "target_type: expected \"users\" or \"chatgroups\", found "
            + "\"\(targetType.decodedString())\"")
      }
      sender = try fields.requiredString(value: top[.from], "from")
      targets = try readTargets(fields, top[.target])
      let msg = try fields.requiredObject(value: top[.msg], "msg")
      try readBody(fields, msg, "msg", locale: options.locale, into: &bodies)
      ext = try fields.object(value: top[.ext], "ext")
      extPrefix = "ext"
    } else {
      sender = try fields.requiredString(value: top[.from], "from")
      let to = try fields.requiredString(value: top[.to], "to")
      let chatType = try fields.requiredString(
        value: top[.chatType], "chat_type")
      if chatType.equals("groupchat") {
        isGroup = true
      } else if !chatType.equals("chat") {
        throw MessageReject(
          path: "chat_type",
          detail: "chat_type: expected \"chat\" or \"groupchat\", found "
            + "\"\(chatType.decodedString())\"")
      }
      targets = [to]
      let payload = try fields.requiredObject(value: top[.payload], "payload")
      let payloadMembers = document.collectMembers(payload, Self.payloadTable)
      let list = try fields.requiredArray(
        value: payloadMembers[PayloadMember.bodies], "payload.bodies")
      var position = 0
      // Safe because `list` and each `body` are indexes of this tape, and a token's `next` is at
      // most the tape's count.
      var body = list + 1
      let end = Int(document.tokens[list].next)
      while body < end {
        guard document.kind(body) == .object else {
          throw fields.wrongType("payload.bodies[\(position)]", body, expected: "an object")
        }
        try readBody(
          fields, body, "payload.bodies[\(position)]", locale: options.locale, into: &bodies)
        position += 1
        body = Int(document.tokens[body].next)
      }
      ext = try fields.object(value: payloadMembers[PayloadMember.ext], "payload.ext")
      extPrefix = "payload.ext"
      notice.easemobMessageID = try fields.string(value: top[.msgID], "msg_id")
    }

    // ext (SPEC 3.2).
    var ignore = false
    var content: StringSlice? = nil
    if let ext {
      let member = document.collectMembers(ext, Self.extTable)
      ignore =
        try fields.bool(
          value: member[ExtMember.emIgnoreNotification],
          extPrefix + ".em_ignore_notification") ?? false
      notice.force =
        try fields.bool(
          value: member[ExtMember.emForceNotification],
          extPrefix + ".em_force_notification") ?? false
      notice.template = try fields.object(
        value: member[ExtMember.emPushTemplate], extPrefix + ".em_push_template")
      let apnsPath = rest ? "ext.em_apns_ext" : "payload.ext.em_apns_ext"
      if let apns = try fields.object(value: member[ExtMember.emApnsExt], apnsPath) {
        content = try readAPNs(fields, apns, apnsPath, into: &notice)
      }
      let androidPath = rest ? "ext.em_android_push_ext" : "payload.ext.em_android_push_ext"
      if let android = try fields.object(
        value: member[ExtMember.emAndroidPushExt], androidPath)
      {
        try readAndroid(fields, android, androidPath, into: &notice.android)
      }
      let harmonyPath = rest ? "ext.em_harmony_push_ext" : "payload.ext.em_harmony_push_ext"
      if let harmony = try fields.object(
        value: member[ExtMember.emHarmonyPushExt], harmonyPath)
      {
        notice.harmony.category = try fields.string(harmony, "category", harmonyPath)
      }
    }

    // Recipients (SPEC 3.3).
    if targets.isEmpty {
      let path = rest ? "target" : "to"
      throw MessageReject(path: path, detail: "\(path): no recipient and no group")
    }

    // Skips.
    if bodies.hasCommand { return .skip(.commandMessage) }
    if ignore { return .skip(.ignoreNotification) }
    if content == nil && bodies.pieces.isEmpty && notice.title == nil {
      return .skip(.emptyText)
    }

    // The notice.
    notice.sender = sender
    notice.key = notice.easemobMessageID
    let directory = options.directory
    if isGroup {
      notice.groups = targets
      notice.fallbackTitles = targets.map { directory.groupName(of: $0) ?? options.defaultTitle }
      notice.fallbackTitle = notice.fallbackTitles[0]
    } else {
      notice.recipients = targets
      notice.fallbackTitle = directory.nickname(of: sender) ?? options.defaultTitle
    }
    if let content {
      // The untitled body is the body itself (`Notice.untitledPieces` nil).
      notice.body = [content]
    } else {
      notice.body = bodies.pieces
      switch options.display {
      case .summary:
        notice.untitledBody = NoticeText.easemobSummary(
          bodies.pieces, name: directory.nickname(of: sender) ?? sender)
      case .banner:
        notice.untitledBody = [NoticeText.banner(options.locale)]
      }
    }
    notice.line = line
    return .notice
  }

  /// What the bodies contribute.
  private struct Bodies {
    var pieces: [StringSlice] = []
    var hasCommand = false
  }

  /// One body `{type, msg?...}` (export `payload.bodies[i]`, REST `msg`).
  private static func readBody(
    _ fields: FieldReader, _ body: Int, _ path: @autoclosure () -> String,
    locale: PushLocale, into bodies: inout Bodies
  ) throws {
    let member = fields.document.collectMembers(body, Self.bodyTable)
    let type = try fields.requiredString(
      value: member[BodyMember.type], FieldReader.join(path(), "type"))
    if type.equals("txt") {
      bodies.pieces.append(
        try fields.requiredString(
          value: member[BodyMember.msg], FieldReader.join(path(), "msg")))
      return
    }
    // Other bodies' `msg` is not used, but SPEC 9's table reads it as a string field required
    // only for `txt`: when present and not null it must be a string (as a Tencent element's
    // `MsgContent` must be an object), and this check comes before the `cmd` skip.
    _ = try fields.string(value: member[BodyMember.msg], FieldReader.join(path(), "msg"))
    if type.equals("img") {
      bodies.pieces.append(NoticeText.image(locale))
    } else if type.equals("loc") {
      bodies.pieces.append(NoticeText.location(locale))
    } else if type.equals("audio") {
      bodies.pieces.append(NoticeText.voice(locale))
    } else if type.equals("video") {
      bodies.pieces.append(NoticeText.video(locale))
    } else if type.equals("file") {
      bodies.pieces.append(NoticeText.file(locale))
    } else if type.equals("custom") {
      bodies.pieces.append(NoticeText.custom(locale))
    } else if type.equals("cmd") {
      bodies.hasCommand = true
    }
    // Any other type contributes nothing.
  }

  /// REST `target` (its value's tape index, when the key is there): a required array of
  /// strings; empty strings are absent.
  private static func readTargets(_ fields: FieldReader, _ target: Int?) throws -> [StringSlice] {
    let document = fields.document
    let list = try fields.requiredArray(value: target, "target")
    var targets: [StringSlice] = []
    var position = 0
    // Safe because `list` and each `element` are indexes of this tape, and a token's `next` is
    // at most the tape's count.
    var element = list + 1
    let end = Int(document.tokens[list].next)
    while element < end {
      guard document.kind(element) == .string else {
        throw fields.wrongType("target[\(position)]", element, expected: "a string")
      }
      let slice = document.string(element)
      if !slice.isEmpty { targets.append(slice) }
      position += 1
      element = Int(document.tokens[element].next)
    }
    return targets
  }

  /// `em_apns_ext`; returns `em_push_content`.
  private static func readAPNs(
    _ fields: FieldReader, _ apns: Int, _ prefix: String, into notice: inout Notice
  ) throws -> StringSlice? {
    let document = fields.document
    let member = document.collectMembers(apns, Self.apnsTable)
    let content = try fields.string(
      value: member[APNsMember.emPushContent], prefix + ".em_push_content")
    notice.title = try fields.string(
      value: member[APNsMember.emPushTitle], prefix + ".em_push_title")
    notice.apns.subtitle = try fields.string(
      value: member[APNsMember.emAlertSubTitle], prefix + ".em_alert_subTitle")
    notice.sound = try fields.string(
      value: member[APNsMember.emPushSound], prefix + ".em_push_sound")
    notice.apns.category = try fields.string(
      value: member[APNsMember.emPushCategory], prefix + ".em_push_category")
    notice.badgeSet = try fields.integer(
      value: member[APNsMember.emPushBadge], prefix + ".em_push_badge"
    ).map(document.lexeme)
    if let mutable = fields.present(value: member[APNsMember.emPushMutableContent]) {
      switch document.kind(mutable) {
      case .true: notice.apns.mutableContent = true
      case .false: break
      case .number where document.isInteger(mutable):
        notice.apns.mutableContent = document.isIntegerOne(mutable)
      default:
        throw fields.wrongType(
          prefix + ".em_push_mutable_content", mutable, expected: "a boolean or an integer")
      }
    }
    if let extern = fields.present(value: member[APNsMember.extern]) {
      if document.kind(extern) == .string {
        let slice = document.string(extern)
        notice.ext = slice.isEmpty ? nil : .string(slice)
      } else {
        notice.ext = .json(extern)
      }
    }
    return content
  }

  /// `em_android_push_ext`, mapped to the `AndroidInfo` fields.
  private static func readAndroid(
    _ fields: FieldReader, _ android: Int, _ prefix: String, into info: inout Notice.Android
  ) throws {
    let member = fields.document.collectMembers(android, Self.androidTable)
    info.googleChannelID = try fields.string(
      value: member[AndroidMember.fcmChannelId], prefix + ".fcm_channel_id")
    info.huaweiChannelID = try fields.string(
      value: member[AndroidMember.huaweiChannelId], prefix + ".huawei_channel_id")
    info.huaweiCategory = try fields.string(
      value: member[AndroidMember.huaweiCategory], prefix + ".huawei_category")
    info.honorImportance = try fields.string(
      value: member[AndroidMember.honorImportance], prefix + ".honor_importance")
    info.oppoChannelID = try fields.string(
      value: member[AndroidMember.oppoChannelId], prefix + ".oppo_channel_id")
    info.vivoCategory = try fields.string(
      value: member[AndroidMember.vivoCategory], prefix + ".vivo_category")
    info.xiaomiChannelID = try fields.string(
      value: member[AndroidMember.xiaomiChannelId], prefix + ".xiaomi_channel_id")
  }
}
