import Testing

@testable import PushTranscoder

/// A message split into several records renders its payload once where the vendor says how the
/// records' payloads differ (`PushVendor.partPayloads`), and makes the others from it
/// (`LineRecords.writeParts`, `PayloadTemplate`). That is right only if the claim is: for
/// `.same`, every part a vendor renders must be the first part's bytes, with the same effects
/// and the same refusal; for `.differInOneField`, each part must be the first with its own
/// field (`writePartField`) in place of the first's.
@Suite struct PartPayloadsTests {
  /// Notices that split: recipients and groups, both dialects, keyed and keyless, a body cut to
  /// the budget, an ext some vendors refuse.
  static let lines: [String] = [
    #"{"to":["a","b","c"],"key":"k","title":"T","body":["hello"],"ext":"x"}"#,
    #"{"to":["a","b","c"],"body":["hello \u00e9"],"sound":"ding","badgeSet":"3"}"#,
    #"{"to":["a","bb","ccc"],"body":[""#
      + String(repeating: "long body ", count: 600) + #""],"ext":"x"}"#,
    #"{"to":["a","b","c"],"body":["hi"],"ext":""# + String(repeating: "e", count: 1100) + #""}"#,
    #"{"dialect":"easemob","to":["a","bb","ccc"],"from":"f","m":"1","body":["hi"]}"#,
    #"{"dialect":"easemob","groups":["g1","g2","g3"],"from":"f","body":["hi"]}"#,
    #"{"groups":["g1","g2","g3"],"body":["hi"],"fallback":"Group"}"#,
  ]

  /// The fallback titles of the groups' records, as a directory would name them.
  static var groupTitles: [StringSlice] {
    [
      StringSlice("First group"), StringSlice("Second group"), StringSlice("Third group"),
    ]
  }

  struct Part: Equatable {
    var payload: [UInt8]
    var refused: String?
    var titleCut: Bool
    var bodyCut: Bool
    var dropped: UInt16
  }

  static func parts(_ vendor: any PushVendor, _ notice: Notice, _ context: RenderContext)
    -> [Part]
  {
    (1...3).map { part in
      var writer = JSONWriter()
      var effects = RenderEffects()
      let refusal = vendor.renderPart(
        notice, context, part: part, parts: 3, into: &writer, &effects)
      return Part(
        payload: writer.bytes, refused: refusal.map { RejectReason($0.reason).name },
        titleCut: effects.titleCut, bodyCut: effects.bodyCut, dropped: effects.dropped)
    }
  }

  /// Part 1's payload with the field `RenderEffects.partField` marks replaced by `part`'s own.
  static func spliced(
    _ vendor: any PushVendor, _ notice: Notice, _ context: RenderContext, part: Int
  ) -> [UInt8]? {
    var writer = JSONWriter()
    var effects = RenderEffects()
    guard vendor.renderPart(notice, context, part: 1, parts: 3, into: &writer, &effects) == nil,
      let field = effects.partField
    else { return nil }
    let first = writer.bytes
    var own = JSONWriter()
    vendor.writePartField(notice, part: part, into: &own)
    return Array(first[..<field.lowerBound]) + own.bytes + Array(first[field.upperBound...])
  }

  /// Every vendor, every line, with the groups named by a directory (each its own title) and
  /// not (every group's title the notice's fallback title, one slice).
  @Test(arguments: VendorID.allCases, [true, false])
  func partsDifferOnlyAsTheVendorSays(_ id: VendorID, namedGroups: Bool) {
    let vendor = VendorRegistry.vendor(id)
    for line in Self.lines {
      NoticeFixture.with(line) { notice, context in
        var notice = notice
        notice.fallbackTitles =
          namedGroups
          ? Array(Self.groupTitles.prefix(notice.groups.count))
          : Array(repeating: notice.fallbackTitle, count: notice.groups.count)
        let parts = Self.parts(vendor, notice, context)
        switch vendor.partPayloads(notice) {
        case .same:
          #expect(parts.allSatisfy { $0 == parts[0] }, "\(id.name): \(line)")
        case .differInOneField:
          for part in 1...3 {
            #expect(
              Self.spliced(vendor, notice, context, part: part) == parts[part - 1].payload,
              "\(id.name) part \(part): \(line)")
          }
        case .differ:
          break
        }
      }
    }
  }

  /// The vendors that do vary say so, and their parts do differ: the check above would see a
  /// vendor that read `part` without saying it.
  @Test func theVaryingVendorsVaryWhereTheySayTheyDo() {
    let cases: [(VendorID, String, PartPayloads)] = [
      (.apns, Self.lines[4], .differInOneField), (.apns, Self.lines[5], .differ),
      (.vivo, Self.lines[1], .differ), (.harmony, Self.lines[6], .differ),
    ]
    for (id, line, kind) in cases {
      let vendor = VendorRegistry.vendor(id)
      NoticeFixture.with(line) { notice, context in
        // Each group's records take its name as the fallback title (SPEC 3.3).
        var notice = notice
        notice.fallbackTitles = Array(Self.groupTitles.prefix(notice.groups.count))
        #expect(vendor.partPayloads(notice) == kind, "\(id.name): \(line)")
        let parts = Self.parts(vendor, notice, context)
        #expect(parts[0] != parts[1] && parts[1] != parts[2], "\(id.name): \(line)")
      }
    }
  }
}
