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
