import Testing

@testable import PushTranscoder

/// Error reasons and offsets (SPEC 2.2, 9), flags and the tape's shape.
@Suite("JSONTokenizer")
struct JSONTokenizerTests {
  // MARK: Strings and escapes

  @Test func unterminatedStringReportsOffsetOfOpeningQuote() {
    #expect(tokenize(#"{"a":"abc"#) == JSONError(.syntax, at: 5, "unterminated string"))
    #expect(tokenize(#"[""#)?.offset == 1)
    // Ending inside an escape is a fault of the escape.
    #expect(tokenize(#"["ab\"#)?.fault == .syntax)
    // A long unterminated string (the SIMD scan runs off the end).
    let long = "[\"" + String(repeating: "x", count: 100)
    #expect(tokenize(long)?.offset == 1)
    #expect(tokenize(long)?.message == "unterminated string")
  }

  @Test func invalidEscapeReportsOffsetOfBackslash() {
    #expect(tokenize(#"["ab\x"]"#) == JSONError(.syntax, at: 4, "invalid escape"))
    #expect(tokenize(#"["\a"]"#)?.offset == 2)
    #expect(tokenize(#"["\U0041"]"#)?.offset == 2)
    #expect(tokenize(#"["\'"]"#)?.offset == 2)
    #expect(tokenize(#"["\u12G4"]"#) == JSONError(.syntax, at: 2, "invalid \\u escape"))
    #expect(tokenize(#"["\u123"]"#)?.fault == .syntax)
    #expect(tokenize(#"["\u12"#)?.fault == .syntax)
  }

