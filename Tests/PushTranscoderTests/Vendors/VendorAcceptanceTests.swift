import Testing

@testable import PushTranscoder

/// Payloads the vendors accept (SPEC 9 [4, 6.8]): refused values are left out (a required one
/// takes its default) and reported in `RenderEffects.dropped`; blank bodies become the banner
/// text for the vendors that require a body; blank required titles take the fallback title.
@Suite("Vendor acceptance")
struct VendorAcceptanceTests {
  /// The names of the fields `vendor` dropped while rendering `line`.
  static func dropped(_ vendor: VendorID, _ line: String) -> [String] {
    let rendered = NoticeFixture.render(vendor, line)
    return DroppedField.allCases.filter { rendered.effects.dropped & $0.bit != 0 }.map(\.name)
  }

  static let badges: [(String, VendorID, String?, [String])] = [
    // (fixture badge keys, vendor, badge object written or nil, dropped)
    (#""badgeAdd":-1"#, .huawei, nil, ["add_num"]),
    (#""badgeAdd":0"#, .huawei, nil, ["add_num"]),
    (#""badgeAdd":1"#, .huawei, #"{"add_num":1}"#, []),
    (#""badgeAdd":99"#, .honor, #"{"addNum":99}"#, []),
    (#""badgeAdd":100"#, .harmony, nil, ["addNum"]),
    (#""badgeSet":0"#, .huawei, #"{"set_num":0}"#, []),
    (#""badgeSet":99"#, .harmony, #"{"setNum":99}"#, []),
    (#""badgeSet":100"#, .honor, nil, ["setNum"]),
    (#""badgeSet":-1"#, .huawei, nil, ["set_num"]),
    (#""badgeSet":123456789012345678901234567890"#, .huawei, nil, ["set_num"]),
    // Set beats add first, then the chosen value is checked: no fallback to add.
    (#""badgeSet":100,"badgeAdd":5"#, .huawei, nil, ["set_num"]),
    (#""badgeSet":0,"badgeAdd":100"#, .honor, #"{"setNum":0}"#, []),
  ]

  @Test(arguments: badges)
  func badgeRanges(_ keys: String, _ vendor: VendorID, _ badge: String?, _ dropped: [String]) {
    let line = #"{"body":"b",\#(keys)}"#
    let payload = NoticeFixture.payload(vendor, line)
    if let badge {
      #expect(payload.contains(#""badge":\#(badge)"#), "\(payload)")
    } else {
      #expect(!payload.contains("badge"), "\(payload)")
    }
    #expect(Self.dropped(vendor, line) == dropped)
  }

  @Test func apnsBadgeAndFCMCountMustNotBeNegative() {
    let negative = #"{"body":"b","badgeSet":-1}"#
    #expect(!NoticeFixture.payload(.apns, negative).contains("badge"))
    #expect(Self.dropped(.apns, negative) == ["badge"])
    #expect(!NoticeFixture.payload(.fcm, negative).contains("notification_count"))
    #expect(Self.dropped(.fcm, negative) == ["notification_count"])
    let large = #"{"body":"b","badgeSet":1000}"#
    #expect(NoticeFixture.payload(.apns, large).contains(#""badge":1000"#))
    #expect(NoticeFixture.payload(.fcm, large).contains(#""notification_count":1000"#))
    #expect(Self.dropped(.fcm, large).isEmpty)
    // "Values compare exactly": 2^63 and beyond are >= 0 too (they were dropped for not
    // fitting 64 bits); below -2^63 is still negative, and -0 is 0.
    let huge = #"{"body":"b","badgeSet":99999999999999999999999}"#
    #expect(NoticeFixture.payload(.apns, huge).contains(#""badge":99999999999999999999999"#))
    #expect(
      NoticeFixture.payload(.fcm, huge).contains(#""notification_count":99999999999999999999999"#))
    #expect(Self.dropped(.apns, huge).isEmpty && Self.dropped(.fcm, huge).isEmpty)
    let hugeNegative = #"{"body":"b","badgeSet":-99999999999999999999999}"#
    #expect(Self.dropped(.apns, hugeNegative) == ["badge"])
    #expect(Self.dropped(.fcm, hugeNegative) == ["notification_count"])
    #expect(NoticeFixture.payload(.apns, #"{"body":"b","badgeSet":-0}"#).contains(#""badge":-0"#))
  }

  @Test func huaweiCategoryAndImportanceFromTheirLists() {
    let bad = #"{"body":"b","android":{"huaweiCategory":"IM2","huaweiImportance":"high"}}"#
    #expect(
      NoticeFixture.payload(.huawei, bad)
        == #"{"android":{"notification":{"body":"b","click_action":{"type":3}}}}"#)
    #expect(Self.dropped(.huawei, bad) == ["category", "importance"])
    // Values compare decoded: an escaped `IM` is `IM`.
    let good = #"{"body":"b","android":{"huaweiCategory":"\u0049M","huaweiImportance":"HIGH"}}"#
    #expect(
      NoticeFixture.payload(.huawei, good)
        == #"{"android":{"category":"IM","notification":{"body":"b","importance":"HIGH","click_action":{"type":3}}}}"#
    )
    #expect(Self.dropped(.huawei, good).isEmpty)
  }

  @Test func honorImportanceIsLowOrNormal() {
    let high = #"{"body":"b","android":{"honorImportance":"HIGH"}}"#
    #expect(!NoticeFixture.payload(.honor, high).contains("importance"))
    #expect(Self.dropped(.honor, high) == ["importance"])
    let normal = #"{"body":"b","android":{"honorImportance":"NORMAL"}}"#
    #expect(NoticeFixture.payload(.honor, normal).contains(#""importance":"NORMAL""#))
  }

  @Test func harmonyCategoryOutsideTheListTakesTheDefault() {
    let bad = #"{"body":"b","harmony":{"category":"IM2"}}"#
    #expect(
      NoticeFixture.payload(.harmony, bad).hasPrefix(
        #"{"payload":{"notification":{"category":"IM","#))
    #expect(Self.dropped(.harmony, bad) == ["category"])
    let good = #"{"body":"b","harmony":{"category":"MISS_CALL"}}"#
    #expect(NoticeFixture.payload(.harmony, good).contains(#""category":"MISS_CALL""#))
    #expect(Self.dropped(.harmony, good).isEmpty)
  }

  static let vivo: [(String, String, [String])] = [
    // (android fixture keys, expected fields between content and skipType, dropped)
    (#""vivoNotifyType":0"#, #""notifyType":4"#, ["notifyType"]),
    (#""vivoNotifyType":5"#, #""notifyType":4"#, ["notifyType"]),
    (#""vivoNotifyType":1"#, #""notifyType":1"#, []),
    (#""vivoClassification":2"#, #""notifyType":4"#, ["classification"]),
    (
      #""vivoClassification":0,"vivoCategory":"IM""#, #""notifyType":4,"classification":0"#,
      ["category"]
    ),
    (
      #""vivoClassification":1,"vivoCategory":"NEWS""#, #""notifyType":4,"classification":1"#,
      ["category"]
    ),
    (
      #""vivoClassification":0,"vivoCategory":"MARKETING""#,
      #""notifyType":4,"classification":0,"category":"MARKETING""#, []
    ),
    (#""vivoCategory":"NEWS""#, #""notifyType":4,"category":"NEWS""#, []),
    (#""vivoCategory":"CHAT""#, #""notifyType":4"#, ["category"]),
    // The classification is checked first: a refused one matches nothing, so any listed
    // category stays.
    (
      #""vivoClassification":7,"vivoCategory":"IM""#, #""notifyType":4,"category":"IM""#,
      ["classification"]
    ),
  ]

  @Test(arguments: vivo)
  func vivoNotifyTypeClassificationAndCategory(
    _ keys: String, _ fields: String, _ dropped: [String]
  ) {
    let line = #"{"key":"k","body":"b","android":{\#(keys)}}"#
    #expect(
      NoticeFixture.payload(.vivo, line)
        == #"{"title":"New message","content":"b",\#(fields),"skipType":1,"requestId":"k"}"#)
    #expect(Self.dropped(.vivo, line) == dropped)
  }

  static let oppo: [(String, String, [String])] = [
    (#""oppoCategory":"IM","oppoNotifyLevel":16"#, #""category":"IM","notify_level":16,"#, []),
    (#""oppoCategory":"IM","oppoNotifyLevel":1"#, #""category":"IM","notify_level":1,"#, []),
    (#""oppoNotifyLevel":2"#, "", ["notify_level"]),
    (#""oppoCategory":"IM","oppoNotifyLevel":0"#, #""category":"IM","#, ["notify_level"]),
    (#""oppoCategory":"IM","oppoNotifyLevel":3"#, #""category":"IM","#, ["notify_level"]),
  ]

  @Test(arguments: oppo)
  func oppoNotifyLevelOnlyWithACategory(_ keys: String, _ fields: String, _ dropped: [String]) {
    let line = #"{"body":"b","android":{\#(keys)}}"#
    #expect(
      NoticeFixture.payload(.oppo, line)
        == #"{"title":"New message","content":"b",\#(fields)"click_action_type":0}"#)
    #expect(Self.dropped(.oppo, line) == dropped)
  }

  @Test func meizuNoticeMsgTypeIsZeroOrOne() {
    for (value, kept) in [("0", true), ("1", true), ("2", false), ("-1", false)] {
      let line = #"{"body":"b","android":{"meizuNoticeMsgType":\#(value)}}"#
      #expect(NoticeFixture.payload(.meizu, line).contains("noticeMsgType") == kept, "\(value)")
      #expect(Self.dropped(.meizu, line) == (kept ? [] : ["noticeMsgType"]))
    }
  }

  static let bodyRequired: [VendorID] = [.huawei, .honor, .harmony, .xiaomi, .oppo, .vivo, .meizu]

  @Test(arguments: [#""""#, #""\f""#, #"" \u3000\u00a0\u2028\t\u0085""#, #"[" ","\n"]"#])
  func blankBodiesBecomeTheBannerWhereABodyIsRequired(_ body: String) {
    let line = #"{"title":"T","body":\#(body)}"#
    for vendor in VendorID.allCases {
      let payload = NoticeFixture.render(vendor, line).payloadBytes
      let written = VendorPropertyTests.body(vendor, payload)
      if Self.bodyRequired.contains(vendor) {
        #expect(written == "You have a new message", "\(vendor)")
      } else {
        #expect(written != "You have a new message", "\(vendor) keeps its body")
      }
    }
  }

  @Test func aZeroWidthSpaceIsNotBlank() {
    // U+200B has no White_Space property.
    let line = #"{"title":"T","body":"\u200b"}"#
    #expect(NoticeFixture.payload(.xiaomi, line).contains("\"description\":\"\u{200B}\""))
  }

  @Test func theBannerGoesUnderTheCaps() {
    let line = #"{"fallback":"F","body":" "}"#
    // meizu caps content at 100 scalars: the banner fits whole.
    #expect(NoticeFixture.payload(.meizu, line).contains(#""content":"You have a new message""#))
  }

  @Test func blankRequiredTitlesTakeTheFallback() {
    let line = #"{"title":" \t","fallback":"Nick","body":"b","harmony":{"title":"\u3000"}}"#
    #expect(NoticeFixture.payload(.xiaomi, line).hasPrefix(#"{"title":"Nick","#))
    #expect(NoticeFixture.payload(.harmony, line).contains(#""title":"Nick""#))
    // huawei's title is optional: written as given.
    #expect(NoticeFixture.payload(.huawei, line).contains(#""title":" \t""#))
    // harmony prefers a non-blank `Title` over a blank `HarmonyInfo.Title`.
    let titled = #"{"title":"T","body":"b","harmony":{"title":" "}}"#
    #expect(NoticeFixture.payload(.harmony, titled).contains(#""title":"T""#))
  }

  @Test func statsWriteDroppedFieldsOnlyWhenSomeWereDropped() {
    var stats = RunStats()
    var writer = JSONWriter()
    stats.writeJSON(into: &writer)
    #expect(!String(decoding: writer.bytes, as: UTF8.self).contains("dropped_fields"))
    stats.droppedFields[VendorID.huawei.rawValue][DroppedField.addNumSnake.rawValue] = 2
    stats.droppedFields[VendorID.vivo.rawValue][DroppedField.notifyType.rawValue] = 1
    var merged = RunStats()
    merged.merge(stats)
    merged.merge(stats)
    writer = JSONWriter()
    merged.writeJSON(into: &writer)
    #expect(
      String(decoding: writer.bytes, as: UTF8.self).contains(
        #","vendor_rejects":{},"dropped_fields":{"huawei":{"add_num":4},"vivo":{"notifyType":2}},"unknown_elements":"#
      ))
  }

  /// Escaped content is judged blank in place, the same as its decoded text.
  @Test(arguments: [
    #"\n\t"#, #"\f\u2028"#, #"\u0020 \u3000"#, #"\"x"#, #"\\"#, #"\/"#, #"\n a"#,
    #"\ud83d\ude00"#, #"\u200b"#, #"  \u00a0\r"#, #"\u00e9"#, #"\b"#,
  ])
  func escapedBlankMatchesDecodedText(content: String) {
    let bytes = Array(content.utf8)
    var decoded: [UInt8] = []
    bytes.withUnsafeBufferPointer { JSONEscapes.decode($0, into: &decoded) }
    let expected = decoded.withUnsafeBufferPointer { PushText.isBlankUTF8($0) }
    let inPlace = bytes.withUnsafeBufferPointer { StringSlice.isBlankEscaped($0) }
    #expect(inPlace == expected)
  }

  /// The lead-byte shortcut of the blank test never calls a blank scalar non-blank: checked for
  /// every scalar, against the scalar test itself.
  @Test func leadByteShortcutAgreesWithTheScalarTestForEveryScalar() {
    var wrong: [UInt32] = []
    for value in UInt32(0)...0x10FFFF {
      guard let scalar = Unicode.Scalar(value) else { continue }  // surrogates
      let lead = Array(String(Character(scalar)).utf8)[0]
      if PushText.startsNonBlank(lead) && PushText.isBlankScalar(value) { wrong.append(value) }
    }
    #expect(wrong.isEmpty)
    // And it does take the shortcut for the usual first scalars.
    for text in ["a", "é", "中", "😀", "ж"] {
      #expect(PushText.startsNonBlank(Array(text.utf8)[0]))
    }
    for text in ["\u{A0}", "\u{3000}", "\u{2003}", " "] {
      #expect(!PushText.startsNonBlank(Array(text.utf8)[0]))
    }
  }
}
