import Testing

@testable import PushTranscoder

/// xiaomi, oppo, vivo and meizu: required titles, scalar caps, budgets on the ext field.
@Suite("Vendor xiaomi oppo vivo meizu")
struct CappedVendorTests {
  let fullAndroid =
    #""android":{"xiaomiChannelID":"xc","oppoChannelID":"oc","oppoCategory":"IM","oppoNotifyLevel":2,"vivoCategory":"IM","vivoClassification":1,"vivoNotifyType":1,"meizuNoticeMsgType":1}"#

  @Test func minimalPayloadsUseFallbackTitleAndUnprefixedBody() {
    let line = #"{"key":"k1","body":"b","untitled":"n:b"}"#
    #expect(
      NoticeFixture.payload(.xiaomi, line)
        == #"{"title":"New message","description":"b","pass_through":0,"notify_type":-1}"#)
    #expect(
      NoticeFixture.payload(.oppo, line)
        == #"{"title":"New message","content":"b","click_action_type":0}"#)
    #expect(
      NoticeFixture.payload(.vivo, line)
        == #"{"title":"New message","content":"b","notifyType":4,"skipType":1,"requestId":"k1"}"#)
    #expect(
      NoticeFixture.payload(.meizu, line)
        == #"{"noticeBarInfo":{"title":"New message","content":"b"},"clickTypeInfo":{"clickType":0}}"#
    )
  }

  @Test func everyOptionalKeyInOrder() {
    let line = #"{"key":"k1","title":"T","body":"b","untitled":"n:b","ext":"e",\#(fullAndroid)}"#
    #expect(
      NoticeFixture.payload(.xiaomi, line)
        == #"{"title":"T","description":"b","payload":"e","pass_through":0,"notify_type":-1,"extra":{"channel_id":"xc"}}"#
    )
    #expect(
      NoticeFixture.payload(.oppo, line)
        == #"{"title":"T","content":"b","channel_id":"oc","category":"IM","notify_level":2,"click_action_type":0,"action_parameters":"{\"ext\":\"e\"}"}"#
    )
    #expect(
      NoticeFixture.payload(.vivo, line)
        == #"{"title":"T","content":"b","notifyType":1,"classification":1,"category":"IM","skipType":1,"clientCustomMap":{"ext":"e"},"requestId":"k1"}"#
    )
    #expect(
      NoticeFixture.payload(.meizu, line)
        == #"{"noticeBarInfo":{"title":"T","content":"b","noticeMsgType":1},"clickTypeInfo":{"clickType":0,"parameters":{"ext":"e"}}}"#
    )
  }

  @Test func extJSONIsCarriedAsItsCanonicalText() {
    let line = #"{"body":"b","extJSON":{"a" : {"b":"\u00e9\n"}}}"#
    #expect(
      NoticeFixture.payload(.xiaomi, line)
        == #"{"title":"New message","description":"b","payload":"{\"a\":{\"b\":\"é\\n\"}}","pass_through":0,"notify_type":-1}"#
    )
  }

  static let caps: [(VendorID, [StaticString], [StaticString])] = [
    (.xiaomi, ["title"], ["description"]),
    (.oppo, ["title"], ["content"]),
    (.vivo, ["title"], ["content"]),
    (.meizu, ["noticeBarInfo", "title"], ["noticeBarInfo", "content"]),
  ]

  @Test(arguments: caps)
  func capsAtOneBelowAndOneAbove(
    _ vendor: VendorID, _ titlePath: [StaticString], _ bodyPath: [StaticString]
  ) {
    let limits = VendorLimits.of(vendor)
    for (cap, isTitle) in [(limits.titleScalars!, true), (limits.bodyScalars!, false)] {
      for count in [cap - 1, cap, cap + 1] {
        let text = String(repeating: "中", count: count)
        let line = isTitle ? #"{"title":"\#(text)","body":"b"}"# : #"{"body":"\#(text)"}"#
        let rendered = NoticeFixture.render(vendor, line)
        let written = TestJSON.string(rendered.payloadBytes, isTitle ? titlePath : bodyPath)
        let cut = isTitle ? rendered.effects.titleCut : rendered.effects.bodyCut
        if count <= cap {
          #expect(written == text && !cut, "\(vendor) \(count)")
        } else {
          #expect(written == String(repeating: "中", count: cap - 1) + "…", "\(vendor)")
          #expect(cut)
        }
      }
    }
  }

  @Test func fallbackTitleIsCappedToo() {
    let title = String(repeating: "x", count: 40)
    let rendered = NoticeFixture.render(.meizu, #"{"fallback":"\#(title)","body":"b"}"#)
    #expect(rendered.effects.titleCut)
    #expect(
      TestJSON.string(rendered.payloadBytes, ["noticeBarInfo", "title"])
        == String(repeating: "x", count: 31) + "…")
  }

  @Test func capCutKeepsAZWJFamilyWhole() {
    // 98 + 👨‍👩‍👧 (5 scalars) = 103 > 100: the family does not fit in 99 scalars.
    let text = String(repeating: "a", count: 98) + "👨‍👩‍👧"
    let rendered = NoticeFixture.render(.vivo, #"{"body":"\#(text)"}"#)
    #expect(
      TestJSON.string(rendered.payloadBytes, ["content"]) == String(repeating: "a", count: 98)
        + "…")
  }

  static let fieldBudgets: [(VendorID, String, String, Bool)] = [
    // xiaomi: UTF-8 bytes of ext ≤ 4096 (1365 × 3 + 1 = 4096).
    (.xiaomi, String(repeating: "中", count: 1365) + "a", "b", true),
    (.xiaomi, String(repeating: "中", count: 1365) + "ab", "", false),
    // oppo: scalars of the JSON text {"ext":"…"} ≤ 4000, whatever their bytes; an escape
    // counts its backslash.
    (.oppo, String(repeating: "中", count: 3990), "", true),
    (.oppo, String(repeating: "中", count: 3991), "", false),
    (.oppo, String(repeating: "\"", count: 1995), "", true),
    (.oppo, String(repeating: "\"", count: 1995) + "a", "", false),
    // vivo: 3 + scalars of ext ≤ 1024.
    (.vivo, String(repeating: "é", count: 1021), "", true),
    (.vivo, String(repeating: "é", count: 1022), "", false),
    // meizu: no limit on parameters (SPEC 4).
    (.meizu, String(repeating: "中", count: 20000), "", true),
  ]

  @Test(arguments: fieldBudgets)
  func extFieldBudgetsAreInclusiveAndNeverCut(
    _ vendor: VendorID, _ ext: String, _ unused: String, _ fits: Bool
  ) {
    let line = #"{"body":"b","ext":\#(TestJSON.literal(ext))}"#
    let rendered = NoticeFixture.render(vendor, line)
    if fits {
      #expect(rendered.refusal == nil)
      // oppo carries ext inside a JSON text, escaped once more.
      let carried =
        vendor == .oppo
        ? TestJSON.literal(#"{"ext":\#(TestJSON.literal(ext))}"#) : TestJSON.literal(ext)
      #expect(rendered.payload?.contains(carried) == true)
    } else {
      #expect(rendered.refusal?.reason == .overBudget)
      #expect(!rendered.effects.titleCut && !rendered.effects.bodyCut)
    }
  }

  @Test func oppoActionParametersHoldTheJSONTextAndItsMeasuredSize() throws {
    let ext = "q\"\\\n\u{1}é/中"
    let rendered = NoticeFixture.render(.oppo, #"{"body":"b","ext":\#(TestJSON.literal(ext))}"#)
    let text = try #require(TestJSON.string(rendered.payloadBytes, ["action_parameters"]))
    // The field holds the JSON text {"ext":ext}, canonical, so it parses back to ext.
    #expect(TestJSON.string(Array(text.utf8), ["ext"]) == ext)
    #expect(text == #"{"ext":\#(TestJSON.literal(ext))}"#)
    let measured = FieldBudget(
      field: "action_parameters", unit: .writtenObjectScalars, limit: 4000
    ).size(of: .decoded(Array(ext.utf8)))
    #expect(text.unicodeScalars.count == measured)
  }

  @Test func vivoRequestIDFromTheHashWhenThereIsNoKey() {
    let line = #"{"body":"b","hash":255}"#
    #expect(NoticeFixture.payload(.vivo, line).hasSuffix(#""requestId":"h00000000000000ff"}"#))
    #expect(
      NoticeFixture.payload(.vivo, line, part: 2, parts: 3)
        .hasSuffix(#""requestId":"h00000000000000ff-2"}"#))
    let hashed = NoticeFixture.render(.vivo, #"{"body":"b"}"#)
    let expected = #"{"body":"b"}"#.utf8.withContiguousStorageIfAvailable { FNV1a.hash($0) }!
    let hex = String(expected, radix: 16)
    #expect(
      TestJSON.string(hashed.payloadBytes, ["requestId"])
        == "h" + String(repeating: "0", count: 16 - hex.count) + hex)
  }

  /// The hash's hex digits are made eight at a time (SWAR): every nibble value, in every
  /// position, gives the digit `String(radix:)` gives.
  @Test func vivoHexDigitsMatchTheLibrary() {
    var values: [UInt32] = [0, 0xFFFF_FFFF, 0x0123_4567, 0x89AB_CDEF, 0xDEAD_BEEF, 0x0F0F_0F0F]
    for nibble: UInt32 in 0...15 {
      for position: UInt32 in 0...7 { values.append(nibble << (4 * position)) }
    }
    var state: UInt32 = 0x1234_5678
    for _ in 0..<200 {
      state = state &* 1_664_525 &+ 1_013_904_223
      values.append(state)
    }
    for value in values {
      var digits = Vivo.hexDigits(value)
      let text = withUnsafeBytes(of: &digits) { String(decoding: $0, as: UTF8.self) }
      let hex = String(value, radix: 16)
      #expect(text == String(repeating: "0", count: 8 - hex.count) + hex)
    }
  }

  @Test func vivoRequestIDIsCutTo64BytesAndSuffixed() {
    let key = String(repeating: "k", count: 70)
    let one = NoticeFixture.render(.vivo, #"{"key":"\#(key)","body":"b"}"#)
    #expect(TestJSON.string(one.payloadBytes, ["requestId"]) == String(repeating: "k", count: 64))
    let tenth = NoticeFixture.render(.vivo, #"{"key":"\#(key)","body":"b"}"#, part: 10, parts: 12)
    #expect(
      TestJSON.string(tenth.payloadBytes, ["requestId"])
        == String(repeating: "k", count: 61) + "-10")
    let short = NoticeFixture.render(.vivo, #"{"key":"k1","body":"b"}"#, part: 1, parts: 2)
    #expect(TestJSON.string(short.payloadBytes, ["requestId"]) == "k1-1")
  }

  @Test func vivoRequestIDCutsAtAScalarBoundaryInRawAndEscapedForms() {
    // 63 + 2 bytes: é would straddle byte 64, so it goes whole; no `…`.
    let key = String(repeating: "a", count: 63) + "é"
    for form in [TestJSON.literal(key), TestJSON.literal(key, escapeAll: true)] {
      let rendered = NoticeFixture.render(.vivo, #"{"key":\#(form),"body":"b"}"#)
      #expect(
        TestJSON.string(rendered.payloadBytes, ["requestId"]) == String(repeating: "a", count: 63))
      let split = NoticeFixture.render(.vivo, #"{"key":\#(form),"body":"b"}"#, part: 2, parts: 2)
      #expect(
        TestJSON.string(split.payloadBytes, ["requestId"])
          == String(repeating: "a", count: 62) + "-2")
    }
  }
}

/// OPPO's `action_parameters` escape the ext's canonical content once more (`OPPO.escapeAgain`
/// in place, a word at a time; `JSONEscapes.writeEscaped` from a canonical slice, 16 bytes a
/// step): the result is the byte-by-byte escape, whatever the content's length and wherever
/// its `"` and `\` fall (and `#` and `]`, one above each, where a borrowing word test would see
/// a false match).
@Suite struct OPPOEscapeAgainTests {
  @Test func escapingAgainMatchesTheByteByByteEscape() {
    let alphabet = Array("ab\"\\#]{}:é".utf8)
    var generator = SystemRandomNumberGenerator()
    var contents: [[UInt8]] = (0..<40).map { Array(repeating: UInt8(ascii: "\""), count: $0) }
    contents += (0..<40).map {
      Array(repeating: UInt8(ascii: "a"), count: $0) + [UInt8(ascii: "\\")]
    }
    for _ in 0..<3000 {
      let length = Int.random(in: 0...70, using: &generator)
      contents.append((0..<length).map { _ in alphabet.randomElement(using: &generator)! })
    }
    for content in contents {
      var expected: [UInt8] = Array("prefix".utf8)
      for byte in content {
        if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
          expected.append(UInt8(ascii: "\\"))
        }
        expected.append(byte)
      }
      var writer = JSONWriter()
      writer.raw("prefix")
      let start = writer.count
      content.withUnsafeBufferPointer { writer.raw($0) }
      OPPO.escapeAgain(from: start, into: &writer)
      #expect(writer.bytes == expected, "\(String(decoding: content, as: UTF8.self))")
      // The forward escape of a canonical slice (the text escape, 16 bytes a step) writes the
      // same bytes.
      var forward = [UInt8](repeating: 0, count: 6 * content.count + 1)
      let written = content.withUnsafeBufferPointer { content in
        forward.withUnsafeMutableBufferPointer {
          JSONEscapes.writeEscaped(content, at: $0.baseAddress!)
        }
      }
      #expect(
        Array("prefix".utf8) + forward[..<written] == expected,
        "forward: \(String(decoding: content, as: UTF8.self))")
    }
  }
}
