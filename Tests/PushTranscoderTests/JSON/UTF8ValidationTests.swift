import Testing

@testable import PushTranscoder

@Suite("UTF8Validation")
struct UTF8ValidationTests {
  func firstInvalid(_ bytes: [UInt8]) -> Int? {
    bytes.withUnsafeBufferPointer { UTF8Validation.firstInvalidOffset($0) }
  }

  func replaced(_ bytes: [UInt8]) -> (bytes: [UInt8], count: Int) {
    var output: [UInt8] = []
    let count = bytes.withUnsafeBufferPointer { UTF8Validation.replacingInvalid($0, into: &output) }
    return (output, count)
  }

  @Test func validTextOfEveryLength() {
    #expect(firstInvalid([]) == nil)
    let text = Array("aé中😀".utf8)
    for length in 0..<100 {
      let bytes = Array((0..<length).map { _ in text }.joined())
      #expect(firstInvalid(bytes) == nil)
    }
  }

  @Test func agreesWithTheStandardLibraryOnEveryTwoByteSequence() {
    for first in 0...255 {
      for second in 0...255 {
        let bytes: [UInt8] = [UInt8(first), UInt8(second), 0x41]
        let expected = String(validating: bytes, as: UTF8.self) != nil
        #expect((firstInvalid(bytes) == nil) == expected)
      }
    }
  }

  @Test func replacesEachMaximalSubpartWithOneReplacementCharacter() {
    let fffd: [UInt8] = [0xEF, 0xBF, 0xBD]
    // Unicode's recommended practice (Table 3-8 examples).
    #expect(replaced([0xE1, 0x80, 0x41]) == (fffd + [0x41], 1))
    #expect(replaced([0xF0, 0x80, 0x80]) == (fffd + fffd + fffd, 3))
    #expect(replaced([0xED, 0xA0, 0x80]) == (fffd + fffd + fffd, 3))
    #expect(replaced([0xC0, 0xAF]) == (fffd + fffd, 2))
    #expect(replaced([0xF4, 0x90, 0x80, 0x80]) == (fffd + fffd + fffd + fffd, 4))
    #expect(replaced([0x61, 0xF1, 0x80, 0x80]) == ([0x61] + fffd, 1))
    #expect(replaced([0xE4, 0xB8]) == (fffd, 1))
    #expect(replaced(Array("ok é".utf8)) == (Array("ok é".utf8), 0))
  }

  @Test func replacementOutsideAStringIsStillASyntaxFault() {
    let repaired = replaced(Array("[".utf8) + [0xFF] + Array("]".utf8))
    #expect(repaired.count == 1)
    let error = tokenize(repaired.bytes, replaceLoneSurrogates: true)
    #expect(error?.fault == .syntax)
    #expect(error?.offset == 1)
    let inString = replaced(Array(#"[""#.utf8) + [0xFF] + Array(#""]"#.utf8))
    #expect(tokenize(inString.bytes) == nil)
  }
}
