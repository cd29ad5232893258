/// Writes one notice's records for each vendor (SPEC 6.1, 6.4, 9 [6]): what
/// `LineProcessor.writeRecords` visits once per selected vendor (`VendorID.visit(_:_:_:)`),
/// with the line's shared parts.
///
/// The notice is a parameter of every function here and is passed on by reference; the
/// processor is not (a call of one of its methods from its mutating per-line code copies it
/// whole), so what the writers read of it is handed over: the settings, the record head's
/// parts.
struct LineRecords: VendorRecordVisitor {
  /// What the visits of one notice update: the chunk's output (through a pointer: the output
  /// is the caller's `inout` argument, and a `ChunkOutput` is not copyable), and the line's
  /// outcome.
  struct State {
    let output: UnsafeMutablePointer<ChunkOutput>
    var line = LineOutcome()
  }

  /// What the record writers read of `TranscodeOptions`.
  struct Settings {
    let framing: OutputFraming
    let rejectsInline: Bool
    let collectRecordRefs: Bool
    /// `TranscodeOptions.segmentBytes`.
    let segmentBytes: Int
  }

  let context: RenderContext
  /// The record head's parts for the line (`RecordHead.prepare`).
  let head: RecordHead.Parts
  let settings: Settings
  /// Takes the records written so far when a message's records pass `settings.segmentBytes`
  /// (nil: they stay until the chunk is done).
  // Safe because the line processor that makes this value for one line holds a strong
  // reference for its whole life; not retaining it saves a retain and release per line.
  unowned(unsafe) let segments: (any OutputSegments)?
  /// Recipients, or groups, of the message.
  let targets: Int
  let number: Int
  /// The line's bytes (reject records quote them).
  let original: UnsafeBufferPointer<UInt8>
  /// The usual message: one recipient or one group make one record per vendor, whose head is
  /// the TSV columns (under `--framing tsv`), the prefix, the vendor's name and the shared tail
  /// (`writeUsual`); otherwise `writeGeneral`. Set from `targets` once per line, not tested
  /// again per vendor.
  let usual: Bool

  /// Writes `vendor`'s records of `notice`, or its reject, and tallies them in the state's
  /// line outcome.
  @inline(__always)
  func visit<Vendor: PushVendor>(_ vendor: Vendor, _ notice: Notice, _ state: inout State) {
    // Safe because `state.output` points at the caller's output for the whole visit, and
    // nothing else reaches it meanwhile.
    if usual, let tail = head.sharedTail {
      writeUsual(vendor, notice, tail: tail, into: &state.output.pointee, &state.line)
    } else {
      writeGeneral(vendor, notice, into: &state.output.pointee, &state.line)
    }
  }

  /// The record of `vendor` for the usual message: the head from the line's shared parts (or
  /// the whole head when the vendor writes extras around the payload), the payload, and the
  /// record's end; or, when the vendor refuses, its reject.
  private func writeUsual<Vendor: PushVendor>(
    _ vendor: Vendor, _ notice: Notice, tail: UnsafeBufferPointer<UInt8>,
    into output: inout ChunkOutput, _ line: inout LineOutcome
  ) {
    let id = Vendor.id
    let start = output.main.count
    if vendor.hasRecordExtras(notice) {
      head.write(
        notice, context.document, vendor: vendor, part: 1, perRecord: 1,
        framing: settings.framing, into: &output.main)
    } else {
      if settings.framing == .tsv {
        // `vendor<TAB>line<TAB>` before the record (SPEC 6.3), as `RecordHead.Parts.write`.
        output.main.raw(Vendor.name)
        output.main.byte(ASCII.tab)
        output.main.raw(head.number)
        output.main.byte(ASCII.tab)
      }
      output.main.rawHeadPart(head.prefix)
      output.main.raw(Vendor.name)
      output.main.rawHeadPart(tail)
    }
    var effects = RenderEffects()
    let payloadStart = output.main.count
    if let refusal = vendor.renderPayload(
      notice, context, part: 1, parts: 1, into: &output.main, effects: &effects)
    {
      let reason = refuse(refusal, vendor: id, from: start, into: &output)
      if line.firstRefusal == nil { line.firstRefusal = reason }
      return
    }
    output.stats.countPayload(id, bytes: output.main.count - payloadStart)
    finishRecord(id, &output)
    line.wrote(1, for: id, effects)
  }

