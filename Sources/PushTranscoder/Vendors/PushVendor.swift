/// The vendors, in canonical order (SPEC 9): output always follows this order.
package enum VendorID: Int, CaseIterable, Sendable, Comparable {
  /// The nine vendors; `rawValue` indexes per-vendor stats.
  case apns, fcm, huawei, honor, harmony, xiaomi, oppo, vivo, meizu

  /// The CLI word and the `"vendor"` value of records.
  package var name: String { staticName.description }

  /// The name as a static string, written into every record without touching a `String`.
  package var staticName: StaticString {
    switch self {
    case .apns: "apns"
    case .fcm: "fcm"
    case .huawei: "huawei"
    case .honor: "honor"
    case .harmony: "harmony"
    case .xiaomi: "xiaomi"
    case .oppo: "oppo"
    case .vivo: "vivo"
    case .meizu: "meizu"
    }
  }

  /// The vendor whose CLI word is `name`, or nil for an unknown id.
  package init?(name: String) {
    guard let match = VendorID.allCases.first(where: { $0.name == name }) else { return nil }
    self = match
  }

  /// Canonical order.
  package static func < (lhs: VendorID, rhs: VendorID) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// Why one vendor refused a message that others may still get (SPEC 6.4, 9).
package struct VendorRefusal: Error {
  /// `over-budget` or `missing-timestamp`.
  package var reason: String
  /// Free text for people, e.g. the sizes.
  package var detail: String
  /// A refusal for `reason`, explained by `detail`.
  package init(reason: String, detail: String) {
    self.reason = reason
    self.detail = detail
  }
}

/// What rendering did to the text and fields, for the stats (SPEC 5, 9: counts per (message,
/// vendor)).
package struct RenderEffects {
  /// The title was cut to the vendor's scalar cap.
  package var titleCut = false
  /// The body was cut, to a scalar cap or to fit the byte budget.
  package var bodyCut = false
  /// The fields whose value the vendor refuses, left out or set to their default: one bit per
  /// `DroppedField` (SPEC 9 [4, 6.8]).
  package var dropped: UInt16 = 0
  /// Nothing cut.
  package init() {}
}

/// Everything a vendor may read while rendering besides the notice.
package struct RenderContext {
  /// The parsed line (for JSON values passed through: ext as JSON, content-state, template).
  package var document: JSONDocument
  /// Answers shared by the vendors rendering the same line (scalar counts, decoded prefixes).
  package var memo: TextMemo

  /// A context for the vendors rendering one line of `document`.
  package init(document: JSONDocument, memo: TextMemo = TextMemo()) {
    self.document = document
    self.memo = memo
  }
}

/// One push vendor: the shape of its payload and its limits (SPEC 4, 5).
///
/// A vendor renders only the payload object; the record around it (source, line, key,
/// recipients, push_type...) is written by `RecordWriter`.
package protocol PushVendor: Sendable {
  /// The vendor's id.
  var id: VendorID { get }
  /// Recipients per record (SPEC 4 table).
  var recipientsPerRecord: Int { get }

  /// Record keys that precede `"payload"` and depend on the vendor (apns `push_type`,
  /// `live_activity_id`), written with their leading comma, e.g. `,"push_type":"voip"`.
  func writeRecordExtras(_ notice: Notice, into writer: inout JSONWriter)

  /// True when `writeRecordExtras` writes something for `notice`: the record head is then
  /// written in full instead of copied from the line's shared tail (`RecordHead`).
  func hasRecordExtras(_ notice: Notice) -> Bool

  /// Appends the payload object for `notice` to `writer`, within the vendor's caps and budgets,
  /// or returns a refusal and leaves `writer` as it was. `part`/`parts` number the records this
  /// message makes for this vendor (1-based; vivo suffixes `requestId` when `parts > 1`).
  func renderPayload(
    _ notice: Notice, _ context: RenderContext, part: Int, parts: Int,
    into writer: inout JSONWriter, effects: inout RenderEffects
  ) -> VendorRefusal?
}

extension PushVendor {
  /// From the limits table (SPEC 4).
  package var recipientsPerRecord: Int { VendorLimits.of(id).recipientsPerRecord }

  /// Most vendors add nothing to the record around their payload.
  package func writeRecordExtras(_ notice: Notice, into writer: inout JSONWriter) {}

  /// Most vendors add nothing to the record around their payload.
  package func hasRecordExtras(_ notice: Notice) -> Bool { false }
}
