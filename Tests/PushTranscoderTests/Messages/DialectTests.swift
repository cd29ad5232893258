import Testing

@testable import PushTranscoder

@Suite struct DialectTests {
  @Test(arguments: ["[]", "1", #""x""#, "null", "true", #"[{"MsgBody":[]}]"#])
  func topLevelNonObjectIsNotAMessage(line: String) {
    #expect(read(line).rejectPath == "$")
  }

  @Test func objectWithoutDialectKeysIsNotAMessage() {
    #expect(read("{}").rejectPath == "$")
    #expect(read(#"{"from":"u","to":"v","bodies":[]}"#).rejectPath == "$")
  }

  @Test func msgBodyWinsOverEasemobKeys() {
    let line =
      #"{"MsgBody":[{"MsgType":"TIMFaceElem"}],"To_Account":"a","payload":{},"target_type":1}"#
    #expect(read(line).notice?.dialect == .tencent)
    // A null MsgBody still selects Tencent, where it is a required field.
    #expect(read(#"{"MsgBody":null,"payload":{"bodies":[]}}"#).rejectPath == "MsgBody")
  }

  @Test func payloadWinsOverRestKeys() {
    let line =
      #"{"from":"u","to":"v","chat_type":"chat","payload":{"bodies":[{"type":"img"}]},"target_type":1,"msg":2}"#
    #expect(read(line).notice?.easemobMessageID == nil)
    #expect(read(line).notice?.recipients == ["v"])
  }

  @Test func msgAloneSelectsRest() {
    #expect(read(#"{"msg":{"type":"img"}}"#).rejectPath == "target_type")
  }
}
