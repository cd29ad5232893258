import Foundation
import Testing

@testable import PushTranscoder

/// A message split into several records per vendor (an Easemob REST send to several groups, or
/// recipients beyond the per-record limit) can have records of different sizes: a title per
/// group, apns `t` per recipient. When one does not fit, SPEC 5 rejects "the message ... for
/// that vendor only", with at most one reject per (message, vendor, reason) "where that
/// vendor's first record would have been" (9 [6]), and counts cuts and over-budget per
/// (message, vendor).
///
/// Before: the records before the refused one went out and the ones after it did not, so the
/// output depended on the order of the groups; and cut counts looked at the first record only.
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

  @Test(arguments: [
    ["g_huge", "g_small"], ["g_small", "g_huge"], ["g_small", "g_huge", "g_small"],
  ])
  func oneRecordTooLargeRejectsTheMessageForThatVendorOnly(groups: [String]) {
    let (records, stats) = Self.render(Self.send(to: groups), vendors: [.apns, .harmony, .vivo])
    let shape = Self.shape(records)
    // apns and vivo carry the group id, not its name: all their records fit.
    #expect(shape.filter { $0.hasPrefix("apns ") } == groups.map { "apns \($0)" })
    #expect(shape.filter { $0.hasPrefix("vivo ") } == groups.map { "vivo \($0)" })
    // harmony's title is the group name: no harmony record, one reject in harmony's place.
    #expect(shape.filter { $0.contains("harmony") } == ["reject harmony over-budget"])
    #expect(shape.firstIndex(of: "reject harmony over-budget") == groups.count)
    #expect(stats.transcoded == 1)
    #expect(stats.records[VendorID.harmony.rawValue] == 0)
    #expect(stats.records[VendorID.apns.rawValue] == groups.count)
    #expect(stats.overBudget[VendorID.harmony.rawValue] == 1)
    #expect(stats.vendorRejects[VendorID.harmony.rawValue][RejectReason.overBudget.rawValue] == 1)
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

  @Test func inBatchModeTheRefusedVendorsRecordEndsAreDropped() {
    var options = TranscodeOptions()
    options.vendors = [.apns, .harmony]
    options.rejectsInline = false
    options.collectRecordRefs = true
    var processor = LineProcessor(options: options, directory: Self.groups)
    var output = ChunkOutput(sequence: 0, source: SourceName("t.ndjson"))
    Array(Self.send(to: ["g_small", "g_small", "g_huge"]).utf8).withUnsafeBufferPointer {
      processor.process(line: $0, number: 1, into: &output)
    }
    let main = output.main.bytes
    // Three apns records; the two harmony records written before the refusal are gone, and so
    // are their ends.
    #expect(output.refs.map(\.vendor) == [0, 0, 0])
    #expect(output.refs.last!.end == main.count)
    for ref in output.refs { #expect(main[ref.end - 1] == UInt8(ascii: "\n")) }
    #expect(!String(decoding: main, as: UTF8.self).contains("harmony"))
    #expect(String(decoding: output.rejects.bytes, as: UTF8.self).contains("over-budget"))
  }
}
