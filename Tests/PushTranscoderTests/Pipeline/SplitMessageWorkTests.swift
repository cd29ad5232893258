import Foundation
import Testing

@testable import PushTranscoder

/// A message split into many records (a send to many recipients or groups) asks the same
/// questions of its texts in every record. What the per-line memo and canonicalizer answer once
/// per line must stay once per line: asked per record, the work grew with records × text (a
/// 1 MB line to 10,000 groups whose body starts with blanks took two minutes). No timing here:
/// the counts of the work done, and the records it made.
@Suite struct SplitMessageWorkTests {
  /// Processes `line` for `vendors` and hands the records (NDJSON lines) and the processor to
  /// `check`.
  static func process(
    _ line: String, vendors: [VendorID], directory: NameDirectory = NameDirectory(),
    _ check: ([String], borrowing LineProcessor) -> Void
  ) {
    var options = TranscodeOptions()
    options.vendors = vendors
    var processor = LineProcessor(options: options, directory: directory)
    var output = ChunkOutput(sequence: 0, source: SourceName("split.ndjson"))
    let bytes = Array(line.utf8)
    bytes.withUnsafeBufferPointer { processor.process(line: $0, number: 1, into: &output) }
    let records = String(decoding: output.main.bytes, as: UTF8.self)
      .split(separator: "\n").map(String.init)
    check(records, processor)
  }

  static func payload(_ record: String) -> [String: Any] {
    let object = (try? JSONSerialization.jsonObject(with: Data(record.utf8))) as? [String: Any]
    return object?["payload"] as? [String: Any] ?? [:]
  }

  /// A Tencent line from `u` to `recipients` recipients with one text element of `text` (JSON
  /// string content as written).
  static func tencent(recipients: Int, text: String) -> String {
    let to = (0..<recipients).map { "\"r\($0)\"" }.joined(separator: ",")
    return #"{"From_Account":"u","To_Account":[\#(to)],"MsgKey":"k","MsgBody":"#
      + #"[{"MsgType":"TIMTextElem","MsgContent":{"Text":"\#(text)"}}]}"#
  }

  @Test func aBodyThatStartsBlankIsWalkedOncePerLineNotOncePerGroup() {
    let groups = (0..<50).map { "\"g\($0)\"" }.joined(separator: ",")
    let body = String(repeating: " ", count: 3000) + "x"
    let line =
      #"{"target_type":"chatgroups","target":[\#(groups)],"msg":{"type":"txt","msg":"\#(body)"},"#
      + #""from":"u"}"#
    // Three vendors that require a body, one record per group each.
    Self.process(line, vendors: [.huawei, .harmony, .oppo]) { records, processor in
      #expect(records.count == 150)
      #expect(!records.contains { $0.contains("\"vendor\":\"reject\"") })
      // The body is not blank (it ends in `x`), so no record carries the banner instead.
      #expect(!records.contains { $0.contains("You have a new message") })
      // The body (with no display prefix, the untitled body is the same text): once, not 150
      // times.
      #expect(processor.lineMemo.blankTextsWalked == 1)
    }
  }

  @Test func aBlankBodyBecomesTheBannerInEveryRecord() {
    let to = (0..<120).map { "\"r\($0)\"" }.joined(separator: ",")
    let line =
      #"{"From_Account":"u","To_Account":[\#(to)],"MsgKey":"k","OfflinePushInfo":{"Desc":"  \u3000 "},"#
      + #""MsgBody":[{"MsgType":"TIMTextElem","MsgContent":{"Text":"t"}}]}"#
    // xiaomi sends 100 recipients a record: two records, both with the banner as body.
    Self.process(line, vendors: [.xiaomi]) { records, processor in
      #expect(records.count == 2)
      for record in records {
        #expect(Self.payload(record)["description"] as? String == "You have a new message")
      }
      #expect(processor.lineMemo.blankTextsWalked == 1)
    }
  }

