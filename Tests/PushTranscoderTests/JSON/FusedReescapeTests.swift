import Foundation
import Testing

@testable import PushTranscoder

/// The one-pass canonical re-escaper must agree with decode-then-escape on every input.
@Suite struct FusedReescapeTests {
  /// Escaped JSON string contents covering every escape kind.
  static let samples: [String] = [
    #"plain"#, #"a\"b"#, #"back\\slash"#, #"\/\b\f\n\r\t"#, #"\u0000\u001f\u001F\u007f"#,
    #"caf\u00e9 \u00E9"#, #"\ud83d\ude00x\uD83D\uDE00"#, #"\u2028\u2029"#, #"\u0022\u005c"#,
    #"\u003c\u003e\u0026"#, #"tail\\"#, #"中文\n😀"#, #"\u4f60\u597d"#, #"\ud800"#, #"\udc00z"#,
    // Around the bounds of the three-byte `\u` fast path: U+07FF / U+0800, the surrogates'
    // neighbours U+D7FF / U+E000, U+FFFF, upper-case digits, and an escape at the very end.
    #"\u07ff\u0800\u0800x"#, #"\uD7FF\uE000\uffff\uFFFF"#, #"a\u6D88"#, #"\u6d88\u606F\u6709"#,
  ]

  @Test(arguments: samples)
  func oneExample(_ content: String) {
    let raw = Array(content.utf8)
    raw.withUnsafeBufferPointer { buffer in
      var fused: [UInt8] = []
      JSONEscapes.appendCanonical(buffer, to: &fused)
      var decoded: [UInt8] = []
      JSONEscapes.decode(buffer, into: &decoded)
      var reference: [UInt8] = []
      decoded.withUnsafeBufferPointer { JSONEscapes.appendEscaped($0, to: &reference) }
      #expect(fused == reference)
      // A bounded decode is the same prefix of the full decode, scalar for scalar.
      let scalars = String(decoding: decoded, as: UTF8.self).unicodeScalars
      for limit in 0...(scalars.count + 1) {
        var bounded: [UInt8] = []
        JSONEscapes.decode(buffer, into: &bounded, maxScalars: limit)
        var expected = String.UnicodeScalarView()
        expected.append(contentsOf: scalars.prefix(limit))
        #expect(bounded == Array(String(expected).utf8))
      }
      #expect(JSONEscapes.canonicalLength(buffer) == reference.count)
    }
  }

  /// The samples' decoding against a decoder written here from the JSON grammar, with the
  /// standard library's hex parsing (the re-escaper and the decoder above share their hex
  /// reading, so their agreement alone would not catch a wrong digit value).
  @Test(arguments: samples)
  func decodesAsTheGrammarSays(_ content: String) {
    let raw = Array(content.utf8)
    var decoded: [UInt8] = []
    raw.withUnsafeBufferPointer { JSONEscapes.decode($0, into: &decoded) }
    #expect(decoded == Self.referenceDecode(raw))
  }

  /// JSON string content decoded byte by byte; a lone surrogate becomes U+FFFD.
  static func referenceDecode(_ raw: [UInt8]) -> [UInt8] {
    var scalars = String.UnicodeScalarView()
    var index = 0
    func unit(at offset: Int) -> UInt32? {
      guard offset + 4 <= raw.count else { return nil }
      return UInt32(String(decoding: raw[offset..<offset + 4], as: UTF8.self), radix: 16)
    }
    var bytes: [UInt8] = []
    func flush() {
      bytes.append(contentsOf: Array(String(scalars).utf8))
      scalars = String.UnicodeScalarView()
    }
    while index < raw.count {
      guard raw[index] == UInt8(ascii: "\\"), index + 1 < raw.count else {
        flush()
        bytes.append(raw[index])
        index += 1
        continue
      }
      let letter = raw[index + 1]
      index += 2
      switch letter {
      case UInt8(ascii: "b"): scalars.append("\u{08}")
      case UInt8(ascii: "f"): scalars.append("\u{0C}")
      case UInt8(ascii: "n"): scalars.append("\n")
      case UInt8(ascii: "r"): scalars.append("\r")
      case UInt8(ascii: "t"): scalars.append("\t")
      case UInt8(ascii: "u"):
        var value = unit(at: index) ?? 0xFFFD
        index += 4
        if (0xD800...0xDBFF).contains(value), index + 6 <= raw.count,
          raw[index] == UInt8(ascii: "\\"), raw[index + 1] == UInt8(ascii: "u"),
          let low = unit(at: index + 2), (0xDC00...0xDFFF).contains(low)
        {
          value = 0x10000 + (value - 0xD800) << 10 + (low - 0xDC00)
          index += 6
        }
        scalars.append(Unicode.Scalar(value) ?? "\u{FFFD}")
      default: scalars.append(Unicode.Scalar(letter))
      }
    }
    flush()
    return bytes
  }

