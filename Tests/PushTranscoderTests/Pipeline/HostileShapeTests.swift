import Foundation
import Testing

@testable import PushTranscoder

/// The hostile line shapes of issue 21 (`HostileShape`, which the bench times at two sizes),
/// each at a small size: what they produce, not how fast (no timing in tests). The shapes that
/// used to cost quadratic time (an object scanned once per member for its duplicate keys, a
/// growing list searched once per escaped slice) must keep their exact output.
@Suite struct HostileShapeTests {
  /// The records (NDJSON lines) and stats of `line` rendered to `vendors`.
  static func render(
    _ line: [UInt8], vendors: [VendorID] = VendorID.allCases,
    directory: NameDirectory = NameDirectory()
  ) -> (records: [String], stats: RunStats) {
    var options = TranscodeOptions()
    options.vendors = vendors
    var processor = LineProcessor(options: options, directory: directory)
    var output = ChunkOutput(sequence: 0, source: SourceName("h.ndjson"))
    line.withUnsafeBufferPointer { processor.process(line: $0, number: 1, into: &output) }
    let text = String(decoding: output.main.bytes, as: UTF8.self)
    return (text.split(separator: "\n").map(String.init), output.stats)
  }

  static func object(_ record: String) -> [String: Any] {
    (try? JSONSerialization.jsonObject(with: Data(record.utf8))) as? [String: Any] ?? [:]
  }

  static func payload(_ record: String) -> [String: Any] {
    object(record)["payload"] as? [String: Any] ?? [:]
  }

  /// The fcm body of the line's first fcm record.
  static func fcmBody(_ line: [UInt8]) -> String? {
    let (records, _) = render(line, vendors: [.fcm])
    guard let first = records.first else { return nil }
    return (payload(first)["notification"] as? [String: Any])?["body"] as? String
  }

  /// The ext meizu carries (`clickTypeInfo.parameters.ext`): for a JSON `extern`, its
  /// canonical text. meizu has no byte budget, so a large ext is written whole.
  static func meizuExt(_ line: [UInt8]) -> String? {
    let (records, _) = render(line, vendors: [.meizu])
    guard let first = records.first else { return nil }
    let click = payload(first)["clickTypeInfo"] as? [String: Any]
    return (click?["parameters"] as? [String: Any])?["ext"] as? String
  }

  /// The canonical form `JSONWriter.value` gives the line's `payload.ext.em_apns_ext.extern`
  /// (the value apns `e` and every other vendor's ext text are made of; no vendor budget
  /// lets a large one through, so it is checked at the writer).
  static func externCanonical(_ line: [UInt8]) -> String? {
    var tokenizer = JSONTokenizer()
    return line.withUnsafeBufferPointer { bytes -> String? in
      guard tokenizer.parse(bytes) == nil else { return nil }
      return tokenizer.withDocument(bytes) { document -> String? in
        var index = document.root
        for key: StaticString in ["payload", "ext", "em_apns_ext", "extern"] {
          guard let next = document.member(index, key) else { return nil }
          index = next
        }
        return canonical(document, index)
      }
    }
  }

  /// `{"k(i)":value(i),...}` written canonically, for `count` keys.
  static func members(_ count: Int, _ member: (Int) -> String) -> String {
    "{" + (0..<count).map(member).joined(separator: ",") + "}"
  }

  @Test func everyShapeProducesRecordsWithoutRejects() {
    for shape in HostileShape.allCases where !shape.isDirectory {
      let (records, stats) = Self.render(shape.line(40))
      #expect(stats.transcoded == 1, "\(shape.rawValue)")
      #expect(!records.isEmpty, "\(shape.rawValue)")
      // apns may refuse a deep `extern` over its 4096-byte budget; nothing else is refused.
      let rejects = records.filter { $0.contains("\"vendor\":\"reject\"") }
      #expect(rejects.allSatisfy { $0.contains("\"reason\":\"over-budget\"") }, "\(shape.rawValue)")
    }
  }

  @Test(arguments: [2, 8, 40, 2000])
  func externWithRepeatedKeysKeepsFirstPositionAndLastValue(size: Int) {
    let line = HostileShape.externRepeatedKeys.line(size)
    let half = size / 2
    let expected = Self.members(half) { "\"k\($0)\":\($0 + half)" }
    #expect(Self.externCanonical(line) == expected)
    if size <= 40 {
      #expect(Self.meizuExt(line) == expected)
      // apns `e` carries the value itself (within its 4096-byte budget).
      let (records, _) = Self.render(line, vendors: [.apns])
      #expect(records.count == 1)
      #expect(records.first?.hasSuffix(",\"e\":\(expected)}}") == true)
    }
  }

