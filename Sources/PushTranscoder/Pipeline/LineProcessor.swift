/// Turns lines into records: the per-line stage every worker runs (SPEC 2–6).
///
/// For each line: the line gate (length, blank, UTF-8 repair, parse; `LineGate`) → message
/// reader → notice → each selected vendor → records, framed by `RecordHead` and `ChunkOutput`.
/// Every line ends in exactly one of blank / transcoded / skipped / rejected (SPEC 6.4). A
/// processor holds reusable scratch state (the tokenizer's tape, a repair buffer, the record
/// head), so one instance belongs to one worker: it cannot be copied.
package struct LineProcessor: ~Copyable {
  /// The options that decide what each line becomes.
  package let options: TranscodeOptions
  /// Length, blank, UTF-8 and parse checks, with the tokenizer that reads the line.
  private var gate: LineGate
  /// The selected vendors, in canonical order.
  private let vendors: [VendorID]
  /// The record writers of each selected vendor, specialised for it (`VendorRecordWriters`).
  private let writers: [VendorRecordWriters]
  /// What shapes a notice: locale, display, default title, directory.
  private let messageOptions: MessageOptions
  /// The parts of the record head every vendor of a line repeats, rendered once per line.
  private var head = RecordHead()
  /// Per-line answers shared by the vendors (reset for every line).
  private let memo = TextMemo()
  private var canonicalizer = NoticeCanonicalizer()
  /// The current line's hash when the caller computed it.
  private var lineHash: UInt64? = nil
  /// The notice the message reader fills, line after line (`Notice.recycle` keeps its arrays'
  /// storage). Its slices point into the current line only while that line is processed.
  private var notice = Notice(
    dialect: .tencent, body: [], untitledBody: [], fallbackTitle: StringSlice(""), lineHash: 0)

  /// A processor for one worker, with names looked up in `directory`.
  package init(options: TranscodeOptions, directory: NameDirectory) {
    self.options = options
    self.gate = LineGate(maxLineBytes: options.maxLineBytes, unicode: options.unicode)
    self.vendors = options.vendors
    self.writers = options.vendors.map { $0.visit(VendorRecordWriters.Make()) }
    self.messageOptions = MessageOptions(
      locale: options.locale, display: options.display, defaultTitle: options.defaultTitle,
      directory: directory)
  }

  /// A generous estimate of the record bytes `input` bytes of lines produce: a payload is
  /// usually smaller than its line, and each vendor writes one (validate writes only rejects).
  package func expectedOutputBytes(input: Int) -> Int {
    options.validateOnly ? 1 << 16 : input * max(1, vendors.count) / 2 + input / 2 + (1 << 16)
  }

  /// True when a selected vendor reads line hashes (`PushVendor.hashesLines`): the caller may
  /// then pass each line's FNV-1a hash to `process`, computed in bulk.
  package var wantsLineHashes: Bool {
    !options.validateOnly && vendors.contains(where: \.hashesLines)
  }

  /// Processes one line (without its terminator) into `output`. `lineHash`, when given, is
  /// `FNV1a.hash(line)`, computed by the caller.
  package mutating func process(
    line: UnsafeBufferPointer<UInt8>, number: Int, lineHash: UInt64? = nil,
    into output: inout ChunkOutput
  ) {
    self.lineHash = lineHash
    output.stats.lines += 1
    let verdict = gate.check(line)
    output.stats.unicodeReplacements += gate.replacements
    switch verdict {
    case .blank:
      output.stats.blank += 1
    case .rejected(let fault):
      rejectLine(&output, number: number, fault)
    case .parsed:
      if options.validateOnly { return }
      gate.withDocument(of: line) { document in
        transcode(document, original: line, number: number, into: &output)
      }
    }
  }

  /// Accounts for a line that is too long and was never buffered whole (the reader's event).
  package mutating func processOversized(
    prefix: UnsafeBufferPointer<UInt8>, totalLength: Int, number: Int,
    into output: inout ChunkOutput
  ) {
    output.stats.lines += 1
    rejectLine(&output, number: number, gate.oversized(prefix: prefix, totalLength: totalLength))
  }

  private mutating func transcode(
    _ document: JSONDocument, original: UnsafeBufferPointer<UInt8>, number: Int,
    into output: inout ChunkOutput
  ) {
    // Filled in place by the reader and passed on by reference (`render` does not mutate
    // `self`, so reading `notice` beside it needs no copy).
    var counters = MessageStats()
    let result = MessageReader.read(
      document, line: original, options: messageOptions, stats: &counters, into: &notice)
    output.stats.unknownElements += counters.unknownElements
    output.stats.descExtOver3KB += counters.descExtOver3KB
    switch result {
    case .skip(let reason):
      output.stats.skipped[reason.index] += 1
      output.stats.examples.skipped(reason, output.source, line: number)
    case .reject(_, let detail):
      rejectLine(
        &output, number: number, offset: 0, reason: .notAMessage, detail: detail, raw: original)
    case .notice:
      if let lineHash { notice.lineHash = lineHash }
      // With several vendors, resolve escapes once instead of once per vendor.
      if vendors.count > 1 { canonicalizer.prepare(&notice) }
      head.prepare(notice, document, source: output.source, number: number)
      render(notice, document: document, original: original, number: number, into: &output)
    }
  }

  /// Writes every selected vendor's records for one notice (SPEC 6.1, 6.4, 9 [6]).
  /// `head` must be prepared for this notice.
  private func render(
    _ notice: Notice, document: JSONDocument, original: UnsafeBufferPointer<UInt8>, number: Int,
    into output: inout ChunkOutput
  ) {
    memo.reset()
    let context = RenderContext(document: document, memo: memo)
    var line = LineOutcome()
    let targets = notice.groups.isEmpty ? notice.recipients.count : notice.groups.count
    if targets <= 1, options.framing != .tsv, let tail = head.sharedTail {
      // The usual message: one recipient or one group, so one record per vendor, whose head is
      // the line's prefix, the vendor's name and the line's tail. Each vendor's record is
      // rendered by code specialised for it: its name and limits are constants, and its
      // renderer is called directly.
      let prefix = head.prefix
      // By index: only the writer called is read, not the whole entry.
      for index in writers.indices {
        writers[index].usual(self, notice, context, prefix, tail, number, original, &output, &line)
      }
    } else {
      for index in writers.indices {
        writers[index].general(self, notice, context, targets, number, original, &output, &line)
      }
    }
    line.count(into: &output.stats, vendors: vendors)
    if !line.produced, let reason = line.firstRefusal {
      output.stats.examples.rejected(reason, output.source, line: number)
    }
  }

  /// The record of `vendor` for the usual message (see `render`): the head from the line's
  /// shared parts (or `writeRecordHead` when the vendor writes extras around the payload), the
  /// payload, and the record's end; or, when the vendor refuses, its reject.
  @inline(__always)
  fileprivate func renderUsual<Vendor: PushVendor>(
    _ vendor: Vendor, _ notice: Notice, _ context: RenderContext,
    _ prefix: UnsafeBufferPointer<UInt8>, _ tail: UnsafeBufferPointer<UInt8>, _ number: Int,
    _ original: UnsafeBufferPointer<UInt8>, _ output: inout ChunkOutput, _ line: inout LineOutcome
  ) {
    let id = Vendor.id
    let start = output.main.count
    if vendor.hasRecordExtras(notice) {
      writeRecordHead(
        notice, context.document, vendor: vendor, part: 1, parts: 1, perRecord: 1,
        number: number, &output)
    } else {
      output.main.rawHeadPart(prefix)
      output.main.raw(Vendor.name)
      output.main.rawHeadPart(tail)
    }
    var effects = RenderEffects()
    let payloadStart = output.main.count
    if let refusal = vendor.renderPayload(
      notice, context, part: 1, parts: 1, into: &output.main, effects: &effects)
    {
      let reason = refuse(
        refusal, vendor: id, number: number, from: start, original: original, into: &output)
      if line.firstRefusal == nil { line.firstRefusal = reason }
      return
    }
    output.stats.countPayload(id, bytes: output.main.count - payloadStart)
    finishRecord(id, number: number, &output)
    line.wrote(1, for: id, effects)
  }

  /// The records of `vendor` in the general case: a message of any number of parts (recipients
  /// beyond the vendor's per-record limit, several groups), or TSV framing.
  fileprivate func renderGeneral<Vendor: PushVendor>(
    _ vendor: Vendor, _ notice: Notice, _ context: RenderContext, targets: Int, number: Int,
    original: UnsafeBufferPointer<UInt8>, _ output: inout ChunkOutput, _ line: inout LineOutcome
  ) {
    let id = Vendor.id
    let perRecord = notice.groups.isEmpty ? Vendor.limits.recipientsPerRecord : 1
    // Most messages fit one record: no division (integer division is the loop's costliest
    // instruction).
    let parts = targets <= perRecord ? 1 : (targets + perRecord - 1) / perRecord
    // A vendor that reads the line's hash (when the message has no key) hashes the whole line:
    // once per message, not once per record, so a split into many records stays linear in the
    // line.
    var notice = notice
    if parts > 1 && Vendor.hashesLines && notice.key == nil && notice.line != nil {
      notice.lineHash = notice.lineHash
    }
    // A split message's records can differ in size (Easemob apns `t`, a title per group), so
    // one of them may not fit where the others do. The message is then rejected for that
    // vendor (SPEC 5 step 3): none of the vendor's records go out, and its one reject goes
    // where its first record would have been (9 [6]), whatever the order of the recipients.
    let vendorStart = output.main.count
    var effects = RenderEffects()
    // Payload sizes are counted once every part is written: a refused part drops them all.
    var firstSize = 0
    var laterSizes: [Int] = []
    for part in 1...parts {
      writeRecordHead(
        notice, context.document, vendor: vendor, part: part, parts: parts,
        perRecord: perRecord, number: number, &output)
      var partEffects = RenderEffects()
      let payloadStart = output.main.count
      let refusal =
        notice.groups.count > 1
        ? vendor.renderPayload(
          notice.forRecord(part: part), context, part: part, parts: parts,
          into: &output.main, effects: &partEffects)
        : vendor.renderPayload(
          notice, context, part: part, parts: parts, into: &output.main, effects: &partEffects)
      if let refusal {
        let reason = refuse(
          refusal, vendor: id, number: number, from: vendorStart, original: original,
          into: &output)
        if line.firstRefusal == nil { line.firstRefusal = reason }
        return
      }
      effects.titleCut = effects.titleCut || partEffects.titleCut
      effects.bodyCut = effects.bodyCut || partEffects.bodyCut
      effects.dropped |= partEffects.dropped
      if part == 1 {
        firstSize = output.main.count - payloadStart
      } else {
        laterSizes.append(output.main.count - payloadStart)
      }
      finishRecord(id, number: number, &output)
    }
    output.stats.countPayload(id, bytes: firstSize)
    for size in laterSizes { output.stats.countPayload(id, bytes: size) }
    line.wrote(parts, for: id, effects)
  }

  /// Ends a record whose payload is written (and remembers where it ends, for batches).
  @inline(__always)
  private func finishRecord(_ id: VendorID, number: Int, _ output: inout ChunkOutput) {
    output.main.raw("}\n")
    if options.collectRecordRefs {
      output.refs.append(
        RecordRef(vendor: UInt8(id.rawValue), end: UInt32(output.main.count), line: UInt32(number)))
    }
  }

  /// Rejects the current message for `vendor`: drops what the vendor wrote for it from
  /// `vendorStart` on (records of earlier parts, the refused one's head) and their record ends,
  /// counts the refusal, and writes the reject record in their place. Returns the reason. Kept
  /// out of line: refusals are rare, and the render loop stays small.
  @inline(never)
  private func refuse(
    _ refusal: VendorRefusal, vendor: VendorID, number: Int, from vendorStart: Int,
    original: UnsafeBufferPointer<UInt8>, into output: inout ChunkOutput
  ) -> RejectReason {
    output.main.truncate(to: vendorStart)
    while let last = output.refs.last, Int(last.end) > vendorStart { output.refs.removeLast() }
    let reason = RejectReason(refusal.reason)
    output.stats.vendorRejects[vendor.rawValue][reason.rawValue] += 1
    if reason == .overBudget { output.stats.overBudget[vendor.rawValue] += 1 }
    output.stats.examples.vendorRejected(vendor, reason, output.source, line: number)
    output.writeReject(
      line: number, offset: 0, forVendor: vendor, reason: reason, detail: refusal.detail,
      raw: original, inline: options.rejectsInline, framing: options.framing)
    return reason
  }

  /// Writes a record's head up to and including `,"payload":` (see `RecordHead.write`).
  private func writeRecordHead<Vendor: PushVendor>(
    _ notice: Notice, _ document: JSONDocument, vendor: Vendor, part: Int, parts: Int,
    perRecord: Int, number: Int, _ output: inout ChunkOutput
  ) {
    head.write(
      notice, document, vendor: vendor, part: part, perRecord: perRecord,
      framing: options.framing, into: &output.main)
  }

  /// Rejects the whole line for the gate's `fault`.
  private func rejectLine(_ output: inout ChunkOutput, number: Int, _ fault: LineFault) {
    rejectLine(
      &output, number: number, offset: fault.offset, reason: RejectReason(fault.kind),
      detail: fault.detail, raw: fault.raw)
  }

  /// Rejects the whole line, counted once in the line's stats.
  private func rejectLine(
    _ output: inout ChunkOutput, number: Int, offset: Int, reason: RejectReason, detail: String,
    raw: UnsafeBufferPointer<UInt8>
  ) {
    output.stats.rejected[reason.rawValue] += 1
    output.stats.examples.rejected(reason, output.source, line: number)
    output.writeReject(
      line: number, offset: offset, forVendor: nil, reason: reason, detail: detail, raw: raw,
      inline: options.rejectsInline, framing: options.framing)
  }
}

