import Testing

@testable import PushTranscoder

/// The fast path of the cuts must give exactly what full grapheme segmentation gives.
@Suite struct SimpleCutTests {
  static let pool: [String] = [
    "a", "Z", " ", "~", "\"", "\\", "\n", "\r\n", "\t", "中", "文", "。", "【", "！", "é", "e\u{301}",
    "👨‍👩‍👧", "🇨🇳", "1️⃣", "😀", "ｶﾞ", "が", "か\u{3099}", "한", "ᄀ", "\u{200D}", "क्ष", "\u{7F}",
    // Around the "simple" CJK range: U+4E00 and U+9FFF (in), U+4DC0 and U+3400 (out), an
    // ideograph with a combining mark.
    "\u{4E00}", "\u{9FFF}", "\u{4DC0}", "\u{3400}", "中\u{301}",
  ]

  @Test func fastPathAgreesWithGraphemeSegmentation() {
    var state: UInt64 = 42
    func next(_ bound: Int) -> Int {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Int(state >> 33) % bound
    }
    var fastHits = 0
    for _ in 0..<3000 {
      var text = ""
      for _ in 0..<(1 + next(40)) { text += Self.pool[next(Self.pool.count)] }
      let decoded = Array(text.utf8)
      let limit = next(60)
      let scalarCost: (Character) -> Int = { $0.unicodeScalars.count }
      let slowScalars = TextCut.graphemePrefix(of: decoded, limit: limit, cost: scalarCost)
      if let fast = TextCut.simplePrefix(of: decoded, limit: limit, cost: { _ in 1 }) {
        fastHits += 1
        #expect(fast == slowScalars, "scalar cap \(limit) of \(text.debugDescription)")
      }
      let byteCost: (Character) -> Int = { character in
        character.utf8.reduce(0) { $0 + JSONEscapes.escapedLength($1) }
      }
      let slowBytes = TextCut.graphemePrefix(of: decoded, limit: limit, cost: byteCost)
      if let fast = TextCut.simplePrefix(of: decoded, limit: limit, cost: TextCut.escapedCost) {
        #expect(fast == slowBytes, "byte room \(limit) of \(text.debugDescription)")
      }
    }
    #expect(fastHits > 100, "the fast path must actually be exercised")
  }
}
