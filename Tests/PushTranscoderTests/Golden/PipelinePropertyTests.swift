import Foundation
import Testing

@testable import PushTranscoder

/// Properties of whole-line rendering (SPEC 4, 5, 6.4), over every `Corpus/messages` line and
/// over seeded random messages: every record parses with the project tokenizer, every payload
/// fits its vendor's byte budget and scalar caps, every cut text is a grapheme prefix of the
/// original plus `…`, and every line is accounted for exactly once.
@Suite("Pipeline properties")
struct PipelinePropertyTests {
  /// The payload bytes of a rendered record (`{"source",...,"payload":P}` → P).
  static func payload(of record: [UInt8]) -> [UInt8]? {
    let marker = Array(",\"payload\":".utf8)
    guard record.count > marker.count else { return nil }
    for start in 0...(record.count - marker.count) where record[start] == ASCII.comma {
      if Array(record[start..<(start + marker.count)]) == marker {
        var end = record.count
        while end > 0 && record[end - 1] == ASCII.newline { end -= 1 }
        return Array(record[(start + marker.count)..<(end - 1)])
      }
    }
    return nil
  }

  /// Checks the budget and caps of one record.
  static func checkLimits(_ vendor: VendorID, _ record: [UInt8], _ where: String) {
    #expect(TestJSON.parses(record), "record does not parse: \(`where`)")
    guard let payload = payload(of: record) else {
      Issue.record("no payload: \(`where`)")
      return
    }
    #expect(TestJSON.parses(payload), "payload does not parse: \(`where`)")
    let limits = VendorLimits.of(vendor)
    if let budget = limits.payloadBytes {
      let voip = TestJSON.string(record, ["push_type"]) == "voip"
      let limit = voip ? limits.voipPayloadBytes! : budget
      #expect(
        payload.count <= limit, "\(vendor.name) payload \(payload.count) > \(limit): \(`where`)")
    }
    if let cap = limits.titleScalars, let title = VendorPropertyTests.title(vendor, payload) {
      #expect(title.unicodeScalars.count <= cap, "\(vendor.name) title over \(cap): \(`where`)")
    }
    if let cap = limits.bodyScalars, let body = VendorPropertyTests.body(vendor, payload) {
      #expect(body.unicodeScalars.count <= cap, "\(vendor.name) body over \(cap): \(`where`)")
    }
  }

  /// `written` is `original`, or whole leading graphemes of it followed by `…`.
  static func isGraphemeCut(_ written: String, of original: String) -> Bool {
    if written == original { return true }
    guard written.hasSuffix("…") else { return false }
    let kept = Array(written.dropLast())
    return Array(original).starts(with: kept) && kept.count < original.count
  }

  static func accountingHolds(_ stats: RunStats) -> Bool {
    stats.lines == stats.transcoded + stats.skippedLines + stats.rejectedLines + stats.blank
  }

  @Test(arguments: GoldenCorpus.OptionSet.all)
  func corpusRecordsParseAndFitTheirLimits(_ set: GoldenCorpus.OptionSet) throws {
    let rendering = try GoldenCorpus.render(set)
    #expect(!rendering.ordered.isEmpty)
    for (index, entry) in rendering.ordered.enumerated() {
      Self.checkLimits(entry.vendor, entry.record, "\(set.name) record \(index)")
    }
    #expect(Self.accountingHolds(rendering.stats), "accounting: \(rendering.stats)")
    for line in rendering.rejects.split(separator: ASCII.newline) {
      #expect(TestJSON.parses(Array(line)))
    }
  }

  /// Random Tencent and Easemob messages with long texts, titles and ext: cut texts are
  /// grapheme prefixes of what went in, payloads fit, accounting holds.
  @Test func randomMessagesCutAtGraphemesAndFit() {
    var rng = SplitMix64(seed: 0x5eed_901d)
    var options = TranscodeOptions()
    options.rejectsInline = false
    options.collectRecordRefs = true
    var processor = LineProcessor(options: options, directory: NameDirectory())
    var output = ChunkOutput(sequence: 0, source: SourceName("random"))
    var expectations: [Int: (title: String?, body: String)] = [:]
    var cuts = 0
    for number in 1...400 {
      let body = VendorPropertyTests.randomText(
        &rng, maxPieces: Int.random(in: 1...2400, using: &rng))
      let title: String? =
        Bool.random(using: &rng) ? VendorPropertyTests.randomText(&rng, maxPieces: 80) : nil
      let ext = String(repeating: "e", count: Int.random(in: 0...1200, using: &rng))
      let escapeAll = Bool.random(using: &rng)
      let line: String
      switch Int.random(in: 0..<3, using: &rng) {
      case 0:
        var info: [String] = []
        if let title { info.append("\"Title\":" + TestJSON.literal(title, escapeAll: escapeAll)) }
        if !ext.isEmpty { info.append("\"Ext\":\"\(ext)\"") }
        if Bool.random(using: &rng) { info.append("\"ApnsInfo\":{\"IsVoipPush\":1}") }
        line =
          "{\"To_Account\":[\"a\",\"b\"],\"MsgBody\":[{\"MsgType\":\"TIMTextElem\",\"MsgContent\":{\"Text\":"
          + TestJSON.literal(body.isEmpty ? "x" : body, escapeAll: escapeAll)
          + "}}],\"OfflinePushInfo\":{" + info.joined(separator: ",") + "}}"
      case 1:
        var apns: [String] = []
        if let title {
          apns.append("\"em_push_title\":" + TestJSON.literal(title, escapeAll: escapeAll))
        }
        if !ext.isEmpty { apns.append("\"extern\":\"\(ext)\"") }
        line =
          "{\"from\":\"s\",\"to\":\"r\",\"chat_type\":\"chat\",\"payload\":{\"bodies\":[{\"type\":\"txt\",\"msg\":"
          + TestJSON.literal(body.isEmpty ? "x" : body, escapeAll: escapeAll)
          + "}],\"ext\":{\"em_apns_ext\":{" + apns.joined(separator: ",") + "}}}}"
      default:
        line = Bool.random(using: &rng) ? "   " : "{\"not\":\"a message\"}"
      }
      expectations[number] = (title, body.isEmpty ? "x" : body)
      var bytes = Array(line.utf8)
      bytes.withUnsafeMutableBufferPointer {
        processor.process(line: UnsafeBufferPointer($0), number: number, into: &output)
      }
    }
    var start = 0
    for ref in output.refs {
      let record = Array(output.main.bytes[start..<Int(ref.end)])
      start = Int(ref.end)
      guard let vendor = VendorID(rawValue: Int(ref.vendor)) else { continue }
      let line = Int(ref.line)
      Self.checkLimits(vendor, record, "random line \(line)")
      guard let expected = expectations[line], let payload = Self.payload(of: record) else {
        continue
      }
      if let body = VendorPropertyTests.body(vendor, payload) {
        // Easemob untitled bodies carry the `s:` summary prefix.
        // A blank body is written as the banner text where a body is required (SPEC 9 [4, 6.8]).
        let banner = vendor != .apns && vendor != .fcm && VendorPropertyTests.isBlank(expected.body)
        let originals =
          [expected.body, "s:" + expected.body] + (banner ? ["You have a new message"] : [])
        #expect(
          originals.contains { Self.isGraphemeCut(body, of: $0) },
          "\(vendor.name) line \(line): body is not a grapheme cut of the original")
        if !originals.contains(body) { cuts += 1 }
      }
      // A blank required title takes the fallback title (SPEC 9 [4, 6.8]).
      if let title = VendorPropertyTests.title(vendor, payload), let original = expected.title,
        !VendorPropertyTests.isBlank(original)
      {
        #expect(
          Self.isGraphemeCut(title, of: original),
          "\(vendor.name) line \(line): title is not a grapheme cut of the original")
      }
    }
    #expect(cuts > 50, "the random corpus should exercise cuts (\(cuts))")
    #expect(Self.accountingHolds(output.stats), "accounting: \(output.stats)")
    #expect(output.stats.lines == 400)
  }
}