/// One vendor's record writers, made once per processor through `VendorID.visit`: each is
/// `renderUsual` or `renderGeneral` specialised for the vendor's type, so its name and limits
/// are constants and its renderer is called directly.
private struct VendorRecordWriters {
  typealias Usual = (
    borrowing LineProcessor, Notice, RenderContext, UnsafeBufferPointer<UInt8>,
    UnsafeBufferPointer<UInt8>, Int, UnsafeBufferPointer<UInt8>, inout ChunkOutput,
    inout LineOutcome
  ) -> Void
  typealias General = (
    borrowing LineProcessor, Notice, RenderContext, Int, Int, UnsafeBufferPointer<UInt8>,
    inout ChunkOutput, inout LineOutcome
  ) -> Void

  /// The record of the usual message (`LineProcessor.renderUsual`).
  let usual: Usual
  /// The records of a message of any number of parts (`LineProcessor.renderGeneral`).
  let general: General

  /// Makes the writers of the visited vendor.
  struct Make: VendorVisitor {
    func visit<Vendor: PushVendor>(_ vendor: Vendor) -> VendorRecordWriters {
      VendorRecordWriters(
        usual: { processor, notice, context, prefix, tail, number, original, output, line in
          processor.renderUsual(
            Vendor(), notice, context, prefix, tail, number, original, &output, &line)
        },
        general: { processor, notice, context, targets, number, original, output, line in
          processor.renderGeneral(
            Vendor(), notice, context, targets: targets, number: number, original: original,
            &output, &line)
        })
    }
  }
}
