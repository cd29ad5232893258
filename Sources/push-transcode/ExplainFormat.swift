import PushTranscoder

/// Prints a `LineExplanation`: text for a person, JSON for a program.
enum ExplainFormat {
  /// Bytes shown on each side of a fault offset.
  static let window = 30

  /// The line around `offset` (about 60 bytes) and a caret under the fault byte. Bytes outside
  /// printable ASCII show as `.` so that the caret stays under its byte.
  static func caret(_ bytes: [UInt8], offset: Int) -> (line: String, caret: String) {
    let at = min(max(offset, 0), bytes.count)
    let start = max(0, at - window)
    let end = min(bytes.count, at + window)
    var shown = start > 0 ? "…" : ""
    let lead = shown.count
    for byte in bytes[start..<end] {
      shown.append((0x20..<0x7F).contains(byte) ? Character(Unicode.Scalar(byte)) : ".")
    }
    if end < bytes.count { shown += "…" }
    return (shown, String(repeating: " ", count: lead + at - start) + "^")
  }

  /// Text for a person; `colour` adds ANSI bold to headings and red to faults.
  static func text(_ e: LineExplanation, colour: Bool) -> String {
    func heading(_ s: String) -> String { colour ? "\u{1B}[1m\(s)\u{1B}[0m" : s }
    func fault(_ s: String) -> String { colour ? "\u{1B}[31m\(s)\u{1B}[0m" : s }
    // What comes from the line is shown, never obeyed (`shown`).
    func q(_ s: String) -> String { shown(quote(s)) }
    var out = heading("line \(e.number)") + "\n"
    out += heading("outcome") + "\n"
    switch e.outcome {
    case .blank:
      out += "  blank (empty or whitespace only): no records\n"
    case .skipped(let reason):
      out += "  skipped: \(reason) (no records)\n"
    case .rejected(let reason, let detail, let offset):
      out += "  " + fault("rejected: \(reason)") + " at byte \(offset): \(shown(detail))\n"
      let (line, caret) = caret(e.bytes, offset: offset)
      out += "  \(line)\n  " + fault(caret) + "\n"
    case .notice:
      if let refusal = e.refusedByEveryVendor {
        out +=
          "  " + fault("rejected: \(refusal.reason)")
          + " (a message, \(e.dialect ?? "?"), that every vendor refused: no payload record)\n"
      } else {
        out += "  transcoded (\(e.dialect ?? "?"))\n"
      }
      out += "  key: \(e.key.map(q) ?? "none")\n"
      if e.groups.isEmpty {
        out +=
          "  recipients (\(e.recipients.count)): \(e.recipients.map(q).joined(separator: ", "))\n"
      } else {
        out += "  groups (\(e.groups.count)): \(e.groups.map(q).joined(separator: ", "))\n"
      }
      out += heading("notice") + "\n"
      for (index, part) in e.bodyParts.enumerated() {
        out += "  text part \(index + 1): \(q(part))\n"
      }
      out += "  push text: \(q(e.bodyParts.joined())) (\(e.bodyScalars) scalars)\n"
      if let title = e.title {
        out += "  title: \(q(title)) (given by the message)\n"
      } else {
        out +=
          "  title: none given; vendors that require one use \(q(e.fallbackTitle))"
          + " (directory name, else --default-title or the locale's default)\n"
      }
      let untitled = e.untitledParts.joined()
      if untitled == e.bodyParts.joined() {
        out += "  without a title: the push text as is (explicit text, or no display prefix)\n"
      } else {
        out += "  without a title: \(q(untitled)) (display prefix or banner, --display)\n"
      }
      out += "  ext: \(e.ext.map(q) ?? "none"); sound: \(e.sound.map(q) ?? "none")"
      out += "; badge set: \(e.badgeSet ?? "none"); badge add: \(e.badgeAdd ?? "none")"
      out += e.force ? "; force: true\n" : "\n"
      if !e.otherFields.isEmpty {
        out += "  other fields: \(shown(e.otherFields.joined(separator: ", ")))\n"
      }
      out += heading("vendors") + "\n"
      for vendor in e.vendors {
        out += "  \(vendor.name): "
        if let refusal = vendor.refusal {
          out += fault("refused: \(refusal.reason)") + " (\(shown(refusal.detail)))\n"
          continue
        }
        var facts: [String] = []
        if let bytes = vendor.payloadBytes {
          facts.append(
            vendor.budget.map { "payload \(bytes) of \($0) bytes" } ?? "payload \(bytes) bytes")
        }
        if vendor.capped == nil {
          facts.append(
            vendor.bodyCut
              ? "body (\(e.bodyScalars) scalars) cut to fit the budget, with \"…\""
              : "title and body fit")
        }
        if !vendor.droppedFields.isEmpty {
          facts.append(
            "left out (not accepted by \(vendor.name)): "
              + vendor.droppedFields.joined(separator: ", "))
        }
        out += facts.joined(separator: "; ") + "\n"
        if let capped = vendor.capped {
          out +=
            "    title \(q(capped.title)) (\(capped.title.unicodeScalars.count) scalars,"
            + " cap \(vendor.titleCap.map(String.init) ?? "none"))"
            + (vendor.titleCut ? " → cut to \(q(capped.cutTitle))\n" : ": fits\n")
          out +=
            "    body \(q(capped.body)) (\(capped.body.unicodeScalars.count) scalars,"
            + " cap \(vendor.bodyCap.map(String.init) ?? "none"))"
            + (vendor.bodyCut ? " → cut to \(q(capped.cutBody))\n" : ": fits\n")
        }
        if let payload = vendor.payload { out += "    \(shown(payload))\n" }
      }
    }
    out += heading("records") + "\n"
    for record in e.records { out += shown(String(decoding: record, as: UTF8.self)) + "\n" }
    return out
  }