  @Test(arguments: [8, 40, 2000])
  func escapedRepeatedKeysCompareDecoded(size: Int) {
    // `"k\u00301"` decodes to `k01`: one key, whichever way it is escaped.
    let half = size / 2
    let expected = Self.members(half) { "\"k0\($0)\":\($0 + half)" }
    #expect(Self.externCanonical(HostileShape.externEscapedKeys.line(size)) == expected)
  }

  @Test func escapedAndPlainSpellingsOfOneKeyAreOneKey() {
    // Over `DuplicateKeys.pairwiseLimit` members, so the hash table decides: the escaped
    // `"\u006b5"` is the key `k5` written earlier, and keeps its place with the last value.
    let keys = (0..<20).map { "\"k\($0)\":\($0)" }.joined(separator: ",")
    let extern = "{\(keys),\"\\u006b5\":\"last\"}"
    let line =
      #"{"msg_id":"m1","from":"a","to":"b","chat_type":"chat","payload":{"bodies":[{"type":"txt","msg":"x"}],"ext":{"em_apns_ext":{"extern":\#(extern)}}}}"#
    let (records, _) = Self.render(Array(line.utf8), vendors: [.apns])
    let expected = Self.members(20) { $0 == 5 ? "\"k5\":\"last\"" : "\"k\($0)\":\($0)" }
    #expect(records.first?.hasSuffix(",\"e\":\(expected)}}") == true)
  }

  @Test func externWithManyKeysIsCopiedInOrder() {
    let expected = Self.members(2000) { "\"k\($0)\":\($0)" }
    #expect(Self.externCanonical(HostileShape.externManyKeys.line(2000)) == expected)
  }

  @Test func deeplyNestedExternKeepsFirstPositionAtEveryLevel() {
    var chain = "1"
    for _ in 0..<200 { chain = "{\"a\":\(chain),\"b\":[1,\"x\"]}" }
    let expected = Self.members(2) { "\"d\($0)\":\(chain)" }
    #expect(Self.externCanonical(HostileShape.externDeep.line(400)) == expected)
  }

  @Test func templateWithRepeatedKeysIsWrittenOnceEach() {
    let (records, _) = Self.render(HostileShape.templateManyKeys.line(2000), vendors: [.fcm])
    let expected = Self.members(1000) { "\"t\($0)\":\"v\($0 + 1000)\"" }
    #expect(records.first?.contains(",\"template\":\(expected),\"payload\":") == true)
  }

  @Test func contentStateWithRepeatedKeysIsWrittenOnceEach() {
    // Within apns's 4096-byte budget (Live Activity goes to apns only).
    let (records, _) = Self.render(HostileShape.contentStateManyKeys.line(100), vendors: [.apns])
    let expected = Self.members(50) { "\"s\($0)\":[\($0 + 50),{\"x\":\"A\"}]" }
    #expect(records.first?.contains("\"content-state\":\(expected)") == true)
  }

  @Test func escapedRecipientsMakeOneRecordEachInOrder() {
    let (records, _) = Self.render(
      HostileShape.escapedRecipients.line(1000), vendors: [.apns, .fcm])
    let apns = records.filter { $0.contains("\"vendor\":\"apns\"") }
    let fcm = records.filter { $0.contains("\"vendor\":\"fcm\"") }
    #expect(apns.count == 1000)
    #expect(apns.map { Self.object($0)["to"] as? [String] ?? [] } == (0..<1000).map { ["u_\($0)"] })
    // fcm carries 500 recipients per record.
    #expect(fcm.count == 2)
    let fcmTo = fcm.flatMap { Self.object($0)["to"] as? [String] ?? [] }
    #expect(fcmTo == (0..<1000).map { "u_\($0)" })
  }

  @Test func repeatedRecipientsAreKept() {
    let (records, _) = Self.render(HostileShape.repeatedRecipients.line(1000), vendors: [.apns])
    #expect(records.count == 1000)
    #expect(records.allSatisfy { Self.object($0)["to"] as? [String] == ["u1"] })
  }

