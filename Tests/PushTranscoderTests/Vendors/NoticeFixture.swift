import Testing

@testable import PushTranscoder

/// Builds `Notice`s for vendor tests from one small JSON line, parsed with the project
/// tokenizer, so that every text is a real slice of a real line (escapes included).
///
/// Test schema (all keys optional):
/// `dialect` ("easemob"), `title`, `body` / `untitled` (string or array of strings; `untitled`
/// defaults to `body`), `fallback` (default "New message"), `key`, `to`, `groups`, `from`, `m`,
/// `ext` (string), `extJSON` (any value), `sound`, `badgeSet`, `badgeAdd`, `hash` (number),
/// `apns` {title subtitle image level category mutable available voip
///         la{id event state dismissal ts}},
/// `android` {the `Notice.Android` property names}, `harmony` {title category image sound
/// soundDuration}.
enum NoticeFixture {
  /// What a vendor made of a notice.
  struct Rendered {
    var payload: String?
    var refusal: VendorRefusal?
    var effects = RenderEffects()
    var extras = ""
    var payloadBytes: [UInt8] = []
  }

  /// Parses `line`, builds its notice and runs `body` while the line's bytes are alive.
  static func with<R>(_ line: String, _ body: (Notice, RenderContext) throws -> R) rethrows -> R {
    let bytes = Array(line.utf8)
    return try bytes.withUnsafeBufferPointer { buffer in
      var tokenizer = JSONTokenizer()
      if let error = tokenizer.parse(buffer) {
        fatalError("fixture line is not JSON: \(error) in \(line)")
      }
      return try tokenizer.withDocument(buffer) { document in
        try body(notice(document, hash: FNV1a.hash(buffer)), RenderContext(document: document))
      }
    }
  }

  /// Renders `line` for `vendor` into a fresh writer that already holds a prefix, so that the
  /// renderer's offsets and roll-back are exercised away from zero.
  static func render(
    _ vendor: VendorID, _ line: String, part: Int = 1, parts: Int = 1
  ) -> Rendered {
    with(line) { notice, context in
      let renderer = VendorRegistry.vendor(vendor)
      var writer = JSONWriter()
      writer.raw("{\"payload\":")
      let start = writer.count
      var rendered = Rendered()
      rendered.refusal = renderer.renderPayload(
        notice, context, part: part, parts: parts, into: &writer, effects: &rendered.effects)
      if rendered.refusal != nil {
        #expect(writer.count == start, "a refusal must leave the writer as it was")
      } else {
        rendered.payloadBytes = Array(writer.bytes[start...])
        rendered.payload = String(decoding: rendered.payloadBytes, as: UTF8.self)
      }
      var extras = JSONWriter()
      renderer.writeRecordExtras(notice, into: &extras)
      rendered.extras = String(decoding: extras.bytes, as: UTF8.self)
      // The record head is copied from the line's shared tail unless the vendor says it has
      // extras: the two must agree.
      #expect(renderer.hasRecordExtras(notice) == !extras.isEmpty)
      return rendered
    }
  }

  /// The payload text, or a description of the refusal.
  static func payload(_ vendor: VendorID, _ line: String, part: Int = 1, parts: Int = 1)
    -> String
  {
    let rendered = render(vendor, line, part: part, parts: parts)
    if let refusal = rendered.refusal { return "refused: \(RejectReason(refusal.reason).name)" }
    return rendered.payload ?? ""
  }

