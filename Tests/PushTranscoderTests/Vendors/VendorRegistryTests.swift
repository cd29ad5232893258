import Testing

@testable import PushTranscoder

@Suite("Vendor registry")
struct VendorRegistryTests {
  @Test func everyVendorIsRegisteredInCanonicalOrder() {
    #expect(VendorRegistry.all.map(\.id) == VendorID.allCases)
    for id in VendorID.allCases { #expect(VendorRegistry.vendor(id).id == id) }
  }

  @Test func namesAreTheCLIWordsAndTheDispatchMatchesEachId() {
    let expected = ["apns", "fcm", "huawei", "honor", "harmony", "xiaomi", "oppo", "vivo", "meizu"]
    #expect(VendorID.allCases.map(\.name) == expected)
    for id in VendorID.allCases { #expect(VendorID(name: id.name) == id) }
  }

  /// A registered vendor must declare its limits and be of one kind: budgeted (a payload
  /// budget, the body cut to fit) or capped (title and body caps). A new vendor without them
  /// fails here.
  @Test(arguments: VendorID.allCases)
  func everyRegisteredVendorHasLimitsOfItsKind(_ id: VendorID) {
    struct Kind: VendorVisitor {
      func visit<Vendor: PushVendor>(_ vendor: Vendor) -> (budgeted: Bool, capped: Bool) {
        (vendor is any BudgetedVendor, vendor is any CappedVendor)
      }
    }
    let kind = id.visit(Kind())
    let limits = id.limits
    #expect(kind.budgeted != kind.capped, "\(id) must be a BudgetedVendor or a CappedVendor")
    #expect(limits.recipientsPerRecord >= 1, "\(id)")
    if kind.budgeted {
      #expect((limits.payloadBytes ?? 0) > 0, "\(id) needs a payload budget")
    }
    if kind.capped {
      #expect((limits.titleScalars ?? 0) > 0 && (limits.bodyScalars ?? 0) > 0, "\(id) needs caps")
    }
  }

  @Test func onlyVivoReadsLineHashes() {
    #expect(VendorID.allCases.filter(\.hashesLines) == [.vivo])
  }

  @Test func refusalReasonsHaveTheirSpecNames() {
    #expect(RejectReason(VendorRefusal.Reason.overBudget).name == "over-budget")
    #expect(RejectReason(VendorRefusal.Reason.missingTimestamp).name == "missing-timestamp")
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
