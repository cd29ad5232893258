import Testing

@testable import PushTranscoder

private let text = #"{"MsgType":"TIMTextElem","MsgContent":{"Text":"hi"}}"#

/// A valid C2C line with `extra` members appended.
private func line(_ extra: String) -> String {
  #"{"To_Account":"u2","MsgBody":[\#(text)]\#(extra)}"#
}
private func info(_ members: String) -> String { line(#","OfflinePushInfo":{\#(members)}"#) }
private func apns(_ members: String) -> String { info(#""ApnsInfo":{\#(members)}"#) }
private func android(_ members: String) -> String { info(#""AndroidInfo":{\#(members)}"#) }
private func harmony(_ members: String) -> String { info(#""HarmonyInfo":{\#(members)}"#) }

/// Values that are not strings / not integers / not objects.
private let notStrings = ["1", "true", "{}", "[]", "1.5"]
private let notIntegers = ["1.0", "1e0", #""1""#, "true", "{}", "[1]", "-0.0", "1E2"]
private let notObjects = ["1", #""x""#, "[]", "true"]

@Suite struct TencentRejectTests {
  @Test func baseLineIsAMessage() {
    #expect(read(line("")).notice?.body == "hi")
  }

  @Test(arguments: ["From_Account", "GroupId", "MsgKey", "MsgId"])
  func topLevelStrings(field: String) {
    for value in notStrings {
      #expect(read(line(#","\#(field)":\#(value)"#)).rejectPath == field, "\(value)")
    }
    #expect(read(line(#","\#(field)":null"#)).notice != nil)
  }

  @Test func toAccountType() {
    #expect(read(#"{"To_Account":1,"MsgBody":[\#(text)]}"#).rejectPath == "To_Account")
    #expect(read(#"{"To_Account":{},"MsgBody":[\#(text)]}"#).rejectPath == "To_Account")
    #expect(read(#"{"To_Account":["a",2],"MsgBody":[\#(text)]}"#).rejectPath == "To_Account[1]")
    // Checked even when a group wins.
    #expect(read(#"{"GroupId":"g","To_Account":true,"MsgBody":[]}"#).rejectPath == "To_Account")
  }

  @Test func msgBodyType() {
    #expect(read(#"{"To_Account":"u","MsgBody":{}}"#).rejectPath == "MsgBody")
    #expect(read(#"{"To_Account":"u","MsgBody":null}"#).rejectPath == "MsgBody")
    #expect(read(#"{"To_Account":"u","MsgBody":"x"}"#).rejectPath == "MsgBody")
    #expect(read(#"{"To_Account":"u","MsgBody":[\#(text),1]}"#).rejectPath == "MsgBody[1]")
    #expect(read(#"{"To_Account":"u","MsgBody":[null]}"#).rejectPath == "MsgBody[0]")
  }

  @Test(arguments: [
    (#"{"MsgContent":{"Text":"x"}}"#, "MsgBody[1].MsgType"),
    (#"{"MsgType":null}"#, "MsgBody[1].MsgType"),
    (#"{"MsgType":""}"#, "MsgBody[1].MsgType"),
    (#"{"MsgType":5}"#, "MsgBody[1].MsgType"),
    (#"{"MsgType":"TIMTextElem"}"#, "MsgBody[1].MsgContent"),
    (#"{"MsgType":"TIMTextElem","MsgContent":null}"#, "MsgBody[1].MsgContent"),
    (#"{"MsgType":"TIMTextElem","MsgContent":"x"}"#, "MsgBody[1].MsgContent"),
    (#"{"MsgType":"TIMTextElem","MsgContent":{}}"#, "MsgBody[1].MsgContent.Text"),
    (#"{"MsgType":"TIMTextElem","MsgContent":{"Text":null}}"#, "MsgBody[1].MsgContent.Text"),
    (#"{"MsgType":"TIMTextElem","MsgContent":{"Text":1}}"#, "MsgBody[1].MsgContent.Text"),
    (#"{"MsgType":"TIMTextElem","MsgContent":{"Text":""}}"#, "MsgBody[1].MsgContent.Text"),
    (#"{"MsgType":"TIMCustomElem"}"#, "MsgBody[1].MsgContent"),
    (#"{"MsgType":"TIMCustomElem","MsgContent":[]}"#, "MsgBody[1].MsgContent"),
    (#"{"MsgType":"TIMCustomElem","MsgContent":{"Desc":1}}"#, "MsgBody[1].MsgContent.Desc"),
    (#"{"MsgType":"TIMCustomElem","MsgContent":{"Ext":{}}}"#, "MsgBody[1].MsgContent.Ext"),
    (#"{"MsgType":"TIMCustomElem","MsgContent":{"Sound":true}}"#, "MsgBody[1].MsgContent.Sound"),
    (#"{"MsgType":"TIMImageElem","MsgContent":"x"}"#, "MsgBody[1].MsgContent"),
    (#"{"MsgType":"Unknown","MsgContent":1}"#, "MsgBody[1].MsgContent"),
  ])
  func elementFields(element: String, path: String) {
    #expect(read(#"{"To_Account":"u","MsgBody":[\#(text),\#(element)]}"#).rejectPath == path)
  }

  @Test func offlinePushInfoType() {
    for value in notObjects {
      #expect(read(line(#","OfflinePushInfo":\#(value)"#)).rejectPath == "OfflinePushInfo")
    }
  }

  @Test(arguments: ["PushFlag", "BadgeSetNum", "BadgeAddNum"])
  func offlinePushInfoIntegers(field: String) {
    for value in notIntegers {
      #expect(read(info(#""\#(field)":\#(value)"#)).rejectPath == "OfflinePushInfo.\(field)")
    }
    #expect(read(info(#""\#(field)":null"#)).notice != nil)
    #expect(read(info(#""\#(field)":-12"#)).notice != nil)
  }

  @Test(arguments: ["Title", "Desc", "Ext"])
  func offlinePushInfoStrings(field: String) {
    for value in notStrings {
      #expect(read(info(#""\#(field)":\#(value)"#)).rejectPath == "OfflinePushInfo.\(field)")
    }
  }

  @Test(arguments: ["ApnsInfo", "AndroidInfo", "HarmonyInfo"])
  func subObjects(field: String) {
    for value in notObjects {
      #expect(read(info(#""\#(field)":\#(value)"#)).rejectPath == "OfflinePushInfo.\(field)")
    }
    #expect(read(info(#""\#(field)":null"#)).notice != nil)
  }

  @Test func apnsFields() {
    for field in ["Sound", "Title", "SubTitle", "Image", "InterruptionLevel"] {
      for value in notStrings {
        #expect(
          read(apns(#""\#(field)":\#(value)"#)).rejectPath == "OfflinePushInfo.ApnsInfo.\(field)")
      }
    }
    for field in ["MutableContent", "ContentAvailable", "IsVoipPush"] {
      for value in notIntegers {
        #expect(
          read(apns(#""\#(field)":\#(value)"#)).rejectPath == "OfflinePushInfo.ApnsInfo.\(field)")
      }
    }
    for value in notObjects {
      #expect(
        read(apns(#""LiveActivity":\#(value)"#)).rejectPath
          == "OfflinePushInfo.ApnsInfo.LiveActivity")
    }
  }

  @Test func androidFields() {
    let strings = [
      "Sound", "HuaWeiChannelID", "HuaWeiCategory", "HuaWeiImportance", "HuaWeiImage",
      "HonorImportance", "HonorImage", "GoogleImage", "GooglePriority", "GoogleChannelID",
      "XiaoMiChannelID", "OPPOChannelID", "OPPOCategory", "VIVOCategory",
    ]
    for field in strings {
      for value in notStrings {
        #expect(
          read(android(#""\#(field)":\#(value)"#)).rejectPath
            == "OfflinePushInfo.AndroidInfo.\(field)")
      }
    }
    for field in ["OPPONotifyLevel", "VIVOClassification", "VIVONotifyType", "MeiZuNoticeMsgType"] {
      for value in notIntegers {
        #expect(
          read(android(#""\#(field)":\#(value)"#)).rejectPath
            == "OfflinePushInfo.AndroidInfo.\(field)")
      }
    }
  }

  @Test func harmonyFields() {
    for field in ["Title", "Category", "Image", "Sound"] {
      for value in notStrings {
        #expect(
          read(harmony(#""\#(field)":\#(value)"#)).rejectPath
            == "OfflinePushInfo.HarmonyInfo.\(field)")
      }
    }
    for value in notIntegers {
      #expect(
        read(harmony(#""SoundDuration":\#(value)"#)).rejectPath
          == "OfflinePushInfo.HarmonyInfo.SoundDuration")
    }
  }

  @Test func unreadFieldsAreNotChecked() {
    #expect(read(line(#","MsgSeq":"x","MsgRandom":[],"MultiLanguageContent":5"#)).notice != nil)
    #expect(read(info(#""Unknown":1,"MultiLanguageContent":"x""#)).notice != nil)
  }

  @Test func detailNamesThePath() {
    guard case .reject(let path, let detail) = read(apns(#""Sound":1"#)) else {
      Issue.record("not rejected")
      return
    }
    #expect(path == "OfflinePushInfo.ApnsInfo.Sound")
    #expect(detail.contains("OfflinePushInfo.ApnsInfo.Sound"))
  }
}
