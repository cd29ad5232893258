import Testing

@testable import PushTranscoder

/// SPEC 9 [2.2]: with `--unicode replace` each unpaired surrogate escape becomes U+FFFD *before
/// parsing*, and `unicode_replacements` counts each replacement. Before, a line rejected as
/// `syntax` counted only the escapes the tokenizer had reached before the fault.
@Suite struct ReplacementCountTests {
  @Test func escapesAfterASyntaxFaultAreCounted() {
    let line =
      #"{"from":"a","to":"b","chat_type":"chat","z":tru,"payload":{"bodies":[{"type":"txt","msg":"\ud800"}]}}"#
    let (records, stats) = SplitRefusalTests.render(line, vendors: [.apns], unicode: .replace)
    #expect(records.first?["reason"] as? String == "syntax")
    #expect(stats.unicodeReplacements == 1)
  }

  @Test func anEscapeOutsideAStringIsCountedAndStillASyntaxFault() {
    let (records, stats) = SplitRefusalTests.render(
      #"{"z":\udc00}"#, vendors: [.apns], unicode: .replace)
    #expect(records.first?["reason"] as? String == "syntax")
    #expect(stats.unicodeReplacements == 1)
  }

  /// SPEC 6.4: `offset` is the fault's byte offset "within the line as read". With `--unicode
  /// replace` it was the offset in the repaired line, where each U+FFFD (3 bytes) can be longer
  /// than what it replaced: `"\xff" x` said 6 for the `x` at 4.
  @Test func offsetsAfterReplacedBytesPointIntoTheLineAsRead() {
    let cases: [([UInt8], Int)] = [
      (Array("\"".utf8) + [0xFF] + Array("\" x".utf8), 4),
      (Array("[\"".utf8) + [0xE2, 0x82] + Array("\", 1,]".utf8), 9),
      (Array("[\"".utf8) + [0xC0, 0xAF, 0xFF] + Array("\"] 1".utf8), 8),
      (Array("[\"é\"] 1".utf8), 7),
    ]
    var options = TranscodeOptions()
    options.unicode = .replace
    options.validateOnly = true
    for (line, expected) in cases {
      var processor = LineProcessor(options: options, directory: NameDirectory())
      var output = ChunkOutput(sequence: 0, source: SourceName("t.ndjson"))
      line.withUnsafeBufferPointer { processor.process(line: $0, number: 1, into: &output) }
      let text = String(decoding: output.main.bytes, as: UTF8.self)
      #expect(text.contains("\"offset\":\(expected),"), "\(line): \(text)")
    }
  }

  @Test func theTextualCountMatchesTheTokenizersOnValidLines() {
    let cases: [(String, Int)] = [
      (#"["\ud800"]"#, 1),
      (#"["\ud83d\ude00"]"#, 0),
      (#"["\udc00\ud800\udc00\ud800"]"#, 2),
      (#"["\\ud800", "\\\ud800"]"#, 1),
      (#"["\ud800\u0041", "\uDBFF\uDFFF"]"#, 1),
    ]
    var tokenizer = JSONTokenizer(replaceLoneSurrogates: true)
    for (text, expected) in cases {
      let bytes = Array(text.utf8)
      bytes.withUnsafeBufferPointer { line in
        #expect(JSONEscapes.unpairedSurrogateEscapes(in: line) == expected, "\(text)")
        #expect(tokenizer.parseValidatedUTF8(line) == nil, "\(text)")
        #expect(tokenizer.loneSurrogates == expected, "\(text)")
      }
    }
  }
}

/// `LineGate.document(of:)` lends the document of a line parsed as read, and none for a line
/// parsed from its repaired copy (whose bytes only `withDocument` lends); the processor
/// transcodes both.
@Suite struct LineGateDocumentTests {
  @Test func aRepairedLineIsLentOnlyThroughWithDocument() {
    var gate = LineGate(maxLineBytes: 1 << 20, unicode: .replace)
    let valid = Array(#"{"MsgBody":[],"To_Account":"b"}"#.utf8)
    valid.withUnsafeBufferPointer { line in
      guard case .parsed = gate.check(line) else {
        Issue.record("a valid line is parsed")
        return
      }
      let document = gate.document(of: line)
      #expect(document?.bytes.baseAddress == line.baseAddress)
      #expect(document?.tokens.count == gate.withDocument(of: line) { $0.tokens.count })
    }
    let invalid = Array(#"{"MsgBody":[],"To_Account":"b"#.utf8) + [0xFF] + Array(#""}"#.utf8)
    invalid.withUnsafeBufferPointer { line in
      guard case .parsed = gate.check(line) else {
        Issue.record("a repaired line is parsed")
        return
      }
      #expect(gate.document(of: line) == nil)
      let repaired = gate.withDocument(of: line) { Array($0.bytes) }
      #expect(repaired != invalid)
      #expect(String(decoding: repaired, as: UTF8.self).contains("b\u{FFFD}"))
    }
  }

  @Test func aRepairedLineIsTranscoded() {
    var options = TranscodeOptions()
    options.unicode = .replace
    options.vendors = [.apns]
    let line =
      Array(#"{"MsgBody":[{"MsgType":"TIMTextElem","MsgContent":{"Text":"a"#.utf8) + [0xFF]
      + Array(#""}}],"To_Account":"b"}"#.utf8)
    var processor = LineProcessor(options: options, directory: NameDirectory())
    var output = ChunkOutput(sequence: 0, source: SourceName("t.ndjson"))
    line.withUnsafeBufferPointer { processor.process(line: $0, number: 1, into: &output) }
    let text = String(decoding: output.main.bytes, as: UTF8.self)
    #expect(text.contains(#""vendor":"apns""#), "\(text)")
    #expect(text.contains("a\u{FFFD}"), "\(text)")
    #expect(output.stats.unicodeReplacements == 1)
  }
}
