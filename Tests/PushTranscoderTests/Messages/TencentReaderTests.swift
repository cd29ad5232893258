import Testing

@testable import PushTranscoder

/// A Tencent C2C line with `body` as MsgBody and `extra` appended to the top-level object.
private func c2c(_ body: String, _ extra: String = "") -> String {
  #"{"From_Account":"u1","To_Account":"u2","MsgBody":\#(body)\#(extra)}"#
}
private func text(_ t: String) -> String {
  #"{"MsgType":"TIMTextElem","MsgContent":{"Text":"\#(t)"}}"#
}
private let hello = "[\(text("hello"))]"

@Suite struct TencentReaderTests {
  // MARK: Push text

  @Test func textElementIsTheBody() throws {
    let n = try #require(read(c2c(hello)).notice)
    #expect(n.dialect == .tencent)
    #expect(n.body == "hello")
    #expect(n.untitledBody == "hello")
    #expect(n.recipients == ["u2"])
    #expect(n.groups.isEmpty)
    #expect(n.sender == "u1")
    #expect(n.key == nil)
    #expect(n.title == nil)
    #expect(n.fallbackTitle == "New message")
  }

  @Test(arguments: [
    ("TIMLocationElem", "[Location]", "[位置]"),
    ("TIMFaceElem", "[Face]", "[表情]"),
    ("TIMSoundElem", "[Voice]", "[语音]"),
    ("TIMImageElem", "[Image]", "[图片]"),
    ("TIMFileElem", "[File]", "[文件]"),
    ("TIMVideoFileElem", "[Video]", "[视频]"),
    ("TIMRelayElem", "[Chat History]", "[聊天记录]"),
  ])
  func placeholdersInBothLocales(type: String, en: String, zh: String) throws {
    let line = c2c(#"[{"MsgType":"\#(type)","MsgContent":{"UUID":"x"}}]"#)
    #expect(read(line).notice?.body == en)
    #expect(read(line, options: options(locale: .zh)).notice?.body == zh)
    // MsgContent is optional for these elements.
    #expect(read(c2c(#"[{"MsgType":"\#(type)"}]"#)).notice?.body == en)
  }

  /// Element types are compared decoded (an escaped letter names the same type) and whole (a
  /// name that shares a known type's length, first and last bytes is still unknown).
  @Test func elementTypesAreMatchedDecodedAndWhole() throws {
    let escaped = c2c(
      #"[{"MsgType":"TIMT\u0065xtElem","MsgContent":{"Text":"a"}},"#
        + #"{"MsgType":"\u0054IMFaceElem"},{"MsgType":"TIMCustomEle\u006d","#
        + #""MsgContent":{"Desc":"d"}}]"#)
    let n = try #require(read(escaped).notice)
    #expect(n.bodyPieces == ["a", "[Face]", "d"])
    var stats = MessageStats()
    let nearMisses = c2c(
      #"[{"MsgType":"TIMTextXlem","MsgContent":{"Text":"a"}},{"MsgType":"TIMFaceElm"},"#
        + #"{"MsgType":"TIMImageElemTIMImageElem"},{"MsgType":"timtextelem"},"#
        + #"\#(text("x"))]"#)
    let m = try #require(read(nearMisses, stats: &stats).notice)
    #expect(m.bodyPieces == ["x"])
    #expect(stats.unknownElements == 4)
  }

  @Test func elementsConcatenateWithoutSeparator() throws {
    let line = c2c(
      "[\(text("a")),{\"MsgType\":\"TIMImageElem\",\"MsgContent\":{}},"
        + #"{"MsgType":"TIMCustomElem","MsgContent":{"Desc":"d"}},"#
        + #"{"MsgType":"TIMCustomElem","MsgContent":{}},\#(text("b"))]"#)
    let n = try #require(read(line).notice)
    #expect(n.body == "a[Image]db")
    #expect(n.bodyPieces == ["a", "[Image]", "d", "b"])
  }

  @Test func unknownElementsContributeNothingAndAreCounted() throws {
    var stats = MessageStats()
    let line = c2c(#"[{"MsgType":"TIMNewElem","MsgContent":{}},\#(text("x")),{"MsgType":"Y"}]"#)
    let n = try #require(read(line, stats: &stats).notice)
    #expect(n.body == "x")
    #expect(stats.unknownElements == 2)
  }

  @Test func unknownElementsAreNotCountedForRejectedLines() {
    var stats = MessageStats()
    let line = c2c(#"[{"MsgType":"TIMNewElem"}]"#, #","GroupId":1"#)
    #expect(read(line, stats: &stats).rejectPath == "GroupId")
    #expect(stats.unknownElements == 0)
  }

  @Test func escapedTextIsKeptAsASlice() throws {
    let n = try #require(read(c2c("[\(text(#"a\"b\u00e9"#))]")).notice)
    #expect(n.body == "a\"bé")
  }

  @Test func explicitDescReplacesTheTextAndIsNeverPrefixed() throws {
    let dir = options([#"{"username":"u1","nickname":"Alice"}"#])
    let line = c2c(hello, #","OfflinePushInfo":{"Desc":"explicit"}"#)
    let n = try #require(read(line, options: dir).notice)
    #expect(n.body == "explicit")
    #expect(n.untitledBody == "explicit")
    #expect(n.untitledIsBody)
  }

  @Test func emptyDescDoesNotReplace() throws {
    let n = try #require(read(c2c(hello, #","OfflinePushInfo":{"Desc":""}"#)).notice)
    #expect(n.body == "hello")
  }

  // MARK: Display prefix

  @Test func c2cPrefixIsNickColon() throws {
    let dir = options([#"{"username":"u1","nickname":"Alice"}"#])
    let n = try #require(read(c2c(hello), options: dir).notice)
    #expect(n.untitledBody == "Alice:hello")
    #expect(!n.untitledIsBody)
    #expect(n.body == "hello")
    #expect(n.fallbackTitle == "Alice")
  }

  @Test func groupPrefixForms() throws {
    let line = #"{"From_Account":"u1","GroupId":"g1","MsgBody":\#(hello)}"#
    let both = options([
      #"{"username":"u1","nickname":"Alice"}"#, #"{"GroupId":"g1","Name":"Team"}"#,
    ])
    let nickOnly = options([#"{"username":"u1","nickname":"Alice"}"#])
    let groupOnly = options([#"{"GroupId":"g1","Name":"Team"}"#])
    #expect(read(line, options: both).notice?.untitledBody == "Alice(Team):hello")
    #expect(read(line, options: nickOnly).notice?.untitledBody == "Alice:hello")
    #expect(read(line, options: groupOnly).notice?.untitledBody == "(Team):hello")
    #expect(read(line).notice?.untitledBody == "hello")
    // Group fallback title: the group name, never the nickname.
    #expect(read(line, options: both).notice?.fallbackTitle == "Team")
    #expect(read(line, options: nickOnly).notice?.fallbackTitle == "New message")
    #expect(read(line, options: both).notice?.fallbackTitles == ["Team"])
  }

  @Test func c2cWithoutNicknameIsPlain() throws {
    let dir = options([#"{"GroupId":"u1","Name":"NotAUser"}"#])
    let n = try #require(read(c2c(hello), options: dir).notice)
    #expect(n.untitledBody == "hello")
    // No name, no prefix: the untitled body is the body itself, not a second array.
    #expect(n.untitledIsBody)
    #expect(n.fallbackTitle == "New message")
  }

  @Test func defaultTitleByLocaleAndOption() {
    #expect(read(c2c(hello), options: options(locale: .zh)).notice?.fallbackTitle == "新消息")
    #expect(
      read(c2c(hello), options: options(defaultTitle: "Hi \"x\"")).notice?.fallbackTitle
        == "Hi \"x\"")
  }

  // MARK: Decisions

  @Test func pushFlagOneDisablesThePush() {
    #expect(read(c2c(hello, #","OfflinePushInfo":{"PushFlag":1}"#)).skipReason == .pushDisabled)
    #expect(read(c2c(hello, #","OfflinePushInfo":{"PushFlag":0}"#)).notice != nil)
    #expect(read(c2c(hello, #","OfflinePushInfo":{"PushFlag":2}"#)).notice != nil)
  }

  @Test func singleCustomWithoutDescIsSkipped() {
    let custom = #"[{"MsgType":"TIMCustomElem","MsgContent":{"Data":"x","Ext":"e"}}]"#
    #expect(read(c2c(custom)).skipReason == .customWithoutDesc)
    // ...even with a title.
    #expect(
      read(c2c(custom, #","OfflinePushInfo":{"Title":"T"}"#)).skipReason == .customWithoutDesc)
    #expect(read(c2c(custom, #","OfflinePushInfo":{"Desc":"D"}"#)).notice?.body == "D")
    let withDesc = #"[{"MsgType":"TIMCustomElem","MsgContent":{"Desc":"d"}}]"#
    #expect(read(c2c(withDesc)).notice?.body == "d")
    // Two custom elements without Desc: empty text, not custom-without-desc.
    let two =
      #"[{"MsgType":"TIMCustomElem","MsgContent":{}},{"MsgType":"TIMCustomElem","MsgContent":{}}]"#
    #expect(read(c2c(two)).skipReason == .emptyText)
  }

  @Test func pushDisabledComesBeforeCustomWithoutDesc() {
    let custom = #"[{"MsgType":"TIMCustomElem","MsgContent":{}}]"#
    #expect(read(c2c(custom, #","OfflinePushInfo":{"PushFlag":1}"#)).skipReason == .pushDisabled)
  }

  @Test func emptyTextUnlessDescOrTitle() {
    #expect(read(c2c("[]")).skipReason == .emptyText)
    #expect(read(c2c(#"[{"MsgType":"Unknown"}]"#)).skipReason == .emptyText)
    #expect(read(c2c("[]", #","OfflinePushInfo":{"Title":""}"#)).skipReason == .emptyText)
    // ApnsInfo.Title is not step 5's title.
    #expect(
      read(c2c("[]", #","OfflinePushInfo":{"ApnsInfo":{"Title":"A"}}"#)).skipReason == .emptyText)
    let titled = read(c2c("[]", #","OfflinePushInfo":{"Title":"T"}"#)).notice
    #expect(titled?.title == "T")
    #expect(titled?.body == "")
    #expect(read(c2c("[]", #","OfflinePushInfo":{"Desc":"D"}"#)).notice?.body == "D")
  }

  @Test func rejectWinsOverSkip() {
    #expect(
      read(c2c(hello, #","OfflinePushInfo":{"PushFlag":1,"Desc":5}"#)).rejectPath
        == "OfflinePushInfo.Desc")
    #expect(
      read(#"{"MsgBody":[],"OfflinePushInfo":{"PushFlag":1}}"#).rejectPath == "To_Account")
    #expect(
      read(c2c("[{\"MsgType\":\"TIMCustomElem\",\"MsgContent\":{}}]", #","MsgKey":7"#))
        .rejectPath == "MsgKey")
  }

  // MARK: Notice fields

  @Test func extAndSoundFromOfflinePushInfo() throws {
    let custom = #"[{"MsgType":"TIMCustomElem","MsgContent":{"Desc":"d","Ext":"ce","Sound":"cs"}}]"#
    let with = c2c(custom, #","OfflinePushInfo":{"Ext":"oe","ApnsInfo":{"Sound":"as"}}"#)
    let n = try #require(read(with).notice)
    #expect(n.ext == "oe")
    #expect(n.extIsJSON == false)
    #expect(n.sound == "as")
    // OfflinePushInfo present: the custom element's Ext and Sound are ignored even when it has none.
    let empty = try #require(read(c2c(custom, #","OfflinePushInfo":{}"#)).notice)
    #expect(empty.ext == nil)
    #expect(empty.sound == nil)
    #expect(empty.body == "d")
    // No OfflinePushInfo (null = absent): the first custom element's.
    let fallback = try #require(read(c2c(custom, #","OfflinePushInfo":null"#)).notice)
    #expect(fallback.ext == "ce")
    #expect(fallback.sound == "cs")
  }

  @Test func extFallsBackToTheFirstCustomElementOnly() throws {
    let body =
      #"[{"MsgType":"TIMCustomElem","MsgContent":{"Desc":"a"}},{"MsgType":"TIMCustomElem","MsgContent":{"Desc":"b","Ext":"second","Sound":"s2"}}]"#
    let n = try #require(read(c2c(body)).notice)
    #expect(n.ext == nil)
    #expect(n.sound == nil)
    #expect(n.body == "ab")
  }

  @Test func everyOfflinePushInfoField() throws {
    let info = #"""
      ,"OfflinePushInfo":{"PushFlag":0,"Title":"T","Desc":"D","Ext":"E","BadgeSetNum":3,
      "BadgeAddNum":-1,"ApnsInfo":{"Sound":"s.caf","Title":"AT","SubTitle":"ST","Image":"i",
      "InterruptionLevel":"time-sensitive","MutableContent":1,"ContentAvailable":1,"IsVoipPush":1},
      "AndroidInfo":{"Sound":"as","HuaWeiChannelID":"hc","HuaWeiCategory":"IM",
      "HuaWeiImportance":"NORMAL","HuaWeiImage":"hi","HonorImportance":"LOW","HonorImage":"oi",
      "GoogleImage":"gi","GooglePriority":"normal","GoogleChannelID":"gc","XiaoMiChannelID":"xc",
      "OPPOChannelID":"oc","OPPOCategory":"oca","VIVOCategory":"vc","OPPONotifyLevel":2,
      "VIVOClassification":1,"VIVONotifyType":0,"MeiZuNoticeMsgType":1},
      "HarmonyInfo":{"Title":"HT","Category":"MARKETING","Image":"hm","Sound":"hs",
      "SoundDuration":10}},"MsgKey":"k1","MsgId":"id1","MsgTimeStamp":5,"MsgTime":"not read"
      """#
    let n = try #require(read(c2c(hello, info)).notice)
    #expect(n.title == "T")
    #expect(n.body == "D")
    #expect(n.ext == "E")
    #expect(n.badgeSet == "3")
    #expect(n.badgeAdd == "-1")
    #expect(n.sound == "s.caf")
    #expect(n.apnsTitle == "AT")
    #expect(n.subtitle == "ST")
    #expect(n.image == "i")
    #expect(n.interruptionLevel == "time-sensitive")
    #expect(n.mutableContent && n.contentAvailable && n.voip)
    #expect(n.category == nil)
    #expect(n.liveActivity == nil)
    #expect(n.key == "k1")
    #expect(
      n.android == [
        "Sound": "as", "HuaWeiChannelID": "hc", "HuaWeiCategory": "IM",
        "HuaWeiImportance": "NORMAL", "HuaWeiImage": "hi", "HonorImportance": "LOW",
        "HonorImage": "oi", "GoogleImage": "gi", "GooglePriority": "normal",
        "GoogleChannelID": "gc", "XiaoMiChannelID": "xc", "OPPOChannelID": "oc",
        "OPPOCategory": "oca", "VIVOCategory": "vc", "OPPONotifyLevel": "2",
        "VIVOClassification": "1", "VIVONotifyType": "0", "MeiZuNoticeMsgType": "1",
      ])
    #expect(
      n.harmony == [
        "Title": "HT", "Category": "MARKETING", "Image": "hm", "Sound": "hs",
        "SoundDuration": "10",
      ])
  }

  @Test func flagsAreSetOnlyByOne() throws {
    let info =
      #","OfflinePushInfo":{"ApnsInfo":{"MutableContent":2,"ContentAvailable":0,"IsVoipPush":-1}}"#
    let n = try #require(read(c2c(hello, info)).notice)
    #expect(!n.mutableContent && !n.contentAvailable && !n.voip)
  }

  @Test func liveActivity() throws {
    let live = #"""
      ,"MsgTime":9,"MsgTimeStamp":1700000000,"OfflinePushInfo":{"ApnsInfo":{"LiveActivity":
      {"LaId":"la1","Event":"update","ContentState":{"b": 1.50, "a":[true,null]},"DismissalDate":42}}}
      """#
    let n = try #require(read(c2c(hello, live)).notice)
    #expect(
      n.liveActivity == [
        "id": "la1", "event": "update", "contentState": #"{"b":1.50,"a":[true,null]}"#,
        "dismissalDate": "42", "timestamp": "1700000000",
      ])
    let msgTime =
      #","MsgTime":9,"OfflinePushInfo":{"ApnsInfo":{"LiveActivity":{"LaId":"l","Event":"e","ContentState":{}}}}"#
    #expect(read(c2c(hello, msgTime)).notice?.liveActivity?["timestamp"] == "9")
    // No timestamp is not a reject here: the apns vendor refuses.
    let none =
      #","OfflinePushInfo":{"ApnsInfo":{"LiveActivity":{"LaId":"l","Event":"e","ContentState":{"s":1}}}}"#
    let noStamp = try #require(read(c2c(hello, none)).notice)
    #expect(noStamp.liveActivity?["timestamp"] == nil)
    #expect(noStamp.liveActivity?["contentState"] == #"{"s":1}"#)
  }

  @Test(arguments: [
    (#"{"Event":"e","ContentState":{}}"#, "LaId"),
    (#"{"LaId":"","Event":"e","ContentState":{}}"#, "LaId"),
    (#"{"LaId":1,"Event":"e","ContentState":{}}"#, "LaId"),
    (#"{"LaId":"l","ContentState":{}}"#, "Event"),
    (#"{"LaId":"l","Event":null,"ContentState":{}}"#, "Event"),
    (#"{"LaId":"l","Event":"e"}"#, "ContentState"),
    (#"{"LaId":"l","Event":"e","ContentState":null}"#, "ContentState"),
    // APNs requires content-state to be a dictionary (SPEC 9 field table).
    (#"{"LaId":"l","Event":"e","ContentState":"s"}"#, "ContentState"),
    (#"{"LaId":"l","Event":"e","ContentState":0}"#, "ContentState"),
    (#"{"LaId":"l","Event":"e","ContentState":[{}]}"#, "ContentState"),
    (#"{"LaId":"l","Event":"e","ContentState":true}"#, "ContentState"),
    (#"{"LaId":"l","Event":"e","ContentState":{},"DismissalDate":1.5}"#, "DismissalDate"),
  ])
  func liveActivityRequiredFields(live: String, field: String) {
    let line = c2c(hello, #","OfflinePushInfo":{"ApnsInfo":{"LiveActivity":\#(live)}}"#)
    #expect(read(line).rejectPath == "OfflinePushInfo.ApnsInfo.LiveActivity.\(field)")
  }

  @Test func timestampIsTypeCheckedOnlyWithLiveActivity() {
    let live =
      #""OfflinePushInfo":{"ApnsInfo":{"LiveActivity":{"LaId":"l","Event":"e","ContentState":{}}}}"#
    #expect(read(c2c(hello, #","MsgTimeStamp":"1""#)).notice != nil)
    #expect(read(c2c(hello, #","MsgTime":1.0,"# + live)).rejectPath == "MsgTime")
    #expect(read(c2c(hello, #","MsgTimeStamp":true,"# + live)).rejectPath == "MsgTimeStamp")
    #expect(read(c2c(hello, #","MsgTimeStamp":1,"MsgTime":"x","# + live)).rejectPath == "MsgTime")
  }

  // MARK: Recipients and keys

  @Test func recipientsAndGroups() throws {
    let array = #"{"To_Account":["a","b","a"],"MsgBody":\#(hello)}"#
    #expect(read(array).notice?.recipients == ["a", "b", "a"])
    #expect(read(array).notice?.sender == nil)
    let group = #"{"To_Account":"a","GroupId":"g","MsgBody":\#(hello)}"#
    #expect(read(group).notice?.groups == ["g"])
    #expect(read(group).notice?.recipients == [])
    let emptyGroup = #"{"To_Account":"a","GroupId":"","MsgBody":\#(hello)}"#
    #expect(read(emptyGroup).notice?.recipients == ["a"])
    #expect(read(emptyGroup).notice?.groups == [])
  }

  @Test(arguments: [
    #"{"MsgBody":[]}"#,
    #"{"To_Account":"","MsgBody":[]}"#,
    #"{"To_Account":[],"MsgBody":[]}"#,
    #"{"To_Account":[""],"MsgBody":[]}"#,
    #"{"To_Account":null,"GroupId":"","MsgBody":[]}"#,
  ])
  func noRecipientIsNotAMessage(line: String) {
    #expect(read(line).rejectPath == "To_Account")
  }

  @Test func keyPrecedence() {
    #expect(read(c2c(hello, #","MsgKey":"k","MsgId":"i""#)).notice?.key == "k")
    #expect(read(c2c(hello, #","MsgKey":"","MsgId":"i""#)).notice?.key == "i")
    #expect(read(c2c(hello, #","MsgKey":null,"MsgId":"i""#)).notice?.key == "i")
    #expect(read(c2c(hello, #","msg_id":"m""#)).notice?.key == nil)
  }

  @Test func duplicateKeysLastWins() {
    #expect(read(c2c(hello, #","MsgKey":"a","MsgKey":"b""#)).notice?.key == "b")
    #expect(read(c2c(hello, #","MsgKey":5,"MsgKey":"b""#)).notice?.key == "b")
    #expect(read(c2c(hello, #","MsgKey":"b","MsgKey":5"#)).rejectPath == "MsgKey")
    let line = #"{"To_Account":"u","MsgBody":7,"MsgBody":\#(hello)}"#
    #expect(read(line).notice?.body == "hello")
  }

  /// The one-pass top-level scan must match keys by their decoded bytes and keep the last
  /// duplicate, as `JSONDocument.member` does.
  @Test func topLevelKeysMatchEscapedAndDuplicateNames() {
    let line =
      #"{"From_Acc\u006Funt":"alice","MsgKey":"first","To_Account":"u1","MsgKey":"second","#
      + #""MsgBody":[{"MsgType":"TIMTextElem","MsgContent":{"Text":"hi"}}]}"#
    let notice = read(line).notice
    #expect(notice?.sender == "alice")
    #expect(notice?.key == "second")
  }

  @Test func lineHashIsFNV1aOfTheLine() {
    let line = c2c(hello)
    let expected = Array(line.utf8).withUnsafeBufferPointer { FNV1a.hash($0) }
    #expect(read(line).notice?.lineHash == expected)
  }

  // MARK: Stats

  @Test func descExtOver3KB() {
    var stats = MessageStats()
    let at = String(repeating: "x", count: 3000)
    _ = read(
      c2c(
        hello,
        #","OfflinePushInfo":{"Desc":"\#(at)","Ext":"\#(String(repeating: "y", count: 72))"}"#),
      stats: &stats)
    #expect(stats.descExtOver3KB == 0)
    _ = read(
      c2c(
        hello,
        #","OfflinePushInfo":{"Desc":"\#(at)","Ext":"\#(String(repeating: "y", count: 73))"}"#),
      stats: &stats)
    #expect(stats.descExtOver3KB == 1)
    // Measured decoded: "\u00e9" is 2 bytes, not 6.
    let escaped = String(repeating: #"\u00e9"#, count: 1537)
    _ = read(c2c(hello, #","OfflinePushInfo":{"Desc":"\#(escaped)"}"#), stats: &stats)
    #expect(stats.descExtOver3KB == 2)
    let escapedAt = String(repeating: #"\u00e9"#, count: 1536)
    _ = read(c2c(hello, #","OfflinePushInfo":{"Desc":"\#(escapedAt)"}"#), stats: &stats)
    #expect(stats.descExtOver3KB == 2)
  }
}

/// `TencentReader` reads each member table through an enum whose cases name the table's slots:
/// a name added to, removed from or moved in one must be in the other at the same place.
@Suite struct TencentMemberTableTests {
  static func names(_ table: MemberTable) -> [String] {
    table.names.map { $0.description.lowercased() }
  }

  static func cases<Member: CaseIterable & RawRepresentable>(_: Member.Type) -> [String]
  where Member.RawValue == Int {
    Member.allCases.enumerated().map { index, member in
      #expect(member.rawValue == index)
      return "\(member)".lowercased()
    }
  }

  @Test func everyTableMatchesItsEnum() {
    #expect(Self.names(TencentReader.infoTable) == Self.cases(TencentReader.InfoMember.self))
    #expect(Self.names(TencentReader.apnsTable) == Self.cases(TencentReader.APNsMember.self))
    #expect(
      Self.names(TencentReader.androidTable) == Self.cases(TencentReader.AndroidMember.self))
    #expect(
      Self.names(TencentReader.harmonyTable) == Self.cases(TencentReader.HarmonyMember.self))
    // Element types: `TIM` + the case + `Elem`; the video type alone adds `File`.
    #expect(
      Self.names(TencentReader.elementTypeTable)
        == Self.cases(TencentReader.ElementType.self).map {
          "tim" + ($0 == "video" ? "videofile" : $0) + "elem"
        })
  }
}
