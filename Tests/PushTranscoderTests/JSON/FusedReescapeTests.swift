import Testing

@testable import PushTranscoder

/// The one-pass canonical re-escaper must agree with decode-then-escape on every input.
@Suite struct FusedReescapeTests {
  /// Escaped JSON string contents covering every escape kind.
  static let samples: [String] = [
    #"plain"#, #"a\"b"#, #"back\\slash"#, #"\/\b\f\n\r\t"#, #"\u0000\u001f\u001F\u007f"#,
    #"caf\u00e9 \u00E9"#, #"\ud83d\ude00x\uD83D\uDE00"#, #"\u2028\u2029"#, #"\u0022\u005c"#,
    #"\u003c\u003e\u0026"#, #"tail\\"#, #"中文\n😀"#, #"\u4f60\u597d"#, #"\ud800"#, #"\udc00z"#,
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
