import CByteScan
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
      let storage = Self.randomBytes(lengths, using: &generator)
      // Copies that stay put for the call: the batch hands the lines over as buffers.
      let buffers = Self.separateCopies(storage)
      defer { for buffer in buffers { buffer.deallocate() } }
      let hashes = Self.hashes(of: buffers.map { UnsafeBufferPointer($0) })
      #expect(
        hashes == storage.map { $0.withUnsafeBufferPointer(FNV1a.hash) }, "lengths \(lengths)")
    }
  }

  /// Random bytes, `lengths[i]` of them for line i.
  private static func randomBytes(
    _ lengths: [Int], using generator: inout some RandomNumberGenerator
  ) -> [[UInt8]] {
    lengths.map { length in (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) } }
  }

  /// Each of `storage` in an allocation of exactly its size (the caller deallocates them).
  private static func separateCopies(_ storage: [[UInt8]]) -> [UnsafeMutableBufferPointer<UInt8>] {
    storage.map { bytes in
      let buffer = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: bytes.count)
      _ = buffer.initialize(from: bytes)
      return buffer
    }
  }

  /// `FNV1a.hashes` of `lines`, checking that nothing is written past the lines' slots.
  private static func hashes(of lines: [UnsafeBufferPointer<UInt8>], wide: Bool = true) -> [UInt64]
  {
    var hashes = [UInt64](repeating: 0, count: lines.count + 1)
    lines.withUnsafeBufferPointer { lines in
      hashes.withUnsafeMutableBufferPointer {
        FNV1a.hashes(lines, into: $0.baseAddress!, wide: wide)
      }
    }
    #expect(hashes.last == 0, "nothing written past the lines")
    return Array(hashes.dropLast())
  }

  /// The C kernel reads `UnsafeBufferPointer<UInt8>` values as `pt_line`: a start pointer, then
  /// the count.
  @Test func bufferPointersAreLaidOutAsTheKernelReadsThem() {
    #expect(MemoryLayout<UnsafeBufferPointer<UInt8>>.size == MemoryLayout<pt_line>.size)
    #expect(MemoryLayout<UnsafeBufferPointer<UInt8>>.stride == MemoryLayout<pt_line>.stride)
    let bytes = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: 77)
    defer { bytes.deallocate() }
    var line = UnsafeBufferPointer(rebasing: UnsafeBufferPointer(bytes)[3..<70])
    let view = withUnsafeBytes(of: &line) { $0.load(as: pt_line.self) }
    #expect(view.start == line.baseAddress)
    #expect(view.count == 67)
  }

  /// The AVX-512 kernel and the scalar lanes that finish its lines give every line its FNV-1a
  /// hash: lengths around multiples of its 64-byte blocks, lines shorter than a block among
  /// long ones, more lines than its 32 lanes and fewer, lines in one buffer (as in a chunk) or
  /// each in an allocation of its own size (nothing read past a line's end: AddressSanitizer
  /// runs of this test would see it).
  @Test(.enabled(if: FNV1a.wideAvailable, "this CPU has no AVX-512F/BW/DQ: the kernel cannot run"))
  func theWideKernelGivesEachLineItsHash() {
    var generator = SystemRandomNumberGenerator()
    let edges = [0, 1, 63, 64, 65, 127, 128, 129, 191, 192, 640, 683, 4097]
    var shapes: [[Int]] = [
      Array(repeating: 64, count: 32), Array(repeating: 0, count: 40),
      (0..<100).map { edges[$0 % edges.count] }, (0..<33).map { $0 * 64 + 63 },
      [100_000] + Array(repeating: 70, count: 40), Array(repeating: 700, count: 31),
    ]
    for _ in 0..<40 {
      shapes.append(
        (0..<Int.random(in: 32...300, using: &generator)).map { _ in
          Bool.random(using: &generator)
            ? edges.randomElement(using: &generator)! : Int.random(in: 0...1500, using: &generator)
        })
    }
    for (index, lengths) in shapes.enumerated() {
      let storage = Self.randomBytes(lengths, using: &generator)
      let expected = storage.map { $0.withUnsafeBufferPointer(FNV1a.hash) }
      // Each line in an allocation of its own, then all in one buffer separated by newlines.
      let separate = Self.separateCopies(storage)
      defer { for buffer in separate { buffer.deallocate() } }
      let joined = Array(storage.joined(separator: [0x0A]))
      joined.withUnsafeBufferPointer { joined in
        var offset = 0
        let inOne = lengths.map { length -> UnsafeBufferPointer<UInt8> in
          defer { offset += length + 1 }
          return UnsafeBufferPointer(rebasing: joined[offset..<offset + length])
        }
        for (layout, lines) in [
          ("separate", separate.map { UnsafeBufferPointer($0) }), ("one buffer", inOne),
        ] {
          for wide in [true, false] {
            #expect(
              Self.hashes(of: lines, wide: wide) == expected,
              "shape \(index) (\(lengths.count) lines), \(layout), wide \(wide)")
          }
        }
      }
    }
  }
}
