import Testing

@testable import PushTranscoder

/// A notice copied into Swift values, so it can be inspected after its line is gone.
struct NoticeSnapshot {
  var dialect: Notice.Dialect
  var body = ""
  var bodyPieces: [String] = []
  var untitledBody = ""
  /// The untitled body is `body` itself (`Notice.untitledPieces` nil: no array of its own).
  var untitledIsBody = false
  var fallbackTitle = ""
  var fallbackTitles: [String] = []
  var title: String?
  var key: String?
  var sender: String?
  var easemobMessageID: String?
  var recipients: [String] = []
  var groups: [String] = []
  var ext: String?
  var extIsJSON = false
  var sound: String?
  var badgeSet: String?
  var badgeAdd: String?
  var apnsTitle: String?
  var subtitle: String?
  var image: String?
  var interruptionLevel: String?
  var category: String?
  var mutableContent = false
  var contentAvailable = false
  var voip = false
  var liveActivity: [String: String]?
  var android: [String: String] = [:]
  var harmony: [String: String] = [:]
  var force = false
  var template: String?
  var lineHash: UInt64 = 0
}

enum ReadResult {
  case notice(NoticeSnapshot)
  case skip(SkipReason)
  case reject(path: String, detail: String)

  var notice: NoticeSnapshot? {
    if case .notice(let n) = self { return n }
    return nil
  }
  var skipReason: SkipReason? {
    if case .skip(let reason) = self { return reason }
    return nil
  }
  var rejectPath: String? {
    if case .reject(let path, _) = self { return path }
    return nil
  }
}

func text(_ slice: StringSlice?) -> String? { slice?.decodedString() }
func text(_ pieces: [StringSlice]) -> String { pieces.map { $0.decodedString() }.joined() }
func text(_ lexeme: UnsafeBufferPointer<UInt8>?) -> String? {
  lexeme.map { String(decoding: $0, as: UTF8.self) }
}

func canonical(_ document: JSONDocument, _ index: Int) -> String {
  var writer = JSONWriter(capacity: 64)
  writer.value(document, index)
  return String(decoding: writer.bytes, as: UTF8.self)
}

/// Parses `json` (must be valid JSON) and reads it as a message.
func read(
  _ json: String, options: MessageOptions = MessageOptions(), stats: inout MessageStats
) -> ReadResult {
  let bytes = Array(json.utf8)
  var tokenizer = JSONTokenizer()
  return bytes.withUnsafeBufferPointer { line in
    if let error = tokenizer.parse(line) {
      Issue.record("fixture is not valid JSON: \(error)")
      return .reject(path: "<fixture>", detail: "")
    }
    return tokenizer.withDocument(line) { document in
      switch MessageReader.read(document, line: line, options: options, stats: &stats) {
      case .skip(let reason): return .skip(reason)
      case .reject(let path, let detail): return .reject(path: path, detail: detail)
      case .notice(let n): return .notice(snapshot(n, document))
      }
    }
  }
}

func read(_ json: String, options: MessageOptions = MessageOptions()) -> ReadResult {
  var stats = MessageStats()
  return read(json, options: options, stats: &stats)
}

