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
        let escaped = StringSlice(escapedContent: buffer)
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
      let slice = StringSlice(escapedContent: buffer)
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
        let slice = StringSlice(escapedContent: buffer)
        for ext in [PushText.slice(slice), .pieces([slice, slice]), .decoded(decoded)] {
          for unit in units {
            let size = FieldBudget(field: "f", unit: unit, limit: 0).size(of: ext)
            let bound = FieldBudget(field: "f", unit: unit, limit: 0).sizeUpperBound(of: ext)
            if let bound { #expect(bound >= size, "round \(round), \(unit)") }
            // Limits at, below and above the size: the check's answer follows the size alone.
            for limit in [size - 1, size, size + 1] where limit >= 0 {
              let budget = FieldBudget(field: "f", unit: unit, limit: limit)
              #expect(
                (budget.sizeOverLimit(ext) == nil) == (size <= limit),
                "round \(round), \(unit), limit \(limit)")
            }
          }
        }
      }
    }
  }
}

/// The canonicalizer's shortcuts: slices already canonical are kept in place, a slice seen twice
/// is rewritten once, and a remembered cut is the cut.
@Suite struct CanonicalShortcutTests {
  @Test func contentWithOnlyCanonicalEscapesIsItsOwnCanonicalForm() {
    var random = SplitMix64(seed: 0xCA70)
    var sawTrue = 0
    var sawFalse = 0
    for round in 0..<600 {
      // Short texts often escape nothing but `"`, `\` and controls; long ones mix in `\u`.
      let text = FastPathTests.randomText(&random, length: random.below(round % 2 == 0 ? 5 : 40))
      let content = FastPathTests.escapedContent(text, &random)
      content.withUnsafeBufferPointer { buffer in
        var canonical: [UInt8] = []
        JSONEscapes.appendCanonical(buffer, to: &canonical)
        let answer = JSONEscapes.hasOnlyCanonicalEscapes(buffer)
        if answer {
          sawTrue += 1
          #expect(canonical == content, "round \(round)")
        } else {
          sawFalse += 1
        }
        // Without `\u` or `\/` the answer must be yes (a backslash is never the last byte).
        var index = 0
        var noUOrSlash = true
        while index < content.count {
          if content[index] == 0x5C {
            if content[index + 1] == UInt8(ascii: "u") || content[index + 1] == UInt8(ascii: "/") {
              noUOrSlash = false
            }
            index += 2
          } else {
            index += 1
          }
        }
        if noUOrSlash { #expect(answer, "round \(round)") }
      }
    }
    #expect(sawTrue > 20 && sawFalse > 20, "\(sawTrue) yes, \(sawFalse) no")
  }

  @Test func canonicalizerKeepsCanonicalSlicesAndRewritesASharedBodyOnce() {
    let ext = Array(#"{\"entity\":{\"id\":1}}"#.utf8)
    let body = Array(#"\u6709\u65B0\u6D88\u606F\n"#.utf8)
    ext.withUnsafeBufferPointer { extBytes in
      body.withUnsafeBufferPointer { bodyBytes in
        let extSlice = StringSlice(escapedContent: extBytes)
        let bodySlice = StringSlice(escapedContent: bodyBytes)
        let pieces = [bodySlice, StringSlice("!")]
        var notice = Notice(
          dialect: .tencent, body: pieces, untitledBody: pieces,
          fallbackTitle: StringSlice("t"), lineHash: 0)
        notice.ext = .string(extSlice)
        notice.title = bodySlice
        var canonicalizer = NoticeCanonicalizer()
        canonicalizer.prepare(&notice)
        // The ext is canonical already: the same bytes of the line, marked so.
        guard case .string(let resolvedExt) = notice.ext else {
          Issue.record("ext changed kind")
          return
        }
        #expect(resolvedExt.pointer == extSlice.pointer && resolvedExt.count == extSlice.count)
        #expect(resolvedExt.rawIsCanonical)
        // The body: rewritten once, and the untitled body is the same array.
        #expect(notice.body[0].decodedString() == "有新消息\n")
        #expect(notice.body[0].rawIsCanonical)
        #expect(
          notice.untitledBody.withUnsafeBufferPointer { $0.baseAddress }
            == notice.body.withUnsafeBufferPointer { $0.baseAddress })
        // The title is the same slice as the body's first piece: the same rewrite.
        #expect(notice.title?.pointer == notice.body[0].pointer)
        #expect(notice.title?.count == notice.body[0].count)
      }
    }
  }

  @Test func aRememberedCutIsTheCut() {
    let content = Array(String(repeating: "中文👍🏽e\u{301}", count: 40).utf8)
    content.withUnsafeBufferPointer { buffer in
      let text = PushText.slice(
        StringSlice(pointer: buffer.baseAddress!, count: buffer.count, hasEscapes: false))
      let memo = TextMemo()
      // Caps in the capped vendors' order, the repeated 100 answered from the memo.
      for cap in [127, 50, 100, 100, 49, 40, 32, 100] {
        let fresh = TextCut.capped(text, scalars: cap)
        let memoized = TextCut.capped(text, scalars: cap, memo: memo)
        guard case .decoded(let freshBytes)? = fresh, case .decoded(let memoBytes)? = memoized
        else {
          Issue.record("cap \(cap): expected a cut")
          continue
        }
        #expect(freshBytes == memoBytes, "cap \(cap)")
        #expect(
          memo.cut(of: text, scalars: cap, borrowing: false)?.decodedBytes() == freshBytes,
          "cap \(cap)")
      }
    }
  }
}

/// The byte-budget cut with a per-line memo (the vendors of one line resume one scan and keep
/// the escaped body they wrote) gives the bytes of the cut made from scratch.
@Suite struct ResumedBudgetCutTests {
  @Test func budgetCutsWithAMemoEqualFreshCuts() {
    var random = SplitMix64(seed: 0xB1D6)
    var cuts = 0
    for round in 0..<150 {
      let text = FastPathTests.randomText(&random, length: 200 + random.below(400))
      let content = FastPathTests.escapedContent(text, &random)
      content.withUnsafeBufferPointer { buffer in
        let slice = StringSlice(escapedContent: buffer)
        let texts: [PushText] = [.slice(slice), .pieces([StringSlice("Nick:"), slice])]
        for body in texts {
          let memo = TextMemo()
          // Budgets in a random order, larger and smaller than the last: the scan resumes
          // forwards and backwards; some leave no room at all.
          for _ in 0..<6 {
            let budget = 20 + random.below(900)
            func render(_ memo: TextMemo?) -> (bytes: [UInt8], refused: Bool, cut: Bool) {
              var writer = JSONWriter()
              writer.raw("{\"alert\":")
              let range = body.write(into: &writer)
              writer.raw(",\"sound\":\"s\"}")
              let outcome = ByteBudget.enforce(
                budget, payloadStart: 0, body: range, text: body, into: &writer, memo: memo)
              return (writer.bytes, outcome != .fits && outcome != .cut, outcome == .cut)
            }
            let fresh = render(nil)
            let resumed = render(memo)
            #expect(fresh.bytes == resumed.bytes, "round \(round), budget \(budget)")
            #expect(fresh.refused == resumed.refused && fresh.cut == resumed.cut)
            if !fresh.refused { #expect(fresh.bytes.count <= budget) }
            if fresh.cut { cuts += 1 }
          }
        }
      }
    }
    #expect(cuts > 500, "\(cuts) cuts")
  }
}
