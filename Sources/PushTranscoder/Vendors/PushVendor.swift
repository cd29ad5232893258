/// The limits of one vendor (SPEC 4 table, 9), as data: every budget, cap and per-record count
/// of a vendor is its `PushVendor.limits` and nowhere else.
package struct VendorLimits: Sendable {
  /// Whole-payload byte budget (canonical bytes), nil for the capped vendors.
  package var payloadBytes: Int?
  /// The budget of an APNs VoIP push (`ApnsInfo.IsVoipPush == 1`).
  package var voipPayloadBytes: Int?
  /// Title and body caps in Unicode scalars, nil for the budgeted vendors.
  package var titleScalars: Int?
  /// The body cap in Unicode scalars, nil for the budgeted vendors.
  package var bodyScalars: Int?
  /// The limit on the field that carries ext, if the vendor has one.
  package var extField: FieldBudget?
  /// vivo `requestId`: at most this many UTF-8 bytes, suffix included.
  package var requestIDBytes: Int?
  /// Recipients per record; more recipients split into several records.
  package var recipientsPerRecord: Int

  /// Limits with only the given budgets and caps.
  package init(
    payloadBytes: Int? = nil, voipPayloadBytes: Int? = nil, titleScalars: Int? = nil,
    bodyScalars: Int? = nil, extField: FieldBudget? = nil, requestIDBytes: Int? = nil,
    recipientsPerRecord: Int
  ) {
    self.payloadBytes = payloadBytes
    self.voipPayloadBytes = voipPayloadBytes
    self.titleScalars = titleScalars
    self.bodyScalars = bodyScalars
    self.extField = extField
    self.requestIDBytes = requestIDBytes
    self.recipientsPerRecord = recipientsPerRecord
  }
}

/// Why one vendor refused a message that others may still get (SPEC 6.4, 9).
package struct VendorRefusal: Error {
  /// The refusals a vendor can make; `RejectReason(_:)` gives each its SPEC name.
  package enum Reason: Sendable {
    /// The payload cannot fit its byte budget even with the body cut to `…`, or the field
    /// carrying ext is over its limit (SPEC 5 step 3).
    case overBudget
    /// An APNs Live Activity push without a timestamp (SPEC 9).
    case missingTimestamp
  }

  /// Why the vendor refused.
  package var reason: Reason
  /// Free text for people, e.g. the sizes.
  package var detail: String
  /// A refusal for `reason`, explained by `detail`.
  package init(reason: Reason, detail: String) {
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
  /// Where the writer holds the field that names the record (`PushVendor.writePartField`),
  /// for a vendor whose records differ only there; nil otherwise.
  package var partField: Range<Int>? = nil
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
/// recipients, push_type...) is written by the pipeline's record head. Most vendors conform
/// through `BudgetedVendor` or `CappedVendor`, which write the envelope shared by their kind.
///
/// The static properties are computed, not stored: code specialised for a vendor
/// (`VendorID.visit`) then reads constants, with no lazy-global check (`swift_once`).
package protocol PushVendor: Sendable {
  /// A vendor holds no state: `VendorID.visit` makes one per call.
  init()
  /// The vendor's id (its case in `VendorID`).
  static var id: VendorID { get }
  /// The CLI word and the `"vendor"` value of records.
  static var name: StaticString { get }
  /// The vendor's budgets, caps and recipients per record (SPEC 4 table).
  static var limits: VendorLimits { get }
  /// True when the payload may read `Notice.lineHash`: the pipeline then hashes lines in bulk,
  /// and hashes a message's line once before splitting it into records.
  static var hashesLines: Bool { get }

  /// Record keys that precede `"payload"` and depend on the vendor (apns `push_type`,
  /// `live_activity_id`), written with their leading comma, e.g. `,"push_type":"voip"`.
  func writeRecordExtras(_ notice: Notice, into writer: inout JSONWriter)

  /// True when `writeRecordExtras` writes something for `notice`: the record head is then
  /// written in full instead of copied from the line's shared tail (`RecordHead`).
  func hasRecordExtras(_ notice: Notice) -> Bool

  /// How the payloads of `notice`'s records differ when the message splits into several
  /// (`LineRecords.writeParts` renders the first record's payload and makes the others' from
  /// it where it can).
  func partPayloads(_ notice: Notice) -> PartPayloads

  /// Writes the one field by which record `part`'s payload differs from the others' when
  /// `partPayloads` is `.differInOneField`: the same bytes `renderPayload` writes there, and
  /// marks in `RenderEffects.partField`.
  func writePartField(_ notice: Notice, part: Int, into writer: inout JSONWriter)

  /// Appends the payload object for `notice` to `writer`, within the vendor's caps and budgets,
  /// or returns a refusal and leaves `writer` as it was. `part`/`parts` number the records this
  /// message makes for this vendor (1-based; vivo suffixes `requestId` when `parts > 1`).
  func renderPayload(
    _ notice: Notice, _ context: RenderContext, part: Int, parts: Int,
    into writer: inout JSONWriter, effects: inout RenderEffects
  ) -> VendorRefusal?
}

extension PushVendor {
  /// The vendor's id.
  package var id: VendorID { Self.id }

  /// Recipients per record (SPEC 4 table).
  package var recipientsPerRecord: Int { Self.limits.recipientsPerRecord }

  /// Most vendors never read the line's hash.
  package static var hashesLines: Bool { false }

  /// Most vendors add nothing to the record around their payload.
  package func writeRecordExtras(_ notice: Notice, into writer: inout JSONWriter) {}

  /// Most vendors add nothing to the record around their payload.
  package func hasRecordExtras(_ notice: Notice) -> Bool { false }

  /// Most vendors never read `part`: only a send to several groups whose records each take
  /// their group's name as the fallback title (`renderPart`) varies.
  package func partPayloads(_ notice: Notice) -> PartPayloads {
    notice.groups.count > 1 && notice.groupsTitleTheirRecords ? .differ : .same
  }

  /// Most vendors have no field that names the record.
  package func writePartField(_ notice: Notice, part: Int, into writer: inout JSONWriter) {}
}

/// How the payloads of one message's records differ (`PushVendor.partPayloads`).
package enum PartPayloads {
  /// Every record gets the same payload bytes: the first record's are copied.
  case same
  /// The records' payloads differ only in one field that names the record's recipient or
  /// group (Easemob apns `t`): the first record's payload is copied with that field written
  /// anew (`PushVendor.writePartField`), where that makes what rendering it would.
  case differInOneField
  /// Each record's payload is rendered.
  case differ
}
