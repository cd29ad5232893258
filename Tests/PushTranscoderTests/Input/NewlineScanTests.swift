import Testing

@testable import PushTranscoder

@Suite struct NewlineScanTests {
  /// The count the scan must give: one `\n` at a time.
  private func expected(_ bytes: [UInt8]) -> Int { bytes.reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) } }

  private func scanned(_ bytes: [UInt8]) -> Int {
    bytes.withUnsafeBytes { NewlineScan.count($0.baseAddress!, $0.count) }
  }

  @Test func countsEveryNewlineWhateverTheLengthAndAlignment() {
    var generator = SystemRandomNumberGenerator()
    // Lengths around the 64-byte step and the 255-step block (16,320 bytes), and past two
    // blocks; every byte value, with newlines at a few densities.
    for length in [0, 1, 31, 63, 64, 65, 127, 128, 16_319, 16_320, 16_321, 32_700, 40_001] {
      for density in [0, 1, 16, 255] {
        let bytes = (0..<length).map { _ -> UInt8 in
          let isNewline = UInt8.random(in: 0...255, using: &generator) < density
          return isNewline ? 0x0A : UInt8.random(in: 0...255, using: &generator)
        }
        #expect(scanned(bytes) == expected(bytes), "length \(length), density \(density)")
        // Unaligned starts.
        for offset in 1..<4 where offset < bytes.count {
          let tail = Array(bytes[offset...])
          #expect(scanned(tail) == expected(tail), "length \(length), offset \(offset)")
        }
      }
    }
  }

  /// Every byte a newline: each lane of the accumulators reaches 255 within a block; a block of
  /// 256 steps would wrap a lane and lose 256 newlines.
  @Test func allNewlinesDoNotWrapTheLaneCounters() {
    for length in [64 * 255, 64 * 256, 64 * 255 * 3 + 17] {
      let bytes = [UInt8](repeating: 0x0A, count: length)
      #expect(scanned(bytes) == length)
    }
  }
}
