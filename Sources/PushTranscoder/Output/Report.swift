#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The run report of `transcode --report FILE.html`: one self-contained page (no scripts, no
/// network, no external files) drawn from the stats and the run's timing only, so the same run
/// gives the same page apart from the timing.
///
/// The page is well-formed XHTML (an XML parser reads it) and every number it shows from the
/// stats sits in an element whose `data-stat` names its stats-JSON path (`records.apns`,
/// `payload_bytes.counts.fcm.15`; `skipped.*` is the sum of a map), so a test can check each
/// one. Other numbers are marked too: `data-timing` (time, bytes in and out, MB/s),
/// `data-bound` (bucket bounds and budgets, constants of `PayloadSizes` and `VendorLimits`)
/// and `data-line` (the line of an example). Charts are inline SVG whose bars carry their
/// counts as text, and budgets are drawn dashed and labelled, so nothing depends on colour.
package enum RunReport {
  /// What the page shows besides the stats.
  package struct Timing: Sendable {
    /// Wall-clock seconds of the run.
    package var seconds: Double
    /// Input bytes read (lines plus terminators).
    package var inputBytes: Int
    /// Record and reject bytes written, before compression.
    package var outputBytes: Int

    /// A run's timing.
    package init(seconds: Double, inputBytes: Int, outputBytes: Int) {
      self.seconds = seconds
      self.inputBytes = inputBytes
      self.outputBytes = outputBytes
    }
  }

  /// The page for a run over `vendors` (the selected ones, in canonical order). `stoppedBy` is
  /// the fatal error of a run that stopped early: the page then opens with it, so that the
  /// counts of a failed run cannot pass for a finished run's.
  package static func html(
    stats: RunStats, vendors: [VendorID], timing: Timing, stoppedBy fatal: String? = nil
  ) -> String {
    var page = ReportPage()
    page.raw(
      """
      <!DOCTYPE html>
      <html xmlns="http://www.w3.org/1999/xhtml" lang="en">
      <head>
      <meta charset="utf-8"/>
      <meta name="viewport" content="width=device-width, initial-scale=1"/>
      <title>push-transcode run report</title>
      <style>\(style)</style>
      </head>
      <body>
      <h1>push-transcode run report</h1>

      """)
    if let fatal {
      page.raw("<p class=\"stopped\" id=\"stopped\" role=\"alert\"><strong>")
      page.raw("The run stopped early</strong>: <span data-error=\"fatal\">")
      page.text(fatal)
      page.raw(
        "</span>. The counts below are those of the lines read before it; a batch directory"
          + " it wrote has no manifest.</p>\n")
    }
    runSection(stats, vendors, timing, into: &page)
    vendorSection(stats, vendors, into: &page)
    reasonSection(stats, vendors, into: &page)
    page.raw("</body>\n</html>\n")
    return page.text
  }

  // MARK: The run

  private static func runSection(
    _ stats: RunStats, _ vendors: [VendorID], _ timing: Timing, into page: inout ReportPage
  ) {
    page.raw("<section id=\"run\">\n<h2>The run</h2>\n<div class=\"cols\">\n")
    page.raw("<table class=\"facts\" id=\"outcomes\">\n<caption>Lines by outcome</caption>\n")
    page.row("Lines read", stat: "lines", stats.lines, strong: true)
    page.row("Transcoded", stat: "transcoded", stats.transcoded)
    page.row("Skipped", stat: "skipped.*", stats.skippedLines)
    page.row("Rejected", stat: "rejected.*", stats.rejectedLines)
    page.row("Blank", stat: "blank", stats.blank)
    page.raw("</table>\n")

    page.raw("<table class=\"facts\" id=\"records\">\n<caption>Records per vendor</caption>\n")
    for vendor in vendors {
      page.row(vendor.name, stat: "records." + vendor.name, stats.records[vendor.rawValue])
    }
    page.row("All vendors", stat: "records.*", stats.totalRecords, strong: true)
    page.raw("</table>\n")

    page.raw("<table class=\"facts\" id=\"throughput\">\n<caption>Time and bytes</caption>\n")
    page.raw("<tr><th scope=\"row\">Bytes in</th><td>")
    page.number(timing.inputBytes, attribute: "data-timing", "input_bytes")
    page.raw("</td></tr>\n<tr><th scope=\"row\">Bytes out (uncompressed)</th><td>")
    page.number(timing.outputBytes, attribute: "data-timing", "output_bytes")
    page.raw("</td></tr>\n<tr><th scope=\"row\">Time</th><td>")
    page.element(
      "span", attribute: "data-timing", "seconds", text: format("%.2f", timing.seconds) + " s")
    let rate = timing.seconds > 0 ? Double(timing.inputBytes) / 1_000_000 / timing.seconds : 0
    page.raw("</td></tr>\n<tr><th scope=\"row\">Throughput</th><td>")
    page.element("span", attribute: "data-timing", "mb_per_s", text: format("%.1f", rate) + " MB/s")
    page.raw("</td></tr>\n</table>\n")

    page.raw("<table class=\"facts\" id=\"notes\">\n<caption>Warnings and directory</caption>\n")
    page.row("Unknown elements", stat: "unknown_elements", stats.unknownElements)
    page.row("Unicode replacements", stat: "unicode_replacements", stats.unicodeReplacements)
    page.row(
      "Desc and Ext over Tencent's advised size", stat: "desc_ext_over_3kb", stats.descExtOver3KB)
    page.row("Directory lines", stat: "directory.lines", stats.directoryLines)
    page.row("Directory entries", stat: "directory.entries", stats.directoryEntries)
    page.row(
      "Directory lines rejected", stat: "directory.rejected.*",
      stats.directoryRejected.reduce(0, +))
    page.raw("</table>\n</div>\n</section>\n")
  }

  // MARK: Vendors

  private static func vendorSection(
    _ stats: RunStats, _ vendors: [VendorID], into page: inout ReportPage
  ) {
    page.raw("<section id=\"vendors\">\n<h2>Payload sizes per vendor</h2>\n")
    page.raw(
      "<p class=\"lead\">Bytes of each payload as written, in buckets of "
        + "<span data-bound=\"bucket\">\(1 << PayloadSizes.bucketShift)</span> bytes; the last "
        + "bar counts payloads over <span data-bound=\"last\">\(PayloadSizes.upperBounds.last!)"
        + "</span> bytes. A dashed line marks the vendor's whole-payload budget; bars past it "
        + "are hatched.</p>\n")
    for vendor in vendors {
      let name = vendor.name
      let limits = VendorLimits.of(vendor)
      page.raw("<article class=\"vendor\" id=\"vendor-\(name)\" data-vendor=\"\(name)\">\n")
      page.raw("<h3>\(name)</h3>\n")
      ReportChart.histogram(
        vendor: vendor, counts: Array(stats.payloadHistogram(vendor)), limits: limits,
        into: &page)
      page.raw("<p class=\"budget\">")
      budgetNote(limits, into: &page)
      page.raw("</p>\n<table class=\"facts\">\n")
      page.row("Records", stat: "records." + name, stats.records[vendor.rawValue])
      page.row("Cut titles", stat: "cut_titles." + name, stats.cutTitles[vendor.rawValue])
      page.row("Cut bodies", stat: "cut_bodies." + name, stats.cutBodies[vendor.rawValue])
      page.row(
        "Refused: over budget", stat: "over_budget." + name, stats.overBudget[vendor.rawValue])
      for reason in RejectReason.allCases where reason != .overBudget {
        let count = stats.vendorRejects[vendor.rawValue][reason.rawValue]
        if count > 0 {
          page.row(
            "Refused: " + reason.name, stat: "vendor_rejects.\(name).\(reason.name)", count)
        }
      }
      for field in DroppedField.allCases {
        let count = stats.droppedFields[vendor.rawValue][field.rawValue]
        if count > 0 {
          page.row(
            "Dropped field: " + field.name, stat: "dropped_fields.\(name).\(field.name)", count)
        }
      }
      page.raw("</table>\n</article>\n")
    }
    page.raw("</section>\n")
  }

  /// What the chart's dashed line stands for, or why there is none (a field budget is not on
  /// the payload's bytes, and mostly not in bytes at all, so it has no place on the axis).
  private static func budgetNote(_ limits: VendorLimits, into page: inout ReportPage) {
    if let bytes = limits.payloadBytes {
      page.raw("Budget: <span data-bound=\"budget\">\(bytes)</span> bytes per payload")
      if let voip = limits.voipPayloadBytes {
        page.raw(" (<span data-bound=\"budget\">\(voip)</span> for VoIP pushes)")
      }
      page.raw("; bodies are cut to fit.")
      return
    }
    page.raw("No whole-payload budget, so no line: titles and bodies are capped")
    if let title = limits.titleScalars, let body = limits.bodyScalars {
      page.raw(
        " at <span data-bound=\"cap\">\(title)</span> and "
          + "<span data-bound=\"cap\">\(body)</span> scalars")
    }
    if let field = limits.extField {
      page.raw("; <code>")
      page.text("\(field.field)")
      page.raw("</code> may hold at most <span data-bound=\"field\">\(field.limit)</span> ")
      page.text(field.unitDescription)
    }
    page.raw(".")
  }

  // MARK: Rejects and skips

  private static func reasonSection(
    _ stats: RunStats, _ vendors: [VendorID], into page: inout ReportPage
  ) {
    page.raw("<section id=\"reasons\">\n<h2>Rejects and skips by reason</h2>\n")
    var rows: [(kind: String, stat: String, count: Int, examples: [ReasonExample])] = []
    for reason in RejectReason.allCases where stats.rejected[reason.rawValue] > 0 {
      rows.append(
        (
          "rejected line", "rejected." + reason.name, stats.rejected[reason.rawValue],
          stats.examples.rejected[reason.rawValue]
        ))
    }
    for reason in SkipReason.allCases where stats.skipped[reason.index] > 0 {
      rows.append(
        (
          "skipped line", "skipped." + reason.name, stats.skipped[reason.index],
          stats.examples.skipped[reason.index]
        ))
    }
    for vendor in VendorID.allCases {
      for reason in RejectReason.allCases {
        let count = stats.vendorRejects[vendor.rawValue][reason.rawValue]
        guard count > 0 else { continue }
        rows.append(
          (
            "refused by " + vendor.name, "vendor_rejects.\(vendor.name).\(reason.name)", count,
            stats.examples.vendorRejects(vendor, reason)
          ))
      }
    }
    if rows.isEmpty {
      page.raw("<p>No line was rejected or skipped.</p>\n</section>\n")
      return
    }
    page.raw(
      "<table class=\"reasons\">\n<thead><tr><th scope=\"col\">Reason</th>"
        + "<th scope=\"col\">Kind</th><th scope=\"col\" class=\"n\">Lines</th>"
        + "<th scope=\"col\">First lines</th></tr></thead>\n<tbody>\n")
    for row in rows {
      let reason = String(row.stat.split(separator: ".").last!)
      page.raw("<tr><th scope=\"row\"><code>")
      page.text(reason)
      page.raw("</code></th><td>")
      page.text(row.kind)
      page.raw("</td><td class=\"n\">")
      page.number(row.count, attribute: "data-stat", row.stat)
      page.raw("</td><td>")
      if !row.examples.isEmpty {
        page.raw("<ul class=\"examples\">")
        for example in row.examples {
          page.raw("<li><code><span data-source=\"\">")
          page.text(example.source.path)
          page.raw("</span>:<span data-line=\"\(example.line)\">\(example.line)</span></code></li>")
        }
        page.raw("</ul>\n<p class=\"explain\">Explain the first: <code class=\"command\">")
        let first = row.examples[0]
        page.raw("push-transcode explain <span data-source=\"quoted\">")
        page.text(shellQuoted(first.source.path))
        page.raw("</span> --line <span data-line=\"\(first.line)\">\(first.line)</span></code></p>")
      }
      page.raw("</td></tr>\n")
    }
    page.raw("</tbody>\n</table>\n</section>\n")
  }

  /// `text` as one shell word: as is when it holds only safe characters, else single-quoted.
  static func shellQuoted(_ text: String) -> String {
    let safe = text.utf8.allSatisfy { byte in
      (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A)
        || (byte >= 0x61 && byte <= 0x7A) || "-_./,:+@%=".utf8.contains(byte)
    }
    if safe && !text.isEmpty { return text }
    return "'" + text.replacing("'", with: "'\\''") + "'"
  }

  /// `printf`-style formatting of one double.
  static func format(_ pattern: String, _ value: Double) -> String {
    String(cFormat: pattern, value)
  }

  /// The page's stylesheet: greys, patterns and labels carry meaning, so it prints in black and
  /// white.
  private static let style = """

    body { font: 15px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; color: #1b1f24;
      background: #fff; margin: 2rem auto; max-width: 68rem; padding: 0 1.5rem; }
    h1 { font-size: 1.6rem; margin: 0 0 1.25rem; }
    h2 { font-size: 1.2rem; border-bottom: 2px solid #1b1f24; padding-bottom: .2rem;
      margin: 2rem 0 1rem; }
    h3 { font-size: 1.05rem; margin: 0 0 .4rem; font-family: ui-monospace, monospace; }
    .cols { display: flex; flex-wrap: wrap; gap: 1.25rem 2rem; align-items: flex-start; }
    table { border-collapse: collapse; }
    caption { text-align: left; font-weight: 600; padding-bottom: .3rem; }
    th, td { padding: .15rem .6rem .15rem 0; text-align: left; vertical-align: top; }
    .facts td, td.n, th.n { text-align: right; font-variant-numeric: tabular-nums; }
    .facts tr.total th, .facts tr.total td { font-weight: 700; border-top: 1px solid #1b1f24; }
    .facts th { font-weight: 400; }
    .lead { max-width: 48rem; }
    .stopped { border: 2px solid #a40e26; border-left-width: .5rem; border-radius: 6px;
      padding: .6rem 1rem; max-width: 60rem; overflow-wrap: anywhere; }
    #vendors { display: grid; grid-template-columns: repeat(auto-fill, minmax(30rem, 1fr));
      gap: 1.25rem; }
    #vendors > h2, #vendors > .lead { grid-column: 1 / -1; margin-bottom: 0; }
    .vendor { border: 1px solid #8c959f; border-radius: 6px; padding: .8rem 1rem;
      break-inside: avoid; }
    .vendor svg { width: 100%; height: auto; display: block; }
    .budget { font-size: .85rem; margin: .3rem 0 .5rem; }
    .reasons { width: 100%; }
    .reasons thead th { border-bottom: 1px solid #1b1f24; }
    .reasons tbody tr { border-bottom: 1px solid #d0d7de; }
    .examples { margin: 0; padding: 0; list-style: none; }
    .examples li, .command { overflow-wrap: anywhere; }
    .reasons th[scope="row"], .reasons td:nth-child(2) { white-space: nowrap; }
    .explain { margin: .3rem 0 0; font-size: .85rem; }
    code { font-family: ui-monospace, "DejaVu Sans Mono", monospace; font-size: .9em; }
    .command { background: #f3f4f6; padding: .1rem .3rem; border: 1px solid #d0d7de; }
    svg text { font: 11px system-ui, sans-serif; fill: #1b1f24; }
    svg .bar { fill: #5b6b7f; stroke: #1b1f24; stroke-width: .6; }
    svg .bar.over { fill: url(#hatch); }
    svg .axis { stroke: #1b1f24; stroke-width: 1; }
    svg .budget-line { stroke: #1b1f24; stroke-width: 1.5; stroke-dasharray: 5 3; }
    svg .count { font-size: 10px; }
    @media print { body { margin: 0; max-width: none; font-size: 11pt; }
      #vendors { display: block; } .vendor { margin-bottom: 1rem; } }

    """
}

