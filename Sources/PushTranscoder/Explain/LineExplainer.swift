import Glibc

/// What one input line became and why (`push-transcode explain`): the facts the pipeline
/// computes for the line, and the records it writes for it.
///
/// The records come from the pipeline's own `LineProcessor` (the code `transcode` runs), so they
/// are byte-identical to the command's for that line. The facts around them come from the same
/// functions the processor calls (`LineGate`, `MessageReader`, each vendor's `renderPayload`),
/// called once more for this line: no rule is implemented twice.
package struct LineExplanation {
  /// What happened to the line as a whole.
  package enum Outcome {
    /// Empty or whitespace only.
    case blank
    /// The line gate or the message reader rejected the line; `offset` is the fault's byte.
    case rejected(reason: String, detail: String, offset: Int)
    /// The message asks for no push.
    case skipped(reason: String)
    /// A notice was read; see the vendors for what each one made of it.
    case notice
  }

  /// One selected vendor's view of the notice. A message that splits into several records is
  /// rendered whole, as `transcode` renders it: the payload and its size are the first
  /// record's, the cut flags and the fields left out those of any record, and the refusal that
  /// of the first record the vendor refuses (which drops all of them).
  package struct Vendor {
    /// The vendor's id.
    package var name: String
    /// The payload's canonical bytes (first record), nil when refused.
    package var payloadBytes: Int?
    /// The whole-payload byte budget, nil for the capped vendors.
    package var budget: Int?
    /// The title cap in Unicode scalars, nil for the budgeted vendors.
    package var titleCap: Int?
    /// The body cap in Unicode scalars, nil for the budgeted vendors.
    package var bodyCap: Int?
    /// The title was cut to its cap (in any record).
    package var titleCut = false
    /// The body was cut, to its cap or to fit the budget (in any record).
    package var bodyCut = false
    /// The payload keys whose values the vendor does not accept, left out (SPEC 9 [4, 6.8]; the
    /// stats' `dropped_fields`).
    package var droppedFields: [String] = []
    /// The refusal's reason and detail.
    package var refusal: (reason: String, detail: String)?
    /// The payload JSON of the first record, when not refused.
    package var payload: String?
    /// A capped vendor's title and body before and after its caps (`Notice.cappedTexts`, the
    /// function the vendor calls); nil for the budgeted vendors.
    package var capped: (title: String, cutTitle: String, body: String, cutBody: String)?
  }

  /// The line's number (1-based) in its input.
  package var number: Int
  /// The line's bytes as read (for an over-long line, the prefix that was kept).
  package var bytes: [UInt8]
  /// What happened to the line.
  package var outcome: Outcome = .blank
  /// `tencent` or `easemob`, for a line read as a message.
  package var dialect: String?
  /// The message key.
  package var key: String?
  /// Recipients (C2C).
  package var recipients: [String] = []
  /// Groups.
  package var groups: [String] = []
  /// The push text's parts in order (each element's contribution).
  package var bodyParts: [String] = []
  /// The push text's parts when the payload has no title (with the display prefix or banner).
  package var untitledParts: [String] = []
  /// The explicit title, if the message gives one.
  package var title: String?
  /// The title of the vendors that require one when the message gives none.
  package var fallbackTitle: String = ""
  /// The ext text (string ext) or `(JSON value)`.
  package var ext: String?
  /// The sound.
  package var sound: String?
  /// Badge set / add lexemes.
  package var badgeSet: String?
  /// Badge add lexeme.
  package var badgeAdd: String?
  /// `"force":true` reaches the record.
  package var force = false
  /// The other fields that reach payloads or records, as `name=value`, in notice order.
  package var otherFields: [String] = []
  /// Scalars of the title (explicit or fallback) and of the push text, as caps count them.
  package var titleScalars = 0
  /// Scalars of the push text.
  package var bodyScalars = 0
  /// Per selected vendor, in canonical order.
  package var vendors: [Vendor] = []
  /// The refusal the line is counted under when every selected vendor refused the message (the
  /// first vendor's, as the stats count it): the line then has no payload record and counts as
  /// rejected, not transcoded.
  package var refusedByEveryVendor: (reason: String, detail: String)? {
    guard !vendors.isEmpty, vendors.allSatisfy({ $0.refusal != nil }) else { return nil }
    return vendors[0].refusal
  }
  /// The records `transcode -o -` writes for the line, each without its newline.
  package var records: [[UInt8]] = []
}

/// Bad usage of `explain` (exit 64) or a fatal input error.
package struct ExplainError: Error, CustomStringConvertible {
  /// One line for a person.
  package var description: String
  /// True for bad usage (no such line, a directory as input), false for an input error.
  package var isUsage: Bool
}

