/// OPPO Push (SPEC 4):
/// `{"title","content","channel_id"?,"category"?,"notify_level"?,"click_action_type":0,
/// "action_parameters"?:P}`, P a string holding the JSON text `{"ext":ext}` (OPPO requires
/// JSON there).
///
/// Title (required: `Title`, else the fallback title) and content are capped at 50 / 50
/// scalars; the JSON text of `action_parameters` may hold at most 4000 scalars and is never cut.
struct OPPO: CappedVendor {
  static var id: VendorID { .oppo }
  static var name: StaticString { "oppo" }
  static var limits: VendorLimits {
    VendorLimits(
      titleScalars: 50, bodyScalars: 50,
      extField: FieldBudget(field: "action_parameters", unit: .writtenObjectScalars, limit: 4000),
      recipientsPerRecord: 1000)
  }

  func writePayload(
    _ notice: Notice, _ texts: CappedTexts, ext: PushText?, _ context: RenderContext,
    part: Int, parts: Int, into writer: inout JSONWriter, effects: inout RenderEffects
  ) {
    let android = notice.android
    writer.raw("{\"title\":")
    texts.title.write(into: &writer)
    writer.raw(",\"content\":")
    texts.body.write(into: &writer)
    // channel_id ← `OPPOChannelID`; category ← `OPPOCategory`.
    let category = Notice.present(android.oppoCategory)
    writer.optionalString(",\"channel_id\":", android.oppoChannelID)
    writer.optionalString(",\"category\":", category)
    // notify_level ← `OPPONotifyLevel` when 1, 2 or 16, and only with a written category
    // (SPEC 9 [4, 6.8]).
    if let level = android.oppoNotifyLevel {
      if category != nil, let value = AcceptedValues.integer(level),
        value == 1 || value == 2 || value == 16
      {
        writer.raw(",\"notify_level\":")
        writer.raw(level)
      } else {
        effects.drop(.notifyLevel)
      }
    }
    writer.raw(",\"click_action_type\":0")
    if let ext {
      writer.raw(",\"action_parameters\":")
      OPPO.writeActionParameters(ext, into: &writer)
    }
    writer.byte(ASCII.closeBrace)
  }

  /// Writes the JSON string whose value is the canonical JSON text `{"ext":ext}`: the text's
  /// escapes escaped once more.
  static func writeActionParameters(_ ext: PushText, into writer: inout JSONWriter) {
    writer.raw("\"{\\\"ext\\\":\\\"")
    if case .slice(let slice) = ext, slice.isCanonical {
      // The usual ext, whose raw content is canonical already (`\"` escapes, or none): that
      // content, escaped as text, straight from the line.
      writer.escapedContent(slice.rawBytes)
    } else {
      let start = writer.count
      ext.writeContent(into: &writer)
      if !ext.isPlain { escapeAgain(from: start, into: &writer) }
    }
    writer.raw("\\\"}\"")
  }

  /// Escapes the canonical string content written since `start` once more, in place: canonical
  /// content holds no control byte (those are written as `\n`, `\u00xx`...), so only `"` and
  /// `\` need a backslash before them. Counts them a word at a time, then moves the content
  /// from its end backwards, inserting the backslashes, and stops at the first of them.
  static func escapeAgain(from start: Int, into writer: inout JSONWriter) {
    let length = writer.count - start
    var extra = 0
    let written = UnsafeBufferPointer(rebasing: writer.buffer[start...])
    // Safe because every word load below lies in `written` (index + 8 <= length), and the
    // tail is read byte by byte below `length`.
    var index = 0
    while index + 8 <= length {
      let word = UnsafeRawPointer(written.baseAddress! + index).loadUnaligned(as: UInt64.self)
      extra &+= SWAR.countHighBits(
        SWAR.exactMatches(word, ASCII.quote) | SWAR.exactMatches(word, ASCII.backslash))
      index &+= 8
    }
    while index < length {
      let byte = written[index]
      if byte == ASCII.quote || byte == ASCII.backslash { extra &+= 1 }
      index &+= 1
    }
    guard extra > 0 else { return }
    // Safe because `reserve` returns the writer's buffer at its end, with room for `extra` more
    // bytes, and the `length` content bytes written since `start` lie just before it in the same
    // buffer. The move runs from the end backwards and the write index stays `extra` (or, as
    // backslashes are inserted, fewer) bytes ahead of the read index, never behind it: no byte
    // is read after it was overwritten.
    let end = writer.reserve(extra)
    let content = end - length
    var read = length
    var write = length + extra
    // While `write` is ahead of `read`, a `"` or `\` remains below `read` (so `read > 0`);
    // once they meet, the bytes below are already in place. (Byte by byte: JSON held in a
    // string has a `\"` every few bytes, too dense for moving whole words.)
    while write > read {
      read -= 1
      let byte = content[read]
      write -= 1
      content[write] = byte
      if byte == ASCII.quote || byte == ASCII.backslash {
        write -= 1
        content[write] = ASCII.backslash
      }
    }
    writer.advance(by: extra)
  }
}
