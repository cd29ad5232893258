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
  /// What the record writers read of `options`.
  private let settings: LineRecords.Settings
  /// What shapes a notice: locale, display, default title, directory.
  private let messageOptions: MessageOptions
  /// The parts of the record head every vendor of a line repeats, rendered once per line.
  private var head = RecordHead()
  /// Per-line answers shared by the vendors (reset for every line).
  private let memo = TextMemo()
  private var canonicalizer = NoticeCanonicalizer()
  /// The per-line memo, for tests that check what it answered once.
  package var lineMemo: TextMemo { memo }
  /// The notices whose escapes were resolved once for all their records (tests).
  package var canonicalizedNotices: Int { canonicalizer.preparedNotices }
  /// The current line's hash when the caller computed it.
  private var lineHash: UInt64? = nil
  /// The notices read so far that have no key: those whose vivo `requestId` is the line's hash
  /// (SPEC 9 [4]), counted only when `wantsLineHashes`. The worker reads it to decide whether to
  /// hash lines ahead.
  package private(set) var keylessNotices = 0
  /// The notice the message reader fills, line after line (`Notice.recycle` keeps its arrays'
  /// storage). Its slices point into the current line only while that line is processed.
  private var notice = Notice(
    dialect: .tencent, body: [], untitledBody: [], fallbackTitle: StringSlice(""), lineHash: 0)

  /// Where a chunk's records go before the chunk is done when a line makes more than
  /// `options.segmentBytes` of them (a pipeline run's writer); nil keeps them all.
  private let segments: (any OutputSegments)?

  /// A processor for one worker, with names looked up in `directory`; `segments`, when given,
  /// takes a chunk's records in segments (see `OutputSegments`).
  package init(
    options: TranscodeOptions, directory: NameDirectory, segments: (any OutputSegments)? = nil
  ) {
    self.options = options
    self.segments = segments
    self.gate = LineGate(maxLineBytes: options.maxLineBytes, unicode: options.unicode)
    self.vendors = options.vendors
    self.settings = LineRecords.Settings(
      framing: options.framing, rejectsInline: options.rejectsInline,
      collectRecordRefs: options.collectRecordRefs, segmentBytes: options.segmentBytes)
    self.messageOptions = MessageOptions(
      locale: options.locale, display: options.display, defaultTitle: options.defaultTitle,
      directory: directory)
    self.wantsLineHashes = !options.validateOnly && options.vendors.contains(where: \.hashesLines)
  }

  /// A generous estimate of the record bytes `input` bytes of lines produce: a payload is
  /// usually smaller than its line, and each vendor writes one (validate writes only rejects).
  package func expectedOutputBytes(input: Int) -> Int {
    options.validateOnly ? 1 << 16 : input * max(1, vendors.count) / 2 + input / 2 + (1 << 16)
  }

  /// True when a selected vendor reads line hashes (`PushVendor.hashesLines`): the caller may
  /// then pass each line's FNV-1a hash to `process`, computed in bulk.
  package let wantsLineHashes: Bool

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
      if let document = gate.document(of: line) {
        transcode(document, original: line, number: number, into: &output)
      } else {
        gate.withDocument(of: line) { document in
          transcode(document, original: line, number: number, into: &output)
        }
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
    // Filled in place by the reader (`inout`), then read once, as `writeRecords`'s parameter:
    // the one copy of the notice per line (docs/DECISIONS.md [issue 25, copies]).
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
      // Safe because a count of lines cannot reach 2^63: no wrap.
      if wantsLineHashes && Notice.present(notice.key) == nil { keylessNotices &+= 1 }
      if let lineHash { notice.lineHash = lineHash }
      // With several vendors, or several records (a send to many recipients or groups),
      // resolve escapes once instead of once per vendor and record: a vendor writes the same
      // body in each record, and an escaped one was re-escaped whole each time.
      if vendors.count > 1 || notice.recipients.count > 1 || notice.groups.count > 1 {
        canonicalizer.prepare(&notice)
      }
      writeRecords(notice, document: document, original: original, number: number, into: &output)
    }
  }

  /// Writes every selected vendor's records for one notice (SPEC 6.1, 6.4, 9 [6]).
  ///
  /// The notice comes in as a parameter, read from `self.notice` once: a struct this large
  /// (some 850 bytes) is copied wherever it is passed on from a stored property or to a
  /// closure, while a parameter is passed on by reference. So the vendors are visited through
  /// `VendorID.visit(_:_:_:)`, whose switch passes the notice on as a parameter, not
  /// through closures, to `LineRecords`, which is given what it reads of the processor (a
  /// call of a method of `self` from this mutating method would copy the whole processor, some
  /// 1,250 bytes, per vendor).
  private mutating func writeRecords(
    _ notice: Notice, document: JSONDocument, original: UnsafeBufferPointer<UInt8>, number: Int,
    into output: inout ChunkOutput
  ) {
    head.prepare(notice, document, source: output.source, number: number)
    memo.reset()
    let context = RenderContext(document: document, memo: memo)
    let targets = notice.groups.isEmpty ? notice.recipients.count : notice.groups.count
    let records = LineRecords(
      context: context, head: head.parts, settings: settings, segments: segments,
      targets: targets, number: number, original: original,
      usual: targets <= 1)
    // Each vendor's records are written by code specialised for it: its name and limits are
    // constants, and its renderer is called directly.
    let vendors = self.vendors
    // Safe because the pointer is used only inside the closure, for the visits, and nothing
    // else reaches `output` meanwhile.
    let line = withUnsafeMutablePointer(to: &output) { output in
      var state = LineRecords.State(output: output)
      for vendor in vendors { vendor.visit(records, notice, &state) }
      return state.line
    }
    line.count(into: &output.stats, vendors: vendors)
    if !line.produced, let reason = line.firstRefusal {
      output.stats.examples.rejected(reason, output.source, line: number)
    }
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
    // A rejected line writes nothing else, so what the chunk holds is final: when it passes a
    // segment, it leaves for the writer now, as after a vendor's reject (`LineRecords`). A
    // chunk of rejected lines makes rejects far larger than itself (each carries its line and
    // a detail: 64 times for lines of `{}`), which a worker would otherwise hold until the
    // chunk is done, several chunks at once at several threads.
    output.handOverSegment(past: options.segmentBytes, to: segments)
  }
}
