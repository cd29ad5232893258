import Testing

@testable import PushTranscoder

@Suite("Vendor registry")
struct VendorRegistryTests {
  @Test func everyVendorIsRegisteredInCanonicalOrder() {
    #expect(VendorRegistry.all.map(\.id) == VendorID.allCases)
    for id in VendorID.allCases { #expect(VendorRegistry.vendor(id).id == id) }
  }

  @Test func recipientsPerRecordFollowTheSpecTable() {
    let expected = [1, 500, 1000, 1000, 1000, 100, 1000, 1000, 100]
    #expect(VendorRegistry.all.map(\.recipientsPerRecord) == expected)
  }

  @Test func budgetedVendorsHaveNoCapsAndCappedVendorsNoPayloadBudget() {
    for id in VendorID.allCases {
      let limits = VendorLimits.of(id)
      #expect((limits.payloadBytes == nil) == (limits.titleScalars != nil), "\(id)")
      // Meizu documents no limit on `parameters` (SPEC 4).
      #expect((limits.extField != nil) == (limits.titleScalars != nil && id != .meizu), "\(id)")
    }
  }

  @Test func onlyAPNsWritesRecordExtras() {
    let line = #"{"apns":{"voip":1},"body":"b"}"#
    for id in VendorID.allCases {
      let extras = NoticeFixture.render(id, line).extras
      #expect(extras == (id == .apns ? #","push_type":"voip""# : ""), "\(id)")
    }
  }

  @Test(arguments: VendorID.allCases)
  func escapedAndRawFormsOfEveryFieldRenderTheSameBytes(_ id: VendorID) {
    let texts = [
      "title": "Ti\"tle é 👨‍👩‍👧", "body": "b\\o/dy\n中 🇨🇳", "ext": "{\"k\":\"1️⃣\"}", "key": "ké/y",
      "sound": "só", "from": "bø", "to": "tø",
    ]
    func line(_ escapeAll: Bool) -> String {
      let fields = texts.keys.sorted().map { key in
        let value = TestJSON.literal(texts[key]!, escapeAll: escapeAll)
        return key == "to" ? #""to":[\#(value)]"# : #""\#(key)":\#(value)"#
      }
      return "{" + fields.joined(separator: ",") + #","android":{"sound":"ß"}}"#
    }
    let raw = NoticeFixture.render(id, line(false))
    let escaped = NoticeFixture.render(id, line(true))
    #expect(raw.payload != nil)
    #expect(raw.payloadBytes == escaped.payloadBytes)
    #expect(TestJSON.parses(raw.payloadBytes))
  }
}