  /// Plain runs of every length from 0 to 40 before, between and after two escapes of each
  /// kind, so that escapes fall at every offset of the 16-byte blocks runs are copied in. The
  /// output buffer holds exactly the content's length, followed by guard bytes that must stay
  /// untouched.
  @Test func runsAroundEscapesAtEveryBlockOffset() {
    let escapes = [#"\""#, #"\\"#, #"\n"#, #"\/"#, #"\u00e9"#, #"\u0001"#, #"\ud83d\ude00"#]
    for escape in escapes {
      for before in 0...40 {
        for between in [0, 1, 15, 16, 17, 31] {
          let content =
            String(repeating: "a", count: before) + escape + String(repeating: "é", count: between)
            + escape + String(repeating: "b", count: 40 - before)
          let raw = Array(content.utf8)
          var decoded: [UInt8] = []
          raw.withUnsafeBufferPointer { JSONEscapes.decode($0, into: &decoded) }
          var reference: [UInt8] = []
          decoded.withUnsafeBufferPointer { JSONEscapes.appendEscaped($0, to: &reference) }
          let guardBytes = 32
          let out = UnsafeMutablePointer<UInt8>.allocate(capacity: raw.count + guardBytes)
          defer { out.deallocate() }
          out.initialize(repeating: 0xEE, count: raw.count + guardBytes)
          let written = raw.withUnsafeBufferPointer { JSONEscapes.writeCanonical($0, at: out) }
          #expect(Array(UnsafeBufferPointer(start: out, count: written)) == reference, "\(content)")
          #expect(
            UnsafeBufferPointer(start: out + raw.count, count: guardBytes).allSatisfy {
              $0 == 0xEE
            }, "written past the content's length: \(content)")
        }
      }
    }
  }

  /// Dense mixes of escapes that are already canonical (copied with the text around them) and
  /// of the `\u` and `\/` escapes that are rewritten (and that the canonicalizer's test finds),
  /// with an escaped backslash before a plain `u` or `/` (`\\u`: the second backslash is a
  /// letter, not an escape) and backslashes in every lane of a block, its last included.
  @Test func canonicalEscapesCopiedAndOthersRewrittenInEveryLane() {
    var random = SplitMix64(seed: 0xCA40)
    let pieces = [
      #"\""#, #"\\"#, #"\n"#, #"\t"#, #"\/"#, #"\u00e9"#, #"\u4F60"#, #"\\u"#, #"\\/"#, "u", "/",
      "a", "é", "中", #"\ud83d\ude00"#,
    ]
    for round in 0..<4000 {
      var content = ""
      for _ in 0..<random.below(40) { content += pieces[random.below(pieces.count)] }
      let raw = Array(content.utf8)
      _ = Self.expectCanonicalAsDecodeThenEscape(raw, "round \(round): \(content)")
      // The canonicalizer's test, against a walk escape by escape: no `\u` and no `\/`.
      var index = 0
      var onlyCanonical = true
      while index < raw.count {
        guard raw[index] == UInt8(ascii: "\\") else {
          index += 1
          continue
        }
        if raw[index + 1] == UInt8(ascii: "u") || raw[index + 1] == UInt8(ascii: "/") {
          onlyCanonical = false
        }
        index += 2
      }
      let answer = raw.withUnsafeBufferPointer { JSONEscapes.hasOnlyCanonicalEscapes($0) }
      #expect(answer == onlyCanonical, "round \(round): \(content)")
    }
  }

