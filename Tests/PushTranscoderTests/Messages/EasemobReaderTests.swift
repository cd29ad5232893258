import Testing

@testable import PushTranscoder

/// An Easemob export line with `bodies` and `ext` (the `payload.ext` object's members).
private func export(
  _ bodies: String = #"[{"type":"txt","msg":"hello"}]"#, ext: String? = nil,
  chatType: String = "chat", extra: String = ""
) -> String {
  let extPart = ext.map { #","ext":{\#($0)}"# } ?? ""
  return
    #"{"msg_id":"m1","from":"u1","to":"u2","chat_type":"\#(chatType)","payload":{"bodies":\#(bodies)\#(extPart)}\#(extra)}"#
}
private func rest(
  _ msg: String = #"{"type":"txt","msg":"hello"}"#, targetType: String = "users",
  target: String = #"["u2","u3"]"#, ext: String? = nil
) -> String {
  let extPart = ext.map { #","ext":{\#($0)}"# } ?? ""
  return
    #"{"target_type":"\#(targetType)","target":\#(target),"from":"u1","msg":\#(msg)\#(extPart)}"#
}
private func apnsExt(_ members: String) -> String { export(ext: #""em_apns_ext":{\#(members)}"#) }

@Suite struct EasemobReaderTests {
  @Test func exportC2C() throws {
    let n = try #require(read(export()).notice)
    #expect(n.dialect == .easemob)
    #expect(n.body == "hello")
    #expect(n.untitledBody == "u1:hello")
    #expect(n.recipients == ["u2"])
    #expect(n.groups == [])
    #expect(n.sender == "u1")
    #expect(n.key == "m1")
    #expect(n.easemobMessageID == "m1")
    #expect(n.fallbackTitle == "New message")
  }

  @Test func exportGroup() throws {
    let dir = options([
      #"{"username":"u1","nickname":"Alice"}"#, #"{"GroupId":"u2","Name":"Team"}"#,
    ])
    let n = try #require(read(export(chatType: "groupchat"), options: dir).notice)
    #expect(n.groups == ["u2"])
    #expect(n.recipients == [])
    // No (gname) part for Easemob.
    #expect(n.untitledBody == "Alice:hello")
    #expect(n.fallbackTitle == "Team")
    #expect(n.fallbackTitles == ["Team"])
  }

  @Test func restUsersAndGroups() throws {
    let users = try #require(read(rest()).notice)
    #expect(users.recipients == ["u2", "u3"])
    #expect(users.key == nil)
    #expect(users.easemobMessageID == nil)
    let dir = options([#"{"GroupId":"g2","Name":"Two"}"#])
    let groups = try #require(
      read(rest(targetType: "chatgroups", target: #"["g1","g2",""]"#), options: dir).notice)
    #expect(groups.groups == ["g1", "g2"])
    #expect(groups.recipients == [])
    #expect(groups.fallbackTitles == ["New message", "Two"])
    #expect(groups.fallbackTitle == "New message")
  }

  @Test(arguments: [
    ("img", "[Image]", "[图片]"), ("loc", "[Location]", "[位置]"), ("audio", "[Voice]", "[语音]"),
    ("video", "[Video]", "[视频]"), ("file", "[File]", "[文件]"),
    ("custom", "[Custom]", "[自定义消息]"),
  ])
  func placeholders(type: String, en: String, zh: String) {
    let line = export(#"[{"type":"\#(type)","url":"x"}]"#)
    #expect(read(line).notice?.body == en)
    #expect(read(line, options: options(locale: .zh)).notice?.body == zh)
    #expect(read(rest(#"{"type":"\#(type)"}"#)).notice?.body == en)
  }

  @Test func bodiesConcatenateAndUnknownTypesAreEmpty() {
    let bodies =
      #"[{"type":"txt","msg":"a"},{"type":"img"},{"type":"weird"},{"type":"txt","msg":"b"}]"#
    #expect(read(export(bodies)).notice?.body == "a[Image]b")
    #expect(read(export(#"[{"type":"weird"}]"#)).skipReason == .emptyText)
  }

  @Test func displaySummaryAndBanner() {
    let dir = [#"{"username":"u1","nickname":"Alice"}"#]
    #expect(read(export(), options: options(dir)).notice?.untitledBody == "Alice:hello")
    #expect(read(export(), options: options(display: .summary)).notice?.untitledBody == "u1:hello")
    let banner = read(export(), options: options(dir, display: .banner)).notice
    #expect(banner?.untitledBody == "You have a new message")
    #expect(banner?.body == "hello")
    #expect(banner?.fallbackTitle == "Alice")
    #expect(
      read(export(), options: options(locale: .zh, display: .banner)).notice?.untitledBody
        == "您有一条新消息")
  }

  @Test func explicitContentIsVerbatim() {
    let line = apnsExt(#""em_push_content":"explicit""#)
    for display in [DisplayMode.summary, .banner] {
      let n = read(line, options: options(display: display)).notice
      #expect(n?.body == "explicit")
      #expect(n?.untitledBody == "explicit")
      #expect(n?.untitledIsBody == true)
    }
    #expect(read(apnsExt(#""em_push_content":"""#)).notice?.body == "hello")
  }

  @Test func apnsExtFields() throws {
    let line = apnsExt(
      #""em_push_title":"T","em_alert_subTitle":"S","em_push_sound":"snd","em_push_category":"C","em_push_badge":4,"em_push_mutable_content":true,"extern":"e""#
    )
    let n = try #require(read(line).notice)
    #expect(n.title == "T")
    #expect(n.subtitle == "S")
    #expect(n.sound == "snd")
    #expect(n.category == "C")
    #expect(n.badgeSet == "4")
    #expect(n.badgeAdd == nil)
    #expect(n.mutableContent)
    #expect(n.ext == "e")
    #expect(!n.extIsJSON)
  }

  @Test func mutableContentIsTrueOrOne() {
    #expect(read(apnsExt(#""em_push_mutable_content":1"#)).notice?.mutableContent == true)
    #expect(read(apnsExt(#""em_push_mutable_content":0"#)).notice?.mutableContent == false)
    #expect(read(apnsExt(#""em_push_mutable_content":false"#)).notice?.mutableContent == false)
    #expect(read(apnsExt(#""em_push_mutable_content":2"#)).notice?.mutableContent == false)
    for bad in ["1.0", #""1""#, "{}"] {
      #expect(
        read(apnsExt(#""em_push_mutable_content":\#(bad)"#)).rejectPath
          == "payload.ext.em_apns_ext.em_push_mutable_content")
    }
  }

  @Test func externAnyJSON() throws {
    let object = try #require(read(apnsExt(#""extern":{"a": [1, "x"]}"#)).notice)
    #expect(object.ext == #"{"a":[1,"x"]}"#)
    #expect(object.extIsJSON)
    #expect(read(apnsExt(#""extern":12"#)).notice?.ext == "12")
    #expect(read(apnsExt(#""extern":null"#)).notice?.ext == nil)
    #expect(read(apnsExt(#""extern":"""#)).notice?.ext == nil)
  }

  @Test func forceTemplateAndVendorExts() throws {
    let ext = #"""
      "em_force_notification":true,"em_push_template":{"name":"t1","value":{"k":1}},
      "em_android_push_ext":{"fcm_channel_id":"f","huawei_channel_id":"h","huawei_category":"IM",
      "honor_importance":"NORMAL","oppo_channel_id":"o","vivo_category":"v","xiaomi_channel_id":"x"},
      "em_harmony_push_ext":{"category":"IM","title":"ignored"}
      """#
    let n = try #require(read(export(ext: ext)).notice)
    #expect(n.force)
    #expect(n.template == #"{"name":"t1","value":{"k":1}}"#)
    #expect(
      n.android == [
        "GoogleChannelID": "f", "HuaWeiChannelID": "h", "HuaWeiCategory": "IM",
        "HonorImportance": "NORMAL", "OPPOChannelID": "o", "VIVOCategory": "v",
        "XiaoMiChannelID": "x",
      ])
    #expect(n.harmony == ["Category": "IM"])
    #expect(n.category == nil)
    #expect(read(export(ext: #""em_force_notification":false"#)).notice?.force == false)
  }

  @Test func restExtIsTopLevel() throws {
    let n = try #require(read(rest(ext: #""em_apns_ext":{"em_push_title":"T"}"#)).notice)
    #expect(n.title == "T")
    #expect(
      read(rest(ext: #""em_apns_ext":{"em_push_title":1}"#)).rejectPath
        == "ext.em_apns_ext.em_push_title")
  }

  // MARK: Decisions

  @Test func skips() {
    #expect(read(export(#"[{"type":"cmd","action":"a"}]"#)).skipReason == .commandMessage)
    #expect(
      read(export(#"[{"type":"txt","msg":"x"},{"type":"cmd"}]"#)).skipReason == .commandMessage)
    #expect(read(rest(#"{"type":"cmd"}"#)).skipReason == .commandMessage)
    #expect(read(export(ext: #""em_ignore_notification":true"#)).skipReason == .ignoreNotification)
    #expect(read(export(ext: #""em_ignore_notification":false"#)).notice != nil)
    #expect(read(export("[]")).skipReason == .emptyText)
    #expect(read(export("[]", ext: #""em_apns_ext":{"em_push_content":"c"}"#)).notice?.body == "c")
    #expect(read(export("[]", ext: #""em_apns_ext":{"em_push_title":"t"}"#)).notice?.title == "t")
  }

  @Test func otherBodiesMayCarryAStringOrNullMsg() {
    // `msg` is read only for `txt`; elsewhere a string (even empty) or null is accepted.
    #expect(read(export(#"[{"type":"img","msg":"ignored"}]"#)).notice != nil)
    #expect(read(export(#"[{"type":"img","msg":""}]"#)).notice != nil)
    #expect(read(export(#"[{"type":"img","msg":null}]"#)).notice != nil)
    #expect(read(export(#"[{"type":"cmd","msg":"x"}]"#)).skipReason == .commandMessage)
  }

  @Test func decisionOrder() {
    // cmd before ignore-notification.
    #expect(
      read(export(#"[{"type":"cmd"}]"#, ext: #""em_ignore_notification":true"#)).skipReason
        == .commandMessage)
    // ignore-notification before em_push_content.
    let ignored = export(
      ext: #""em_ignore_notification":true,"em_apns_ext":{"em_push_content":"c"}"#)
    #expect(read(ignored).skipReason == .ignoreNotification)
    // Rejects win: type errors and missing recipients.
    #expect(
      read(export(#"[{"type":"cmd"}]"#, ext: #""em_force_notification":"yes""#)).rejectPath
        == "payload.ext.em_force_notification")
    #expect(read(rest(#"{"type":"cmd"}"#, target: "[]")).rejectPath == "target")
  }

  // MARK: Type checks

  @Test(arguments: [
    (#"{"to":"u2","chat_type":"chat","payload":{"bodies":[]}}"#, "from"),
    (#"{"from":"","to":"u2","chat_type":"chat","payload":{"bodies":[]}}"#, "from"),
    (#"{"from":1,"to":"u2","chat_type":"chat","payload":{"bodies":[]}}"#, "from"),
    (#"{"from":"u","chat_type":"chat","payload":{"bodies":[]}}"#, "to"),
    (#"{"from":"u","to":"","chat_type":"chat","payload":{"bodies":[]}}"#, "to"),
    (#"{"from":"u","to":["u2"],"chat_type":"chat","payload":{"bodies":[]}}"#, "to"),
    (#"{"from":"u","to":"u2","payload":{"bodies":[]}}"#, "chat_type"),
    (#"{"from":"u","to":"u2","chat_type":"room","payload":{"bodies":[]}}"#, "chat_type"),
    (#"{"from":"u","to":"u2","chat_type":"chat","payload":null}"#, "payload"),
    (#"{"from":"u","to":"u2","chat_type":"chat","payload":[]}"#, "payload"),
    (#"{"from":"u","to":"u2","chat_type":"chat","payload":{}}"#, "payload.bodies"),
    (#"{"from":"u","to":"u2","chat_type":"chat","payload":{"bodies":{}}}"#, "payload.bodies"),
    (#"{"from":"u","to":"u2","chat_type":"chat","payload":{"bodies":[1]}}"#, "payload.bodies[0]"),
    (
      #"{"from":"u","to":"u2","chat_type":"chat","payload":{"bodies":[{}]}}"#,
      "payload.bodies[0].type"
    ),
    (
      #"{"from":"u","to":"u2","chat_type":"chat","payload":{"bodies":[{"type":1}]}}"#,
      "payload.bodies[0].type"
    ),
    (
      #"{"from":"u","to":"u2","chat_type":"chat","payload":{"bodies":[{"type":"img"},{"type":"txt"}]}}"#,
      "payload.bodies[1].msg"
    ),
    (
      #"{"from":"u","to":"u2","chat_type":"chat","payload":{"bodies":[{"type":"txt","msg":5}]}}"#,
      "payload.bodies[0].msg"
    ),
    (
      #"{"from":"u","to":"u2","chat_type":"chat","payload":{"bodies":[{"type":"img","msg":{"x":1}}]}}"#,
      "payload.bodies[0].msg"
    ),
    (
      #"{"from":"u","to":"u2","chat_type":"chat","payload":{"bodies":[{"type":"cmd","msg":5}]}}"#,
      "payload.bodies[0].msg"
    ),
    (
      #"{"target_type":"users","from":"u","target":["a"],"msg":{"type":"cmd","msg":[]}}"#,
      "msg.msg"
    ),
    (#"{"from":"u","to":"u2","chat_type":"chat","payload":{"bodies":[],"ext":[]}}"#, "payload.ext"),
    (
      #"{"from":"u","to":"u2","chat_type":"chat","msg_id":1,"payload":{"bodies":[{"type":"img"}]}}"#,
      "msg_id"
    ),
    (#"{"target_type":"users","target":["a"],"msg":{"type":"img"}}"#, "from"),
    (#"{"target_type":"all","from":"u","target":["a"],"msg":{"type":"img"}}"#, "target_type"),
    (#"{"target_type":1,"from":"u","target":["a"],"msg":{"type":"img"}}"#, "target_type"),
    (#"{"msg":{"type":"img"},"from":"u","target":["a"]}"#, "target_type"),
    (#"{"target_type":"users","from":"u","msg":{"type":"img"}}"#, "target"),
    (#"{"target_type":"users","from":"u","target":"a","msg":{"type":"img"}}"#, "target"),
    (#"{"target_type":"users","from":"u","target":["a",1],"msg":{"type":"img"}}"#, "target[1]"),
    (#"{"target_type":"users","from":"u","target":[""],"msg":{"type":"img"}}"#, "target"),
    (#"{"target_type":"users","from":"u","target":["a"]}"#, "msg"),
    (#"{"target_type":"users","from":"u","target":["a"],"msg":"hi"}"#, "msg"),
    (#"{"target_type":"users","from":"u","target":["a"],"msg":{"type":"txt"}}"#, "msg.msg"),
    (#"{"target_type":"users","from":"u","target":["a"],"msg":{"type":"img"},"ext":1}"#, "ext"),
  ])
  func envelopeTypes(line: String, path: String) {
    #expect(read(line).rejectPath == path)
  }

  @Test func extFieldTypes() {
    for field in ["em_ignore_notification", "em_force_notification"] {
      for bad in ["1", #""true""#, "{}"] {
        #expect(read(export(ext: #""\#(field)":\#(bad)"#)).rejectPath == "payload.ext.\(field)")
      }
    }
    for field in ["em_push_template", "em_apns_ext", "em_android_push_ext", "em_harmony_push_ext"] {
      for bad in ["1", #""x""#, "[]", "true"] {
        #expect(read(export(ext: #""\#(field)":\#(bad)"#)).rejectPath == "payload.ext.\(field)")
      }
      #expect(read(export(ext: #""\#(field)":null"#)).notice != nil)
    }
    for field in [
      "em_push_content", "em_push_title", "em_alert_subTitle", "em_push_sound", "em_push_category",
    ] {
      #expect(read(apnsExt(#""\#(field)":1"#)).rejectPath == "payload.ext.em_apns_ext.\(field)")
    }
    for bad in ["1.0", #""4""#, "true"] {
      #expect(
        read(apnsExt(#""em_push_badge":\#(bad)"#)).rejectPath
          == "payload.ext.em_apns_ext.em_push_badge")
    }
    for field in [
      "fcm_channel_id", "huawei_channel_id", "huawei_category", "honor_importance",
      "oppo_channel_id", "vivo_category", "xiaomi_channel_id",
    ] {
      #expect(
        read(export(ext: #""em_android_push_ext":{"\#(field)":[]}"#)).rejectPath
          == "payload.ext.em_android_push_ext.\(field)")
    }
    #expect(
      read(export(ext: #""em_harmony_push_ext":{"category":2}"#)).rejectPath
        == "payload.ext.em_harmony_push_ext.category")
  }
}

/// The Easemob reader finds each object's members through a table read by an enum; a table and
/// its enum that disagree would read one field's value as another's.
@Suite struct EasemobMemberTableTests {
  /// A member name as its enum case spells it: without underscores, lower-cased.
  static func names(_ table: MemberTable) -> [String] {
    table.names.map { $0.description.replacingOccurrences(of: "_", with: "").lowercased() }
  }

  /// True when `table`'s names and `Member`'s cases agree, slot by slot.
  static func agree<Member: CaseIterable & RawRepresentable>(
    _ table: MemberTable, _ type: Member.Type
  ) -> Bool where Member.RawValue == Int {
    names(table) == TencentMemberTableTests.cases(type)
  }

  @Test func everyTableMatchesItsEnum() {
    #expect(Self.agree(RootMembers.table, RootMembers.Member.self))
    #expect(Self.agree(EasemobReader.payloadTable, EasemobReader.PayloadMember.self))
    #expect(Self.agree(EasemobReader.bodyTable, EasemobReader.BodyMember.self))
    #expect(Self.agree(EasemobReader.extTable, EasemobReader.ExtMember.self))
    #expect(Self.agree(EasemobReader.apnsTable, EasemobReader.APNsMember.self))
    #expect(Self.agree(EasemobReader.androidTable, EasemobReader.AndroidMember.self))
  }
}
