/// Easemob / Agora Chat lines: the history-export shape and the REST send shape (SPEC 3.2, 9).
///
/// Order (SPEC 9): type checks → recipients → any `cmd` body (`command-message`) →
/// `em_ignore_notification` (`ignore-notification`) → `em_push_content` → `empty-text`.
enum EasemobReader {
  static func read(
    _ document: JSONDocument, rest: Bool, line: UnsafeBufferPointer<UInt8>,
    options: MessageOptions, into notice: inout Notice
  ) throws -> ReadVerdict {
    let fields = FieldReader(document)
    let root = document.root
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
      let targetType = try fields.requiredString(root, "target_type", "")
      if targetType.equals("chatgroups") {
        isGroup = true
      } else if !targetType.equals("users") {
        throw MessageReject(
          path: "target_type",
          detail: "target_type: expected \"users\" or \"chatgroups\", found "
            + "\"\(targetType.decodedString())\"")
      }
      sender = try fields.requiredString(root, "from", "")
      targets = try readTargets(fields, root)
      let msg = try fields.requiredObject(root, "msg", "")
      try readBody(fields, msg, "msg", locale: options.locale, into: &bodies)
      ext = try fields.object(root, "ext", "")
      extPrefix = "ext"
    } else {
      sender = try fields.requiredString(root, "from", "")
      let to = try fields.requiredString(root, "to", "")
      let chatType = try fields.requiredString(root, "chat_type", "")
      if chatType.equals("groupchat") {
        isGroup = true
      } else if !chatType.equals("chat") {
        throw MessageReject(
          path: "chat_type",
          detail: "chat_type: expected \"chat\" or \"groupchat\", found "
            + "\"\(chatType.decodedString())\"")
      }
      targets = [to]
      let payload = try fields.requiredObject(root, "payload", "")
      let list = try fields.requiredArray(payload, "bodies", "payload")
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
      ext = try fields.object(payload, "ext", "payload")
      extPrefix = "payload.ext"
      notice.easemobMessageID = try fields.string(root, "msg_id", "")
    }

    // ext (SPEC 3.2).
    var ignore = false
    var content: StringSlice? = nil
    if let ext {
      ignore = try fields.bool(ext, "em_ignore_notification", extPrefix) ?? false
      notice.force = try fields.bool(ext, "em_force_notification", extPrefix) ?? false
      notice.template = try fields.object(ext, "em_push_template", extPrefix)
      if let apns = try fields.object(ext, "em_apns_ext", extPrefix) {
        content = try readAPNs(
          fields, apns, rest ? "ext.em_apns_ext" : "payload.ext.em_apns_ext", into: &notice)
      }
      if let android = try fields.object(ext, "em_android_push_ext", extPrefix) {
        try readAndroid(
          fields, android, rest ? "ext.em_android_push_ext" : "payload.ext.em_android_push_ext",
          into: &notice.android)
      }
      if let harmony = try fields.object(ext, "em_harmony_push_ext", extPrefix) {
        notice.harmony.category = try fields.string(
          harmony, "category", rest ? "ext.em_harmony_push_ext" : "payload.ext.em_harmony_push_ext")
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
    let type = try fields.requiredString(body, "type", path())
    if type.equals("txt") {
      bodies.pieces.append(try fields.requiredString(body, "msg", path()))
      return
    }
    // Other bodies' `msg` is not used, but SPEC 9's table reads it as a string field required
    // only for `txt`: when present and not null it must be a string (as a Tencent element's
    // `MsgContent` must be an object), and this check comes before the `cmd` skip.
    _ = try fields.string(body, "msg", path())
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

  /// REST `target`: a required array of strings; empty strings are absent.
  private static func readTargets(_ fields: FieldReader, _ root: Int) throws -> [StringSlice] {
    let document = fields.document
    let list = try fields.requiredArray(root, "target", "")
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
    let content = try fields.string(apns, "em_push_content", prefix)
    notice.title = try fields.string(apns, "em_push_title", prefix)
    notice.apns.subtitle = try fields.string(apns, "em_alert_subTitle", prefix)
    notice.sound = try fields.string(apns, "em_push_sound", prefix)
    notice.apns.category = try fields.string(apns, "em_push_category", prefix)
    notice.badgeSet = try fields.integer(apns, "em_push_badge", prefix).map(document.lexeme)
    if let mutable = fields.present(apns, "em_push_mutable_content") {
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
    if let extern = fields.present(apns, "extern") {
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
    info.googleChannelID = try fields.string(android, "fcm_channel_id", prefix)
    info.huaweiChannelID = try fields.string(android, "huawei_channel_id", prefix)
    info.huaweiCategory = try fields.string(android, "huawei_category", prefix)
    info.honorImportance = try fields.string(android, "honor_importance", prefix)
    info.oppoChannelID = try fields.string(android, "oppo_channel_id", prefix)
    info.vivoCategory = try fields.string(android, "vivo_category", prefix)
    info.xiaomiChannelID = try fields.string(android, "xiaomi_channel_id", prefix)
  }
}