/// The order `LineExplainer` delivers explanations in: that of the lines asked for (repeats
/// included), whatever the order the input holds them in. A line is explained when its turn
/// comes; one found before its turn is held until then as its bytes (a few hundred bytes
/// where its explanation takes tens of kilobytes), and dropped once no later turn asks for it.
struct ExplanationTurns {
  /// A line asked for, as read.
  struct Line {
    /// The line's number (1-based) in its input.
    var number: Int
    /// The line's bytes, or for an over-long line the prefix that was kept.
    var bytes: [UInt8]
    /// The input's name, as records name it.
    var source: String
    /// An over-long line's whole length (nil for a line read whole).
    var oversizedLength: Int? = nil
  }

  /// The line numbers asked for, in order.
  private let lines: [Int]
  /// The index in `lines` of the next turn.
  private var turn = 0
  /// Per line number asked for, how many turns from `turn` on ask for it.
  private var remaining: [Int: Int] = [:]
  /// The lines found before their turn, by number.
  private var held: [Int: Line] = [:]
  /// Set when the caller asked to stop.
  private var stopped = false

  init(_ lines: [Int]) {
    self.lines = lines
    for number in lines { remaining[number, default: 0] += 1 }
  }

  /// True when every turn was taken, or the caller stopped.
  var isDone: Bool { stopped || turn == lines.count }

  /// The line the next turn asks for, when one is left and the caller did not stop.
  var next: Int? { isDone ? nil : lines[turn] }

  /// Whether a turn still to come asks for line `number`.
  func wants(_ number: Int) -> Bool { remaining[number] != nil }

  /// Takes a line asked for and calls `take` for every turn it completes, in order, until
  /// `take` returns false (stop).
  mutating func found(_ line: Line, take: (Line) -> Bool) {
    held[line.number] = line
    while !stopped, turn < lines.count, let ready = held[lines[turn]] {
      let number = lines[turn]
      turn += 1
      let left = remaining[number, default: 1] - 1
      if left > 0 {
        remaining[number] = left
      } else {
        remaining[number] = nil
        held[number] = nil
      }
      stopped = !take(ready)
    }
  }
}