  static var androidStrings: [String: WritableKeyPath<Notice.Android, StringSlice?>] {
    [
      "sound": \.sound, "huaweiChannelID": \.huaweiChannelID, "huaweiCategory": \.huaweiCategory,
      "huaweiImportance": \.huaweiImportance, "huaweiImage": \.huaweiImage,
      "honorImportance": \.honorImportance, "honorImage": \.honorImage,
      "googleImage": \.googleImage, "googlePriority": \.googlePriority,
      "googleChannelID": \.googleChannelID, "xiaomiChannelID": \.xiaomiChannelID,
      "oppoChannelID": \.oppoChannelID, "oppoCategory": \.oppoCategory,
      "vivoCategory": \.vivoCategory,
    ]
  }
  static var androidNumbers: [String: WritableKeyPath<Notice.Android, UnsafeBufferPointer<UInt8>?>]
  {
    [
      "oppoNotifyLevel": \.oppoNotifyLevel, "vivoClassification": \.vivoClassification,
      "vivoNotifyType": \.vivoNotifyType, "meizuNoticeMsgType": \.meizuNoticeMsgType,
    ]
  }

  static func notice(_ document: JSONDocument, hash: UInt64) -> Notice {
    let root = document.root
    func string(_ object: Int, _ key: StaticString) -> StringSlice? {
      document.member(object, key).map { document.string($0) }
    }
    func number(_ object: Int, _ key: StaticString) -> UnsafeBufferPointer<UInt8>? {
      document.member(object, key).map { document.lexeme($0) }
    }
    func strings(_ key: StaticString) -> [StringSlice]? {
      guard let index = document.member(root, key) else { return nil }
      if document.kind(index) == .string { return [document.string(index)] }
      var out: [StringSlice] = []
      document.forEachElement(index) { out.append(document.string($0)) }
      return out
    }
    let body = strings("body") ?? []
    var notice = Notice(
      dialect: string(root, "dialect")?.equals("easemob") == true ? .easemob : .tencent,
      body: body, untitledBody: strings("untitled") ?? body,
      fallbackTitle: string(root, "fallback") ?? StringSlice("New message"),
      lineHash: document.member(root, "hash").map {
        UInt64(String(decoding: document.lexeme($0), as: UTF8.self))!
      } ?? hash)
    notice.title = string(root, "title")
    notice.key = string(root, "key")
    notice.recipients = strings("to") ?? []
    notice.groups = strings("groups") ?? []
    notice.sender = string(root, "from")
    notice.easemobMessageID = string(root, "m")
    if let ext = string(root, "ext") { notice.ext = .string(ext) }
    if let ext = document.member(root, "extJSON") { notice.ext = .json(ext) }
    notice.sound = string(root, "sound")
    notice.badgeSet = number(root, "badgeSet")
    notice.badgeAdd = number(root, "badgeAdd")
    if let apns = document.member(root, "apns") {
      notice.apns.title = string(apns, "title")
      notice.apns.subtitle = string(apns, "subtitle")
      notice.apns.image = string(apns, "image")
      notice.apns.interruptionLevel = string(apns, "level")
      notice.apns.category = string(apns, "category")
      notice.apns.mutableContent = document.member(apns, "mutable") != nil
      notice.apns.contentAvailable = document.member(apns, "available") != nil
      notice.apns.voip = document.member(apns, "voip") != nil
      if let la = document.member(apns, "la") {
        notice.apns.liveActivity = Notice.LiveActivity(
          id: string(la, "id")!, event: string(la, "event")!,
          contentState: document.member(la, "state")!, dismissalDate: number(la, "dismissal"),
          timestamp: number(la, "ts"))
      }
    }
    if let android = document.member(root, "android") {
      document.forEachMember(android) { key, value in
        let name = document.string(key).decodedString()
        if let path = androidStrings[name] {
          notice.android[keyPath: path] = document.string(value)
        } else if let path = androidNumbers[name] {
          notice.android[keyPath: path] = document.lexeme(value)
        } else {
          fatalError("unknown android key \(name)")
        }
      }
    }
    if let harmony = document.member(root, "harmony") {
      notice.harmony.title = string(harmony, "title")
      notice.harmony.category = string(harmony, "category")
      notice.harmony.image = string(harmony, "image")
      notice.harmony.sound = string(harmony, "sound")
      notice.harmony.soundDuration = number(harmony, "soundDuration")
    }
    return notice
  }
}
