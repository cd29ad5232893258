/// What `MessageReader` made of one line (SPEC 3, 6.4).
package enum MessageOutcome {
  /// The push content; the line is transcoded by each selected vendor.
  case notice(Notice)
  /// A message that must not be pushed; nothing is written to the stream.
  case skip(SkipReason)
  /// Not a message, or a field the transcoder reads has the wrong type: reject the line with
  /// reason `MessageOutcome.rejectReason`, offset 0, and `detail` (which starts with `path`).
  case reject(path: String, detail: String)

  /// The reject reason of `.reject` (SPEC 2.3).
  package static let rejectReason = "not-a-message"
}

/// `MessageOutcome` without the notice, which the reader writes in place (`into:`): a notice
/// is hundreds of bytes, and returning it in the enum copied it at every stage.
package enum ReadResult {
  /// The notice was written in place.
  case notice
  /// A message that must not be pushed.
  case skip(SkipReason)
  /// Not a message: reject the line as `MessageOutcome.reject` does.
  case reject(path: String, detail: String)
}

/// What a dialect reader decided once the line proved well-formed.
enum ReadVerdict {
  case notice
  case skip(SkipReason)
}

/// Why a message is not pushed (SPEC 3.1, 3.2). The raw values are the stats / reason names.
package enum SkipReason: String, Sendable, CaseIterable {
  /// Tencent `OfflinePushInfo.PushFlag == 1`.
  case pushDisabled = "push-disabled"
  /// Tencent: exactly one TIMCustomElem and neither its `Desc` nor `OfflinePushInfo.Desc`.
  case customWithoutDesc = "custom-without-desc"
  /// No push text and no title.
  case emptyText = "empty-text"
  /// Easemob: a `cmd` body.
  case commandMessage = "command-message"
  /// Easemob: `ext.em_ignore_notification == true`.
  case ignoreNotification = "ignore-notification"
}

/// Counters the reader adds to while it reads messages (SPEC 6.8); one per worker, summed.
package struct MessageStats: Sendable, Equatable {
  /// Tencent `MsgBody` elements of an unknown `MsgType` (stats key `unknown_elements`), counted
  /// for every Tencent line that is not rejected (transcoded or skipped).
  package var unknownElements = 0
  /// Tencent messages whose `OfflinePushInfo.Desc` + `OfflinePushInfo.Ext` exceed 3 KB (stats
  /// key `desc_ext_over_3kb`): decoded UTF-8 bytes of both, summed, more than 3072; counted for
  /// lines that produce a notice.
  package var descExtOver3KB = 0

  /// Counters at zero.
  package init() {}

  /// Adds another worker's counters.
  package static func += (lhs: inout MessageStats, rhs: MessageStats) {
    lhs.unknownElements += rhs.unknownElements
    lhs.descExtOver3KB += rhs.descExtOver3KB
  }
}