/// Finds lines of one input and explains them (see `LineExplanation`).
package enum LineExplainer {
  /// Explains `lines` (1-based numbers) of `input` (a path or `-`), with `directories` loaded as
  /// the run loads them, handing each explanation to `deliver` in the order of `lines` as soon
  /// as its turn comes: for lines asked in ascending order, as soon as the line is read (a live
  /// feed shows each one when it arrives). Memory holds one explanation at a time, however many
  /// lines are asked for and in whatever order: a line found before its turn is held as its
  /// bytes and explained when its turn comes. `deliver` returns false to stop (a closed
  /// output).
  ///
  /// Throws `ExplainError` for a directory as input, an input error, or, once the input ends,
  /// for the first line in `lines` that it does not have; the explanations before it have been
  /// delivered by then.
  package static func explain(
    input: String, lines: [Int], options: TranscodeOptions, directories: [String],
    deliver: (LineExplanation) -> Bool
  ) throws(ExplainError) {
    var status = stat()
    if input != "-", stat(input, &status) == 0, status.st_mode & S_IFMT == S_IFDIR {
      throw ExplainError(description: "\(input) is a directory, not an input file", isUsage: true)
    }
    var options = options
    options.rejectsInline = true
    options.framing = .ndjson
    options.validateOnly = false
    options.collectRecordRefs = false
    var directory = NameDirectory()
    var directoryOutput = ChunkOutput(sequence: -1, source: SourceName("-"))
    do {
      try DirectoryLoader.load(
        paths: directories, into: &directory, options: options,
        chunkBytes: ChunkReader.defaultChunkBytes, output: &directoryOutput)
    } catch {
      throw ExplainError(description: "\(error)", isUsage: false)
    }
    var turns = ExplanationTurns(lines)
    var processor = LineProcessor(options: options, directory: directory)
    let messageOptions = MessageOptions(
      locale: options.locale, display: options.display, defaultTitle: options.defaultTitle,
      directory: directory)
    /// The explanation of a line, with the records the line processor writes for it.
    func explanation(of line: ExplanationTurns.Line) -> LineExplanation {
      var output = ChunkOutput(sequence: 0, source: SourceName(line.source))
      return line.bytes.withUnsafeBufferPointer { bytes in
        var explanation: LineExplanation
        if let length = line.oversizedLength {
          processor.processOversized(
            prefix: bytes, totalLength: length, number: line.number, into: &output)
          let gate = LineGate(maxLineBytes: options.maxLineBytes, unicode: options.unicode)
          let fault = gate.oversized(prefix: bytes, totalLength: length)
          explanation = LineExplanation(number: line.number, bytes: line.bytes)
          explanation.outcome = .rejected(
            reason: RejectReason(fault.kind).name, detail: fault.detail, offset: fault.offset)
        } else {
          processor.process(line: bytes, number: line.number, into: &output)
          explanation = describe(
            bytes, bytes: line.bytes, number: line.number, options: options, messageOptions)
        }
        explanation.records = records(output)
        return explanation
      }
    }
    let reader = ChunkReader(paths: [input], maxLineBytes: options.maxLineBytes)
    do {
      while !turns.isDone, let event = try reader.next() {
        switch event {
        case .chunk(let chunk):
          chunk.forEachLine { bytes, number in
            guard !turns.isDone, turns.wants(number) else { return }
            let line = ExplanationTurns.Line(
              number: number, bytes: Array(bytes), source: chunk.source)
            turns.found(line) { deliver(explanation(of: $0)) }
          }
        case .overlongLine(let overlong):
          guard turns.wants(overlong.lineNumber) else { continue }
          let line = ExplanationTurns.Line(
            number: overlong.lineNumber, bytes: Array(overlong.prefix), source: overlong.source,
            oversizedLength: overlong.length)
          turns.found(line) { deliver(explanation(of: $0)) }
        }
      }
    } catch {
      throw ExplainError(description: "\(error)", isUsage: false)
    }
    if let missing = turns.next {
      throw ExplainError(description: "\(input) has no line \(missing)", isUsage: true)
    }
  }

  /// The records in `output`, split at their newlines (a record's strings escape newlines).
  private static func records(_ output: borrowing ChunkOutput) -> [[UInt8]] {
    output.main.buffer.split(separator: ASCII.newline, omittingEmptySubsequences: true).map(
      Array.init)
  }

  /// The facts of one line, from the functions the line processor calls.
  /// `line` is `bytes` (the copy the explanation keeps), read in place.
  private static func describe(
    _ line: UnsafeBufferPointer<UInt8>, bytes: [UInt8], number: Int, options: TranscodeOptions,
    _ messageOptions: MessageOptions
  ) -> LineExplanation {
    var explanation = LineExplanation(number: number, bytes: bytes)
    var gate = LineGate(maxLineBytes: options.maxLineBytes, unicode: options.unicode)
    switch gate.check(line) {
    case .blank:
      explanation.outcome = .blank
    case .rejected(let fault):
      explanation.outcome = .rejected(
        reason: RejectReason(fault.kind).name, detail: fault.detail, offset: fault.offset)
    case .parsed:
      gate.withDocument(of: line) { document in
        var counters = MessageStats()
        switch MessageReader.read(
          document, line: line, options: messageOptions, stats: &counters)
        {
        case .skip(let reason):
          explanation.outcome = .skipped(reason: reason.name)
        case .reject(_, let detail):
          explanation.outcome = .rejected(
            reason: RejectReason.notAMessage.name, detail: detail, offset: 0)
        case .notice(let notice):
          explanation.outcome = .notice
          describe(notice, document: document, options: options, into: &explanation)
        }
      }
    }
    return explanation
  }

  /// The notice's fields and each selected vendor's payload for it.
  private static func describe(
    _ notice: Notice, document: JSONDocument, options: TranscodeOptions,
    into explanation: inout LineExplanation
  ) {
    explanation.dialect = notice.dialect == .tencent ? "tencent" : "easemob"
    explanation.key = notice.key?.decodedString()
    explanation.recipients = notice.recipients.map { $0.decodedString() }
    explanation.groups = notice.groups.map { $0.decodedString() }
    explanation.bodyParts = notice.body.map { $0.decodedString() }
    explanation.untitledParts = notice.untitledBody.map { $0.decodedString() }
    explanation.title = notice.title?.decodedString()
    explanation.fallbackTitle = notice.fallbackTitle.decodedString()
    switch notice.ext {
    case .string(let text): explanation.ext = text.decodedString()
    case .json: explanation.ext = "(a JSON value)"
    case nil: break
    }
    explanation.sound = notice.sound?.decodedString()
    explanation.badgeSet = notice.badgeSet.map { String(decoding: $0, as: UTF8.self) }
    explanation.badgeAdd = notice.badgeAdd.map { String(decoding: $0, as: UTF8.self) }
    explanation.force = notice.force
    explanation.otherFields = otherFields(notice)
    explanation.titleScalars = ScalarCount.of(notice.title ?? notice.fallbackTitle)
    explanation.bodyScalars = notice.body.reduce(0) { $0 + ScalarCount.of($1) }
    let context = RenderContext(document: document)
    for id in options.vendors {
      explanation.vendors.append(id.visit(VendorProbe(notice: notice, context: context)))
    }
  }

  /// The notice's vendor-specific and record-level fields that are set, as `name=value`.
  private static func otherFields(_ notice: Notice) -> [String] {
    var fields: [String] = []
    func add(_ name: String, _ slice: StringSlice?) {
      if let slice { fields.append("\(name)=\(slice.decodedString())") }
    }
    func add(_ name: String, _ lexeme: UnsafeBufferPointer<UInt8>?) {
      if let lexeme { fields.append("\(name)=\(String(decoding: lexeme, as: UTF8.self))") }
    }
    add("sender", notice.sender)
    add("apns.title", notice.apns.title)
    add("apns.subtitle", notice.apns.subtitle)
    add("apns.image", notice.apns.image)
    add("apns.category", notice.apns.category)
    add("apns.interruption_level", notice.apns.interruptionLevel)
    if notice.apns.mutableContent { fields.append("apns.mutable_content=1") }
    if notice.apns.contentAvailable { fields.append("apns.content_available=1") }
    if notice.apns.voip { fields.append("apns.voip=1") }
    if let activity = notice.apns.liveActivity {
      fields.append("apns.live_activity=\(activity.id.decodedString())")
      add("apns.live_activity.event", activity.event)
    }
    add("android.huawei_channel_id", notice.android.huaweiChannelID)
    add("android.huawei_category", notice.android.huaweiCategory)
    add("android.huawei_importance", notice.android.huaweiImportance)
    add("android.huawei_image", notice.android.huaweiImage)
    add("android.honor_importance", notice.android.honorImportance)
    add("android.honor_image", notice.android.honorImage)
    add("android.google_image", notice.android.googleImage)
    add("android.google_priority", notice.android.googlePriority)
    add("android.google_channel_id", notice.android.googleChannelID)
    add("android.xiaomi_channel_id", notice.android.xiaomiChannelID)
    add("android.oppo_channel_id", notice.android.oppoChannelID)
    add("android.oppo_category", notice.android.oppoCategory)
    add("android.vivo_category", notice.android.vivoCategory)
    add("android.oppo_notify_level", notice.android.oppoNotifyLevel)
    add("android.vivo_classification", notice.android.vivoClassification)
    add("android.vivo_notify_type", notice.android.vivoNotifyType)
    add("android.meizu_notice_msg_type", notice.android.meizuNoticeMsgType)
    if notice.template != nil { fields.append("template=(a JSON object)") }
    return fields
  }

  /// Renders the first record's payload of the visited vendor, as the pipeline does.
  private struct VendorProbe: VendorVisitor {
    var notice: Notice
    var context: RenderContext

    func visit<Vendor: PushVendor>(_ vendor: Vendor) -> LineExplanation.Vendor {
      let limits = Vendor.limits
      let parts = notice.recordCount(recipientsPerRecord: limits.recipientsPerRecord)
      let budget =
        notice.apns.voip ? limits.voipPayloadBytes ?? limits.payloadBytes : limits.payloadBytes
      var result = LineExplanation.Vendor(
        name: String(describing: Vendor.name), budget: budget,
        titleCap: limits.titleScalars, bodyCap: limits.bodyScalars)
      var writer = JSONWriter(capacity: 1 << 12)
      var effects = RenderEffects()
      // Every record, as `LineRecords.writeParts` renders them: a later record can be cut or
      // refused where the first is not (a group's name in its display prefix, Easemob `t`).
      let rendered =
        notice.hashedForParts(parts, vendorHashesLines: Vendor.hashesLines) ?? notice
      for part in 1...parts {
        writer.removeAll()
        if let refusal = vendor.renderPart(
          rendered, context, part: part, parts: parts, into: &writer, &effects)
        {
          result.refusal = (RejectReason(refusal.reason).name, refusal.detail)
          return result
        }
        if part == 1 {
          result.payloadBytes = writer.count
          result.payload = String(decoding: writer.buffer, as: UTF8.self)
        }
      }
      let first = notice.groups.count > 1 ? notice.forRecord(part: 1) : notice
      result.titleCut = effects.titleCut
      result.bodyCut = effects.bodyCut
      result.droppedFields = DroppedField.allCases.compactMap {
        effects.dropped & $0.bit != 0 ? $0.name : nil
      }
      if limits.titleScalars != nil || limits.bodyScalars != nil {
        var scratch = RenderEffects()
        let texts = first.cappedTexts(limits, context: context, effects: &scratch)
        func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }
        result.capped = (
          text(PushText.slice(first.requiredTitle(memo: context.memo)).decodedBytes()),
          text(texts.title.decodedBytes()),
          text(first.requiredBody(titled: true, memo: context.memo).decodedBytes()),
          text(texts.body.decodedBytes())
        )
      }
      return result
    }
  }
}
