/// Turns one parsed line into a notice, a skip or a reject (SPEC 2.3, 3, 9).
///
/// Invariant: every field SPEC 9 lists for the line's dialect is type-checked before any skip
/// decision, whatever vendors are selected, so a reject always wins over a skip. The notice's
/// slices point into the line (valid while the line is processed), into the directory, or into
/// the program image; reading a message copies no text.
///
/// Decisions where SPEC is silent (tested in `Tests/PushTranscoderTests/Messages/`):
/// - Dialect detection is by key presence: `"MsgBody":null` is a Tencent line whose required
///   `MsgBody` is null (`not-a-message`), not an Easemob candidate.
/// - "`str` fields count empty as absent" applies to required fields too: an empty `MsgType`,
///   `Text`, `from`, `to`, `chat_type`, `target_type`, body `type` or `txt` `msg` is a missing
///   required field (`not-a-message`). Empty strings inside `To_Account` / `target` arrays are
///   dropped; an array left empty means no recipient.
/// - `MsgContent`, when present on elements other than Text/Custom, must still be an object.
/// - `MsgTimeStamp` / `MsgTime` are type-checked only with `ApnsInfo.LiveActivity` (they are
///   read only then); with it, both are checked when present.
/// - Easemob `empty-text` is, like Tencent step 5, an empty text *and* no `em_push_title`.
///   Unknown Easemob body types contribute nothing and are not counted.
/// - Easemob REST lines have no key (`msg_id` is read from the export shape only).
/// - `extern: ""` is absent; any other non-null `extern` is kept (`.string` or `.json`).
/// - `chat_type` other than `chat`/`groupchat`, `target_type` other than `users`/`chatgroups`:
///   `not-a-message` at that path.
/// - The line itself (non-object, or no dialect key) is reported with path `$`.
/// - `unknown_elements` counts elements of Tencent lines that are not rejected (also when
///   skipped); `desc_ext_over_3kb` counts notices whose `OfflinePushInfo.Desc` + `.Ext`
///   decoded UTF-8 bytes exceed 3072 (3 KB inclusive; custom-element `Ext` not counted).
package enum MessageReader {
  /// Reads `document` (the parsed `line`) as a chat message.
  ///
  /// Dialect (SPEC 9): a top-level `MsgBody` key → Tencent; else `payload` → Easemob export;
  /// else `target_type` or `msg` → Easemob REST; else (or when the line is not an object)
  /// `not-a-message`. Detection is by key presence, so `"MsgBody":null` is a Tencent line whose
  /// required `MsgBody` is null.
  ///
  /// - Parameters:
  ///   - line: the line's bytes as read, without its terminator (hashed for vivo `requestId`).
  ///   - stats: counters this call adds to (`unknown_elements`, `desc_ext_over_3kb`).
  package static func read(
    _ document: JSONDocument, line: UnsafeBufferPointer<UInt8>, options: MessageOptions,
    stats: inout MessageStats
  ) -> MessageOutcome {
    var notice = Notice(
      dialect: .tencent, body: [], untitledBody: [], fallbackTitle: options.defaultTitle,
      lineHash: 0)
    switch read(document, line: line, options: options, stats: &stats, into: &notice) {
    case .notice: return .notice(notice)
    case .skip(let reason): return .skip(reason)
    case .reject(let path, let detail): return .reject(path: path, detail: detail)
    }
  }

  /// `read(_:line:options:stats:)` writing the notice in place (the pipeline's form: one
  /// notice per worker, overwritten line after line, never copied).
  package static func read(
    _ document: JSONDocument, line: UnsafeBufferPointer<UInt8>, options: MessageOptions,
    stats: inout MessageStats, into notice: inout Notice
  ) -> ReadResult {
    let root = document.root
    guard document.kind(root) == .object else {
      let found = FieldReader.describe(document, root)
      return .reject(path: "$", detail: "$: a message must be a JSON object, found \(found)")
    }
    do {
      let verdict: ReadVerdict
      let top = RootMembers(document, root)
      if top.body != nil {
        verdict = try TencentReader.read(
          document, top: top, line: line, options: options, stats: &stats, into: &notice)
      } else if top.isEasemob {
        verdict = try EasemobReader.read(
          document, top: top, line: line, options: options, into: &notice)
      } else {
        return .reject(
          path: "$",
          detail: "$: not a chat message (no MsgBody, payload, target_type or msg key)")
      }
      switch verdict {
      case .notice: return .notice
      case .skip(let reason): return .skip(reason)
      }
    } catch let reject as MessageReject {
      return .reject(path: reject.path, detail: reject.detail)
    } catch {
      return .reject(path: "$", detail: "$: \(error)")
    }
  }

  /// The fallback title (SPEC 4): the sender's nickname (C2C) or the group's name (group), else
  /// the default title.
  static func fallbackTitle(
    sender: StringSlice?, group: StringSlice?, options: MessageOptions
  ) -> StringSlice {
    if let group {
      return options.directory.groupName(of: group) ?? options.defaultTitle
    }
    if let sender, let nickname = options.directory.nickname(of: sender) {
      return nickname
    }
    return options.defaultTitle
  }

  /// The decoded UTF-8 length of a slice (SPEC 9's 3 KB warning).
  static func decodedCount(_ slice: StringSlice?) -> Int {
    guard let slice else { return 0 }
    return slice.hasEscapes ? JSONEscapes.decodedLength(slice.rawBytes) : slice.count
  }
}

