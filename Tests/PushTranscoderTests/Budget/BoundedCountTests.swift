import Testing

@testable import PushTranscoder

/// The shortcuts the capped vendors take (a scalar count that stops past the cap, a field
/// budget proved by the stored length) answer exactly as the full measures do.
@Suite struct BoundedCountTests {
  /// A bounded count is the exact count when that is at most the limit, and otherwise a number
  /// above the limit that never exceeds the exact count.
  static func expectBounded(
    _ bounded: Int, exact: Int, limit: Int, _ comment: Comment
  ) {
    if exact <= limit {
      #expect(bounded == exact, comment)
    } else {
      #expect(bounded > limit && bounded <= exact, comment)
    }
  }

  @Test func boundedScalarCountsAgreeWithTheExactCount() {
    var random = SplitMix64(seed: 0xB0DE)
    for round in 0..<300 {
      // Up to 300 scalars: long enough to cross several 64-byte blocks.
      let text = FastPathTests.randomText(&random, length: random.below(300))
      let content = FastPathTests.escapedContent(text, &random)
      let exact = text.unicodeScalars.count
      let decoded = Array(text.utf8)
      content.withUnsafeBufferPointer { buffer in
        let escaped = StringSlice(
          pointer: buffer.baseAddress!, count: buffer.count, hasEscapes: true)
        decoded.withUnsafeBufferPointer { plainBytes in
          let plain = StringSlice(
            pointer: plainBytes.baseAddress!, count: plainBytes.count, hasEscapes: false)
          let texts: [PushText] = [
            .slice(escaped), .slice(plain), .pieces([escaped, plain]), .decoded(decoded),
          ]
          let exacts = [exact, exact, 2 * exact, exact]
          for limit in [0, 1, 7, 8, 9, 50, 63, 64, 65, 127, 128, exact - 1, exact, exact + 1]
          where limit >= 0 {
            let comment: Comment = "round \(round), limit \(limit)"
            Self.expectBounded(
              ScalarCount.of(escaped, stoppingAbove: limit), exact: exact, limit: limit, comment)
            Self.expectBounded(
              ScalarCount.ofUTF8(plainBytes, stoppingAbove: limit), exact: exact, limit: limit,
              comment)
            for (text, whole) in zip(texts, exacts) {
              #expect(text.scalarCount == whole, comment)
              Self.expectBounded(
                text.scalarCount(stoppingAbove: limit), exact: whole, limit: limit, comment)
            }
          }
        }
      }
    }
  }

  @Test func memoAnswersWhetherATextIsLongerThanACap() {
    let content = Array(String(repeating: #"中\u6587x😀"#, count: 60).utf8)
    content.withUnsafeBufferPointer { buffer in
      let slice = StringSlice(pointer: buffer.baseAddress!, count: buffer.count, hasEscapes: true)
      let text = PushText.slice(slice)
      let exact = text.scalarCount
      #expect(exact == 240)
      // The order the capped vendors ask in, then caps around the exact count, with the exact
      // count learnt in between (a bound must not be mistaken for it, nor it for a bound).
      let memo = TextMemo()
      for cap in [127, 49, 50, 40, 100, 32, 239, 240, 241, 1000, 0] {
        #expect(memo.hasMoreScalars(text, than: cap) == (exact > cap), "cap \(cap)")
      }
      #expect(memo.scalarCount(text) == exact)
      for cap in [239, 240, 241] {
        #expect(memo.hasMoreScalars(text, than: cap) == (exact > cap), "cap \(cap) after")
      }
    }
  }

  @Test func fieldBudgetBoundNeverUndercountsAndDecidesLikeTheSize() {
    var random = SplitMix64(seed: 0xF1E1D)
    let units: [FieldBudget.Unit] = [
      .extUTF8Bytes, .extScalars, .keyAndExtScalars, .writtenObjectBytes,
    ]
    for round in 0..<300 {
      let text = FastPathTests.randomText(&random, length: random.below(80))
      let content = FastPathTests.escapedContent(text, &random)
      let decoded = Array(text.utf8)
      content.withUnsafeBufferPointer { buffer in
        let slice = StringSlice(pointer: buffer.baseAddress!, count: buffer.count, hasEscapes: true)
        for ext in [PushText.slice(slice), .pieces([slice, slice]), .decoded(decoded)] {
          for unit in units {
            let size = FieldBudget(field: "f", unit: unit, limit: 0).size(of: ext)
            let bound = FieldBudget(field: "f", unit: unit, limit: 0).sizeUpperBound(of: ext)
            if let bound { #expect(bound >= size, "round \(round), \(unit)") }
            // Limits at, below and above the size: the check's answer follows the size alone.
            for limit in [size - 1, size, size + 1] where limit >= 0 {
              let budget = FieldBudget(field: "f", unit: unit, limit: limit)
              #expect(
                (budget.check(ext, vendor: .oppo) == nil) == (size <= limit),
                "round \(round), \(unit), limit \(limit)")
            }
          }
        }
      }
    }
  }
}
