import Testing

@testable import PushTranscoder

/// fcm, huawei, honor and harmony: optional title, whole-payload byte budgets, no caps.
@Suite("Vendor fcm huawei honor harmony")
struct BudgetedVendorTests {
  let fullAndroid =
    #""android":{"sound":"s","googleImage":"gi","googlePriority":"normal","googleChannelID":"gc","huaweiChannelID":"hc","huaweiCategory":"IM","huaweiImportance":"NORMAL","huaweiImage":"hi","honorImportance":"LOW","honorImage":"oi"}"#

  @Test func fcmMinimalAlwaysWritesAndroidNotification() {
    #expect(
      NoticeFixture.payload(.fcm, #"{"body":"b","untitled":"n:b"}"#)
        == #"{"notification":{"body":"n:b"},"android":{"priority":"high","notification":{}}}"#)
  }

  @Test func fcmEveryOptionalKeyInOrder() {
    let line = #"{"title":"T","body":"b","untitled":"n:b","badgeSet":5,"ext":"e",\#(fullAndroid)}"#
    #expect(
      NoticeFixture.payload(.fcm, line)
        == #"{"notification":{"title":"T","body":"b","image":"gi"},"android":{"priority":"normal","notification":{"channel_id":"gc","sound":"s","notification_count":5}},"data":{"ext":"e"}}"#
    )
  }

  @Test func fcmAndroidNotificationWithOnlyACount() {
    #expect(
      NoticeFixture.payload(.fcm, #"{"body":"b","badgeSet":0,"badgeAdd":3}"#)
        == #"{"notification":{"body":"b"},"android":{"priority":"high","notification":{"notification_count":0}}}"#
    )
  }

  @Test func fcmExtJSONBecomesItsCanonicalText() {
    #expect(
      NoticeFixture.payload(.fcm, #"{"body":"b","extJSON":[true, null, "q\"/"]}"#)
        == #"{"notification":{"body":"b"},"android":{"priority":"high","notification":{}},"data":{"ext":"[true,null,\"q\\\"/\"]"}}"#
    )
  }

  @Test func huaweiMinimal() {
    #expect(
      NoticeFixture.payload(.huawei, #"{"body":"b","untitled":"n:b"}"#)
        == #"{"android":{"notification":{"body":"n:b","click_action":{"type":3}}}}"#)
  }

  @Test func huaweiEveryOptionalKeyInOrderAndSetBeatsAdd() {
    let line =
      #"{"title":"T","body":"b","badgeSet":2,"badgeAdd":1,"ext":"e",\#(fullAndroid)}"#
    #expect(
      NoticeFixture.payload(.huawei, line)
        == #"{"data":"e","android":{"category":"IM","notification":{"title":"T","body":"b","channel_id":"hc","importance":"NORMAL","image":"hi","sound":"s","default_sound":false,"badge":{"set_num":2},"click_action":{"type":3}}}}"#
    )
  }

  @Test func huaweiAddAlone() {
    #expect(
      NoticeFixture.payload(.huawei, #"{"body":"b","badgeAdd":1}"#)
        == #"{"android":{"notification":{"body":"b","badge":{"add_num":1},"click_action":{"type":3}}}}"#
    )
  }

  @Test func honorMinimal() {
    #expect(
      NoticeFixture.payload(.honor, #"{"body":"b","untitled":"n:b"}"#)
        == #"{"android":{"notification":{"body":"n:b","clickAction":{"type":3}}}}"#)
  }

  @Test func honorEveryOptionalKeyInOrder() {
    let line = #"{"title":"T","body":"b","badgeSet":2,"badgeAdd":1,"ext":"e",\#(fullAndroid)}"#
    #expect(
      NoticeFixture.payload(.honor, line)
        == #"{"data":"e","android":{"notification":{"title":"T","body":"b","importance":"LOW","image":"oi","badge":{"setNum":2},"clickAction":{"type":3}}}}"#
    )
    #expect(
      NoticeFixture.payload(.honor, #"{"body":"b","badgeAdd":7}"#)
        == #"{"android":{"notification":{"body":"b","badge":{"addNum":7},"clickAction":{"type":3}}}}"#
    )
  }

  @Test func harmonyMinimalUsesFallbackTitleAndUnprefixedBody() {
    #expect(
      NoticeFixture.payload(.harmony, #"{"body":"b","untitled":"n:b"}"#)
        == #"{"payload":{"notification":{"category":"IM","title":"New message","body":"b","clickAction":{"actionType":0}}}}"#
    )
  }