extension FieldBudget {
  /// The unit of `limit`, in words.
  fileprivate var unitDescription: String {
    switch unit {
    case .extUTF8Bytes: "bytes of the ext string"
    case .extScalars: "scalars of ext"
    case .keyAndExtScalars: "scalars, key and ext"
    case .writtenObjectBytes: "bytes as written"
    case .writtenObjectScalars: "scalars of its JSON text"
    }
  }
}

/// An XHTML page being written: text is escaped on the way in.
struct ReportPage {
  private(set) var text = ""

  /// Appends markup as is (only literals and numbers, never data).
  mutating func raw(_ markup: String) { text += markup }

  /// Appends `content` escaped as XML character data (and attribute values).
  mutating func text(_ content: String) {
    for scalar in content.unicodeScalars {
      switch scalar {
      case "&": text += "&amp;"
      case "<": text += "&lt;"
      case ">": text += "&gt;"
      case "\"": text += "&quot;"
      case "'": text += "&#39;"
      // Control characters other than tab and newline are not XML characters at all.
      case _ where scalar.value < 0x20 && scalar != "\t" && scalar != "\n": text += "\u{FFFD}"
      case "\u{7F}"..."\u{9F}", "\u{FFFE}", "\u{FFFF}": text += "\u{FFFD}"
      default: text.unicodeScalars.append(scalar)
      }
    }
  }

  /// `<name attribute="value">text</name>`, value and text escaped.
  mutating func element(_ name: String, attribute: String, _ value: String, text content: String) {
    raw("<\(name) \(attribute)=\"")
    text(value)
    raw("\">")
    text(content)
    raw("</\(name)>")
  }

  /// A count with thousands separators, in a `<span>` whose `attribute` says what it is.
  mutating func number(_ value: Int, attribute: String, _ key: String) {
    element("span", attribute: attribute, key, text: Self.grouped(value))
  }

  /// A table row: a label and a count from the stats.
  mutating func row(_ label: String, stat: String, _ value: Int, strong: Bool = false) {
    raw(strong ? "<tr class=\"total\"><th scope=\"row\">" : "<tr><th scope=\"row\">")
    text(label)
    raw("</th><td>")
    number(value, attribute: "data-stat", stat)
    raw("</td></tr>\n")
  }

  /// `1234567` as `1,234,567`.
  static func grouped(_ value: Int) -> String {
    let digits = String(value.magnitude)
    var result = value < 0 ? "-" : ""
    for (index, digit) in digits.enumerated() {
      if index > 0 && (digits.count - index) % 3 == 0 { result += "," }
      result.append(digit)
    }
    return result
  }
}
