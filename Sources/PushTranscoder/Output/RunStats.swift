import Glibc

/// The run's counts (SPEC 6.4, 6.8), kept in fixed arrays indexed by enum so that a worker
/// updates them without hashing, and merged chunk by chunk by the writer.
///
/// Accounting invariant: `lines == transcoded + Σ skipped + Σ rejected + blank`.
package struct RunStats: Sendable, Equatable {
  /// `lines`: every input line read.
  package var lines = 0
  /// `blank`: empty and whitespace-only lines.
  package var blank = 0
  /// `transcoded`: lines that produced at least one payload record.
  package var transcoded = 0
  /// `skipped`: lines with no push, indexed by `SkipReason.index`.
  package var skipped = [Int](repeating: 0, count: SkipReason.allCases.count)
  /// `rejected`: lines rejected as a whole, indexed by `RejectReason.rawValue`.
  package var rejected = [Int](repeating: 0, count: RejectReason.allCases.count)
  /// `records`: payload records written, indexed by `VendorID.rawValue`.
  package var records = [Int](repeating: 0, count: VendorID.allCases.count)
  /// `cut_titles`: (message, vendor) pairs whose title was cut, indexed by vendor.
  package var cutTitles = [Int](repeating: 0, count: VendorID.allCases.count)
  /// `cut_bodies`: (message, vendor) pairs whose body was cut, indexed by vendor.
  package var cutBodies = [Int](repeating: 0, count: VendorID.allCases.count)
  /// `over_budget`: over-budget refusals, indexed by vendor.
  package var overBudget = [Int](repeating: 0, count: VendorID.allCases.count)
  /// `vendor_rejects`: [vendor][reason] refusals by single vendors.
  package var vendorRejects = [[Int]](
    repeating: [Int](repeating: 0, count: RejectReason.allCases.count),
    count: VendorID.allCases.count)
  /// `dropped_fields`: [vendor][field] (message, vendor) pairs whose payload left out a value
  /// the vendor refuses, indexed by `VendorID.rawValue` and `DroppedField.rawValue`.
  package var droppedFields = [[Int]](
    repeating: [Int](repeating: 0, count: DroppedField.allCases.count),
    count: VendorID.allCases.count)
  /// `unknown_elements`: message elements of an unknown type (they add no push text).
  package var unknownElements = 0
  /// `unicode_replacements`: U+FFFD substitutions made under `--unicode replace`.
  package var unicodeReplacements = 0
  /// `desc_ext_over_3kb`: messages over Tencent's advised 3 KB for `Desc` + `Ext` (a warning).
  package var descExtOver3KB = 0
  /// `directory.lines`: directory lines read.
  package var directoryLines = 0
  /// `directory.entries`: directory lines accepted as a user or group entry.
  package var directoryEntries = 0
  /// `directory.rejected`: bad directory lines, indexed by `RejectReason.rawValue`.
  package var directoryRejected = [Int](repeating: 0, count: RejectReason.allCases.count)
  /// `payload_bytes`: payloads written per vendor and size bucket, flat, at
  /// `vendor.rawValue * PayloadSizes.buckets + PayloadSizes.bucket(bytes)` (see `PayloadSizes`).
  package var payloadBytes = [Int](
    repeating: 0, count: VendorID.allCases.count * PayloadSizes.buckets)
  /// The first `ReasonExamples.limit` lines of each reject and skip reason, in input order
  /// (kept for the report, not written in the stats JSON).
  package var examples = ReasonExamples()

  /// Stats with every count zero.
  package init() {}

  /// Lines rejected as a whole (what `--max-rejects` counts).
  package var rejectedLines: Int { rejected.reduce(0, +) }
  /// Lines skipped for any reason.
  package var skippedLines: Int { skipped.reduce(0, +) }
  /// Payload records written for all vendors.
  package var totalRecords: Int { records.reduce(0, +) }

  /// Adds `other` into `self`.
  package mutating func merge(_ other: RunStats) {
    lines += other.lines
    blank += other.blank
    transcoded += other.transcoded
    for i in skipped.indices { skipped[i] += other.skipped[i] }
    for i in rejected.indices { rejected[i] += other.rejected[i] }
    for v in records.indices {
      records[v] += other.records[v]
      cutTitles[v] += other.cutTitles[v]
      cutBodies[v] += other.cutBodies[v]
      overBudget[v] += other.overBudget[v]
      for r in vendorRejects[v].indices { vendorRejects[v][r] += other.vendorRejects[v][r] }
      for f in droppedFields[v].indices { droppedFields[v][f] += other.droppedFields[v][f] }
    }
    unknownElements += other.unknownElements
    unicodeReplacements += other.unicodeReplacements
    descExtOver3KB += other.descExtOver3KB
    directoryLines += other.directoryLines
    directoryEntries += other.directoryEntries
    for i in directoryRejected.indices { directoryRejected[i] += other.directoryRejected[i] }
    for i in payloadBytes.indices { payloadBytes[i] += other.payloadBytes[i] }
    examples.append(other.examples)
  }

  /// Counts one payload of `bytes` bytes written for `vendor`: one add, bucketed by a shift.
  @inline(__always)
  package mutating func countPayload(_ vendor: VendorID, bytes: Int) {
    payloadBytes.withUnsafeMutableBufferPointer { counts in
      // Safe because `bucket` is below `PayloadSizes.buckets` and `vendor.rawValue` below the
      // vendor count, so the index lies within the `vendors × buckets` counts.
      counts[vendor.rawValue &* PayloadSizes.buckets &+ PayloadSizes.bucket(bytes)] &+= 1
    }
  }

  /// The payload-size histogram of `vendor`: `PayloadSizes.buckets` counts.
  package func payloadHistogram(_ vendor: VendorID) -> ArraySlice<Int> {
    let start = vendor.rawValue * PayloadSizes.buckets
    return payloadBytes[start..<start + PayloadSizes.buckets]
  }

  /// The stats JSON of SPEC 6.8 (zero counts and empty maps left out; keys in a fixed order).
  package func writeJSON(into writer: inout JSONWriter) {
    writer.raw("{\"lines\":")
    writer.integer(lines)
    writer.raw(",\"blank\":")
    writer.integer(blank)
    writer.raw(",\"transcoded\":")
    writer.integer(transcoded)
    writer.raw(",\"skipped\":")
    Self.writeMap(SkipReason.allCases.map { ($0.name, skipped[$0.index]) }, into: &writer)
    writer.raw(",\"rejected\":")
    Self.writeMap(RejectReason.allCases.map { ($0.name, rejected[$0.rawValue]) }, into: &writer)
    for (key, counts) in [
      ("records", records), ("cut_titles", cutTitles), ("cut_bodies", cutBodies),
      ("over_budget", overBudget),
    ] {
      writer.byte(ASCII.comma)
      writer.string(decoded: Array(key.utf8))
      writer.byte(ASCII.colon)
      Self.writeMap(VendorID.allCases.map { ($0.name, counts[$0.rawValue]) }, into: &writer)
    }
    writer.raw(",\"vendor_rejects\":{")
    var first = true
    for vendor in VendorID.allCases where vendorRejects[vendor.rawValue].contains(where: { $0 > 0 })
    {
      if !first { writer.byte(ASCII.comma) }
      first = false
      writer.string(decoded: Array(vendor.name.utf8))
      writer.byte(ASCII.colon)
      Self.writeMap(
        RejectReason.allCases.map { ($0.name, vendorRejects[vendor.rawValue][$0.rawValue]) },
        into: &writer)
    }
    writer.byte(ASCII.closeBrace)
    // Written only when a field was dropped (absent keys mean zero, SPEC 6.8).
    if droppedFields.contains(where: { $0.contains(where: { $0 > 0 }) }) {
      writer.raw(",\"dropped_fields\":{")
      first = true
      for vendor in VendorID.allCases
      where droppedFields[vendor.rawValue].contains(where: { $0 > 0 }) {
        if !first { writer.byte(ASCII.comma) }
        first = false
        writer.string(decoded: Array(vendor.name.utf8))
        writer.byte(ASCII.colon)
        Self.writeMap(
          DroppedField.allCases.map { ($0.name, droppedFields[vendor.rawValue][$0.rawValue]) },
          into: &writer)
      }
      writer.byte(ASCII.closeBrace)
    }
    writer.raw(",\"unknown_elements\":")
    writer.integer(unknownElements)
    writer.raw(",\"unicode_replacements\":")
    writer.integer(unicodeReplacements)
    writer.raw(",\"desc_ext_over_3kb\":")
    writer.integer(descExtOver3KB)
    writer.raw(",\"directory\":{\"lines\":")
    writer.integer(directoryLines)
    writer.raw(",\"entries\":")
    writer.integer(directoryEntries)
    writer.raw(",\"rejected\":")
    Self.writeMap(
      RejectReason.allCases.map { ($0.name, directoryRejected[$0.rawValue]) }, into: &writer)
    writer.byte(ASCII.closeBrace)
    writePayloadBytes(into: &writer)
    writer.byte(ASCII.closeBrace)
  }

  /// `,"payload_bytes":{"bounds":[256,…,5120],"counts":{vendor:[…]}}`: for each vendor that
  /// wrote a payload, `PayloadSizes.buckets` counts, the last for payloads over the last bound.
  /// Left out when no payload was written (absent keys mean zero, SPEC 6.8).
  private func writePayloadBytes(into writer: inout JSONWriter) {
    guard payloadBytes.contains(where: { $0 > 0 }) else { return }
    writer.raw(",\"payload_bytes\":{\"bounds\":[")
    for (index, bound) in PayloadSizes.upperBounds.enumerated() {
      if index > 0 { writer.byte(ASCII.comma) }
      writer.integer(bound)
    }
    writer.raw("],\"counts\":{")
    var first = true
    for vendor in VendorID.allCases {
      let counts = payloadHistogram(vendor)
      guard counts.contains(where: { $0 > 0 }) else { continue }
      if !first { writer.byte(ASCII.comma) }
      first = false
      writer.string(decoded: Array(vendor.name.utf8))
      writer.raw(":[")
      for (index, count) in counts.enumerated() {
        if index > 0 { writer.byte(ASCII.comma) }
        writer.integer(count)
      }
      writer.byte(ASCII.closeBracket)
    }
    writer.raw("}}")
  }

  private static func writeMap(_ pairs: [(String, Int)], into writer: inout JSONWriter) {
    writer.byte(ASCII.openBrace)
    var first = true
    for (key, value) in pairs where value != 0 {
      if !first { writer.byte(ASCII.comma) }
      first = false
      writer.string(decoded: Array(key.utf8))
      writer.byte(ASCII.colon)
      writer.integer(value)
    }
    writer.byte(ASCII.closeBrace)
  }

  /// The one-paragraph summary printed on stderr at the end of a run.
  package func summary(seconds: Double, inputBytes: Int) -> String {
    var text =
      "push-transcode: \(lines) lines: \(transcoded) transcoded, \(skippedLines) skipped, "
      + "\(rejectedLines) rejected, \(blank) blank; \(totalRecords) records" + rejectedByReason
    let skippedParts = SkipReason.allCases.filter { skipped[$0.index] > 0 }
      .map { "\($0.name) \(skipped[$0.index])" }
    if !skippedParts.isEmpty { text += " (skipped: " + skippedParts.joined(separator: ", ") + ")" }
    if directoryLines > 0 { text += "; directory: \(directoryEntries) entries" }
    return text + Self.throughput(seconds: seconds, inputBytes: inputBytes)
  }

  /// The one-paragraph summary of `validate` (SPEC 6.6): valid, rejected (by reason) and blank
  /// lines, which add up to `lines`; nothing is transcoded.
  package func validationSummary(seconds: Double, inputBytes: Int) -> String {
    "push-transcode validate: \(lines) lines: \(lines - rejectedLines - blank) valid, "
      + "\(rejectedLines) rejected, \(blank) blank" + rejectedByReason
      + Self.throughput(seconds: seconds, inputBytes: inputBytes)
  }

  /// ` (rejected: syntax 2, ...)`, or nothing when no line was rejected.
  private var rejectedByReason: String {
    let parts = RejectReason.allCases.filter { rejected[$0.rawValue] > 0 }
      .map { "\($0.name) \(rejected[$0.rawValue])" }
    return parts.isEmpty ? "" : " (rejected: " + parts.joined(separator: ", ") + ")"
  }

  /// `; 12.3 MB in 0.05 s (246 MB/s)`.
  private static func throughput(seconds: Double, inputBytes: Int) -> String {
    let mb = Double(inputBytes) / 1_000_000
    let rate = seconds > 0 ? mb / seconds : 0
    return "; " + String(cFormat: "%.1f MB in %.2f s (%.0f MB/s)", mb, seconds, rate)
  }
}
