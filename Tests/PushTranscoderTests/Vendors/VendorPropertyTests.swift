import Testing

@testable import PushTranscoder

/// A small seeded generator (SplitMix64) so that property runs are reproducible.
struct SplitMix64: RandomNumberGenerator {
  var state: UInt64
  init(seed: UInt64) { state = seed }
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}

@Suite("Vendor properties")
struct VendorPropertyTests {
  static let pieces: [String] = [
    "a", "Z", " ", "/", "\"", "\\", "\n", "\t", "\u{1}", "é", "e\u{301}", "\u{301}", "ß", "中",
    "界", "😀", "👨‍👩‍👧", "🇨🇳", "1️⃣", "🏳️‍🌈", "…",
  ]

  static func randomText(_ rng: inout SplitMix64, maxPieces: Int) -> String {
    let count = Int.random(in: 0...maxPieces, using: &rng)
    var text = ""
    for _ in 0..<count { text += pieces.randomElement(using: &rng)! }
    return text
  }

  /// Empty, or only scalars up to U+0020 or with Unicode's White_Space property.
  static func isBlank(_ text: String) -> Bool {
    text.unicodeScalars.allSatisfy { $0.value <= 0x20 || $0.properties.isWhitespace }
  }

  /// Where each vendor writes its body.
  static func body(_ vendor: VendorID, _ payload: [UInt8]) -> String? {
    switch vendor {
    case .apns:
      TestJSON.string(payload, ["aps", "alert"])
        ?? TestJSON.string(payload, ["aps", "alert", "body"])
    case .fcm: TestJSON.string(payload, ["notification", "body"])
    case .huawei, .honor: TestJSON.string(payload, ["android", "notification", "body"])
    case .harmony: TestJSON.string(payload, ["payload", "notification", "body"])
    case .xiaomi: TestJSON.string(payload, ["description"])
    case .oppo, .vivo: TestJSON.string(payload, ["content"])
    case .meizu: TestJSON.string(payload, ["noticeBarInfo", "content"])
    }
  }

  static func title(_ vendor: VendorID, _ payload: [UInt8]) -> String? {
    switch vendor {
    case .xiaomi, .oppo, .vivo: TestJSON.string(payload, ["title"])
    case .meizu: TestJSON.string(payload, ["noticeBarInfo", "title"])
    default: nil
    }
  }

  /// Checks that `written` is `original` unchanged, or a prefix of whole graphemes of it plus
  /// `…` such that the next grapheme would not have fitted (`fits` decides).
  static func checkCut(
    _ written: String, _ original: String, wasCut: Bool, fits: ([Character]) -> Bool
  ) {
    if !wasCut {
      #expect(written == original)
      return
    }
    #expect(written.hasSuffix("…"))
    let kept = Array(written.utf8.dropLast(3))
    var characters: [Character] = []
    var offset = 0
    var next: Character? = nil
    for character in original {
      if offset == kept.count {
        next = character
        break
      }
      characters.append(character)
      offset += character.utf8.count
    }
    #expect(offset == kept.count, "the cut must fall on a grapheme boundary")
    #expect(Array(original.utf8.prefix(kept.count)) == kept, "the cut must be a prefix")
    if let next {
      #expect(!fits(characters + [next]), "the cut must keep the longest prefix")
    }
  }

  @Test func randomTextsFitTheirLimitsAndCutAtGraphemes() {
    var rng = SplitMix64(seed: 0x5EED)
    var bodyCuts = [Int](repeating: 0, count: VendorID.allCases.count)
    var titleCuts = bodyCuts
    for round in 0..<150 {
      let body = Self.randomText(&rng, maxPieces: round % 3 == 0 ? 1800 : 140)
      let title = Bool.random(using: &rng) ? Self.randomText(&rng, maxPieces: 70) : ""
      let untitled = "nick:" + body
      let hasTitle = !title.isEmpty
      for vendor in VendorID.allCases {
        var payloads: [[UInt8]] = []
        for escapeAll in [false, true] {
          let line =
            #"{"title":\#(TestJSON.literal(title, escapeAll: escapeAll)),"body":\#(TestJSON.literal(body, escapeAll: escapeAll)),"untitled":["nick:",\#(TestJSON.literal(body, escapeAll: escapeAll))],"key":"k"}"#
          let rendered = NoticeFixture.render(vendor, line)
          #expect(rendered.refusal == nil)
          let payload = rendered.payloadBytes
          if rendered.effects.bodyCut { bodyCuts[vendor.rawValue] += 1 }
          if rendered.effects.titleCut { titleCuts[vendor.rawValue] += 1 }
          payloads.append(payload)
          #expect(TestJSON.parses(payload), "\(vendor) payload must parse")
          let limits = VendorLimits.of(vendor)
          let required = [.harmony, .xiaomi, .oppo, .vivo, .meizu].contains(vendor)
          let chosen = required || hasTitle ? body : untitled
          // A blank body becomes the banner for the vendors that require one (SPEC 9 [4, 6.8]).
          let bodyRequired = vendor != .apns && vendor != .fcm
          let expected = bodyRequired && Self.isBlank(chosen) ? "You have a new message" : chosen
          guard let written = Self.body(vendor, payload) else {
            Issue.record("\(vendor): no body in \(String(decoding: payload, as: UTF8.self))")
            continue
          }
          if let budget = limits.payloadBytes {
            #expect(payload.count <= budget)
            Self.checkCut(written, expected, wasCut: rendered.effects.bodyCut) { kept in
              let extra = kept.last!.utf8.reduce(0) { $0 + JSONEscapes.escapedLength($1) }
              return payload.count + extra <= budget
            }
          }
          if let cap = limits.bodyScalars {
            Self.checkCut(written, expected, wasCut: rendered.effects.bodyCut) { kept in
              kept.reduce(0) { $0 + $1.unicodeScalars.count } <= cap - 1
            }
            #expect(written.unicodeScalars.count <= cap)
          }
          if let cap = limits.titleScalars, let writtenTitle = Self.title(vendor, payload) {
            // A blank required title takes the fallback title (SPEC 9 [4, 6.8]).
            let expectedTitle = hasTitle && !Self.isBlank(title) ? title : "New message"
            Self.checkCut(writtenTitle, expectedTitle, wasCut: rendered.effects.titleCut) { kept in
              kept.reduce(0) { $0 + $1.unicodeScalars.count } <= cap - 1
            }
            #expect(writtenTitle.unicodeScalars.count <= cap)
          }
        }
        #expect(payloads[0] == payloads[1], "\(vendor): escaped and raw forms must agree")
      }
    }
    // The run must have exercised every cut it checks.
    #expect(bodyCuts.allSatisfy { $0 > 0 }, "body cuts per vendor: \(bodyCuts)")
    #expect(titleCuts[VendorID.xiaomi.rawValue...].allSatisfy { $0 > 0 }, "\(titleCuts)")
  }
}
