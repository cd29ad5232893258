/// Turns lines into records: the per-line stage every worker runs (SPEC 2–6).
///
/// For each line: blank check → length check → UTF-8 repair (`--unicode replace`) → tokenizer
/// → message reader → notice → each selected vendor → records. Every line ends in exactly one of
/// blank / transcoded / skipped / rejected (SPEC 6.4). A processor holds reusable scratch state
/// (the tokenizer's tape, a repair buffer), so one instance belongs to one worker.
package struct LineProcessor {
  /// The options that decide what each line becomes.
  package let options: TranscodeOptions
  private var tokenizer: JSONTokenizer
  private var repaired: [UInt8] = []
  /// The selected vendors, in canonical order; rendered through `VendorID`'s switch.
  private let vendors: [VendorID]
  private let messages: MessageStage
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
  package init(options: TranscodeOptions, directory: Directory) {
    self.options = options
    self.tokenizer = JSONTokenizer(replaceLoneSurrogates: options.unicode == .replace)
    self.vendors = options.vendors
    self.messages = MessageStage(options: options, directory: directory)
  }

  /// A generous estimate of the record bytes `input` bytes of lines produce: a payload is
  /// usually smaller than its line, and each vendor writes one (validate writes only rejects).
  package func expectedOutputBytes(input: Int) -> Int {
    options.validateOnly ? 1 << 16 : input * max(1, vendors.count) / 2 + input / 2 + (1 << 16)
  }

  /// True when a selected vendor hashes lines (vivo `requestId` without a key): the caller
  /// may then pass each line's FNV-1a hash to `process`, computed in bulk.
  package var wantsLineHashes: Bool {
    !options.validateOnly && vendors.contains(.vivo)
  }

  /// Processes one line (without its terminator) into `output`. `lineHash`, when given, is
  /// `FNV1a.hash(line)`, computed by the caller.
  package mutating func process(
    line: UnsafeBufferPointer<UInt8>, number: Int, lineHash: UInt64? = nil,
    into output: inout ChunkOutput
  ) {
    self.lineHash = lineHash
    output.stats.lines += 1
    // Length first: a line too long to buffer reaches the workers as its prefix only
    // (`processOversized`), so a long line of spaces must be `line-too-long` here too, or the
    // verdict would depend on the chunk size.
    if line.count > options.maxLineBytes {
      // Safe because `line.count > maxLineBytes`, so `0 ..< maxLineBytes` lies within `line`.
      rejectLine(
        &output, number: number, offset: options.maxLineBytes, reason: .lineTooLong,
        detail:
          "line of \(line.count) bytes is longer than --max-line-bytes \(options.maxLineBytes)",
        raw: UnsafeBufferPointer(rebasing: line[0..<options.maxLineBytes]))
      return
    }
    if Self.isBlank(line) {
      output.stats.blank += 1
      return
    }
    if options.unicode == .replace, UTF8Validation.firstInvalidOffset(line) != nil {
      let replaced = UTF8Validation.replacingInvalid(line, into: &repaired)
      output.stats.unicodeReplacements += replaced
      // `repaired` is not touched again until the next line, so its buffer outlives the parse.
      repaired.withUnsafeBufferPointer { bytes in
        processValid(bytes, original: line, number: number, into: &output)
      }
    } else {
      processValid(line, original: line, number: number, into: &output)
    }
  }

  /// Where a parse fault found in `parsed` lies in the line as read, `original` (message and
  /// directory lines alike). Under `--unicode replace`, `parsed` may be a repaired copy, longer
  /// wherever a replacement is longer than the bytes it replaced, so the offset is mapped back
  /// (SPEC 6.4); and every unpaired surrogate escape of the line is counted in `replacements`,
  /// since each is replaced before parsing (SPEC 9 [2.2]), also those after the fault that the
  /// tokenizer never reached.
  static func faultOffset(
    _ error: JSONError, parsed: UnsafeBufferPointer<UInt8>, original: UnsafeBufferPointer<UInt8>,
    unicode: UnicodeMode, replacements: inout Int
  ) -> Int {
    if unicode == .replace {
      replacements += JSONEscapes.unpairedSurrogateEscapes(in: parsed)
    }
    return parsed.baseAddress == original.baseAddress
      ? error.offset
      : UTF8Validation.originalOffset(ofRepairedOffset: error.offset, in: original)
  }

  /// Accounts for a line that is too long and was never buffered whole (the reader's event).
  package mutating func processOversized(
    prefix: UnsafeBufferPointer<UInt8>, totalLength: Int, number: Int,
    into output: inout ChunkOutput
  ) {
    output.stats.lines += 1
    rejectLine(
      &output, number: number, offset: options.maxLineBytes, reason: .lineTooLong,
      detail:
        "line of \(totalLength) bytes is longer than --max-line-bytes \(options.maxLineBytes)",
      raw: prefix)
  }

  private mutating func processValid(
    _ bytes: UnsafeBufferPointer<UInt8>, original: UnsafeBufferPointer<UInt8>, number: Int,
    into output: inout ChunkOutput
  ) {
    let error =
      options.unicode == .replace
      ? tokenizer.parseValidatedUTF8(bytes) : tokenizer.parse(bytes)
    if let error {
      let offset = Self.faultOffset(
        error, parsed: bytes, original: original, unicode: options.unicode,
        replacements: &output.stats.unicodeReplacements)
      rejectLine(
        &output, number: number, offset: offset, reason: RejectReason(error.fault),
        detail: error.message, raw: original)
      return
    }
    output.stats.unicodeReplacements += tokenizer.loneSurrogates
    if options.validateOnly { return }
    tokenizer.withDocument(bytes) { document in
      transcode(document, original: original, number: number, into: &output)
    }
  }

  private mutating func transcode(
    _ document: JSONDocument, original: UnsafeBufferPointer<UInt8>, number: Int,
    into output: inout ChunkOutput
  ) {
    // Filled in place by the reader and passed on by reference (`render` does not mutate
    // `self`, so reading `notice` beside it needs no copy).
    switch messages.read(document, original: original, stats: &output.stats, into: &notice) {
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
      for id in vendors {
        switch id {
        case .apns:
          renderUsual(APNs(), notice, context, prefix, tail, number, original, &output, &line)
        case .fcm:
          renderUsual(FCM(), notice, context, prefix, tail, number, original, &output, &line)
        case .huawei:
          renderUsual(Huawei(), notice, context, prefix, tail, number, original, &output, &line)
        case .honor:
          renderUsual(Honor(), notice, context, prefix, tail, number, original, &output, &line)
        case .harmony:
          renderUsual(Harmony(), notice, context, prefix, tail, number, original, &output, &line)
        case .xiaomi:
          renderUsual(Xiaomi(), notice, context, prefix, tail, number, original, &output, &line)
        case .oppo:
          renderUsual(OPPO(), notice, context, prefix, tail, number, original, &output, &line)
        case .vivo:
          renderUsual(Vivo(), notice, context, prefix, tail, number, original, &output, &line)
        case .meizu:
          renderUsual(Meizu(), notice, context, prefix, tail, number, original, &output, &line)
        }
      }
    } else {
      for id in vendors {
        renderAnyParts(
          id, notice, context, targets: targets, number: number, original: original, &output,
          &line)
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
  private func renderUsual<Vendor: PushVendor>(
    _ vendor: Vendor, _ notice: Notice, _ context: RenderContext,
    _ prefix: UnsafeBufferPointer<UInt8>, _ tail: UnsafeBufferPointer<UInt8>, _ number: Int,
    _ original: UnsafeBufferPointer<UInt8>, _ output: inout ChunkOutput, _ line: inout LineOutcome
  ) {
    let id = vendor.id
    let start = output.main.count
    if vendor.hasRecordExtras(notice) {
      writeRecordHead(
        notice, context.document, vendor: id, part: 1, parts: 1, perRecord: 1, number: number,
        &output)
    } else {
      output.main.rawMedium(prefix)
      output.main.raw(id.staticName)
      output.main.rawMedium(tail)
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

  /// The records of `id` for a message of any number of parts (recipients beyond the vendor's
  /// per-record limit, several groups), or with TSV framing.
  private func renderAnyParts(
    _ id: VendorID, _ notice: Notice, _ context: RenderContext, targets: Int, number: Int,
    original: UnsafeBufferPointer<UInt8>, _ output: inout ChunkOutput, _ line: inout LineOutcome
  ) {
    let perRecord = notice.groups.isEmpty ? id.recipientsPerRecord : 1
    // Most messages fit one record: no division (a `div` per record was 5 % of this loop).
    let parts = targets <= perRecord ? 1 : (targets + perRecord - 1) / perRecord
    // vivo's `requestId` without a key hashes the whole line: once per message, not once per
    // record, so a split into many records stays linear in the line.
    var notice = notice
    if parts > 1 && id == .vivo && notice.key == nil && notice.line != nil {
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
        notice, context.document, vendor: id, part: part, parts: parts, perRecord: perRecord,
        number: number, &output)
      var partEffects = RenderEffects()
      let payloadStart = output.main.count
      let refusal =
        notice.groups.count > 1
        ? id.renderPayload(
          notice.forRecord(part: part), context, part: part, parts: parts,
          into: &output.main, effects: &partEffects)
        : id.renderPayload(
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
    let reason = RejectReason(name: refusal.reason) ?? .overBudget
    output.stats.vendorRejects[vendor.rawValue][reason.rawValue] += 1
    if reason == .overBudget { output.stats.overBudget[vendor.rawValue] += 1 }
    output.stats.examples.vendorRejected(vendor, reason, output.source, line: number)
    writeReject(
      &output, number: number, offset: 0, forVendor: vendor, reason: reason,
      detail: refusal.detail, raw: original)
    return reason
  }

  /// Writes a record's head up to and including `,"payload":`.
  private func writeRecordHead(
    _ notice: Notice, _ document: JSONDocument, vendor: VendorID, part: Int, parts: Int,
    perRecord: Int, number: Int, _ output: inout ChunkOutput
  ) {
    if options.framing == .tsv {
      output.main.raw(vendor.staticName)
      output.main.byte(ASCII.tab)
      output.main.raw(head.number)
      output.main.byte(ASCII.tab)
    }
    output.main.raw(head.prefix)
    output.main.raw(vendor.staticName)
    output.main.byte(ASCII.quote)
    if notice.groups.isEmpty {
      if perRecord >= notice.recipients.count {
        output.main.raw(head.recipients)
      } else {
        output.main.raw(",\"to\":[")
        let first = (part - 1) * perRecord
        let last = min(notice.recipients.count, first + perRecord)
        for index in first..<last {
          if index > first { output.main.byte(ASCII.comma) }
          output.main.string(notice.recipients[index])
        }
        output.main.byte(ASCII.closeBracket)
      }
    } else {
      output.main.raw(",\"group\":")
      output.main.string(notice.groups[part - 1])
    }
    vendor.writeRecordExtras(notice, into: &output.main)
    RecordHead.writeKeysBeforePayload(notice, document, into: &output.main)
  }

  private func rejectLine(
    _ output: inout ChunkOutput, number: Int, offset: Int, reason: RejectReason, detail: String,
    raw: UnsafeBufferPointer<UInt8>
  ) {
    output.stats.rejected[reason.rawValue] += 1
    output.stats.examples.rejected(reason, output.source, line: number)
    writeReject(
      &output, number: number, offset: offset, forVendor: nil, reason: reason, detail: detail,
      raw: raw
    )
  }

  private func writeReject(
    _ output: inout ChunkOutput, number: Int, offset: Int, forVendor: VendorID?,
    reason: RejectReason,
    detail: String, raw: UnsafeBufferPointer<UInt8>
  ) {
    if options.rejectsInline {
      if options.framing == .tsv {
        output.main.raw("reject\t")
        output.main.integer(number)
        output.main.byte(ASCII.tab)
      }
      RejectRecord.write(
        source: output.source, line: number, offset: offset, forVendor: forVendor, reason: reason,
        detail: detail, raw: raw, into: &output.main)
      output.main.byte(ASCII.newline)
    } else {
      RejectRecord.write(
        source: output.source, line: number, offset: offset, forVendor: forVendor, reason: reason,
        detail: detail, raw: raw, into: &output.rejects)
      output.rejects.byte(ASCII.newline)
    }
  }

  /// True when the line holds only JSON whitespace (SPEC 9 [2.1]).
  @inline(__always)
  static func isBlank(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
    for byte in line where !ASCII.isWhitespace(byte) { return false }
    return true
  }
}

extension Notice {
  /// The notice as one record sees it: a group record's fallback title is that group's name
  /// (an Easemob REST send to several groups names each group).
  @inline(__always)
  func forRecord(part: Int) -> Notice {
    guard part - 1 < fallbackTitles.count else { return self }
    var copy = self
    copy.fallbackTitle = fallbackTitles[part - 1]
    return copy
  }
}

/// What the vendors made of one line, added to the stats once the line is rendered: one
/// uniqueness check of each stats array per line, not one per vendor.
struct LineOutcome {
  /// Records written per vendor (VendorID has nine cases; the subscripts check it).
  var records = InlineArray<9, Int>(repeating: 0)
  var titleCuts: UInt16 = 0
  var bodyCuts: UInt16 = 0
  /// Per vendor, the `DroppedField` bits of the fields it left out (SPEC 9 [4, 6.8]).
  var dropped = InlineArray<9, UInt16>(repeating: 0)
  var anyDropped = false
  var produced = false
  /// The reason of the first vendor that refused the message, if any did.
  var firstRefusal: RejectReason? = nil

  /// `vendor` wrote `count` records, with these cuts.
  @inline(__always)
  mutating func wrote(_ count: Int, for vendor: VendorID, _ effects: RenderEffects) {
    records[vendor.rawValue] = count
    produced = true
    if effects.titleCut { titleCuts |= 1 << vendor.rawValue }
    if effects.bodyCut { bodyCuts |= 1 << vendor.rawValue }
    if effects.dropped != 0 {
      dropped[vendor.rawValue] = effects.dropped
      anyDropped = true
    }
  }

  /// Adds the line to `stats` (SPEC 6.4): its records and cuts per vendor, and the line itself
  /// as transcoded, or as rejected once under the first refusal when every vendor refused.
  func count(into stats: inout RunStats, vendors: [VendorID]) {
    if produced {
      stats.records.withUnsafeMutableBufferPointer { counts in
        if vendors.count == counts.count {
          // Every vendor: a plain loop over the counts.
          for index in counts.indices { counts[index] += records[index] }
        } else {
          for id in vendors { counts[id.rawValue] += records[id.rawValue] }
        }
      }
      stats.transcoded += 1
    } else if let firstRefusal {
      stats.rejected[firstRefusal.rawValue] += 1
    }
    if titleCuts | bodyCuts != 0 {
      Self.addOne(titleCuts, into: &stats.cutTitles)
      Self.addOne(bodyCuts, into: &stats.cutBodies)
    }
    if anyDropped {
      for vendor in 0..<9 where dropped[vendor] != 0 {
        Self.addOne(dropped[vendor], into: &stats.droppedFields[vendor])
      }
    }
  }

  /// Adds one to `counts[vendor]` for every vendor whose bit is set in `vendors`.
  private static func addOne(_ vendors: UInt16, into counts: inout [Int]) {
    guard vendors != 0 else { return }
    counts.withUnsafeMutableBufferPointer { counts in
      var bits = vendors
      while bits != 0 {
        counts[bits.trailingZeroBitCount] += 1
        bits &= bits - 1
      }
    }
  }
}

/// `{"source":…,"line":N,"key":…,"vendor":"`, the line number, and `,"to":[…]` with every
/// recipient: the same for every vendor of a line, so rendered once per line and copied.
struct RecordHead {
  private var scratch = JSONWriter(capacity: 4096)
  private var prefixEnd = 0
  private var numberEnd = 0
  private var recipientsEnd = 0
  private var hasSharedTail = false

  /// Renders the shared parts for one line (valid until the next `prepare`).
  mutating func prepare(
    _ notice: Notice, _ document: JSONDocument, source: SourceName, number: Int
  ) {
    scratch.removeAll()
    scratch.raw("{\"source\":")
    scratch.raw(source.jsonString)
    scratch.raw(",\"line\":")
    let digitsStart = scratch.count
    scratch.integer(number)
    let digitsEnd = scratch.count
    scratch.raw(",\"key\":")
    if let key = notice.key { scratch.string(key) } else { scratch.raw("null") }
    scratch.raw(",\"vendor\":\"")
    prefixEnd = scratch.count
    // The number again, for TSV framing: copied, not formatted twice.
    appendCopy(of: digitsStart..<digitsEnd)
    numberEnd = scratch.count
    scratch.raw(",\"to\":[")
    for (index, recipient) in notice.recipients.enumerated() {
      if index > 0 { scratch.byte(ASCII.comma) }
      scratch.string(recipient)
    }
    scratch.byte(ASCII.closeBracket)
    recipientsEnd = scratch.count
    // The shared tail: what follows the vendor name in every single-part record without
    // vendor extras, as `writeRecordHead` would write it. Several groups make one record each,
    // each with its own group: no shared tail.
    hasSharedTail = notice.groups.count <= 1
    guard hasSharedTail else { return }
    scratch.byte(ASCII.quote)
    if let group = notice.groups.first {
      scratch.raw(",\"group\":")
      scratch.string(group)
    } else {
      appendCopy(of: numberEnd..<recipientsEnd)
    }
    Self.writeKeysBeforePayload(notice, document, into: &scratch)
  }

  /// Appends a copy of `range` of the bytes already written to `scratch`.
  private mutating func appendCopy(of range: Range<Int>) {
    precondition(range.lowerBound >= 0 && range.upperBound <= scratch.count)
    // Safe because `reserve` makes room first (it may move the buffer, so the source is taken
    // after it), and `range` lies inside the written bytes, before the room it made.
    let target = scratch.reserve(range.count)
    target.update(from: scratch.buffer.baseAddress! + range.lowerBound, count: range.count)
    scratch.advance(by: range.count)
  }

  /// `force`, `template` and `,"payload":`, the last keys of every record head.
  static func writeKeysBeforePayload(
    _ notice: Notice, _ document: JSONDocument, into writer: inout JSONWriter
  ) {
    if notice.force { writer.raw(",\"force\":true") }
    if let template = notice.template {
      // The template is a JSON value of the line, passed through in canonical form.
      writer.raw(",\"template\":")
      writer.value(document, template)
    }
    writer.raw(",\"payload\":")
  }

  // Safe because `prepare` sets `prefixEnd <= numberEnd <= recipientsEnd <= scratch.count`, and
  // only it writes `scratch`, so these four slices lie within the written bytes.

  /// Everything before the vendor name.
  var prefix: UnsafeBufferPointer<UInt8> {
    UnsafeBufferPointer(rebasing: scratch.buffer[..<prefixEnd])
  }
  /// The line number in decimal (TSV framing).
  var number: UnsafeBufferPointer<UInt8> {
    UnsafeBufferPointer(rebasing: scratch.buffer[prefixEnd..<numberEnd])
  }
  /// `,"to":[…]` with every recipient.
  var recipients: UnsafeBufferPointer<UInt8> {
    UnsafeBufferPointer(rebasing: scratch.buffer[numberEnd..<recipientsEnd])
  }
  /// What follows the vendor name in a single-part record without vendor extras: `"`, the
  /// recipients or the group, `force`, `template` and `,"payload":`; nil with several groups.
  var sharedTail: UnsafeBufferPointer<UInt8>? {
    hasSharedTail ? UnsafeBufferPointer(rebasing: scratch.buffer[recipientsEnd...]) : nil
  }
}