  @Test func easemobTargetsAndGroups() {
    let (users, _) = Self.render(HostileShape.easemobTargets.line(1000), vendors: [.huawei])
    #expect(
      users.flatMap { Self.object($0)["to"] as? [String] ?? [] } == (0..<1000).map { "u_\($0)" })
    let (groups, _) = Self.render(HostileShape.easemobGroups.line(300), vendors: [.apns])
    #expect(groups.map { Self.object($0)["group"] as? String ?? "" } == (0..<300).map { "g\($0)" })
  }

  @Test func manyElementsAndBodiesConcatenate() {
    #expect(
      Self.fcmBody(HostileShape.manyElements.line(50))
        == (0..<50).map { "t\($0)é" }.joined())
    #expect(
      Self.fcmBody(HostileShape.manyBodies.line(50)) == "a:" + (0..<50).map { "m\($0)é" }.joined())
  }

  @Test func escapeAndSurrogateRunsDecode() {
    #expect(
      Self.fcmBody(HostileShape.escapeRun.line(100))
        == "x" + String(repeating: "é\n\"", count: 100))
    let (records, _) = Self.render(HostileShape.surrogateRun.line(100), vendors: [.fcm, .xiaomi])
    let fcm = (Self.payload(records[0])["notification"] as? [String: Any]) ?? [:]
    #expect(fcm["body"] as? String == String(repeating: "😀", count: 100))
    #expect(fcm["title"] as? String == String(repeating: "😀", count: 100))
    // xiaomi caps the title at 49 scalars: 48 emoji and `…`.
    #expect(Self.payload(records[1])["title"] as? String == String(repeating: "😀", count: 48) + "…")
  }

  @Test(arguments: [HostileShape.combiningMarks, .escapedCombiningMarks])
  func oneClusterOfManyMarksIsCutWhole(shape: HostileShape) {
    let cluster = "a" + String(repeating: "\u{301}", count: 300)
    let (records, _) = Self.render(shape.line(300), vendors: [.fcm, .xiaomi, .meizu])
    // fcm has no cap and room for the 601 bytes; the capped vendors keep no part of a cluster
    // longer than their caps.
    let fcm = (Self.payload(records[0])["notification"] as? [String: Any]) ?? [:]
    #expect((fcm["body"] as? String)?.unicodeScalars.count == cluster.unicodeScalars.count)
    #expect(Self.payload(records[1])["title"] as? String == "…")
    #expect(Self.payload(records[1])["description"] as? String == "…")
    let meizu = (Self.payload(records[2])["noticeBarInfo"] as? [String: Any]) ?? [:]
    #expect(meizu["content"] as? String == "…")
    // Over fcm's 4000-byte budget (a body alone, no title), the byte cut also keeps nothing
    // of the cluster.
    let marks = String(repeating: shape == .combiningMarks ? "\u{301}" : #"\u0301"#, count: 3000)
    let line =
      #"{"From_Account":"a","To_Account":"b","MsgBody":[{"MsgType":"TIMTextElem","MsgContent":{"Text":"a\#(marks)"}}]}"#
    #expect(Self.fcmBody(Array(line.utf8)) == "…")
  }

  @Test func wideIgnoredArrayIsSkipped() {
    #expect(Self.fcmBody(HostileShape.wideIgnoredArray.line(1000)) == "hello")
  }

  @Test func escapedExtStringIsDecodedForEveryVendor() {
    let (records, _) = Self.render(HostileShape.escapedExtString.line(100), vendors: [.fcm])
    let data = Self.payload(records[0])["data"] as? [String: Any]
    #expect(data?["ext"] as? String == String(repeating: "é\"", count: 100))
  }

  @Test(arguments: [HostileShape.directoryEntries, .directoryProfileItems])
  func manyDirectoryEntriesForOneUserKeepTheLast(shape: HostileShape) {
    var directory = NameDirectory()
    var tokenizer = JSONTokenizer()
    for part in shape.line(1000).split(separator: 0x0A) {
      Array(part).withUnsafeBufferPointer { line in
        #expect(tokenizer.parse(line) == nil)
        #expect(tokenizer.withDocument(line) { directory.ingest($0) } == .user)
      }
    }
    #expect(directory.userCount == 1)
    #expect(directory.nickname(of: "u1") == (shape == .directoryEntries ? "N999" : "NA999"))
    // The message of the directory shapes gets the last nickname as its prefix.
    let (records, _) = Self.render(
      Array(HostileShape.directoryMessage.utf8), vendors: [.fcm], directory: directory)
    let body = (Self.payload(records[0])["notification"] as? [String: Any])?["body"] as? String
    #expect(body == (shape == .directoryEntries ? "N999:hi" : "NA999:hi"))
  }
}
