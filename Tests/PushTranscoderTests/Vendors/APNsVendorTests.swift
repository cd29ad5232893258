import Testing

@testable import PushTranscoder

@Suite("Vendor apns")
struct APNsVendorTests {
  let worked =
    #""body":["hello","world"],"untitled":["Nickname:","hello","world"],"sound":"dingdong.aiff","ext":"www.qq.com""#

  @Test func tencentWorkedExampleUsesTheDisplayPrefixAsAPlainAlert() {
    #expect(
      NoticeFixture.payload(.apns, "{\(worked)}")
        == #"{"aps":{"alert":"Nickname:helloworld","sound":"dingdong.aiff"},"ext":"www.qq.com"}"#)
  }

  @Test func tencentTitleMakesAnAlertObjectWithTheUnprefixedBody() {
    #expect(
      NoticeFixture.payload(.apns, #"{"title":"T",\#(worked)}"#)
        == #"{"aps":{"alert":{"title":"T","body":"helloworld"},"sound":"dingdong.aiff"},"ext":"www.qq.com"}"#
    )
  }

  @Test func apnsInfoTitleWinsOverTitle() {
    #expect(
      NoticeFixture.payload(.apns, #"{"title":"T","apns":{"title":"AT"},"body":"b"}"#)
        == #"{"aps":{"alert":{"title":"AT","body":"b"}}}"#)
  }

  @Test func subtitleWithoutTitleKeepsTheUntitledBody() {
    #expect(
      NoticeFixture.payload(.apns, #"{"apns":{"subtitle":"S"},"body":"b","untitled":"n:b"}"#)
        == #"{"aps":{"alert":{"subtitle":"S","body":"n:b"}}}"#)
  }

  @Test func tencentEveryOptionalKeyInOrderAndNoCategory() {
    let line =
      #"{"title":"T","apns":{"subtitle":"S","image":"i","level":"time-sensitive","category":"c","mutable":1,"available":1},"body":"b","sound":"s","badgeSet":0,"badgeAdd":4,"ext":"e"}"#
    #expect(
      NoticeFixture.payload(.apns, line)
        == #"{"aps":{"alert":{"title":"T","subtitle":"S","body":"b"},"badge":0,"sound":"s","mutable-content":1,"content-available":1,"interruption-level":"time-sensitive"},"image":"i","ext":"e"}"#
    )
  }

  @Test func emptyStringsAreAbsentAndAddAloneWritesNoBadge() {
    let line =
      #"{"title":"","apns":{"title":"","subtitle":"","image":""},"body":"b","sound":"","ext":"","badgeAdd":4}"#
    #expect(NoticeFixture.payload(.apns, line) == #"{"aps":{"alert":"b"}}"#)
  }

  @Test func tencentExtGivenAsJSONIsWrittenAsItsCanonicalText() {
    #expect(
      NoticeFixture.payload(.apns, #"{"body":"b","extJSON":{ "a" : [1, 2.50] }}"#)
        == #"{"aps":{"alert":"b"},"ext":"{\"a\":[1,2.50]}"}"#)
  }

  @Test func easemobMinimalShapeDefaultsTheSound() {
    let line = #"{"dialect":"easemob","body":"hi","untitled":"bob:hi","from":"bob","to":["al"]}"#
    #expect(
      NoticeFixture.payload(.apns, line)
        == #"{"aps":{"alert":{"body":"bob:hi"},"sound":"default"},"f":"bob","t":"al"}"#)
  }

  @Test func easemobEveryOptionalKeyInOrder() {
    let line =
      #"{"dialect":"easemob","title":"T","apns":{"subtitle":"S","mutable":1,"category":"cat","level":"x","available":1},"body":"hi","from":"bob","to":["al"],"m":"123","sound":"ding","badgeSet":3,"extJSON":{"k": [1, "x"]}}"#
    #expect(
      NoticeFixture.payload(.apns, line)
        == #"{"aps":{"alert":{"title":"T","subtitle":"S","body":"hi"},"badge":3,"sound":"ding","mutable-content":1,"category":"cat"},"f":"bob","t":"al","m":"123","e":{"k":[1,"x"]}}"#
    )
  }

  @Test func easemobStringExternIsAString() {
    let line = #"{"dialect":"easemob","body":"hi","from":"bob","to":["al"],"ext":"x"}"#
    #expect(
      NoticeFixture.payload(.apns, line)
        == #"{"aps":{"alert":{"body":"hi"},"sound":"default"},"f":"bob","t":"al","e":"x"}"#)
  }

  @Test func easemobNullExternIsAbsentEverywhere() {
    let line = #"{"dialect":"easemob","body":"hi","from":"bob","to":["al"],"extJSON":null}"#
    #expect(
      NoticeFixture.payload(.apns, line)
        == #"{"aps":{"alert":{"body":"hi"},"sound":"default"},"f":"bob","t":"al"}"#)
    #expect(!NoticeFixture.payload(.fcm, line).contains("data"))
  }

  @Test func easemobRecipientIsTheRecordsOwn() {
    let line = #"{"dialect":"easemob","body":"hi","from":"bob","to":["al","cy"]}"#
    #expect(NoticeFixture.payload(.apns, line, part: 1, parts: 2).hasSuffix(#""t":"al"}"#))
    #expect(NoticeFixture.payload(.apns, line, part: 2, parts: 2).hasSuffix(#""t":"cy"}"#))
  }

  @Test func easemobGroupWritesGAndNoT() {
    let line = #"{"dialect":"easemob","body":"hi","from":"bob","groups":["g1","g2"],"m":"9"}"#
    #expect(
      NoticeFixture.payload(.apns, line, part: 2, parts: 2)
        == #"{"aps":{"alert":{"body":"hi"},"sound":"default"},"f":"bob","g":"g2","m":"9"}"#)
  }

  @Test func recordExtrasAreEmptyForAnAlert() {
    #expect(NoticeFixture.render(.apns, #"{"body":"b"}"#).extras == "")
  }

  @Test func voipMarksTheRecordAndRaisesTheBudget() {
    // 20 bytes of shape + 5000 of body: over 4096, within 5120.
    let body = String(repeating: "v", count: 5000)
    let voip = NoticeFixture.render(.apns, #"{"apns":{"voip":1},"body":"\#(body)"}"#)
    #expect(voip.extras == #","push_type":"voip""#)
    #expect(voip.payload == #"{"aps":{"alert":"\#(body)"}}"#)
    #expect(!voip.effects.bodyCut)
    let plain = NoticeFixture.render(.apns, #"{"body":"\#(body)"}"#)
    #expect(plain.payloadBytes.count == 4096)
    #expect(plain.effects.bodyCut)
  }

  @Test func voipBudgetIsInclusiveAt5120() {
    let at = NoticeFixture.render(
      .apns, #"{"apns":{"voip":1},"body":"\#(String(repeating: "v", count: 5100))"}"#)
    #expect(at.payloadBytes.count == 5120 && !at.effects.bodyCut)
    let above = NoticeFixture.render(
      .apns, #"{"apns":{"voip":1},"body":"\#(String(repeating: "v", count: 5101))"}"#)
    #expect(above.payloadBytes.count == 5120 && above.effects.bodyCut)
    #expect(above.payload!.hasSuffix("vv…\"}}"))
  }

  let activity =
    #""la":{"id":"la-1","event":"update","state":{ "score" : [1, 2] },"dismissal":1700000100,"ts":1700000000}"#

  @Test func liveActivityShapeWinsOverVoipAndDropsSubtitleSoundBadgeExt() {
    let line =
      #"{"title":"T","apns":{"voip":1,"subtitle":"S",\#(activity)},"body":"b","sound":"s","badgeSet":1,"ext":"e"}"#
    let rendered = NoticeFixture.render(.apns, line)
    #expect(rendered.extras == #","push_type":"liveactivity","live_activity_id":"la-1""#)
    #expect(
      rendered.payload
        == #"{"aps":{"timestamp":1700000000,"event":"update","content-state":{"score":[1,2]},"dismissal-date":1700000100,"alert":{"title":"T","body":"b"}}}"#
    )
  }

  @Test func liveActivityWithoutTitleOrDismissal() {
    let line =
      #"{"apns":{"la":{"id":"x","event":"end","state":0,"ts":5}},"body":"b","untitled":"n:b"}"#
    #expect(
      NoticeFixture.payload(.apns, line)
        == #"{"aps":{"timestamp":5,"event":"end","content-state":0,"alert":{"body":"n:b"}}}"#)
  }

  @Test func liveActivityWithoutTimestampIsRefused() {
    let line = #"{"apns":{"la":{"id":"x","event":"end","state":{}}},"body":"b"}"#
    let rendered = NoticeFixture.render(.apns, line)
    #expect(rendered.refusal?.reason == .missingTimestamp)
  }

  @Test func liveActivityBodyIsCutToTheBudget() {
    let body = String(repeating: "界", count: 2000)
    let line = #"{"apns":{"la":{"id":"x","event":"end","state":0,"ts":5}},"body":"\#(body)"}"#
    let rendered = NoticeFixture.render(.apns, line)
    #expect(rendered.effects.bodyCut)
    // 75 bytes of shape; room 4021 → 1339 × 3 bytes + 3 for `…` = 4020.
    #expect(rendered.payloadBytes.count == 4095)
    #expect(
      TestJSON.string(rendered.payloadBytes, ["aps", "alert", "body"])
        == String(repeating: "界", count: 1339) + "…")
  }

  @Test func hugeExtIsOverBudget() {
    let ext = String(repeating: "x", count: 4090)
    let rendered = NoticeFixture.render(.apns, #"{"body":"b","ext":"\#(ext)"}"#)
    #expect(rendered.refusal?.reason == .overBudget)
    #expect(rendered.refusal?.detail.contains("4096") == true)
  }
}