  /// The records of `vendor` in the general case: a message of any number of parts (recipients
  /// beyond the vendor's per-record limit, several groups). Out of line: the usual message's
  /// writer, inlined beside it, keeps its registers.
  @inline(never)
  private func writeGeneral<Vendor: PushVendor>(
    _ vendor: Vendor, _ notice: Notice, into output: inout ChunkOutput,
    _ line: inout LineOutcome
  ) {
    let perRecord = notice.groups.isEmpty ? Vendor.limits.recipientsPerRecord : 1
    let parts = notice.recordCount(recipientsPerRecord: Vendor.limits.recipientsPerRecord)
    if let hashed = notice.hashedForParts(parts, vendorHashesLines: Vendor.hashesLines) {
      writeParts(vendor, hashed, parts: parts, perRecord: perRecord, into: &output, &line)
    } else {
      writeParts(vendor, notice, parts: parts, perRecord: perRecord, into: &output, &line)
    }
  }

  /// `writeGeneral`'s records: `parts` records of at most `perRecord` recipients each, written
  /// from a notice passed by reference (the copy with the line's hash in it only when needed).
  private func writeParts<Vendor: PushVendor>(
    _ vendor: Vendor, _ notice: Notice, parts: Int, perRecord: Int,
    into output: inout ChunkOutput, _ line: inout LineOutcome
  ) {
    let id = Vendor.id
    // A split message's records can differ in size (Easemob apns `t`, a title per group), so
    // one of them may not fit where the others do. The message is then rejected for that
    // vendor (SPEC 5 step 3): none of the vendor's records go out, and its one reject goes
    // where its first record would have been (9 [6]), whatever the order of the recipients.
    let vendorStart = output.main.count
    var effects = RenderEffects()
    // Payload sizes are counted once every part is written: a refused part drops them all.
    var firstSize = 0
    var laterSizes: [Int] = []
    // True once no later part can be refused: the records written may then leave for the
    // writer (`segments`), and sizes are counted as they come.
    var settled = false
    // The records' payloads are made from the first one's where the vendor allows it
    // (`PayloadTemplate`): a batch send to many recipients renders the payload once.
    let kind = parts > 1 ? vendor.partPayloads(notice) : .differ
    var template: PayloadTemplate? = nil
    for part in 1...parts {
      head.write(
        notice, context.document, vendor: vendor, part: part, perRecord: perRecord,
        framing: settings.framing, into: &output.main)
      var partEffects = RenderEffects()
      let payloadStart = output.main.count
      if let template, template.write(vendor, notice, part: part, into: &output.main) {
        partEffects = template.effects
      } else if let refusal = vendor.renderPart(
        notice, context, part: part, parts: parts, into: &output.main, &partEffects)
      {
        // Never once settled: `laterRefusal` rendered every part still to come.
        assert(!settled, "a part refused after the vendor's records were handed over")
        let reason = refuse(refusal, vendor: id, from: vendorStart, into: &output)
        if line.firstRefusal == nil { line.firstRefusal = reason }
        return
      } else if kind != .differ {
        // The first payload, or one whose field outgrew the template's: the template now.
        template =
          PayloadTemplate(kind, output.main, from: payloadStart, effects: partEffects) ?? template
      }
      effects.titleCut = effects.titleCut || partEffects.titleCut
      effects.bodyCut = effects.bodyCut || partEffects.bodyCut
      effects.dropped |= partEffects.dropped
      let size = output.main.count - payloadStart
      if settled {
        output.stats.countPayload(id, bytes: size)
      } else if part == 1 {
        firstSize = size
      } else {
        laterSizes.append(size)
      }
      finishRecord(id, &output)
      // The size first: binding `segments` would retain it for every record.
      if output.main.count >= settings.segmentBytes, let segments {
        if !settled {
          // Before the records leave, make sure none will be taken back: render the parts
          // still to come once more, without keeping them (linear, and only for a message whose
          // records pass a segment).
          if let refusal = laterRefusal(
            vendor, notice, after: part, parts: parts, template: template)
          {
            let reason = refuse(refusal, vendor: id, from: vendorStart, into: &output)
            if line.firstRefusal == nil { line.firstRefusal = reason }
            return
          }
          settled = true
          output.stats.countPayload(id, bytes: firstSize)
          for size in laterSizes { output.stats.countPayload(id, bytes: size) }
          laterSizes = []
        }
        segments.deliver(output.takeSegment())
      }
    }
    if !settled {
      output.stats.countPayload(id, bytes: firstSize)
      for size in laterSizes { output.stats.countPayload(id, bytes: size) }
    }
    line.wrote(parts, for: id, effects)
  }

