import Testing

@testable import PushTranscoder

/// The tokenizer's verdict on one line, everything a caller can observe.
struct Verdict: Equatable, CustomStringConvertible {
  var error: JSONError?
  var tokens: [[UInt32]]
  var loneSurrogates: Int

  var description: String { "\(String(describing: error)) \(loneSurrogates) \(tokens)" }
}

/// The observable state of `tokenizer` after it returned `error`.
func verdict(_ tokenizer: JSONTokenizer, _ error: JSONError?) -> Verdict {
  Verdict(
    error: error,
    tokens: tokenizer.tokens.map {
      [UInt32($0.kind.rawValue), UInt32($0.flags), $0.start, $0.end, $0.next]
    },
    loneSurrogates: tokenizer.loneSurrogates)
}

/// The UTF-8 check as it was before the fast paths: one sequence at a time (Table 3-7).
func scalarFirstInvalidOffset(_ bytes: [UInt8]) -> Int? {
  bytes.withUnsafeBufferPointer { buffer -> Int? in
    guard let base = buffer.baseAddress else { return nil }
    var index = 0
    while index < buffer.count {
      let length = UTF8Validation.wellFormedPrefixLength(base + index, buffer.count - index)
      guard length.isComplete else { return index }
      index += length.bytes
    }
    return nil
  }
}

/// What `parse` returned before the fast path: whole-line UTF-8 first, then the reference
/// tokenizer.
func referenceVerdict(_ bytes: [UInt8], maxDepth: Int = 512, replace: Bool = false) -> Verdict {
  var tokenizer = JSONTokenizer(maxDepth: maxDepth, replaceLoneSurrogates: replace)
  let error = bytes.withUnsafeBufferPointer { buffer -> JSONError? in
    if !replace, let bad = scalarFirstInvalidOffset(bytes) {
      return JSONError(.invalidUnicode, at: bad, "invalid UTF-8 byte sequence")
    }
    return tokenizer.parseReference(buffer)
  }
  return verdict(tokenizer, error)
}

/// What `parse` (or, in replace mode, `parseValidatedUTF8`) returns now.
func fastVerdict(
  _ bytes: [UInt8], maxDepth: Int = 512, replace: Bool = false,
  tokenizer reused: inout JSONTokenizer
) -> Verdict {
  reused.maxDepth = maxDepth
  reused.replaceLoneSurrogates = replace
  let error = bytes.withUnsafeBufferPointer {
    replace ? reused.parseValidatedUTF8($0) : reused.parse($0)
  }
  return verdict(reused, error)
}

/// Lines shaped like the benchmark corpus and the corners of the grammar.
let fastPathSeeds: [String] = [
  #"{"SyncOtherMachine":2,"From_Account":"user_gtj1x7ft","To_Account":"user_yai4dtgq","MsgSeq":63835,"MsgRandom":1364040088,"MsgTimeStamp":1700000001,"MsgBody":[{"MsgType":"TIMTextElem","MsgContent":{"Text":"\b"}}]}"#,
  #"{"MsgBody":[{"MsgType":"TIMTextElem","MsgContent":{"Text":"\uD83D\uDCB0\uD83E\uDD23\u2728"}}]}"#,
  #"{"OfflinePushInfo":{"PushFlag":0,"Desc":"您有一条新消息","Ext":"{\"entity\":{\"key1\":\"value1\",\"msgType\":9}}","ApnsInfo":{"Sound":"default","BadgeMode":1,"MutableContent":0}}}"#,
  #"[1,-0,0.5,-12.75e+3,4E-2,1e9,123456789012345678901234567890,true,false,null,"",{},[]]"#,
  " { \"a\" : [ 1 , 2 , { \"b\" : null } ] , \"c\" :\t\"d\" }\r\n ",
  #"[[[[[[[[[[{"deep":[[[[["x"]]]]]}]]]]]]]]]]"#,
  #""a string with é, 中文, 😀 and \\ \/ \n \t \" escapes""#,
  #"{"k":"\uDBFF\uDFFF\u0000\u001f\uFFFF\uD800"}"#,
  "\"\u{7F}\u{80}\u{7FF}\u{800}\u{FFFF}\u{10000}\u{10FFFF}\"",
  "0", "-1", "12", "true", "null", "false", "\"\"", "{}", "[]",
]