  /// Runs of `\u` escapes, as JSON written as ASCII only has them: two escapes of scalars from
  /// U+0800 up are decoded at once, and every other neighbour (a narrower scalar, one that must
  /// stay escaped, a surrogate pair, the bounds U+07FF / U+0800 / U+D7FF / U+E000 / U+FFFF)
  /// takes the one-escape path. Re-escaping and bounded decoding agree with the references.
  @Test func runsOfUnicodeEscapesTwoAtATime() {
    var random = SplitMix64(seed: 0x2E5C)
    let pieces = [
      #"\u4f60"#, #"\u597D"#, #"\u0800"#, #"\uD7FF"#, #"\uE000"#, #"\uffff"#, #"\u07ff"#,
      #"\u00e9"#, #"\u0022"#, #"\u005C"#, #"\u0001"#, #"\u0041"#, #"\ud83d\ude00"#, "a", #"\n"#,
    ]
    var pairs = 0
    for round in 0..<3000 {
      var content = ""
      for _ in 0..<random.below(30) { content += pieces[random.below(pieces.count)] }
      let raw = Array(content.utf8)
      let decoded = Self.expectCanonicalAsDecodeThenEscape(raw, "round \(round): \(content)")
      // The decoded text from the scalars of the one-escape reference, bounded at every count.
      let scalars = Array(String(decoding: decoded, as: UTF8.self).unicodeScalars)
      #expect(String(decoding: decoded, as: UTF8.self) == Self.referenceDecoding(content))
      for limit in 0...scalars.count {
        var bounded: [UInt8] = []
        raw.withUnsafeBufferPointer { JSONEscapes.decode($0, into: &bounded, maxScalars: limit) }
        var prefix = String.UnicodeScalarView()
        prefix.append(contentsOf: scalars.prefix(limit))
        #expect(bounded == Array(String(prefix).utf8), "round \(round), limit \(limit)")
      }
      raw.withUnsafeBufferPointer { buffer in
        var index = 0
        while index < buffer.count {
          if JSONEscapes.twoWideEscapes(buffer.baseAddress!, index, buffer.count) != nil {
            pairs += 1
          }
          index += 1
        }
      }
    }
    #expect(pairs > 1000, "pairs of wide escapes must occur")
  }

  /// Expects the one-pass canonical re-escape of `raw` to equal its decoding escaped again, and
  /// returns the decoding.
  static func expectCanonicalAsDecodeThenEscape(_ raw: [UInt8], _ context: String) -> [UInt8] {
    var decoded: [UInt8] = []
    raw.withUnsafeBufferPointer { JSONEscapes.decode($0, into: &decoded) }
    var reference: [UInt8] = []
    decoded.withUnsafeBufferPointer { JSONEscapes.appendEscaped($0, to: &reference) }
    var fused: [UInt8] = []
    raw.withUnsafeBufferPointer { JSONEscapes.appendCanonical($0, to: &fused) }
    #expect(fused == reference, "\(context)")
    return decoded
  }

  /// The text of escaped content as Foundation's JSON parser reads it: an independent decoder.
  static func referenceDecoding(_ content: String) -> String {
    let data = Data(("\"" + content + "\"").utf8)
    return (try? JSONSerialization.jsonObject(with: data, options: .fragmentsAllowed)) as? String
      ?? "<not JSON>"
  }

  /// The writer's text escape (`JSONEscapes.writeEscaped`, 16 bytes a step to each byte that
  /// needs an escape) writes what the byte loop of the generic `appendEscaped` writes, wherever
  /// quotes, backslashes and control bytes fall and whatever the text's length.
  @Test func textEscapeAgreesWithTheByteLoopInEveryLane() {
    let alphabet: [UInt8] = [
      0x00, 0x01, 0x08, 0x0A, 0x1F, 0x20, 0x22, 0x5C, 0x7F, 0x61, 0xC3, 0xA9,
    ]
    var state: UInt64 = 0x2545_F491_4F6C_DD1D
    func next(_ bound: Int) -> Int {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Int(state >> 33) % bound
    }
    var texts: [[UInt8]] = (0..<40).map { [UInt8](repeating: 0x61, count: $0) + [0x22] }
    texts += (0..<40).map { [UInt8](repeating: 0x0A, count: $0) }
    for _ in 0..<3000 {
      texts.append((0..<next(71)).map { _ in alphabet[next(alphabet.count)] })
    }
    for text in texts {
      var reference: [UInt8] = []
      text.withUnsafeBufferPointer { JSONEscapes.appendEscaped($0, to: &reference) }
      var writer = JSONWriter()
      text.withUnsafeBufferPointer { writer.escapedContent($0) }
      #expect(writer.bytes == reference, "\(text)")
    }
  }

  @Test func seededRandomContents() {
    var state: UInt64 = 0x9E37_79B9_7F4A_7C15
    func next() -> Int {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Int(state >> 33)
    }
    let pieces = Self.samples + ["x", "é", "\\u0001", "\\n", "\\\\", "\\\""]
    for _ in 0..<500 {
      var content = ""
      for _ in 0..<(next() % 8) { content += pieces[next() % pieces.count] }
      oneExample(content)
      decodesAsTheGrammarSays(content)
    }
  }
}

/// `JSONWriter.integer` over the whole Int range (it used to trap on `Int.min`).
@Suite struct WriterIntegerTests {
  @Test(arguments: [0, 7, 10, -1, -10, 1_000_000, Int.max, Int.min])
  func writesDecimal(_ value: Int) {
    var writer = JSONWriter(capacity: 32)
    writer.integer(value)
    #expect(String(decoding: writer.bytes, as: UTF8.self) == String(value))
  }
}
