import Testing

@testable import PushTranscoder

@Suite("Budget text cuts")
struct BudgetTextCutTests {
  /// The decoded text of a cap cut, or nil when the text is left unchanged.
  func capped(_ text: String, _ cap: Int) -> String? {
    guard let cut = TextCut.capped(.decoded(Array(text.utf8)), scalars: cap) else { return nil }
    return String(decoding: cut.decodedBytes(), as: UTF8.self)
  }

  func fitting(_ text: String, _ room: Int) -> String {
    String(decoding: TextCut.fittingEscaped(.decoded(Array(text.utf8)), room: room), as: UTF8.self)
  }

  @Test func textOfExactlyTheCapIsUnchangedAndOneMoreIsCut() {
    #expect(capped("abcde", 5) == nil)
    #expect(capped("abcd", 5) == nil)
    #expect(capped("abcdef", 5) == "abcd…")
    #expect(capped("中文中文中文", 5) == "中文中文…")
  }

  @Test func zwjFamilyIsKeptWholeOrDropped() {
    // 👨‍👩‍👧 is one grapheme of 5 scalars.
    let family = "👨‍👩‍👧"
    #expect(capped("ab" + family, 7) == nil)
    #expect(capped("ab" + family + "c", 7) == "ab…")
    #expect(capped("ab" + family + "cd", 8) == "ab" + family + "…")
  }

  @Test func flagsKeycapsAndCombiningMarksAreNotSplit() {
    #expect(capped("a🇨🇳🇨🇳", 4) == "a🇨🇳…")
    #expect(capped("a🇨🇳🇨🇳", 3) == "a…")
    #expect(capped("1️⃣1️⃣", 5) == "1️⃣…")
    #expect(capped("1️⃣1️⃣", 3) == "…")
    let accented = "e\u{301}e\u{301}"
    #expect(capped(accented, 3) == "e\u{301}…")
    #expect(capped(accented, 2) == "…")
  }

  @Test func firstGraphemeTooLongGivesEllipsisAlone() {
    #expect(capped("👨‍👩‍👧👨‍👩‍👧", 3) == "…")
    #expect(capped("xy", 1) == "…")
  }

  @Test func escapedSlicesCountDecodedScalars() {
    let raw: StaticString = "a\\n\\u00e9\\ud83d\\ude00\\ud800x"
    let slice = StringSlice(
      pointer: raw.utf8Start, count: raw.utf8CodeUnitCount, hasEscapes: true)
    // a, \n, é, 😀, U+FFFD (lone surrogate), x
    #expect(ScalarCount.of(slice) == 6)
    #expect(ScalarCount.of(slice) == PushText.decoded(slice.decodedBytes()).scalarCount)
    #expect(ScalarCount.of(StringSlice("中a")) == 2)
  }

  @Test func cutsOfEscapedSlicesMatchCutsOfRawText() {
    let escaped: StaticString = "\\u4e2d\\u6587\\u4e2d\\u6587"
    let slice = StringSlice(
      pointer: escaped.utf8Start, count: escaped.utf8CodeUnitCount, hasEscapes: true)
    let cut = TextCut.capped(.slice(slice), scalars: 3)
    #expect(cut.map { String(decoding: $0.decodedBytes(), as: UTF8.self) } == "中文…")
    #expect(TextCut.capped(.slice(slice), scalars: 4) == nil)
  }

  @Test func byteCutCountsEscapedBytes() {
    #expect(fitting("hello", 3) == "…")
    #expect(fitting("héllo", 5) == "h…")
    #expect(fitting("héllo", 6) == "hé…")
    // `"` takes 2 bytes once escaped, a control 6.
    #expect(fitting("a\"b", 6) == "a\"…")
    #expect(fitting("a\"b", 5) == "a…")
    #expect(fitting("a\u{1}b", 10) == "a\u{1}…")
    #expect(fitting("a\u{1}b", 9) == "a…")
  }

  @Test func byteCutKeepsGraphemesWhole() {
    // 👨‍👩‍👧 is 18 bytes; 🇨🇳 8; 1️⃣ 7; é as e+U+0301 3.
    #expect(fitting("a👨‍👩‍👧", 21) == "a…")
    #expect(fitting("a👨‍👩‍👧", 22) == "a👨‍👩‍👧…")
    #expect(fitting("🇨🇳🇨🇳", 18) == "🇨🇳…")
    #expect(fitting("1️⃣1️⃣", 16) == "1️⃣…")
    #expect(fitting("e\u{301}e\u{301}", 5) == "…")
    #expect(fitting("e\u{301}e\u{301}", 6) == "e\u{301}…")
  }

  @Test func scalarPrefixNeverSplitsASequence() {
    let bytes = Array("ab中".utf8)
    bytes.withUnsafeBufferPointer { buffer in
      #expect(TextCut.scalarPrefixLength(buffer, maxBytes: 5) == 5)
      #expect(TextCut.scalarPrefixLength(buffer, maxBytes: 4) == 2)
      #expect(TextCut.scalarPrefixLength(buffer, maxBytes: 3) == 2)
      #expect(TextCut.scalarPrefixLength(buffer, maxBytes: 2) == 2)
      #expect(TextCut.scalarPrefixLength(buffer, maxBytes: 0) == 0)
    }
  }
}

@Suite("Budget byte budgets")
struct ByteBudgetTests {
  /// Writes `prefix` + `{"b":"<text>"}` and enforces `budget` on the payload part.
  func enforce(_ text: String, budget: Int) -> (String, ByteBudget.Outcome) {
    var writer = JSONWriter()
    writer.raw("prefix")
    let start = writer.count
    let body = PushText.decoded(Array(text.utf8))
    writer.raw("{\"b\":")
    let range = body.write(into: &writer)
    writer.byte(ASCII.closeBrace)
    let outcome = ByteBudget.enforce(
      budget, payloadStart: start, body: range, text: body, into: &writer)
    #expect(writer.bytes.starts(with: Array("prefix".utf8)))
    return (String(decoding: writer.bytes[start...], as: UTF8.self), outcome)
  }

  @Test func payloadOfExactlyTheBudgetIsNotCut() {
    // {"b":""} is 8 bytes.
    let (payload, outcome) = enforce("hello", budget: 13)
    #expect(payload == #"{"b":"hello"}"# && outcome == .fits)
  }

  @Test func oneByteOverCutsTheBody() {
    let (payload, outcome) = enforce("hello", budget: 12)
    #expect(payload == #"{"b":"h…"}"# && outcome == .cut)
  }

  @Test func roomOfThreeGivesEllipsisAloneAndTwoRefuses() {
    #expect(enforce("hello", budget: 11).0 == #"{"b":"…"}"#)
    let (payload, outcome) = enforce("hello", budget: 10)
    #expect(payload == "")
    // {"b":"hello"} is 13 bytes, 8 with an empty body.
    #expect(outcome == .tooSmall(size: 13, emptySize: 8))
  }
}
