import Foundation
import Testing

@testable import PushTranscoder

/// A message split into several records per vendor (an Easemob REST send to several groups, or
/// recipients beyond the per-record limit) can have records of different sizes: a title per
/// group, apns `t` per recipient. SPEC 5 refuses the message for that vendor "only", with at
/// most one reject per (message, vendor, reason) "where that vendor's first record would have
/// been" (9 [6]), and counts cuts and over-budget per (message, vendor).
///
/// Before: the first refused record ended the vendor's loop, so records after it that fit were
/// dropped (and the output depended on the order of the groups), and cut counts looked at the
/// first record only.
@Suite struct SplitRefusalTests {
  /// A group name that makes a harmony payload (title = group name) exceed its 4096 bytes.
  static let hugeName = String(repeating: "N", count: 4100)
  static let groups = directory([
    #"{"GroupId":"g_huge","Name":"\#(hugeName)"}"#,
    #"{"GroupId":"g_small","Name":"Small"}"#,
    #"{"GroupId":"g_long","Name":"GroupName-GroupName-GroupName-GroupName"}"#,
  ]).0

  static func render(_ line: String, vendors: [VendorID], unicode: UnicodeMode = .strict)
    -> (records: [[String: Any]], stats: RunStats)
  {
    var options = TranscodeOptions()
    options.vendors = vendors
    options.unicode = unicode
    var processor = LineProcessor(options: options, directory: groups)
    var output = ChunkOutput(sequence: 0, source: SourceName("t.ndjson"))
    Array(line.utf8).withUnsafeBufferPointer {
      processor.process(line: $0, number: 1, into: &output)
    }
    let text = String(decoding: output.main.bytes, as: UTF8.self)
    let records = text.split(separator: "\n").map {
      try! JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any]
    }
    return (records, output.stats)
  }

  static func send(to groups: [String]) -> String {
    let targets = groups.map { "\"\($0)\"" }.joined(separator: ",")
    return
      #"{"target_type":"chatgroups","target":[\#(targets)],"msg":{"type":"txt","msg":"hi"},"from":"a"}"#
  }

  /// (vendor, group, reject reason) of each output line, in order.
  static func shape(_ records: [[String: Any]]) -> [String] {
    records.map { record in
      if record["vendor"] as? String == "reject" {
        return "reject \(record["for"] as? String ?? "?") \(record["reason"] as? String ?? "?")"
      }
      return "\(record["vendor"] as? String ?? "?") \(record["group"] as? String ?? "-")"
    }
  }

  @Test func aRefusedFirstGroupKeepsTheGroupsThatFit() {
    let (records, stats) = Self.render(
      Self.send(to: ["g_huge", "g_small"]), vendors: [.apns, .harmony])
    #expect(
      Self.shape(records) == [
        "apns g_huge", "apns g_small", "reject harmony over-budget", "harmony g_small",
      ])
    #expect(stats.transcoded == 1)
    #expect(stats.records[VendorID.harmony.rawValue] == 1)
    #expect(stats.overBudget[VendorID.harmony.rawValue] == 1)
    #expect(stats.vendorRejects[VendorID.harmony.rawValue][RejectReason.overBudget.rawValue] == 1)
  }

  @Test func theRejectGoesWhereTheVendorsFirstRecordWouldHaveBeen() {
    // The refused group comes second: the reject still precedes the vendor's records, so the
    // output has the same shape whatever the order of the groups.
    let (records, stats) = Self.render(
      Self.send(to: ["g_small", "g_huge", "g_small"]), vendors: [.harmony, .vivo])
    #expect(
      Self.shape(records) == [
        "reject harmony over-budget", "harmony g_small", "harmony g_small", "vivo g_small",
        "vivo g_huge", "vivo g_small",
      ])
    #expect(stats.overBudget[VendorID.harmony.rawValue] == 1)
    #expect(stats.records[VendorID.harmony.rawValue] == 2)
  }

  @Test func everyGroupRefusedRejectsTheLineOnce() {
    let (records, stats) = Self.render(Self.send(to: ["g_huge", "g_huge"]), vendors: [.harmony])
    #expect(Self.shape(records) == ["reject harmony over-budget"])
    #expect(stats.transcoded == 0)
    #expect(stats.rejected[RejectReason.overBudget.rawValue] == 1)
    #expect(stats.overBudget[VendorID.harmony.rawValue] == 1)
  }

  @Test func aTitleCutInALaterRecordCounts() {
    // meizu caps titles at 32 scalars: only the second group's name is cut.
    let (records, stats) = Self.render(Self.send(to: ["g_small", "g_long"]), vendors: [.meizu])
    #expect(Self.shape(records) == ["meizu g_small", "meizu g_long"])
    let payload = records[1]["payload"] as? [String: Any]
    let title = (payload?["noticeBarInfo"] as? [String: Any])?["title"] as? String
    #expect(title?.hasSuffix("…") == true)
    #expect(stats.cutTitles[VendorID.meizu.rawValue] == 1)
  }

  @Test func inBatchModeRejectsStayInTheirOwnChannelAndRecordEndsHold() {
    var options = TranscodeOptions()
    options.vendors = [.harmony]
    options.rejectsInline = false
    options.collectRecordRefs = true
    var processor = LineProcessor(options: options, directory: Self.groups)
    var output = ChunkOutput(sequence: 0, source: SourceName("t.ndjson"))
    Array(Self.send(to: ["g_small", "g_huge", "g_small"]).utf8).withUnsafeBufferPointer {
      processor.process(line: $0, number: 1, into: &output)
    }
    let main = String(decoding: output.main.bytes, as: UTF8.self)
    #expect(main.split(separator: "\n").count == 2)
    let firstEnd = main.utf8.firstIndex(of: UInt8(ascii: "\n")).map {
      main.utf8.distance(from: main.utf8.startIndex, to: $0) + 1
    }
    #expect(output.refs.map { Int($0.end) } == [firstEnd, main.utf8.count])
    #expect(String(decoding: output.rejects.bytes, as: UTF8.self).contains("over-budget"))
  }
}

extension SplitRefusalTests {
  @Test func recordEndsFollowAnInlineRejectMovedBeforeThem() {
    // The command line never combines the two (record ends are for batches, whose rejects have
    // their own file), but the moved reject must keep the ends of the records it passes right.
    var options = TranscodeOptions()
    options.vendors = [.apns, .harmony]
    options.collectRecordRefs = true
    var processor = LineProcessor(options: options, directory: Self.groups)
    var output = ChunkOutput(sequence: 0, source: SourceName("t.ndjson"))
    Array(Self.send(to: ["g_small", "g_small", "g_huge", "g_small"]).utf8)
      .withUnsafeBufferPointer { processor.process(line: $0, number: 1, into: &output) }
    let bytes = output.main.bytes
    #expect(output.refs.count == 7)
    var start = 0
    for ref in output.refs {
      let end = Int(ref.end)
      #expect(bytes[end - 1] == UInt8(ascii: "\n"))
      // Each end closes a record of its vendor: skip a reject line before it, if any.
      let lines = String(decoding: bytes[start..<end], as: UTF8.self).split(separator: "\n")
      let vendor = VendorID.allCases.first { $0.rawValue == Int(ref.vendor) }!
      #expect(lines.last?.contains("\"vendor\":\"\(vendor)\"") == true)
      start = end
    }
    let text = String(decoding: bytes, as: UTF8.self)
    #expect(
      Self.shape(
        text.split(separator: "\n").map {
          try! JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any]
        }
      ).suffix(4) == [
        "reject harmony over-budget", "harmony g_small", "harmony g_small", "harmony g_small",
      ])
  }
}