/// Bytes that matter to the tokenizer or the UTF-8 check, for mutations.
let interestingBytes: [UInt8] = [
  0x00, 0x09, 0x0A, 0x0D, 0x1F, 0x20, 0x22, 0x2B, 0x2C, 0x2D, 0x2E, 0x2F, 0x30, 0x31, 0x39, 0x3A,
  0x41, 0x44, 0x45, 0x46, 0x5B, 0x5C, 0x5D, 0x61, 0x62, 0x64, 0x65, 0x66, 0x6C, 0x6E, 0x72, 0x73,
  0x74, 0x75, 0x7B, 0x7D, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xC1, 0xC2, 0xDF, 0xE0,
  0xE4, 0xED, 0xEF, 0xF0, 0xF4, 0xF5, 0xFF,
]

/// `seed` with a few random edits: replaced, inserted, deleted or duplicated bytes, or a cut.
func mutate(_ seed: [UInt8], _ random: inout SplitMix64) -> [UInt8] {
  var bytes = seed
  for _ in 0..<Int.random(in: 1...3, using: &random) {
    let position = bytes.isEmpty ? 0 : Int.random(in: 0..<bytes.count, using: &random)
    let byte =
      Bool.random(using: &random)
      ? interestingBytes.randomElement(using: &random)!
      : UInt8.random(in: 0...255, using: &random)
    switch Int.random(in: 0..<5, using: &random) {
    case 0 where !bytes.isEmpty: bytes[position] = byte
    case 1: bytes.insert(byte, at: position)
    case 2 where !bytes.isEmpty: bytes.remove(at: position)
    case 3 where !bytes.isEmpty:
      let end = Swift.min(bytes.count, position + Int.random(in: 1...8, using: &random))
      bytes.insert(contentsOf: bytes[position..<end], at: position)
    default: bytes.removeLast(Swift.min(bytes.count, Int.random(in: 0...3, using: &random)))
    }
  }
  return bytes
}

@Suite("JSONTokenizer fast path")
struct TokenizerFastPathTests {
  @Test func agreesWithTheReferenceOnMutatedLines() {
    var random = SplitMix64(seed: 0x5EED_0001)
    var tokenizer = JSONTokenizer()
    var disagreements = 0
    for round in 0..<40_000 {
      let seed = Array(fastPathSeeds[round % fastPathSeeds.count].utf8)
      let bytes = round < fastPathSeeds.count ? seed : mutate(seed, &random)
      let maxDepth = [512, 512, 512, 3, 1][round % 5]
      for replace in [false, true] {
        // Replace mode only ever sees repaired (valid UTF-8) lines.
        if replace && scalarFirstInvalidOffset(bytes) != nil { continue }
        let expected = referenceVerdict(bytes, maxDepth: maxDepth, replace: replace)
        let actual = fastVerdict(bytes, maxDepth: maxDepth, replace: replace, tokenizer: &tokenizer)
        if actual != expected {
          disagreements += 1
          if disagreements <= 5 {
            Issue.record(
              "\(bytes) replace=\(replace) maxDepth=\(maxDepth): \(actual) != \(expected)")
          }
        }
      }
    }
    #expect(disagreements == 0)
  }

