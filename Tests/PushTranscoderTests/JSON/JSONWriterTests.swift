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

/// A writer is a value: two copies that go on writing (each starting with `beginWriting()`)
/// each keep their own bytes.
@Suite("JSONWriter copies")
struct JSONWriterCopyTests {
  @Test func twoCopiesWritingAfterTheCopyEachSeeTheirOwnBytes() {
    var first = JSONWriter(capacity: 64)
    first.raw("{\"a\":")
    var second = first
    first.beginWriting()
    second.beginWriting()
    first.raw("1}")
    second.raw("22}")
    #expect(String(decoding: first.bytes, as: UTF8.self) == "{\"a\":1}")
    #expect(String(decoding: second.bytes, as: UTF8.self) == "{\"a\":22}")
  }

  @Test func aCopyKeepsItsBytesWhenTheOriginalIsRewritten() {
    var original = JSONWriter(capacity: 64)
    original.raw("[1,2,3]")
    let snapshot = original
    original.removeAll()
    original.beginWriting()
    original.raw("[9,9,9]")
    #expect(String(decoding: snapshot.bytes, as: UTF8.self) == "[1,2,3]")
    #expect(String(decoding: original.bytes, as: UTF8.self) == "[9,9,9]")
  }

  @Test func replaceThroughACopyLeavesTheOtherCopyAlone() {
    var original = JSONWriter(capacity: 64)
    original.raw("abcdef")
    var copy = original
    [UInt8]("XY".utf8).withUnsafeBufferPointer { copy.replace(2..<4, with: $0) }
    #expect(String(decoding: original.bytes, as: UTF8.self) == "abcdef")
    #expect(String(decoding: copy.bytes, as: UTF8.self) == "abXYef")
  }
}
