import Testing

@testable import PushTranscoder

@Suite struct FNV1aTests {
  /// The published FNV-1a 64 values (the vivo `requestId` depends on them, SPEC 9).
  @Test func hashMatchesTheReferenceValues() {
    func hash(_ text: String) -> UInt64 {
      Array(text.utf8).withUnsafeBufferPointer { FNV1a.hash($0) }
    }
    #expect(hash("") == 0xcbf2_9ce4_8422_2325)
    #expect(hash("a") == 0xaf63_dc4c_8601_ec8c)
    #expect(hash("foobar") == 0x8594_4171_f739_67e8)
  }

  /// Hashing many lines side by side gives each line its own hash, whatever the mix of lengths:
  /// empty lines, lines that end together, one long line among short ones, fewer lines than
  /// lanes, and lines ending while others are still going.
  @Test func manyLinesAtOnceEqualOneByOne() {
    var generator = SystemRandomNumberGenerator()
    var shapes: [[Int]] = [
      [], [0], [5], [0, 0, 0, 0, 0], [3, 3, 3, 3], [1, 2, 3], [1000, 1, 1, 1, 1, 1, 1, 1],
      [0, 7, 0, 7, 0, 7, 0, 7, 0], [64, 63, 65, 1, 0, 200, 2, 2, 2, 2],
    ]
    for _ in 0..<50 {
      shapes.append(
        (0..<Int.random(in: 0...40, using: &generator)).map { _ in
          Int.random(in: 0...300, using: &generator)
        })
    }
    for lengths in shapes {
      let storage = lengths.map { length in
        (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
      }
      let expected = storage.map { $0.withUnsafeBufferPointer(FNV1a.hash) }
      // Copies that stay put for the call: the batch hands the lines over as buffers.
      let buffers = storage.map { bytes -> UnsafeMutableBufferPointer<UInt8> in
        let buffer = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: bytes.count)
        _ = buffer.initialize(from: bytes)
        return buffer
      }
      defer { for buffer in buffers { buffer.deallocate() } }
      let lines = buffers.map { UnsafeBufferPointer($0) }
      var hashes = [UInt64](repeating: 0, count: lines.count + 1)
      lines.withUnsafeBufferPointer { lines in
        hashes.withUnsafeMutableBufferPointer { FNV1a.hashes(lines, into: $0.baseAddress!) }
      }
      #expect(Array(hashes.prefix(lines.count)) == expected, "lengths \(lengths)")
      #expect(hashes.last == 0, "nothing written past the lines")
    }
  }
}