  /// The refusal of the first of parts `part + 1 ... parts` that `vendor` refuses, or nil when
  /// it writes them all: each payload rendered into scratch memory and dropped. A payload the
  /// template makes is one that fits (`PayloadTemplate`), so it is not rendered.
  @inline(never)
  private func laterRefusal<Vendor: PushVendor>(
    _ vendor: Vendor, _ notice: Notice, after part: Int, parts: Int, template: PayloadTemplate?
  ) -> VendorRefusal? {
    guard part < parts else { return nil }
    // Every record's payload is the template's.
    if let template, !template.writesField { return nil }
    var scratch = JSONWriter(capacity: 1 << 16)
    for later in (part + 1)...parts {
      scratch.removeAll()
      if let template, template.write(vendor, notice, part: later, into: &scratch) { continue }
      scratch.removeAll()
      var effects = RenderEffects()
      if let refusal = vendor.renderPart(
        notice, context, part: later, parts: parts, into: &scratch, &effects)
      {
        return refusal
      }
    }
    return nil
  }

  /// Ends a record whose payload is written (and remembers where it ends, for batches).
  @inline(__always)
  private func finishRecord(_ id: VendorID, _ output: inout ChunkOutput) {
    output.main.raw("}\n")
    if settings.collectRecordRefs {
      output.refs.append(
        RecordRef(end: output.main.count, line: number, vendor: UInt8(id.rawValue)))
    }
  }

  /// Rejects the current message for `vendor`: drops what the vendor wrote for it from
  /// `vendorStart` on (records of earlier parts, the refused one's head) and their record ends,
  /// counts the refusal, and writes the reject record in their place. Returns the reason. Kept
  /// out of line: refusals are rare, and the render loop stays small.
  @inline(never)
  private func refuse(
    _ refusal: VendorRefusal, vendor: VendorID, from vendorStart: Int,
    into output: inout ChunkOutput
  ) -> RejectReason {
    output.main.truncate(to: vendorStart)
    while let last = output.refs.last, last.end > vendorStart { output.refs.removeLast() }
    let reason = RejectReason(refusal.reason)
    output.stats.vendorRejects[vendor.rawValue][reason.rawValue] += 1
    if reason == .overBudget { output.stats.overBudget[vendor.rawValue] += 1 }
    output.stats.examples.vendorRejected(vendor, reason, output.source, line: number)
    output.writeReject(
      line: number, offset: 0, forVendor: vendor, reason: reason, detail: refusal.detail,
      raw: original, inline: settings.rejectsInline, framing: settings.framing)
    // The vendor is done with the message, so what the chunk holds is final: when it passes a
    // segment, it leaves for the writer now. Each reject carries the line, so a long line
    // refused by eight vendors would otherwise hold eight times itself, escaped, until the
    // chunk is done (a 14 MB line: 301 MB).
    output.handOverSegment(past: settings.segmentBytes, to: segments)
    return reason
  }
}