  @Test func anEscapedBodyIsResolvedOnceForOneVendorsManyRecords() {
    let text = String(repeating: #"\u00e9"#, count: 10)
    // One vendor, several records: the escapes are resolved once for the line.
    Self.process(Self.tencent(recipients: 3, text: text), vendors: [.apns]) { records, processor in
      #expect(records.count == 3)
      #expect(processor.canonicalizedNotices == 1)
      for record in records {
        let aps = Self.payload(record)["aps"] as? [String: Any]
        #expect(aps?["alert"] as? String == String(repeating: "é", count: 10))
      }
    }
    // One vendor, one record: nothing is resolved ahead (the record writes it once anyway).
    Self.process(Self.tencent(recipients: 1, text: text), vendors: [.apns]) { records, processor in
      #expect(records.count == 1)
      #expect(processor.canonicalizedNotices == 0)
    }
  }

  @Test func aLongBodyIsCutOncePerLineForEveryRecordOfTheSameRoom() {
    // 5,000 escaped `é` (10,000 bytes decoded): over apns's 4096-byte budget in every record.
    let text = String(repeating: #"\u00e9"#, count: 5000)
    var single = ""
    Self.process(Self.tencent(recipients: 1, text: text), vendors: [.apns]) { records, _ in
      single = (Self.payload(records[0])["aps"] as? [String: Any])?["alert"] as? String ?? ""
    }
    #expect(single.hasSuffix("…") && single.utf8.count < 4096)
    Self.process(Self.tencent(recipients: 20, text: text), vendors: [.apns]) { records, processor in
      #expect(records.count == 20)
      for record in records {
        #expect((Self.payload(record)["aps"] as? [String: Any])?["alert"] as? String == single)
      }
      #expect(processor.lineMemo.byteCutsMade == 1)
    }
  }

  /// The numbers of an over-budget refusal's detail: the payload's size, and its size with an
  /// empty body.
  static func refusalSizes(_ record: String) -> [Int] {
    let object = (try? JSONSerialization.jsonObject(with: Data(record.utf8))) as? [String: Any]
    let detail = object?["detail"] as? String ?? ""
    return detail.split(separator: " ").compactMap {
      Int($0.trimmingCharacters(in: CharacterSet.punctuationCharacters))
    }
  }

  @Test func aTitleLongerThanTheBudgetIsMeasuredNotWritten() {
    // A nickname used as harmony's title (no `Title` in the line): the sender's every message
    // carries it, and one longer than the budget makes every payload over it.
    func harmony(nickname: String, body: String) -> [String] {
      let (names, _) = directory([
        #"{"To_Account":"u","ProfileItem":[{"Tag":"Tag_Profile_IM_Nick","Value":"\#(nickname)"}]}"#
      ])
      var records: [String] = []
      Self.process(Self.tencent(recipients: 1, text: body), vendors: [.harmony], directory: names) {
        found, _ in records = found
      }
      return records
    }
    // The payload of a one-byte title and a two-byte body: its size less those three bytes is
    // what every other byte of the payload takes.
    let fitting = harmony(nickname: "n", body: "hi")
    #expect(fitting.count == 1)
    // The payload is the record's last member.
    let payloadStart = fitting[0].range(of: #""payload":"#)!.upperBound
    let rest = fitting[0][payloadStart...].utf8.count - 1 - 3
    for length in [4105, 5000, 70_000] {
      let records = harmony(nickname: String(repeating: "n", count: length), body: "hi")
      #expect(records.count == 1)
      #expect(records[0].contains(#""reason":"over-budget""#))
      // The sizes are those of the payload written whole: the title's bytes are counted.
      #expect(Self.refusalSizes(records[0]).prefix(2) == [rest + length + 2, rest + length])
    }
    // Under a body limit, such a title is not written: `""` and its length.
    var writer = JSONWriter()
    writer.bodyLimit = 100
    let long = [UInt8](repeating: UInt8(ascii: "t"), count: 101)
    long.withUnsafeBufferPointer {
      writer.boundedString(StringSlice(pointer: $0.baseAddress!, count: 101, hasEscapes: false))
    }
    writer.boundedString(StringSlice("short"))
    let written = String(decoding: writer.bytes, as: UTF8.self)
    let unwritten = writer.unwrittenBytes
    #expect(written == #""""short""#)
    #expect(unwritten == 101)
  }
}
