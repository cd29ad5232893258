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

  /// The offsets of the newlines, one at a time.
  private func expectedEnds(_ bytes: [UInt8]) -> [Int] {
    bytes.indices.filter { bytes[$0] == 0x0A }
  }

  /// `lineEnds` over `bytes` in one call, from slot `recorded` on, into `limit` slots: the count
  /// it returns and the ends it recorded (the slots before `recorded` stay as they were).
  private func recorded(
    _ bytes: [UInt8], offset: Int, limit: Int, from start: Int = 0
  ) -> (count: Int, ends: [Int]) {
    var slots = [UInt32](repeating: 0xDEAD, count: limit)
    var recorded = start
    let count = bytes.withUnsafeBufferPointer { bytes in
      slots.withUnsafeMutableBufferPointer { slots in
        NewlineScan.lineEnds(
          bytes.baseAddress!, bytes.count, offset: offset, into: slots.baseAddress!,
          recorded: &recorded, limit: limit)
      }
    }
    #expect(slots[0..<start].allSatisfy { $0 == 0xDEAD }, "slots before `recorded` untouched")
    #expect(slots[recorded...].allSatisfy { $0 == 0xDEAD }, "no slot written past `recorded`")
    return (count, slots[start..<recorded].map { Int($0) })
  }

  @Test func lineEndsCountsLikeCountAndRecordsTheFirstEndsUpToTheLimit() {
    var generator = SystemRandomNumberGenerator()
    for length in [1, 31, 63, 64, 65, 127, 128, 129, 1000, 4099] {
      for density in [0, 1, 16, 128, 255] {
        let bytes = (0..<length).map { _ -> UInt8 in
          let isNewline = UInt8.random(in: 0...255, using: &generator) < density
          return isNewline ? 0x0A : UInt8.random(in: 0...255, using: &generator)
        }
        let ends = expectedEnds(bytes)
        // Limits below, at and around the 64 slots a whole block may need, and above the count.
        for limit in [0, 1, 5, 63, 64, 65, 70, 130, ends.count, ends.count + 64] {
          for (offset, start) in [(0, 0), (1000, 0), (7, min(3, limit))] {
            let result = recorded(bytes, offset: offset, limit: limit, from: start)
            let context = "length \(length), density \(density), limit \(limit), from \(start)"
            #expect(result.count == ends.count, "\(context)")
            #expect(result.ends == ends.prefix(limit - start).map { $0 + offset }, "\(context)")
          }
        }
      }
    }
  }
}
