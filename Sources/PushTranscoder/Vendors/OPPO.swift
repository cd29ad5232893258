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
    _ notice: Notice, _ texts: CappedTexts, _ context: RenderContext, part: Int, parts: Int,
    into writer: inout JSONWriter, effects: inout RenderEffects
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
    if let ext = texts.ext {
      writer.raw(",\"action_parameters\":")
      OPPO.writeActionParameters(ext, into: &writer)
    }
    writer.byte(ASCII.closeBrace)
  }

  /// Writes the JSON string whose value is the canonical JSON text `{"ext":ext}`: the text's
  /// escapes escaped once more.
  static func writeActionParameters(_ ext: PushText, into writer: inout JSONWriter) {
    writer.raw("\"{\\\"ext\\\":\\\"")
    let start = writer.count
    ext.writeContent(into: &writer)
    if !ext.isPlain { escapeAgain(from: start, into: &writer) }
    writer.raw("\\\"}\"")
  }

  /// Escapes the canonical string content written since `start` once more, in place: canonical
  /// content holds no control byte (those are written as `\n`, `\u00xx`...), so only `"` and
  /// `\` need a backslash before them.
  private static func escapeAgain(from start: Int, into writer: inout JSONWriter) {
    let length = writer.count - start
    var extra = 0
    for byte in writer.buffer[start...] where byte == ASCII.quote || byte == ASCII.backslash {
      extra += 1
    }
    guard extra > 0 else { return }
    // Safe because `reserve` returns the writer's buffer at its end, with room for `extra` more
    // bytes, and the `length` content bytes written since `start` lie just before it in the same
    // buffer; the copy runs from the end backwards, so the read index never falls behind the
    // write index and no byte is read after it was overwritten.
    let end = writer.reserve(extra)
    let content = end - length
    var read = length - 1
    var write = length + extra - 1
    while read >= 0 {
      let byte = content[read]
      content[write] = byte
      write -= 1
      if byte == ASCII.quote || byte == ASCII.backslash {
        content[write] = ASCII.backslash
        write -= 1
      }
      read -= 1
    }
    writer.advance(by: extra)
  }
}
