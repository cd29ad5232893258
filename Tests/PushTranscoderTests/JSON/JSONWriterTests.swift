import Testing

@testable import PushTranscoder

/// Canonical re-escaping (SPEC 4): UTF-8 as is; only `"`, `\` and controls escaped; short
/// forms where they exist, else `\u00xx` in lower case; `/` not escaped.
@Suite("JSONWriter canonical form")
struct JSONWriterTests {
  @Test(
    arguments: [
      (#""\u00e9""#, #""é""#),
      (#""\u00E9""#, #""é""#),
      (#""\/""#, #""/""#),
      (#""a/b""#, #""a/b""#),
      (#""\u001f""#, #""\u001f""#),
      (#""\u001F""#, #""\u001f""#),
      (#""\u0000""#, #""\u0000""#),
      (#""\u2028\u2029""#, "\"\u{2028}\u{2029}\""),
      ("\"\u{2028}\"", "\"\u{2028}\""),
      (#""\u0008\u0009\u000A\u000c\u000D""#, #""\b\t\n\f\r""#),
      (#""\b\f\n\r\t""#, #""\b\f\n\r\t""#),
      (#""\u0022\u005c""#, #""\"\\""#),
      (#""\"\\""#, #""\"\\""#),
      (#""\u0041\u007f""#, "\"A\u{7F}\""),
      (#""\ud83d\ude00""#, #""😀""#),
      (#""plain ünïcödé 中文 😀""#, #""plain ünïcödé 中文 😀""#),
    ] as [(String, String)])
  func stringsAreReescapedCanonically(_ input: String, _ expected: String) {
    #expect(canonical(input) == expected)
    // The canonical form is a fixed point, and canonicalLength predicts it.
    #expect(canonical(expected) == expected)
    var tokenizer = JSONTokenizer()
    let bytes = Array(input.utf8)
    bytes.withUnsafeBufferPointer { buffer in
      #expect(tokenizer.parse(buffer) == nil)
      tokenizer.withDocument(buffer) { document in
        let slice = document.string(document.root)
        #expect(JSONWriter.canonicalLength(slice) == expected.utf8.count - 2)
        var writer = JSONWriter()
        writer.string(slice)
        #expect(String(decoding: writer.bytes, as: UTF8.self) == expected)
      }
    }
  }

  @Test func valuesAreRewrittenWithoutWhitespaceAndWithTheirLexemes() {
    #expect(
      canonical(#" { "a" : [ 1 , 2.50 , -0 , 1E5 , true , null , false ] , "b" : { } , "c":[ ] } "#)
        == #"{"a":[1,2.50,-0,1E5,true,null,false],"b":{},"c":[]}"#)
    #expect(canonical("\"x\"") == "\"x\"")
    #expect(canonical(" -1.5e-7 ") == "-1.5e-7")
  }

  @Test func duplicateKeysKeepTheirFirstPositionAndTheirLastValue() {
    #expect(canonical(#"{"a":1,"b":2,"a":3}"#) == #"{"a":3,"b":2}"#)
    #expect(canonical(#"{"a":1,"\u0061":{"x":[]}}"#) == #"{"a":{"x":[]}}"#)
  }

  /// Objects of many keys go through the duplicate table (`DuplicateKeys`, pairwise below 16
  /// members): the same first positions and last values as a plain reading of SPEC 9, with
  /// keys repeated up to three times, far apart, some of them escaped.
  @Test(arguments: [10, 100, 5000, 20_000])
  func manyRepeatedKeysKeepTheirFirstPositionAndTheirLastValue(distinctKeys: Int) {
    var random = SplitMix64(seed: UInt64(distinctKeys))
    var members: [(key: Int, value: Int)] = []
    for key in 0..<distinctKeys {
      for _ in 0..<(1 + Int(random.next() % 3)) { members.append((key, members.count)) }
    }
    // Shuffled, so that repeats are far apart and interleaved.
    for index in members.indices.reversed() {
      members.swapAt(index, Int(random.next() % UInt64(index + 1)))
    }
    var input = "{"
    for (index, member) in members.enumerated() {
      if index > 0 { input += "," }
      // Every third member spells its key with an escape: the same key.
      let name = "k\(member.key)"
      input += member.value % 3 == 0 ? "\"\\u006b\(member.key)\"" : "\"\(name)\""
      input += ":\(member.value)"
    }
    input += "}"
    var firstPosition: [Int: Int] = [:]
    var lastValue: [Int: Int] = [:]
    for (index, member) in members.enumerated() {
      if firstPosition[member.key] == nil { firstPosition[member.key] = index }
      lastValue[member.key] = member.value
    }
    let expected =
      "{"
      + firstPosition.sorted { $0.value < $1.value }.map { "\"k\($0.key)\":\(lastValue[$0.key]!)" }
      .joined(separator: ",") + "}"
    #expect(canonical(input) == expected)
  }

  @Test func replacedLoneSurrogatesAreWrittenAsReplacementCharacters() {
    var tokenizer = JSONTokenizer(replaceLoneSurrogates: true)
    let bytes = Array(#"["\uD800x"]"#.utf8)
    bytes.withUnsafeBufferPointer { buffer in
      #expect(tokenizer.parse(buffer) == nil)
      var writer = JSONWriter()
      tokenizer.withDocument(buffer) { writer.value($0, $0.root) }
      #expect(String(decoding: writer.bytes, as: UTF8.self) == "[\"\u{FFFD}x\"]")
    }
  }

  @Test func escapedLengthMatchesTheEscapes() {
    for byte in UInt8(0)...UInt8(0x7F) {
      var output: [UInt8] = []
      [byte].withUnsafeBufferPointer { JSONEscapes.appendEscaped($0, to: &output) }
      #expect(output.count == JSONEscapes.escapedLength(byte))
    }
  }
}

/// A writer owns its buffer and cannot be copied (`~Copyable`: `let copy = writer` does not
/// compile, so two writers never share a buffer). A buffer outlives its writer only through a
/// pool (`releaseBuffer`, `init(adopting:)`) or a box, its one owner.
@Suite("JSONWriter ownership")
struct JSONWriterOwnershipTests {
  @Test func aReleasedBufferServesTheNextWriterEmpty() {
    var first = JSONWriter(capacity: 1 << 16)
    first.raw("[1,2,3]")
    let address = first.buffer.baseAddress
    let buffer = first.releaseBuffer()
    #expect(UnsafePointer(buffer.base) == address)
    #expect(buffer.capacity >= 1 << 16)
    var second = JSONWriter(adopting: buffer)
    #expect(second.count == 0)
    second.raw("[9]")
    #expect(String(decoding: second.bytes, as: UTF8.self) == "[9]")
    #expect(second.buffer.baseAddress == address)
  }

  @Test func aBoxHandsOutItsWriterOnceAndKeepsAnEmptyOne() {
    var writer = JSONWriter(capacity: 64)
    writer.raw("abc")
    let box = WriterBox(writer)
    let alias = box
    alias.writer.raw("def")
    #expect(String(decoding: box.writer.bytes, as: UTF8.self) == "abcdef")
    let taken = box.take()
    #expect(String(decoding: taken.bytes, as: UTF8.self) == "abcdef")
    #expect(box.writer.count == 0)
  }

  @Test func replaceMovesTheTailAndGrows() {
    var writer = JSONWriter(capacity: 64)
    writer.raw("abcdef")
    [UInt8]("XY".utf8).withUnsafeBufferPointer { writer.replace(2..<4, with: $0) }
    #expect(String(decoding: writer.bytes, as: UTF8.self) == "abXYef")
    let long = [UInt8](repeating: UInt8(ascii: "z"), count: 200)
    long.withUnsafeBufferPointer { writer.replace(1..<5, with: $0) }
    #expect(writer.count == 2 + 200)
    #expect(writer.bytes.first == UInt8(ascii: "a") && writer.bytes.last == UInt8(ascii: "f"))
  }

  /// Large buffers are mappings of their own, small ones malloc blocks; both are freed by the
  /// writer that owns them, and a pool frees what it cannot keep.
  @Test func poolsFreeWhatTheyDoNotKeep() {
    let pool = WriterPool(limit: 2, smallest: 64)
    for capacity in [64, 1 << 16, 1 << 20, 1 << 22] { pool.recycle(JSONWriter(capacity: capacity)) }
    #expect(pool.count == 2)
    var writer = pool.take(minimumCapacity: 1 << 22)
    #expect(writer.capacity >= 1 << 22)
    writer.raw("x")
    #expect(writer.count == 1)
  }
}

/// `JSONWriter.rawHeadPart` (the record heads' shared parts) copies every length exactly: the
/// byte loop up to 16, two or four overlapping 16-byte moves up to 64, eight up to 128 (a
/// source path makes the prefix that long), `raw` beyond; after other bytes, so the moves start
/// unaligned.
@Suite struct JSONWriterHeadPartTests {
  @Test func everyLengthIsCopiedExactly() {
    let source = (0..<300).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ 1) }
    var writer = JSONWriter(capacity: 64)
    for length in 0...200 {
      for lead in [0, 1, 5] {
        writer.removeAll()
        writer.raw(Array(repeating: UInt8(ascii: "x"), count: lead))
        source.withUnsafeBufferPointer { bytes in
          writer.rawHeadPart(UnsafeBufferPointer(rebasing: bytes[3..<(3 + length)]))
        }
        writer.byte(UInt8(ascii: "!"))
        let expected =
          Array(repeating: UInt8(ascii: "x"), count: lead) + source[3..<(3 + length)]
          + [UInt8(ascii: "!")]
        #expect(writer.bytes == expected, "length \(length), after \(lead) bytes")
      }
    }
  }
}

/// `JSONWriter.string` and `PushText.write` put a canonical slice and its two quotes in place
/// with one capacity check (`quoted`): every length, after a few bytes already written, in a
/// writer small enough to grow on the way, and the content range `write` reports.
@Suite struct JSONWriterQuotedTests {
  @Test func everyLengthIsQuotedExactly() {
    let source = (0..<300).map { UInt8(ascii: "a") + UInt8(truncatingIfNeeded: $0 % 26) }
    for length in 0...200 {
      for lead in [0, 1, 5, 62, 63] {
        source.withUnsafeBufferPointer { bytes in
          let slice = StringSlice(
            pointer: bytes.baseAddress! + 3, count: length, hasEscapes: false)
          let expected =
            Array(repeating: UInt8(ascii: "x"), count: lead) + [UInt8(ascii: "\"")]
            + source[3..<(3 + length)] + [UInt8(ascii: "\""), UInt8(ascii: "!")]
          var viaString = JSONWriter(capacity: 64)
          viaString.raw(Array(repeating: UInt8(ascii: "x"), count: lead))
          viaString.string(slice)
          viaString.byte(UInt8(ascii: "!"))
          #expect(viaString.bytes == expected, "string, length \(length), after \(lead) bytes")
          var viaText = JSONWriter(capacity: 64)
          viaText.raw(Array(repeating: UInt8(ascii: "x"), count: lead))
          let range = PushText.slice(slice).write(into: &viaText)
          viaText.byte(UInt8(ascii: "!"))
          #expect(viaText.bytes == expected, "write, length \(length), after \(lead) bytes")
          #expect(range == (lead + 1)..<(lead + 1 + length), "range, length \(length)")
        }
      }
    }
  }
}

/// `JSONWriter.integer` (record heads' line numbers, badges, lengths) writes what `String(_:)`
/// writes, at every digit count and both signs, two digits per division included.
@Suite struct JSONWriterIntegerTests {
  @Test func integersAreWrittenInDecimal() {
    var values: [Int] = [0, 1, 9, 10, 11, 99, 100, 101, 109, 110, 999, 1000, 1009, 65_536]
    values += [Int.max, Int.min, Int.max - 1, Int.min + 1, -1, -9, -10, -99, -100, -101]
    var power = 1
    while power <= Int.max / 10 {
      power *= 10
      values += [power - 1, power, power + 1, -power, power / 3 * 10]
    }
    var generator = SystemRandomNumberGenerator()
    for _ in 0..<2000 { values.append(Int.random(in: Int.min...Int.max, using: &generator)) }
    for digits in 1...18 {
      let bound = Int(pow10(digits))
      for _ in 0..<50 { values.append(Int.random(in: 0..<bound, using: &generator)) }
    }
    for value in values {
      var writer = JSONWriter()
      writer.integer(value)
      #expect(String(decoding: writer.bytes, as: UTF8.self) == String(value), "\(value)")
    }
  }

  /// The eight-digit fast path (`eightDigitsOrFewer`, below 10^8) at every value below 10^5,
  /// at each side of every power of ten up to 10^9, and after other bytes (its one 8-byte store
  /// writes past the digits it commits).
  @Test func valuesBelowAHundredMillionAreWrittenInDecimal() {
    var values = Array(0..<100_000)
    for digits in 5...9 {
      let power = pow10(digits)
      values += [power - 2, power - 1, power, power + 1, power / 2, power - power / 10]
    }
    values += [12_345_678, 98_765_432, 10_000_001, 99_999_999, 1_000_000, 50_000_005]
    var writer = JSONWriter()
    for value in values {
      writer.removeAll()
      writer.raw("[")
      writer.integer(value)
      writer.raw(",")
      writer.integer(value)
      writer.raw("]")
      let expected = "[\(value),\(value)]"
      if String(decoding: writer.bytes, as: UTF8.self) != expected {
        Issue.record("\(value): \(String(decoding: writer.bytes, as: UTF8.self))")
        return
      }
    }
  }

  private func pow10(_ exponent: Int) -> Int {
    (0..<exponent).reduce(1) { product, _ in product * 10 }
  }
}