/// The root members both dialects read, found in one pass over the root object's keys (a lookup
/// per field would scan them once per field): the Tencent fields, the Easemob fields, and so the
/// keys that tell the dialects apart (SPEC 2.3: `MsgBody` is Tencent; `payload` an Easemob
/// export, else `target_type` or `msg` an Easemob REST send; presence, whatever the value). The
/// last duplicate wins (SPEC 9), as with `JSONDocument.member`.
struct RootMembers {
  static let table = MemberTable([
    "MsgBody", "From_Account", "GroupId", "MsgKey", "MsgId", "To_Account", "OfflinePushInfo",
    "MsgTimeStamp", "MsgTime",
    "payload", "target_type", "msg", "from", "to", "chat_type", "msg_id", "target", "ext",
  ])
  /// The slots of `table`: the member's name without underscores, in lower camel case
  /// (`EasemobMemberTableTests` checks that the two agree). The first nine are Tencent's.
  enum Member: Int, CaseIterable {
    case msgBody, fromAccount, groupId, msgKey, msgId, toAccount, offlinePushInfo, msgTimeStamp
    case msgTime
    case payload, targetType, msg, from, to, chatType, msgID, target, ext
  }
  let slots: MemberSlots

  init(_ document: JSONDocument, _ root: Int) {
    slots = document.collectMembers(root, Self.table)
  }

  /// The value of member `member`, or nil.
  subscript(_ member: Member) -> Int? { slots[member] }

  // Tencent (SPEC 3.1, 3.3).
  var body: Int? { self[.msgBody] }
  var from: Int? { self[.fromAccount] }
  var group: Int? { self[.groupId] }
  var msgKey: Int? { self[.msgKey] }
  var msgID: Int? { self[.msgId] }
  var to: Int? { self[.toAccount] }
  var info: Int? { self[.offlinePushInfo] }
  var timeStamp: Int? { self[.msgTimeStamp] }
  var time: Int? { self[.msgTime] }

  // Easemob (SPEC 3.2).
  /// The history-export shape: a `payload` key.
  var isEasemobExport: Bool { self[.payload] != nil }
  /// An Easemob line of either shape: the export's `payload`, or the REST send's `target_type`
  /// or `msg` (a REST line is one that is not an export line).
  var isEasemob: Bool { isEasemobExport || self[.targetType] != nil || self[.msg] != nil }
}
