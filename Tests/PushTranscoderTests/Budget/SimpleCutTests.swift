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

  /// The direct path (cut point found word by word, segmentation only from the last restart
  /// position) against full segmentation from the start, in both units, with texts long enough
  /// for the restart search to give up (long runs of clusters that are not simple).
  @Test func directPathAgreesWithGraphemeSegmentationFromTheStart() {
    var random = SplitMix64(seed: 7)
    func next(_ bound: Int) -> Int { random.below(bound) }
    let notSimple = ["👨‍👩‍👧", "🇨🇳", "1️⃣", "e\u{301}", "क्ष", "한", "が", "\n", "\"", "\u{1}"]
    var restarts = 0
    for round in 0..<4000 {
      var text = ""
      let pieces = round % 10 == 0 ? 200 : 1 + next(60)
      for _ in 0..<pieces {
        // Every tenth text is mostly clusters that are not simple.
        text +=
          round % 10 == 0 && next(8) != 0
          ? notSimple[next(notSimple.count)] : Self.pool[next(Self.pool.count)]
      }
      let decoded = Array(text.utf8)
      let limit = next(decoded.count + 4)
      for unit in [TextCut.Unit.scalars, .escapedBytes] {
        let slow = TextCut.graphemePrefix(of: decoded, limit: limit, cost: unit.characterCost)
        guard let fast = TextCut.directPrefix(of: decoded, limit: limit, unit: unit) else {
          // Nil only when everything fits.
          #expect(slow == decoded, "\(unit) \(limit) of \(text.debugDescription)")
          continue
        }
        #expect(fast == slow, "\(unit) limit \(limit) of \(text.debugDescription)")
        if fast.count > 0 && fast.count < decoded.count { restarts += 1 }
      }
    }
    #expect(restarts > 1000, "the direct path must actually cut")
  }

  @Test func escapedPrefixEndCountsEveryByteAtItsEscapedSize() {
    var random = SplitMix64(seed: 11)
    func next(_ bound: Int) -> Int { random.below(bound) }
    let alphabet: [UInt8] = [0x61, 0x22, 0x5C, 0x0A, 0x01, 0x1F, 0x20, 0x7F, 0xE4, 0xB8, 0xAD]
    for _ in 0..<2000 {
      let bytes = (0..<next(40)).map { _ in alphabet[next(alphabet.count)] }
      let limit = next(80)
      // Reference: byte by byte.
      var used = 0
      var expected = 0
      while expected < bytes.count && used + JSONEscapes.escapedLength(bytes[expected]) <= limit {
        used += JSONEscapes.escapedLength(bytes[expected])
        expected += 1
      }
      let end = bytes.withUnsafeBufferPointer { TextCut.escapedPrefixEnd($0, limit: limit) }
      #expect(end == expected, "\(bytes) limit \(limit)")
    }
  }

  /// Texts with long runs of bytes that need no escape: the scan takes 16 bytes at a time up to
  /// the first byte that does, at every lane, and stops at every limit.
  @Test func escapedPrefixEndOfLongRunsStopsAtEveryLimit() {
    var random = SplitMix64(seed: 12)
    let escaped: [UInt8] = [0x22, 0x5C, 0x0A, 0x01, 0x1F]
    let plain: [UInt8] = [0x61, 0x20, 0x7F, 0xE4, 0xB8, 0xAD]
    for _ in 0..<300 {
      let gap = 1 + random.below(40)
      let bytes = (0..<random.below(100)).map { _ in
        random.below(gap) == 0
          ? escaped[random.below(escaped.count)] : plain[random.below(plain.count)]
      }
      // Reference: `ends[limit]` for every limit below the whole text's escaped size, found
      // byte by byte (byte i is the end for the limits from the size before it up to the size
      // with it, exclusive).
      var ends: [Int] = []
      var used = 0
      for (index, byte) in bytes.enumerated() {
        let cost = JSONEscapes.escapedLength(byte)
        ends.append(contentsOf: repeatElement(index, count: cost))
        used += cost
      }
      for limit in 0...(used + 2) {
        let expected = limit < ends.count ? ends[limit] : bytes.count
        let end = bytes.withUnsafeBufferPointer { TextCut.escapedPrefixEnd($0, limit: limit) }
        #expect(end == expected, "\(bytes) limit \(limit)")
      }
    }
  }
}

/// The cut paths as arrays of the bytes they keep, as the tests compare them (the sources use
/// the lengths: `TextCut.cutEnd`).
extension TextCut {
  static func directPrefix(of decoded: [UInt8], limit: Int, unit: Unit) -> [UInt8]? {
    decoded.withUnsafeBufferPointer { bytes in
      directPrefixEnd(of: bytes, limit: limit, unit: unit).map { Array(bytes[..<$0]) }
    }
  }

  static func simplePrefix(
    of decoded: [UInt8], limit: Int, cost: (UnsafeBufferPointer<UInt8>) -> Int
  ) -> [UInt8]? {
    decoded.withUnsafeBufferPointer { bytes in
      simplePrefixEnd(of: bytes, limit: limit, cost: cost).map { Array(bytes[..<$0]) }
    }
  }

  static func graphemePrefix(of decoded: [UInt8], limit: Int, cost: (Character) -> Int)
    -> [UInt8]
  {
    decoded.withUnsafeBufferPointer {
      Array($0[..<graphemePrefixEnd(of: $0, limit: limit, cost: cost)])
    }
  }
}