  @Test func agreesWithTheReferenceAcrossBlockBoundaries() {
    // Each interesting lexeme at every offset within the first 40 bytes of a string, so that
    // it straddles the 8- and 16-byte blocks of the scanners in every possible way.
    let pieces: [[UInt8]] = [
      Array("é".utf8), Array("中".utf8), Array("😀".utf8), Array(#"\""#.utf8), Array(#"\\"#.utf8),
      Array(#"\u00e9"#.utf8), Array(#"\uD83D\uDE00"#.utf8), Array(#"\uD83D"#.utf8), [0x1F],
      [0xE4, 0xB8], [0xED, 0xA0, 0x80], [0xC0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0x80], [0xFF],
      Array(#"\x"#.utf8), Array(#"\u12"#.utf8),
    ]
    var tokenizer = JSONTokenizer()
    for piece in pieces {
      for before in 0..<40 {
        for after in [0, 1, 2, 3, 5, 15, 16, 17, 30] {
          let text =
            Array(repeating: UInt8(ascii: "a"), count: before) + piece
            + Array(repeating: UInt8(ascii: "b"), count: after)
          for line in [
            [0x22] + text + [0x22], Array(#"{"k":""#.utf8) + text + Array(#""}"#.utf8),
            [0x22] + text,
          ] {
            for replace in [false, true] {
              if replace && scalarFirstInvalidOffset(line) != nil { continue }
              #expect(
                fastVerdict(line, replace: replace, tokenizer: &tokenizer)
                  == referenceVerdict(line, replace: replace), "\(line)")
            }
          }
        }
      }
    }
  }

  /// Keys are read where an object says one comes (after `{` and after `,`) and `,` is tested
  /// before the closing bracket and the end: every separator in and out of place, with and
  /// without whitespace around it, must get the reference tokenizer's verdict and tape.
  @Test func agreesWithTheReferenceOnSeparatorsAndKeys() {
    let lines = [
      #"{"a":1}"#, #"{"a":1,"b":[2,{"c":{}}],"d":{"e":[]}}"#, #"{ }"#, #"[ ]"#, #"{"a":{ }}"#,
      #"{"a" : 1 , "b" :2}"#, "{\t\"a\"\t:\t1\t}", "{\r\n\"a\":1}", #"[1 , 2 ,3]"#,
      #"1,2"#, #"[1,]"#, #"[,1]"#, #"[,]"#, #"{"a":1,}"#, #"{,"a":1}"#, #"{"a" 1}"#, #"{"a":}"#,
      #"{"a"}"#, #"{"a":1 "b":2}"#, #"{"a":1}}"#, #"[1]]"#, #"{"a":1]"#, #"[1}"#, #"]"#, #"}"#,
      #","#, #":"#, #"{:1}"#, #"{1:2}"#, #"{"a"::1}"#, #"{"a":1,,"b":2}"#, #"{"a":1}, "#,
      #"{"a":1} {"b":2}"#, #"[{"a":1},{"b":2},]"#, #"{"a":[1,2],"b":"c"}"#, "{\"a\":1,\u{0}}",
      #"{"a":1,"#, #"{"a":"#, #"{"a""#, #"{""#, #"{"#, #"["#, #"[1,"#, "{\"a\":1}\u{0}",
      #"{"":1,"":2}"#, #"{"\u0041":1,"\"":2}"#, #"{"a":1,"a":2}"#, #"[[],[[]],{}]"#,
    ]
    var tokenizer = JSONTokenizer()
    for line in lines {
      let bytes = Array(line.utf8)
      for maxDepth in [512, 1, 2] {
        #expect(
          fastVerdict(bytes, maxDepth: maxDepth, tokenizer: &tokenizer)
            == referenceVerdict(bytes, maxDepth: maxDepth), "\(line) maxDepth=\(maxDepth)")
      }
    }
  }

  /// A member (after `{` or `,`) is read from one 32-byte window when its key (and its string value)
  /// fit there (`recordShortMember`): keys and values of every length around the window's end,
  /// with an escape, a non-ASCII byte, a control byte or a quote at every position, values of
  /// every kind, whitespace and missing colons, with the line going on past the window or
  /// ending inside it.
  @Test func agreesWithTheReferenceOnMembersReadFromOneWindow() {
    var tokenizer = JSONTokenizer()
    let tail = #","tail":""# + String(repeating: "t", count: 40) + #""}"#
    var values: [String] = []
    for length in 0..<34 {
      let plain = String(repeating: "v", count: length)
      values.append("\"\(plain)\"")
      for (position, special) in [(0, #"\n"#), (length / 2, "é"), (length, #"\""#), (0, "\u{1}")] {
        var text = plain
        text.insert(contentsOf: special, at: text.index(text.startIndex, offsetBy: position))
        values.append("\"\(text)\"")
      }
      values.append("\"\(plain)")
    }
    values += [
      "1", "-0", "12.5e3", "{}", #"{"a":"b"}"#, "[]", #"["a"]"#, "true", "false", "null", " \"v\"",
      "\t1", "", "}",
    ]
    var keys: [String] = []
    for length in 0..<32 {
      let plain = String(repeating: "k", count: length)
      keys.append("\"\(plain)\":")
      keys.append("\"\(plain)\" :")
      keys.append("\"\(plain)\"")
      if length > 0 {
        keys.append("\"\(plain.dropLast())\\\"\":")
        keys.append("\"\(plain.dropLast())ü\":")
      }
      // A special byte followed by a colon inside the key is not the key's end (the key's string
      // then goes on into the value and the next member: the line is not valid JSON).
      keys.append("\"\(plain)\u{1}:")
      keys.append("\"\(plain)\\:")
    }
    var compared = 0
    for key in keys {
      for value in values {
        let member = key + value
        for line in [
          #"{"x":0,"# + member + tail, #"{"x":0,"# + member + "}", "{" + member + tail,
          "[{" + member + "}]",
        ] {
          let bytes = Array(line.utf8)
          let expected = referenceVerdict(bytes)
          let actual = fastVerdict(bytes, tokenizer: &tokenizer)
          if actual != expected {
            Issue.record("\(line): \(actual) != \(expected)")
            return
          }
          compared += 1
        }
      }
    }
    #expect(compared > 20_000)
  }

  @Test func agreesWithTheReferenceOnNumbersOfEveryLength() {
    var tokenizer = JSONTokenizer()
    for digits in 1..<40 {
      let run = String(repeating: "7", count: digits)
      for text in [
        run, "-\(run)", "0.\(run)", "\(run)e\(run)", "[\(run)]", "[\(run),1]", "{\"n\":\(run)}",
        "\(run)x", "0\(run)", "\(run).", "\(run)e", "\(run)e+", "-", "\(run)] ",
      ] {
        let line = Array(text.utf8)
        #expect(fastVerdict(line, tokenizer: &tokenizer) == referenceVerdict(line), "\(text)")
      }
    }
  }

  @Test func linesPastTheFastPathLimitUseTheReference() {
    var tokenizer = JSONTokenizer()
    let long =
      Array("[\"".utf8) + Array(repeating: UInt8(ascii: "x"), count: 300_000)
      + Array("\",1]".utf8)
    #expect(long.count > JSONTokenizer.fastPathLimit)
    #expect(fastVerdict(long, tokenizer: &tokenizer) == referenceVerdict(long))
    let elements = Array(("[" + String(repeating: "1,", count: 140_000) + "1]").utf8)
    #expect(fastVerdict(elements, tokenizer: &tokenizer) == referenceVerdict(elements))
    // Back to short lines: the tape built for the long one is reused.
    let short = Array(#"{"a":[1,2]}"#.utf8)
    #expect(fastVerdict(short, tokenizer: &tokenizer) == referenceVerdict(short))
  }

  @Test func aLineOfOnlyBracketsFillsTheReservedTapeAndStack() {
    var tokenizer = JSONTokenizer(maxDepth: 100_000)
    for depth in [1, 255, 256, 257, 4_000] {
      let line = Array(
        (String(repeating: "[", count: depth) + String(repeating: "]", count: depth)).utf8)
      #expect(
        fastVerdict(line, maxDepth: 100_000, tokenizer: &tokenizer)
          == referenceVerdict(line, maxDepth: 100_000))
    }
  }
}

@Suite("UTF8Validation fast paths")
struct UTF8FastPathTests {
  @Test func agreesWithTheScalarCheckAndTheStandardLibraryOnRandomBytes() {
    var random = SplitMix64(seed: 0x5EED_0002)
    // Mostly ASCII with well-formed sequences, and now and then a random byte: errors land at
    // every offset, inside and across the 8-, 16- and 32-byte blocks.
    let pieces: [[UInt8]] = [
      [0x61], [0x61], [0x61], [0x61], Array("é".utf8), Array("中".utf8), Array("😀".utf8),
      Array("\u{10FFFF}".utf8), Array("\u{800}".utf8), Array("\u{FFFF}".utf8),
    ]
    for round in 0..<30_000 {
      var bytes: [UInt8] = []
      let length = Int.random(in: 0...90, using: &random)
      while bytes.count < length {
        bytes += pieces.randomElement(using: &random)!
      }
      if round % 3 != 0 {
        for _ in 0..<Int.random(in: 1...2, using: &random) where !bytes.isEmpty {
          let position = Int.random(in: 0..<bytes.count, using: &random)
          bytes[position] =
            Bool.random(using: &random)
            ? interestingBytes.randomElement(using: &random)!
            : UInt8.random(in: 0...255, using: &random)
        }
      }
      if round % 7 == 0 && !bytes.isEmpty { bytes.removeLast() }
      let actual = bytes.withUnsafeBufferPointer { UTF8Validation.firstInvalidOffset($0) }
      let expected = scalarFirstInvalidOffset(bytes)
      #expect(actual == expected, "\(bytes)")
      #expect((actual == nil) == (String(validating: bytes, as: UTF8.self) != nil), "\(bytes)")
    }
  }

  /// The string scanners' 16-byte mask (the C shim's `pmovmskb`): every byte value in every lane,
  /// among plain bytes and beside a second special byte, against the definition byte by byte.
  @Test func specialMaskMarksExactlyTheSpecialBytesOfEveryLane() {
    expectMaskMarksEveryLane(
      TokenizerScan.specialMask, filler: UInt8(ascii: "a"),
      others: [UInt8(ascii: "b"), 0x80, 0x1F],
      past: UInt8(ascii: "\"")
    ) { byte in
      byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte < 0x20 || byte >= 0x80
    }
  }

  /// The number scanner's 16-byte mask (the C shim's `pmovmskb`): every byte value in every
  /// lane, beside digits and beside a second non-digit, against the definition byte by byte.
  @Test func nonDigitMaskMarksExactlyTheNonDigitsOfEveryLane() {
    expectMaskMarksEveryLane(
      TokenizerScan.nonDigitMask, filler: UInt8(ascii: "5"),
      others: [UInt8(ascii: "0"), UInt8(ascii: "9"), UInt8(ascii: "/"), 0xB0],
      past: UInt8(ascii: ",")
    ) { byte in
      !(0x30...0x39).contains(byte)
    }
  }

  @Test func agreesOnEveryThreeByteSequenceAfterEveryAlignment() {
    for lead in 0xC0...0xFF {
      for second in stride(from: 0x70, through: 0xC8, by: 0x08) {
        for padding in [0, 1, 7, 15, 29, 31] {
          let head = Array(repeating: UInt8(ascii: "a"), count: padding)
          for tail in [[UInt8](), [0x80], [0x80, 0x80], [0x80, 0x41, 0x41, 0x41]] {
            let bytes = head + [UInt8(lead), UInt8(second)] + tail
            let actual = bytes.withUnsafeBufferPointer { UTF8Validation.firstInvalidOffset($0) }
            #expect(actual == scalarFirstInvalidOffset(bytes), "\(bytes)")
          }
        }
      }
    }
  }
}

/// Checks a 16-byte mask against `isMarked`, byte by byte: every value in every lane of a block
/// of `filler`, with each of `others` in a second lane, and a marked byte (`past`) right after
/// the 16, which the mask must never look at.
func expectMaskMarksEveryLane(
  _ mask: (UnsafePointer<UInt8>) -> UInt32, filler: UInt8, others: [UInt8], past: UInt8,
  isMarked: (UInt8) -> Bool
) {
  var block = [UInt8](repeating: filler, count: 32)
  block[16] = past
  for lane in 0..<16 {
    for value in 0...255 {
      for other in others {
        block[(lane + 5) % 16] = other
        block[lane] = UInt8(value)
        var expected: UInt32 = 0
        for index in 0..<16 where isMarked(block[index]) { expected |= 1 << index }
        let found = block.withUnsafeBufferPointer { mask($0.baseAddress!) }
        #expect(found == expected, "lane \(lane) value \(value) other \(other)")
        block[(lane + 5) % 16] = filler
      }
    }
    block[lane] = filler
  }
}
