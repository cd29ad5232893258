import Testing

@testable import PushTranscoder

/// A budgeted payload's body is written only as far as a cut could keep (`PushText.writeBody`
/// under `JSONWriter.bodyLimit`): a message split into many records wrote its whole body in
/// each, records × body. The cut records stay byte for byte what the whole body gave (the
/// golden files and the budget edges check that); here, what is written and measured.
@Suite struct BodyLimitTests {
  let long = Array(String(repeating: "ab\\n中", count: 2000).utf8)
  let escaped = Array(String(repeating: "a\\u0062", count: 2000).utf8)

  @Test func aCanonicalBodyOverTheLimitIsWrittenShort() {
    long.withUnsafeBufferPointer { bytes in
      escaped.withUnsafeBufferPointer { rewritten in
        // Its escapes (`\n`) are canonical ones, as the tokenizer's canonicalizer marks them.
        var slice = StringSlice(escapedContent: bytes)
        slice.rawIsCanonical = true
        // Pieces past the limit are not looked at, canonical or not, however many.
        let later = Array(repeating: StringSlice(escapedContent: rewritten), count: 10_000)
        for text in [
          PushText.slice(slice), .pieces([StringSlice("nick:"), slice]), .pieces([slice] + later),
        ] {
          var writer = JSONWriter()
          writer.bodyLimit = 100
          let range = text.writeBody(into: &writer)
          #expect(range.count == 100)
          let writtenShort = writer.bodyWrittenShort
          #expect(writtenShort)
          // The prefix written is the start of the whole body's content.
          var whole = JSONWriter()
          let all = text.write(into: &whole)
          #expect(Array(writer.buffer[range]) == Array(whole.buffer[all].prefix(100)))
          #expect(writer.buffer.last == ASCII.quote)
        }
      }
    }
  }

  @Test func aBodyWithinTheLimitOrWithoutAKnownLengthIsWrittenWhole() {
    long.withUnsafeBufferPointer { canonical in
      escaped.withUnsafeBufferPointer { rewritten in
        var canonicalSlice = StringSlice(escapedContent: canonical)
        canonicalSlice.rawIsCanonical = true
        let within = PushText.slice(canonicalSlice)
        let unknown = PushText.slice(StringSlice(escapedContent: rewritten))
        #expect(!StringSlice(escapedContent: rewritten).isCanonical)
        for (text, limit) in [(within, 1 << 20), (unknown, 100), (within, Int.max)] {
          var writer = JSONWriter()
          writer.bodyLimit = limit
          let range = text.writeBody(into: &writer)
          var whole = JSONWriter()
          let all = text.write(into: &whole)
          #expect(Array(writer.buffer[range]) == Array(whole.buffer[all]))
          let writtenShort = writer.bodyWrittenShort
          #expect(!writtenShort)
        }
      }
    }
  }
}
