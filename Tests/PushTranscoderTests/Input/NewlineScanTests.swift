import Testing

@testable import PushTranscoder

@Suite struct NewlineScanTests {
  /// The line ends the scan must give: one `\n` at a time.
  private func expected(_ bytes: [UInt8], base: Int) -> [Int] {
    bytes.indices.filter { bytes[$0] == 0x0A }.map { base + $0 }
  }

  private func scanned(_ bytes: [UInt8], base: Int) -> [Int] {
    var ends = [-1]
    bytes.withUnsafeBufferPointer {
      guard let start = $0.baseAddress else { return }
      NewlineScan.appendEnds(start, $0.count, base: base, to: &ends)
    }
    // What was there before stays first.
    #expect(ends.first == -1)
    return Array(ends.dropFirst())
  }

  @Test func findsEveryNewlineWhateverTheLengthAndAlignment() {
    var generator = SystemRandomNumberGenerator()
    // Lengths around the 64-byte step and well past it; every byte value, with newlines at a
    // few densities.
    for length in [0, 1, 31, 63, 64, 65, 127, 128, 16_319, 16_320, 16_321, 32_700, 40_001] {
      for density in [0, 1, 16, 255] {
        let bytes = (0..<length).map { _ -> UInt8 in
          let isNewline = UInt8.random(in: 0...255, using: &generator) < density
          return isNewline ? 0x0A : UInt8.random(in: 0...255, using: &generator)
        }
        #expect(
          scanned(bytes, base: 5) == expected(bytes, base: 5),
          "length \(length), density \(density)")
        // Unaligned starts.
        for offset in 1..<4 where offset < bytes.count {
          let tail = Array(bytes[offset...])
          #expect(
            scanned(tail, base: 0) == expected(tail, base: 0), "length \(length), offset \(offset)")
        }
      }
    }
  }

  /// Every byte a newline: each 64-byte mask is all ones, and every bit becomes an end.
  @Test func allNewlinesAreEveryEnd() {
    for length in [64, 64 * 255 + 17] {
      let bytes = [UInt8](repeating: 0x0A, count: length)
      #expect(scanned(bytes, base: 3) == Array(3..<(length + 3)))
    }
  }
}