  @Test func harmonyEveryOptionalKeyInOrder() {
    let line =
      #"{"title":"T","harmony":{"title":"HT","category":"VOIP","image":"i","sound":"s","soundDuration":0},"body":"b","badgeAdd":1,"ext":"e"}"#
    #expect(
      NoticeFixture.payload(.harmony, line)
        == #"{"payload":{"notification":{"category":"VOIP","title":"HT","body":"b","image":"i","sound":"s","soundDuration":0,"badge":{"addNum":1},"clickAction":{"actionType":0,"data":{"ext":"e"}}}}}"#
    )
  }

  @Test func harmonyTitleFallsBackToTitleThenFallback() {
    #expect(
      NoticeFixture.payload(.harmony, #"{"title":"T","harmony":{"title":""},"body":"b"}"#)
        .contains(#""title":"T","#))
    #expect(
      NoticeFixture.payload(.harmony, #"{"fallback":"Team","body":"b"}"#)
        .contains(#""title":"Team","#))
  }

  /// The shape bytes of each vendor's payload with an empty body and nothing optional.
  static let emptyShapes: [(VendorID, Int, [StaticString])] = [
    (.apns, 20, ["aps", "alert"]),
    (.fcm, 76, ["notification", "body"]),
    (.huawei, 66, ["android", "notification", "body"]),
    (.honor, 65, ["android", "notification", "body"]),
    (.harmony, 109, ["payload", "notification", "body"]),
  ]

  /// The payload size of `line` (whose body is empty) less its body: an empty body is written
  /// as the banner text by the vendors that require a body (SPEC 9 [4, 6.8]).
  static func emptyBodySize(_ vendor: VendorID, _ line: String) -> Int {
    let size = NoticeFixture.render(vendor, line).payloadBytes.count
    return vendor == .apns || vendor == .fcm ? size : size - "You have a new message".utf8.count
  }

  @Test(arguments: emptyShapes)
  func byteBudgetIsInclusiveAndCutsCJKOneAbove(
    _ vendor: VendorID, _ shape: Int, _ path: [StaticString]
  ) {
    let budget = VendorLimits.of(vendor).payloadBytes!
    #expect(Self.emptyBodySize(vendor, #"{"body":""}"#) == shape)
    // Pad with ASCII so that CJK ends exactly at, one below and one above the budget.
    let room = budget - shape
    let cjk = (room - room % 3) / 3
    let pad = String(repeating: "a", count: room % 3)
    for extra in [-1, 0, 1] {
      let text =
        pad + String(repeating: "中", count: cjk - 1) + (extra == -1 ? "" : "中")
        + (extra == 1 ? "x" : "")
      let rendered = NoticeFixture.render(vendor, #"{"body":"\#(text)"}"#)
      let body = TestJSON.string(rendered.payloadBytes, path)
      if extra <= 0 {
        #expect(!rendered.effects.bodyCut, "\(vendor) \(extra)")
        #expect(body == text)
        #expect(rendered.payloadBytes.count == budget + (extra == -1 ? -3 : 0))
      } else {
        // One byte over: the last 中 and the x go, `…` takes their place.
        #expect(rendered.effects.bodyCut, "\(vendor)")
        #expect(body == pad + String(repeating: "中", count: cjk - 1) + "…")
        #expect(rendered.payloadBytes.count == budget)
      }
    }
  }

  @Test(arguments: emptyShapes)
  func roomOfExactlyThreeBytesGivesEllipsisAlone(
    _ vendor: VendorID, _ shape: Int, _ path: [StaticString]
  ) {
    let budget = VendorLimits.of(vendor).payloadBytes!
    // A title makes the shape bigger: pick one that leaves exactly 3 bytes, then 2.
    let emptyTitle = Self.emptyBodySize(vendor, #"{"title":"","body":""}"#)
    #expect(emptyTitle == shape)
    func titled(_ title: String) -> String {
      let field = vendor == .harmony ? #""harmony":{"title":"\#(title)"}"# : #""title":"\#(title)""#
      return #"{\#(field),"body":"long body"}"#
    }
    let withTitle = NoticeFixture.render(vendor, titled("t"))
    let bodyLength = "long body".utf8.count
    let titleOverhead = withTitle.payloadBytes.count - bodyLength - shape - 1
    let title = String(repeating: "t", count: budget - shape - titleOverhead - 3)
    let rendered = NoticeFixture.render(vendor, titled(title))
    #expect(rendered.effects.bodyCut)
    #expect(rendered.payloadBytes.count == budget)
    let bodyPath = vendor == .apns ? ["aps", "alert", "body"] : path
    #expect(TestJSON.string(rendered.payloadBytes, bodyPath) == "…")
    let over = NoticeFixture.render(vendor, titled(title + "t"))
    #expect(over.refusal?.reason == .overBudget)
  }

  @Test(arguments: [VendorID.apns, .fcm, .huawei, .honor, .harmony])
  func hugeExtIsRefusedNeverCut(_ vendor: VendorID) {
    let ext = String(repeating: "x", count: 5200)
    let rendered = NoticeFixture.render(vendor, #"{"body":"b","ext":"\#(ext)"}"#)
    #expect(rendered.refusal?.reason == .overBudget)
  }

  @Test(arguments: [VendorID.apns, .fcm, .huawei, .honor, .harmony])
  func escapesCountAsWrittenInTheBudget(_ vendor: VendorID) {
    // Each `"` is written as two bytes: 2100 of them are over every budget.
    let text = String(repeating: "\\\"", count: 2100)
    let rendered = NoticeFixture.render(vendor, #"{"body":"\#(text)"}"#)
    #expect(rendered.effects.bodyCut)
    let budget = VendorLimits.of(vendor).payloadBytes!
    #expect(rendered.payloadBytes.count <= budget && rendered.payloadBytes.count >= budget - 1)
    #expect(TestJSON.parses(rendered.payloadBytes))
  }
}