  /// `"text"` as a canonical JSON string (the library's escaping; also used for the text
  /// mode's quoted values).
  static func quote(_ text: String) -> String {
    var writer = JSONWriter(capacity: text.utf8.count + 2)
    writer.string(decoded: Array(text.utf8))
    return String(decoding: writer.buffer, as: UTF8.self)
  }

  /// `text` with every character a terminal would obey instead of showing it written as a
  /// JSON `\uXXXX` escape: the C0 and C1 controls and DEL (U+009B starts a control sequence
  /// in xterm), the bidirectional formatting characters (which reorder what follows) and the
  /// line and paragraph separators. The text mode applies it to what comes from the line, all
  /// of it JSON text or JSON string content, where the escape stands for the same character:
  /// a message cannot move the cursor, recolour the screen or disguise a record. `--json`
  /// prints every string as the records hold it, for a program.
  static func shown(_ text: String) -> String {
    guard text.unicodeScalars.contains(where: isObeyed) else { return text }
    var out = String.UnicodeScalarView()
    for scalar in text.unicodeScalars {
      guard isObeyed(scalar) else {
        out.append(scalar)
        continue
      }
      let hex = String(scalar.value, radix: 16)
      out.append(
        contentsOf: ("\\u" + String(repeating: "0", count: 4 - hex.count) + hex).unicodeScalars)
    }
    return String(out)
  }

  /// True for the characters `shown` escapes.
  static func isObeyed(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0x00...0x1F, 0x7F...0x9F, 0x061C, 0x200E, 0x200F, 0x2028, 0x2029, 0x202A...0x202E,
      0x2066...0x2069:
      true
    default:
      false
    }
  }

  /// One explanation as a JSON object; `records` holds each record's text as a string.
  static func json(_ e: LineExplanation) -> String {
    func optional(_ s: String?) -> String { s.map(quote) ?? "null" }
    func optional(_ n: Int?) -> String { n.map(String.init) ?? "null" }
    var fields: [String] = ["\"line\":\(e.number)"]
    switch e.outcome {
    case .blank: fields.append("\"outcome\":\"blank\"")
    case .skipped(let reason):
      fields.append("\"outcome\":\"skipped\",\"reason\":\(quote(reason))")
    case .rejected(let reason, let detail, let offset):
      let (line, caret) = caret(e.bytes, offset: offset)
      fields.append(
        "\"outcome\":\"rejected\",\"reason\":\(quote(reason)),\"detail\":\(quote(detail)),"
          + "\"offset\":\(offset),\"window\":\(quote(line)),\"caret\":\(quote(caret))")
    case .notice:
      if let refusal = e.refusedByEveryVendor {
        // Counted as the stats count it; the vendors below say who refused what.
        fields.append(
          "\"outcome\":\"rejected\",\"reason\":\(quote(refusal.reason)),"
            + "\"detail\":\(quote(refusal.detail)),\"dialect\":\(optional(e.dialect))")
      } else {
        fields.append("\"outcome\":\"transcoded\",\"dialect\":\(optional(e.dialect))")
      }
      fields.append("\"key\":\(optional(e.key))")
      fields.append("\"recipients\":[\(e.recipients.map(quote).joined(separator: ","))]")
      fields.append("\"groups\":[\(e.groups.map(quote).joined(separator: ","))]")
      fields.append("\"text_parts\":[\(e.bodyParts.map(quote).joined(separator: ","))]")
      fields.append("\"text\":\(quote(e.bodyParts.joined()))")
      fields.append("\"untitled_text\":\(quote(e.untitledParts.joined()))")
      fields.append("\"title\":\(optional(e.title)),\"fallback_title\":\(quote(e.fallbackTitle))")
      fields.append("\"ext\":\(optional(e.ext)),\"sound\":\(optional(e.sound))")
      fields.append("\"badge_set\":\(optional(e.badgeSet)),\"badge_add\":\(optional(e.badgeAdd))")
      fields.append("\"force\":\(e.force)")
      fields.append("\"other_fields\":[\(e.otherFields.map(quote).joined(separator: ","))]")
      fields.append("\"title_scalars\":\(e.titleScalars),\"text_scalars\":\(e.bodyScalars)")
      let vendors = e.vendors.map { v in
        "{\"vendor\":\(quote(v.name)),\"payload_bytes\":\(optional(v.payloadBytes)),"
          + "\"budget\":\(optional(v.budget)),\"title_cap\":\(optional(v.titleCap)),"
          + "\"body_cap\":\(optional(v.bodyCap)),\"title_cut\":\(v.titleCut),"
          + "\"body_cut\":\(v.bodyCut),"
          + "\"dropped_fields\":[\(v.droppedFields.map(quote).joined(separator: ","))],"
          + (v.capped.map {
            "\"title\":\(quote($0.title)),\"cut_title\":\(quote($0.cutTitle)),"
              + "\"body\":\(quote($0.body)),\"cut_body\":\(quote($0.cutBody)),"
          } ?? "") + "\"payload\":\(optional(v.payload)),\"refusal\":"
          + (v.refusal.map { "{\"reason\":\(quote($0.reason)),\"detail\":\(quote($0.detail))}" }
            ?? "null") + "}"
      }
      fields.append("\"vendors\":[\(vendors.joined(separator: ","))]")
    }
    let records = e.records.map { quote(String(decoding: $0, as: UTF8.self)) }
    fields.append("\"records\":[\(records.joined(separator: ","))]")
    return "{" + fields.joined(separator: ",") + "}"
  }
}