private func snapshot(_ n: Notice, _ document: JSONDocument) -> NoticeSnapshot {
  var s = NoticeSnapshot(dialect: n.dialect)
  s.body = text(n.body)
  s.bodyPieces = n.body.map { $0.decodedString() }
  s.untitledBody = text(n.untitledBody)
  s.untitledIsBody = n.untitledPieces == nil
  s.fallbackTitle = n.fallbackTitle.decodedString()
  s.fallbackTitles = n.fallbackTitles.map { $0.decodedString() }
  s.title = text(n.title)
  s.key = text(n.key)
  s.sender = text(n.sender)
  s.easemobMessageID = text(n.easemobMessageID)
  s.recipients = n.recipients.map { $0.decodedString() }
  s.groups = n.groups.map { $0.decodedString() }
  switch n.ext {
  case .string(let slice): s.ext = slice.decodedString()
  case .json(let index):
    s.ext = canonical(document, index)
    s.extIsJSON = true
  case nil: break
  }
  s.sound = text(n.sound)
  s.badgeSet = text(n.badgeSet)
  s.badgeAdd = text(n.badgeAdd)
  s.apnsTitle = text(n.apns.title)
  s.subtitle = text(n.apns.subtitle)
  s.image = text(n.apns.image)
  s.interruptionLevel = text(n.apns.interruptionLevel)
  s.category = text(n.apns.category)
  s.mutableContent = n.apns.mutableContent
  s.contentAvailable = n.apns.contentAvailable
  s.voip = n.apns.voip
  if let live = n.apns.liveActivity {
    var d = [
      "id": live.id.decodedString(), "event": live.event.decodedString(),
      "contentState": canonical(document, live.contentState),
    ]
    if let date = text(live.dismissalDate) { d["dismissalDate"] = date }
    if let stamp = text(live.timestamp) { d["timestamp"] = stamp }
    s.liveActivity = d
  }
  let a = n.android
  let androidStrings: [(String, StringSlice?)] = [
    ("Sound", a.sound), ("HuaWeiChannelID", a.huaweiChannelID),
    ("HuaWeiCategory", a.huaweiCategory), ("HuaWeiImportance", a.huaweiImportance),
    ("HuaWeiImage", a.huaweiImage), ("HonorImportance", a.honorImportance),
    ("HonorImage", a.honorImage), ("GoogleImage", a.googleImage),
    ("GooglePriority", a.googlePriority), ("GoogleChannelID", a.googleChannelID),
    ("XiaoMiChannelID", a.xiaomiChannelID), ("OPPOChannelID", a.oppoChannelID),
    ("OPPOCategory", a.oppoCategory), ("VIVOCategory", a.vivoCategory),
  ]
  for (name, value) in androidStrings { if let v = text(value) { s.android[name] = v } }
  let androidInts: [(String, UnsafeBufferPointer<UInt8>?)] = [
    ("OPPONotifyLevel", a.oppoNotifyLevel), ("VIVOClassification", a.vivoClassification),
    ("VIVONotifyType", a.vivoNotifyType), ("MeiZuNoticeMsgType", a.meizuNoticeMsgType),
  ]
  for (name, value) in androidInts { if let v = text(value) { s.android[name] = v } }
  let h = n.harmony
  if let v = text(h.title) { s.harmony["Title"] = v }
  if let v = text(h.category) { s.harmony["Category"] = v }
  if let v = text(h.image) { s.harmony["Image"] = v }
  if let v = text(h.sound) { s.harmony["Sound"] = v }
  if let v = text(h.soundDuration) { s.harmony["SoundDuration"] = v }
  s.force = n.force
  s.template = n.template.map { canonical(document, $0) }
  s.lineHash = n.lineHash
  return s
}

/// A directory loaded from NDJSON lines; returns the per-line results too.
func directory(_ lines: [String]) -> (NameDirectory, [NameDirectory.LineResult]) {
  var directory = NameDirectory()
  var results: [NameDirectory.LineResult] = []
  var tokenizer = JSONTokenizer()
  for json in lines {
    let bytes = Array(json.utf8)
    bytes.withUnsafeBufferPointer { line in
      if let error = tokenizer.parse(line) {
        Issue.record("directory fixture is not valid JSON: \(error)")
        return
      }
      tokenizer.withDocument(line) { results.append(directory.ingest($0)) }
    }
  }
  return (directory, results)
}

func options(
  _ lines: [String] = [], locale: PushLocale = .en,
  display: DisplayMode = .summary, defaultTitle: String? = nil
) -> MessageOptions {
  MessageOptions(
    locale: locale, display: display, defaultTitle: defaultTitle, directory: directory(lines).0)
}
