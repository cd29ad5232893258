import CByteScan
import Testing

@testable import PushTranscoder

/// Pieces of string content: first the valid ones (plain text, every kind of escape, well-formed
/// sequences at the edges of Table 3-7's ranges), then `validPieceCount` on the invalid ones.
private let stringPieces: [[UInt8]] = [
  Array("a".utf8), Array("plain text ".utf8), Array("0123456789abcdef".utf8),
  Array(#"\""#.utf8), Array(#"\\"#.utf8), Array(#"\/"#.utf8), Array(#"\n"#.utf8),
  Array(#"\t\r\b\f"#.utf8), Array(#"\u00e9"#.utf8), Array(#"\uD83D\uDE00"#.utf8),
  Array(#"\u4f60\u597D"#.utf8), Array(#"\uD7FF\uE000"#.utf8), Array(#"\u0000\uFFFF"#.utf8),
  Array(#"\uDBFF\uDFFF"#.utf8),
  Array("您有一条新消息".utf8), Array("é".utf8), Array("😀".utf8),
  [0xC2, 0x80], [0xDF, 0xBF], [0xE0, 0xA0, 0x80], [0xED, 0x9F, 0xBF], [0xEE, 0x80, 0x80],
  [0xEF, 0xBF, 0xBF], [0xF0, 0x90, 0x80, 0x80], [0xF4, 0x8F, 0xBF, 0xBF], [0x7F],
  // Invalid from here, or (a quote) ending the string early.
  Array(#"\uD83D"#.utf8), Array(#"\uDE00"#.utf8), Array(#"\u12G4"#.utf8), Array(#"\x"#.utf8),
  Array(#"\"#.utf8), [0x01], [0x1F], [UInt8(ascii: "\"")],
  [0xC0, 0x80], [0xC1, 0xBF], [0xE0, 0x9F, 0xBF], [0xED, 0xA0, 0x80], [0xF0, 0x8F, 0xBF, 0xBF],
  [0xF4, 0x90, 0x80, 0x80], [0xF5, 0x80, 0x80, 0x80], [0xFF], [0x80], [0xBF],
  [0xE6, 0x82], [0xF0, 0x9F, 0x98], [0xC3],
]
private let validPieceCount = 26

/// The bytes the mask tests put in a second lane beside each tested byte: a quote, a backslash, a
/// control byte, a non-ASCII byte and an escape letter.
private let laneNeighbours: [UInt8] = [
  UInt8(ascii: "\""), UInt8(ascii: "\\"), 0x05, 0xE4, UInt8(ascii: "n"),
]

/// `TokenizerScan.stringEnd` from offset 0 of `bytes`, and the scalar scan it must agree with.
private func bothScans(_ bytes: [UInt8]) -> (windowed: Int, scalar: Int) {
  bytes.withUnsafeBufferPointer { buffer in
    // Safe because the callers' arrays are never empty, so `baseAddress` is set.
    let base = buffer.baseAddress!
    return (
      TokenizerScan.stringEnd(base, 0, buffer.count),
      TokenizerScan.scalarEnd(base, 0, buffer.count, escaped: 0)
    )
  }
}

@Suite("String scan")
struct StringScanTests {
  /// Random strings of the pieces above, long enough to cross several 16-byte windows: the
  /// windowed scan finds the same closing quote, escape flag or failure as the byte-by-byte one.
  @Test func windowedScanAgreesWithTheScalarScanOnRandomContent() {
    var random = SplitMix64(seed: 0x5EED_0057)
    var disagreements = 0
    var ended = 0
    for _ in 0..<40_000 {
      var bytes: [UInt8] = []
      for _ in 0..<Int.random(in: 1...24, using: &random) {
        // Mostly valid pieces, so that many strings reach their closing quote.
        let piece =
          Int.random(in: 0..<16, using: &random) == 0
          ? stringPieces.randomElement(using: &random)!
          : stringPieces[Int.random(in: 0..<validPieceCount, using: &random)]
        bytes += piece
      }
      bytes += Array(#"","more":1}"#.utf8)
      let (windowed, scalar) = bothScans(bytes)
      if windowed >= 0 { ended += 1 }
      if windowed != scalar {
        disagreements += 1
        if disagreements <= 5 { Issue.record("\(bytes): \(windowed) != \(scalar)") }
      }
    }
    #expect(disagreements == 0)
    // Both outcomes are exercised often.
    #expect(ended > 4_000 && ended < 36_000, "\(ended) of 40000 strings ended")
  }

  /// Every byte after a backslash, at every offset of the first two windows: the windowed scan
  /// settles two-byte escapes itself and hands the rest (`\u`, `\\`, invalid letters, a backslash
  /// at byte 15) to the escape scanner, with the same result as the byte-by-byte scan.
  @Test func windowedScanAgreesOnEveryEscapeLetterAtEveryOffset() {
    for offset in 0..<34 {
      for letter in 0...255 {
        var bytes = [UInt8](repeating: UInt8(ascii: "a"), count: offset)
        bytes += [UInt8(ascii: "\\"), UInt8(letter)] + Array(#"00A0\"tail"#.utf8)
        bytes += Array(#"","more":"0123456789abcdef"}"#.utf8)
        let (windowed, scalar) = bothScans(bytes)
        #expect(windowed == scalar, "offset \(offset) letter \(letter)")
      }
    }
  }

  /// Every byte value at each of the twelve bytes of two `\u` escapes (of plain units, of
  /// surrogate halves, and of the units next to the surrogates), at every offset of the first
  /// two windows: the two-escape mask accepts exactly what the escape scanner accepts.
  @Test func windowedScanAgreesOnEveryByteOfTwoUnicodeEscapes() {
    let pairs = [#"\u4f60\u597D"#, #"\uD83D\uDE00"#, #"\uD7FF\uE000"#, #"\uDC00\u0041"#]
    for pair in pairs.map({ Array($0.utf8) }) {
      for offset in 0..<18 {
        for position in 0..<12 {
          for value in 0...255 {
            var bytes = [UInt8](repeating: UInt8(ascii: "a"), count: offset)
            var escapes = pair
            escapes[position] = UInt8(value)
            bytes += [UInt8(ascii: "\\")] + Array("u0041".utf8) + escapes
            bytes += Array(#"\u0042tail","more":"0123456789abcdef"}"#.utf8)
            let (windowed, scalar) = bothScans(bytes)
            #expect(windowed == scalar, "offset \(offset): \(bytes)")
          }
        }
      }
    }
  }

  /// Every lead byte with a range of second bytes, complete or cut short, at every offset of the
  /// first two windows (so sequences cross the window's end at each of their bytes).
  @Test func windowedScanAgreesOnEverySequenceAtEveryOffset() {
    let tails: [[UInt8]] = [[], [0x80], [0x80, 0x80], [0x80, 0x80, 0x80], [0x80, 0x22]]
    for offset in 0..<34 {
      for lead in 0x80...0xFF {
        for second in stride(from: 0x78, through: 0xC8, by: 0x08) {
          for tail in tails {
            var bytes = [UInt8](repeating: UInt8(ascii: "a"), count: offset)
            bytes += [UInt8(lead), UInt8(second)] + tail
            bytes += Array(#"bc","more":"0123456789abcdef"}"#.utf8)
            let (windowed, scalar) = bothScans(bytes)
            #expect(windowed == scalar, "offset \(offset): \(bytes)")
          }
        }
      }
    }
  }

  /// The C shim's four class masks, each against its definition in every lane.
  @Test func stringClassesMarkExactlyTheirBytesInEveryLane() {
    let classes: [(shift: UInt64, isMarked: (UInt8) -> Bool)] = [
      (0, { $0 == UInt8(ascii: "\"") }), (16, { $0 == UInt8(ascii: "\\") }),
      (32, { $0 < 0x20 }), (48, { $0 >= 0x80 }),
    ]
    for (shift, isMarked) in classes {
      expectMaskMarksEveryLane(
        { UInt32(truncatingIfNeeded: pt_string_classes16($0) >> shift) & 0xFFFF },
        filler: UInt8(ascii: "a"), others: laneNeighbours, past: UInt8(ascii: "\\"),
        isMarked: isMarked)
    }
  }

  /// The C shim's escape-letter mask against its definition in every lane.
  @Test func escapeLettersMarkExactlyTheTwoByteEscapesLettersInEveryLane() {
    let letters = Set(#""\/bfnrt"#.utf8)
    expectMaskMarksEveryLane(
      { pt_escape_letters16($0) }, filler: UInt8(ascii: "a"), others: laneNeighbours,
      past: UInt8(ascii: "\\"), isMarked: { letters.contains($0) })
  }
}