  /// Every byte in every position of a `\u` escape: accepted exactly when it is a hex digit.
  @Test func unicodeEscapesAcceptExactlyTheHexDigits() {
    let hexDigits = Set("0123456789abcdefABCDEF".utf8)
    for byte in UInt8(0)...UInt8(255) where byte != ASCII.quote && byte != ASCII.backslash {
      for position in 0..<4 {
        var digits = Array("0041".utf8)
        digits[position] = byte
        // (A byte from 0x80 up makes the line invalid UTF-8, which wins over the escape.)
        let bytes = Array(#"["\u"#.utf8) + digits + Array(#""]"#.utf8)
        let error = tokenize(bytes)
        if hexDigits.contains(byte) {
          #expect(error == nil, "byte \(byte) at \(position)")
        } else if byte < 0x80 {
          #expect(error == JSONError(.syntax, at: 2, "invalid \\u escape"), "byte \(byte)")
        } else {
          #expect(error?.fault == .invalidUnicode, "byte \(byte)")
        }
      }
    }
    let tokens = tape(Array(#"["\uABCD\uabcd\u09fF"]"#.utf8))
    #expect(tokens.count == 2)
  }

  @Test func loneHighSurrogateIsInvalidUnicodeAtItsBackslash() {
    #expect(
      tokenize(#"["\uD800"]"#) == JSONError(.invalidUnicode, at: 2, "unpaired surrogate escape"))
    #expect(tokenize(#"["ab\uDBFFx"]"#)?.offset == 4)
    #expect(tokenize(#"["ab\uDBFFx"]"#)?.fault == .invalidUnicode)
    // Followed by an escape that is not a low surrogate.
    #expect(
      tokenize(#"["\uD800\u0041"]"#)
        == JSONError(.invalidUnicode, at: 2, "unpaired surrogate escape"))
    #expect(tokenize(#"["\uD800\uD800"]"#)?.offset == 2)
    #expect(tokenize(#"["\uD800\n"]"#)?.fault == .invalidUnicode)
    // As an object key.
    #expect(tokenize(#"{"k\uD800":1}"#)?.offset == 3)
  }

  /// A high surrogate followed by a malformed `\u` escape is unpaired, and that fault lies
  /// left of the malformed escape, so it decides (SPEC 9), as it does before `\x` or text.
  /// In replace mode the high half is replaced and the malformed escape is still `syntax`.
  @Test func highSurrogateBeforeAMalformedEscapeIsTheFirstFault() {
    #expect(
      tokenize(#"["\uD800\u12G4"]"#)
        == JSONError(.invalidUnicode, at: 2, "unpaired surrogate escape"))
    #expect(tokenize(#"["\uD800\u12"]"#)?.offset == 2)
    #expect(tokenize(#"["\uD800\x"]"#)?.offset == 2)
    let replaced = tokenize(Array(#"["\uD800\u12G4"]"#.utf8), replaceLoneSurrogates: true)
    #expect(replaced == JSONError(.syntax, at: 8, "invalid \\u escape"))
  }

  @Test func loneLowSurrogateIsInvalidUnicodeAtItsBackslash() {
    #expect(
      tokenize(#"["\uDC00"]"#) == JSONError(.invalidUnicode, at: 2, "unpaired surrogate escape"))
    #expect(tokenize(#"["x\udfff"]"#)?.offset == 3)
    // Inverted pair: the low half comes first.
    #expect(tokenize(#"["\uDC00\uD800"]"#)?.offset == 2)
  }

  @Test func validSurrogatePairIsAccepted() {
    let tokens = tape(Array(#"["\uD834\uDD1E", "\ud83d\ude00"]"#.utf8))
    #expect(tokens.count == 3)
    #expect(tokens[1].flags == JSONToken.hasEscapes)
    #expect(tokens[2].flags == JSONToken.hasEscapes)
  }

  @Test func firstFaultFromTheLeftDecides() {
    // A lone surrogate before a syntax fault is invalid-unicode, after one it is syntax.
    #expect(tokenize(#"["\uD800", x]"#)?.fault == .invalidUnicode)
    #expect(tokenize(#"[x, "\uD800"]"#)?.fault == .syntax)
    // A too-deep fault after a syntax fault loses.
    #expect(tokenize("[x," + String(repeating: "[", count: 600))?.fault == .syntax)
  }

  @Test func rawControlCharacterReportsItsOffset() {
    #expect(
      tokenize(Array("[\"ab".utf8) + [0x01] + Array("\"]".utf8))
        == JSONError(.syntax, at: 4, "unescaped control character in a string"))
    #expect(tokenize("[\"a\tb\"]")?.offset == 3)
    #expect(tokenize("[\"a\nb\"]")?.offset == 3)
    #expect(tokenize(Array("[\"".utf8) + [0x00] + Array("\"]".utf8))?.offset == 2)
    // DEL (0x7F) is not a control character for JSON.
    #expect(tokenize(Array("[\"".utf8) + [0x7F] + Array("\"]".utf8)) == nil)
    // A raw control byte outside a string is a syntax fault too.
    #expect(tokenize(Array("[1,".utf8) + [0x0B] + Array("2]".utf8))?.offset == 3)
  }

  @Test func trailingGarbageReportsItsOffset() {
    #expect(
      tokenize(#"{"a":1} x"#) == JSONError(.syntax, at: 8, "unexpected data after the JSON value"))
    #expect(tokenize("[1]]")?.offset == 3)
    #expect(tokenize("[1] [2]")?.offset == 4)
    #expect(tokenize("1 2")?.offset == 2)
    #expect(tokenize("true false")?.offset == 5)
    #expect(tokenize("{}\u{0}")?.offset == 2)
    // Trailing JSON whitespace is fine.
    #expect(tokenize("[1] \t\r\n ") == nil)
  }

  @Test func structuralFaultsReportTheirOffset() {
    #expect(tokenize("") == JSONError(.syntax, at: 0, "empty line"))
    #expect(tokenize("   ")?.offset == 3)
    #expect(tokenize("[1,]")?.offset == 3)
    #expect(tokenize("[1 2]")?.offset == 3)
    #expect(tokenize(#"{"a" 1}"#)?.offset == 5)
    #expect(tokenize(#"{"a":1,}"#)?.offset == 7)
    #expect(tokenize(#"{1:2}"#)?.offset == 1)
    #expect(tokenize(#"{"a":1]"#)?.offset == 6)
    #expect(tokenize("[1}")?.offset == 2)
    #expect(tokenize("[")?.offset == 1)
    #expect(tokenize("[1")?.offset == 2)
    #expect(tokenize(#"{"a":"#)?.offset == 5)
    #expect(tokenize("[tru]")?.offset == 4)
    #expect(tokenize("[nul")?.offset == 4)
    #expect(tokenize("[True]")?.offset == 1)
    #expect(
      tokenize("\u{FEFF}{}")
        == JSONError(.syntax, at: 0, "unexpected byte where a value should start"))
  }

  // MARK: Depth

  @Test func fiveHundredTwelveLevelsPassAndFiveHundredThirteenAreTooDeep() {
    let pass = String(repeating: "[", count: 512) + String(repeating: "]", count: 512)
    #expect(tokenize(pass) == nil)
    let fail = String(repeating: "[", count: 513) + String(repeating: "]", count: 513)
    #expect(tokenize(fail) == JSONError(.tooDeep, at: 512, "nesting deeper than 512 levels"))
    let objects =
      String(repeating: #"{"a":"#, count: 512) + "1" + String(repeating: "}", count: 512)
    #expect(tokenize(objects) == nil)
    let deeper = String(repeating: #"{"a":"#, count: 513) + "1" + String(repeating: "}", count: 513)
    #expect(tokenize(deeper)?.fault == .tooDeep)
    #expect(tokenize(deeper)?.offset == 512 * 5)
    // Depth is the current nesting, not the number of containers.
    let wide = "[" + Array(repeating: "[[]]", count: 1000).joined(separator: ",") + "]"
    #expect(tokenize(wide) == nil)
  }

  @Test func hugeDepthDoesNotOverflowTheStack() {
    let bytes = [UInt8](repeating: ASCII.openBracket, count: 1_000_000)
    #expect(tokenize(bytes)?.fault == .tooDeep)
    var tokenizer = JSONTokenizer(maxDepth: 2_000_000)
    let error = bytes.withUnsafeBufferPointer { tokenizer.parse($0) }
    #expect(error?.fault == .syntax)
    #expect(error?.offset == 1_000_000)
  }

  // MARK: UTF-8 (SPEC 9: invalid UTF-8 anywhere wins)

  @Test func invalidUTF8AnywhereWinsOverAnEarlierSyntaxFault() {
    let bytes = Array(#"[1,,""#.utf8) + [0xFF] + Array(#""]"#.utf8)
    #expect(tokenize(bytes) == JSONError(.invalidUnicode, at: 5, "invalid UTF-8 byte sequence"))
    // Also over a lone surrogate escape, a too-deep fault and trailing garbage.
    #expect(tokenize(Array(#"["\uD800","#.utf8) + [0xC3])?.offset == 10)
    #expect(tokenize([UInt8](repeating: ASCII.openBracket, count: 600) + [0x80])?.offset == 600)
    #expect(tokenize(Array("{} ".utf8) + [0xE9])?.fault == .invalidUnicode)
  }

  @Test(
    arguments: [
      [0xC0, 0xAF], [0xC1, 0xBF], [0xE0, 0x80, 0xAF], [0xE0, 0x9F, 0xBF], [0xF0, 0x80, 0x80, 0xAF],
      [0xF0, 0x8F, 0xBF, 0xBF], [0xF8, 0x88, 0x80, 0x80, 0x80],
      [0xFC, 0x80, 0x80, 0x80, 0x80, 0x80],
    ] as [[UInt8]])
  func overlongEncodingsAreInvalidAtTheirLeadByte(_ sequence: [UInt8]) {
    let bytes = Array(#"["ab"#.utf8) + sequence + Array(#""]"#.utf8)
    #expect(tokenize(bytes) == JSONError(.invalidUnicode, at: 4, "invalid UTF-8 byte sequence"))
  }

  @Test func surrogatesEncodedInUTF8AreInvalid() {
    for sequence: [UInt8] in [
      [0xED, 0xA0, 0x80], [0xED, 0xBF, 0xBF], [0xED, 0xA0, 0xBD, 0xED, 0xB8, 0x80],
    ] {
      let bytes = Array(#"[""#.utf8) + sequence + Array(#""]"#.utf8)
      #expect(tokenize(bytes)?.fault == .invalidUnicode)
      #expect(tokenize(bytes)?.offset == 2)
    }
    // U+D7FF and U+E000, either side of the surrogates, are fine.
    #expect(
      tokenize(Array(#"[""#.utf8) + [0xED, 0x9F, 0xBF, 0xEE, 0x80, 0x80] + [0x22, 0x5D]) == nil)
  }

  @Test func scalarsAboveTheUnicodeRangeAreInvalid() {
    #expect(tokenize(Array(#"[""#.utf8) + [0xF4, 0x8F, 0xBF, 0xBF] + [0x22, 0x5D]) == nil)
    for sequence: [UInt8] in [
      [0xF4, 0x90, 0x80, 0x80], [0xF5, 0x80, 0x80, 0x80], [0xF7, 0xBF, 0xBF, 0xBF], [0xFF],
    ] {
      let bytes = Array(#"[""#.utf8) + sequence + Array(#""]"#.utf8)
      #expect(tokenize(bytes) == JSONError(.invalidUnicode, at: 2, "invalid UTF-8 byte sequence"))
    }
  }

  @Test func truncatedSequencesAreInvalid() {
    // At the very end of the line, and before the closing quote.
    for sequence: [UInt8] in [[0xC3], [0xE4, 0xB8], [0xF0, 0x9F, 0x98]] {
      #expect(tokenize(Array(#"[""#.utf8) + sequence)?.offset == 2)
      #expect(tokenize(Array(#"[""#.utf8) + sequence)?.fault == .invalidUnicode)
      #expect(tokenize(Array(#"[""#.utf8) + sequence + Array(#""]"#.utf8))?.offset == 2)
    }
    // A lone continuation byte.
    #expect(tokenize(Array(#"["a"#.utf8) + [0x80] + Array(#""]"#.utf8))?.offset == 3)
  }

  @Test func invalidUTF8PastThirtyTwoByteBlocksIsFound() {
    for position in 0..<70 {
      var bytes = Array(#"[""#.utf8) + [UInt8](repeating: ASCII.lowerA, count: 70) + [0x22, 0x5D]
      bytes[2 + position] = 0xFE
      #expect(tokenize(bytes)?.offset == 2 + position)
    }
  }

  // MARK: Numbers

  @Test(arguments: [
    "0", "-0", "1e5", "1E5", "1e+5", "1e-5", "-0.0", "0.5", "-12.34e-56", "10",
    "123456789012345678901234567890",
  ])
  func validNumbersAreAccepted(_ text: String) {
    #expect(tokenize(text) == nil)
    #expect(tokenize("[\(text)]") == nil)
    let tokens = tape(Array("[\(text)]".utf8))
    #expect(tokens.count == 2)
    #expect(tokens[1].kind == .number)
    #expect(tokens[1].start == 1)
    #expect(Int(tokens[1].end) == 1 + text.utf8.count)
  }

  @Test func invalidNumbersReportTheirOffset() {
    #expect(tokenize("01") == JSONError(.syntax, at: 1, "unexpected data after the JSON value"))
    #expect(tokenize("[01]")?.offset == 2)
    #expect(tokenize("-01")?.offset == 2)
    #expect(tokenize("1.") == JSONError(.syntax, at: 2, "expected a digit after '.'"))
    #expect(tokenize("[1.]")?.offset == 3)
    #expect(tokenize("-") == JSONError(.syntax, at: 1, "expected a digit"))
    #expect(tokenize("[-]")?.offset == 2)
    #expect(tokenize("-a")?.offset == 1)
    #expect(tokenize("1e")?.offset == 2)
    #expect(tokenize("1e+")?.offset == 3)
    #expect(tokenize("1.e5")?.offset == 2)
    #expect(tokenize(".5")?.offset == 0)
    #expect(tokenize("+1")?.offset == 0)
    #expect(tokenize("0x1")?.offset == 1)
    #expect(tokenize("[NaN]")?.offset == 1)
    #expect(tokenize("[Infinity]")?.offset == 1)
    #expect(tokenize("[-Infinity]")?.offset == 2)
  }

  @Test func integerFlagFollowsTheLexeme() {
    let tokens = tape(Array("[1,-0,123,1.0,1e0,-0.5,0,-17]".utf8))
    let integers = tokens.dropFirst().map { $0.flags & JSONToken.isInteger != 0 }
    #expect(integers == [true, true, true, false, false, false, true, true])
  }

  // MARK: Flags and tape

  @Test func hasEscapesFlagIsSetOnlyForStringsWithBackslashes() {
    let tokens = tape(Array(#"{"plain":"x","k\u0065y":"a\nb","e":"","q":"\"","u":"é"}"#.utf8))
    let flags = tokens.dropFirst().map { $0.flags }
    #expect(flags == [0, 0, 1, 1, 0, 0, 0, 1, 0, 0])
  }

  @Test func tapeLinksSkipWholeSubtrees() {
    let text = #"{"a":[1,2],"b":"x"}"#
    let tokens = tape(Array(text.utf8))
    #expect(tokens.map(\.kind) == [.object, .string, .array, .number, .number, .string, .string])
    #expect(tokens.map(\.next) == [7, 2, 5, 4, 5, 6, 7])
    #expect(tokens.map(\.start) == [0, 2, 5, 6, 8, 12, 16])
    #expect(tokens.map(\.end) == [19, 3, 10, 7, 9, 13, 17])
  }

  @Test func tapeOfNestedEmptyContainersAndLiterals() {
    let tokens = tape(Array(#" [ {}, [], [[true]], null, false ] "#.utf8))
    #expect(tokens.map(\.kind) == [.array, .object, .array, .array, .array, .true, .null, .false])
    #expect(tokens.map(\.next) == [8, 2, 3, 6, 6, 6, 7, 8])
    #expect(tokens[0].start == 1)
    #expect(tokens[0].end == 34)
  }

  @Test func documentReadsMembersAndTheLastDuplicateWins() {
    let bytes = Array(#"{"a":1,"b":{"c":[true]},"a":"two"}"#.utf8)
    var tokenizer = JSONTokenizer()
    bytes.withUnsafeBufferPointer { buffer in
      #expect(tokenizer.parse(buffer) == nil)
      tokenizer.withDocument(buffer) { document in
        #expect(document.count(document.root) == 3)
        let a = document.member(document.root, "a")
        #expect(a.map { document.string($0).decodedString() } == "two")
        #expect(document.member(document.root, "c") == nil)
      }
    }
  }

  @Test func aTokenizerIsReusableAfterAFault() {
    var tokenizer = JSONTokenizer()
    let bad = Array(#"{"a":[1,2"#.utf8)
    let good = Array("[3]".utf8)
    #expect(bad.withUnsafeBufferPointer { tokenizer.parse($0) } != nil)
    #expect(good.withUnsafeBufferPointer { tokenizer.parse($0) } == nil)
    #expect(tokenizer.tokens.count == 2)
    #expect(tokenizer.tokens[0].next == 2)
  }

  // MARK: The SIMD string scan (32-byte blocks)

  /// A 64-byte string body with one special byte at every position, at four alignments.
  @Test func specialsAtEveryPositionOfALongString() {
    for lead in 0..<4 {
      let prefix = Array("[".utf8) + [UInt8](repeating: ASCII.space, count: lead) + [ASCII.quote]
      let open = prefix.count - 1
      for position in 0..<64 {
        var body = [UInt8](repeating: ASCII.lowerA, count: 64)

        // A quote ends the string there.
        body[position] = ASCII.quote
        var bytes = prefix + body[...position] + [ASCII.closeBracket]
        var tokens = tape(bytes)
        #expect(tokens.count == 2 && Int(tokens[1].end) == open + 1 + position)
        #expect(tokens.count == 2 && tokens[1].flags == 0)

        // An escape is skipped and flagged.
        body = [UInt8](repeating: ASCII.lowerA, count: 64)
        body.insert(contentsOf: Array(#"\""#.utf8), at: position)
        bytes = prefix + body + [ASCII.quote, ASCII.closeBracket]
        tokens = tape(bytes)
        #expect(tokens.count == 2 && Int(tokens[1].end) == open + 1 + 66)
        #expect(tokens.count == 2 && tokens[1].flags == JSONToken.hasEscapes)

        // A \u escape at a block boundary is checked whole.
        body = [UInt8](repeating: ASCII.lowerA, count: 64)
        body.insert(contentsOf: Array(#"\uD800"#.utf8), at: position)
        bytes = prefix + body + [ASCII.quote, ASCII.closeBracket]
        #expect(
          tokenize(bytes)
            == JSONError(.invalidUnicode, at: open + 1 + position, "unpaired surrogate escape"))

        // A control byte is found where it is.
        for control: UInt8 in [0x00, 0x0A, 0x1F] {
          body = [UInt8](repeating: ASCII.lowerA, count: 64)
          body[position] = control
          bytes = prefix + body + [ASCII.quote, ASCII.closeBracket]
          #expect(tokenize(bytes)?.offset == open + 1 + position)
        }

        // Bytes at or above 0x20 that are not `"` or `\` are plain (including non-ASCII).
        body = [UInt8](repeating: ASCII.lowerA, count: 64)
        body.replaceSubrange(position..<position + 1, with: Array("é".utf8))
        bytes = prefix + body + [ASCII.quote, ASCII.closeBracket]
        tokens = tape(bytes)
        #expect(tokens.count == 2 && tokens[1].flags == 0 && Int(tokens[1].end) == open + 1 + 65)

        // A string ending exactly where the line ends, without its quote.
        bytes = prefix + [UInt8](repeating: ASCII.lowerA, count: position)
        #expect(tokenize(bytes) == JSONError(.syntax, at: open, "unterminated string"))
      }
    }
  }

  // MARK: Replace mode (`--unicode replace`)

  @Test func replaceModeAcceptsAndCountsLoneSurrogates() {
    var tokenizer = JSONTokenizer(replaceLoneSurrogates: true)
    let bytes = Array(#"["\uD800 \uDC00x", "\uD834\uDD1E", "\uDFFF"]"#.utf8)
    bytes.withUnsafeBufferPointer { buffer in
      #expect(tokenizer.parse(buffer) == nil)
      #expect(tokenizer.loneSurrogates == 3)
      tokenizer.withDocument(buffer) { document in
        #expect(document.string(1).decodedString() == "\u{FFFD} \u{FFFD}x")
        #expect(document.string(2).decodedString() == "\u{1D11E}")
      }
    }
    // Still a syntax fault for a malformed escape; still invalid-unicode for bad UTF-8.
    #expect(tokenize(Array(#"["\uD800\u12"]"#.utf8), replaceLoneSurrogates: true)?.fault == .syntax)
    #expect(
      tokenize(Array(#"[""#.utf8) + [0xFF], replaceLoneSurrogates: true)?.fault == .invalidUnicode)
  }
}

/// The tape and stack live in storage the tokenizer owns (`TapeStorage`): they grow past their
/// initial capacity, and copies of a tokenizer never write into each other's tape.
@Suite("JSONTokenizer tape storage")
struct JSONTokenizerTapeStorageTests {
  @Test func tapeAndStackGrowForLargeAndDeepLines() {
    let wide = Array(
      ("[" + Array(repeating: "1", count: 100_000).joined(separator: ",") + "]").utf8)
    var tokenizer = JSONTokenizer()
    wide.withUnsafeBufferPointer { #expect(tokenizer.parse($0) == nil) }
    let tokens = tokenizer.tokens
    #expect(tokens.count == 100_001)
    #expect(tokens[0].next == 100_001)
    #expect(tokens[100_000].start == 199_999)
    let deep = Array((String(repeating: "[", count: 500) + String(repeating: "]", count: 500)).utf8)
    deep.withUnsafeBufferPointer { #expect(tokenizer.parse($0) == nil) }
    #expect(tokenizer.tokens.count == 500)
    #expect(tokenizer.tokens[0].next == 500)
    #expect(tokenizer.tokens[499].next == 500)
    #expect(tokenizer.tokens[0].end == 1000)
  }

  @Test func copiesOfATokenizerKeepTheirOwnTape() {
    var first = JSONTokenizer()
    let one = Array(#"{"a":[1,2]}"#.utf8)
    one.withUnsafeBufferPointer { #expect(first.parse($0) == nil) }
    var second = first
    let two = Array(#"["x"]"#.utf8)
    two.withUnsafeBufferPointer { #expect(second.parse($0) == nil) }
    #expect(first.tokens.map(\.kind) == [.object, .string, .array, .number, .number])
    #expect(second.tokens.map(\.kind) == [.array, .string])
    // The original keeps working after the copy went its own way.
    two.withUnsafeBufferPointer { #expect(first.parse($0) == nil) }
    #expect(first.tokens.map(\.kind) == [.array, .string])
  }
}
