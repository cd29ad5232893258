import Foundation
import Testing

@testable import PushTranscoder

/// The word-at-a-time and pointer-based fast paths agree with plain byte-at-a-time references,
/// including across 8-byte block boundaries.
@Suite struct FastPathTests {
  /// Random valid UTF-8 mixing ASCII (quotes, backslashes, controls included), 2-, 3- and
  /// 4-byte scalars.
  static func randomText(_ random: inout SplitMix64, length: Int) -> String {
    let pool: [Unicode.Scalar] = [
      "a", "Z", "0", " ", "\"", "\\", "/", "\n", "\t", "\u{01}", "\u{7F}", "é", "ß", "中", "文",
      "，", "\u{200D}", "\u{301}", "😀", "🇫", "\u{FE0F}",
    ]
    var scalars = String.UnicodeScalarView()
    for _ in 0..<length { scalars.append(pool[random.below(pool.count)]) }
    return String(scalars)
  }

  /// `text` as escaped JSON string content: a mix of raw bytes, short escapes and `\u` escapes
  /// (surrogate pairs for astral scalars).
  static func escapedContent(_ text: String, _ random: inout SplitMix64) -> [UInt8] {
    var out: [UInt8] = []
    for scalar in text.unicodeScalars {
      let value = scalar.value
      let mustEscape = value < 0x20 || scalar == "\"" || scalar == "\\"
      if mustEscape || random.below(4) == 0 {
        if value >= 0x10000 {
          let high = 0xD800 + ((value - 0x10000) >> 10)
          let low = 0xDC00 + ((value - 0x10000) & 0x3FF)
          out += Array(String(format: "\\u%04X\\u%04x", high, low).utf8)
        } else if scalar == "\"" && random.below(2) == 0 {
          out += Array(#"\""#.utf8)
        } else {
          out += Array(String(format: "\\u%04x", value).utf8)
        }
      } else {
        out += Array(String(scalar).utf8)
      }
    }
    return out
  }

  @Test func writerRawCopiesEveryShortLength() {
    let source = (0..<64).map { UInt8($0 + 33) }
    for length in 0...40 {
      var writer = JSONWriter(capacity: 1)
      writer.raw("<")
      source.withUnsafeBufferPointer { writer.raw(UnsafeBufferPointer(rebasing: $0[..<length])) }
      writer.raw(">")
      #expect(writer.bytes == [60] + source[..<length] + [62], "length \(length)")
    }
  }

  @Test func writerReplaceAndTruncateKeepTheRest() {
    var writer = JSONWriter(capacity: 4)
    writer.raw("{\"body\":\"hello world\",\"x\":1}")
    let body = 9..<20
    Array("hi…".utf8).withUnsafeBufferPointer { writer.replace(body, with: $0) }
    #expect(String(decoding: writer.bytes, as: UTF8.self) == "{\"body\":\"hi…\",\"x\":1}")
    let longer = Array(String(repeating: "y", count: 100).utf8)
    longer.withUnsafeBufferPointer { writer.replace(9..<14, with: $0) }
    #expect(writer.count == 9 + 100 + 8)
    writer.truncate(to: 9)
    #expect(String(decoding: writer.bytes, as: UTF8.self) == "{\"body\":\"")
  }

  @Test func aWriterKeepsItsBytesWhenItGrows() {
    var writer = JSONWriter(capacity: 8)
    writer.raw("abc")
    for _ in 0..<1000 { writer.raw("0123456789") }
    #expect(writer.count == 3 + 10_000)
    #expect(Array(writer.bytes.prefix(13)) == Array("abc0123456789".utf8))
    #expect(writer.capacity >= writer.count)
  }

  @Test func shortBytesEqualsMatchesMemcmp() {
    var random = SplitMix64(seed: 42)
    for length in 0...40 {
      let a = (0..<length).map { _ in UInt8(random.below(3)) }
      for position in -1..<length {
        var b = a
        if position >= 0 { b[position] &+= 1 }
        let fast = a.withUnsafeBufferPointer { x in
          b.withUnsafeBufferPointer { y in
            ShortBytes.equal(
              x.baseAddress ?? UnsafePointer(bitPattern: 1)!,
              y.baseAddress ?? UnsafePointer(bitPattern: 1)!, length)
          }
        }
        #expect(fast == (a == b), "length \(length), differing at \(position)")
      }
    }
  }

  @Test func memberTableFindsTheLastDuplicateAndEscapedKeys() throws {
    let table = MemberTable(["MsgBody", "MsgKey", "MsgId", "To_Account", "A", ""])
    let line = Array(
      #"{"MsgKey":"1","Ms\u0067Body":[1],"MsgKey":"2","To_Account":"x","B":0,"":true,"MsgIdX":3}"#
        .utf8)
    var tokenizer = JSONTokenizer()
    try line.withUnsafeBufferPointer { buffer in
      #expect(tokenizer.parse(buffer) == nil)
      try tokenizer.withDocument(buffer) { document in
        let slots = document.collectMembers(document.root, table)
        let body = try #require(slots[0])
        #expect(document.kind(body) == .array)
        let key = try #require(slots[1])
        #expect(document.string(key).decodedString() == "2")
        #expect(slots[2] == nil)
        #expect(slots[3].map { document.string($0).decodedString() } == "x")
        #expect(slots[4] == nil)
        #expect(slots[5].map { document.kind($0) } == .true)
        // Not an object: nothing found.
        #expect(document.collectMembers(body, table)[0] == nil)
      }
    }
  }

  /// A full table: every name is found at its slot, and no key that differs from a name in one
  /// byte, or is one byte longer or shorter, is found (names of 0 to 40 bytes, some alike but
  /// for one byte at an end or in the middle, which a hash of the ends alone cannot tell apart).
  @Test func memberTableFindsEveryNameAndNoNearMiss() {
    let names: [StaticString] = [
      "", "a", "b", "ab", "ba", "abc", "acb", "Text", "Desc", "Sound", "MsgType",
      "MsgContent", "To_Account", "OfflinePushInfo", "ApnsInfo_Sound_", "AndroidInfo_XiaoMi",
      "AndroidInfo_XiaoMx", "AndroidInfo_HuaWei", "AndroidInfo_HuaWeX",
      "0123456789abcdef0123456789abcdef", "0123456789abcdef0123456789Abcdef",
      "0123456789abcdefX0123456789abcdef", "0123456789abcdef0123456789abcdef01234567",
      "0123456789abcdef0123456789abcdeF01234567",
    ]
    let table = MemberTable(names)
    let strings = names.map { $0.description }
    func lookup(_ bytes: [UInt8]) -> Int? {
      // A copy of its own, so that no lookup can read past the key's last byte unnoticed by
      // the address sanitizer.
      let key = UnsafeMutablePointer<UInt8>.allocate(capacity: max(bytes.count, 1))
      defer { key.deallocate() }
      key.initialize(from: bytes, count: bytes.count)
      return table.slot(of: UnsafePointer(key), count: bytes.count)
    }
    for (slot, name) in strings.enumerated() {
      let bytes = Array(name.utf8)
      #expect(lookup(bytes) == slot, "\(name)")
      var near: [[UInt8]] = [bytes + [0x41], Array(bytes.dropLast()), Array(bytes.dropFirst())]
      for position in bytes.indices {
        var changed = bytes
        changed[position] ^= 0x01
        near.append(changed)
      }
      for key in near where !strings.contains(String(decoding: key, as: UTF8.self)) {
        #expect(lookup(key) == nil, "\(name) → \(String(decoding: key, as: UTF8.self))")
      }
    }
  }

  @Test func needsEscapeMatchesTheByteRule() {
    var random = SplitMix64(seed: 7)
    let interesting: [UInt8] = [
      0x00, 0x1F, 0x20, 0x21, 0x22, 0x23, 0x5B, 0x5C, 0x5D, 0x7F, 0x80, 0xBF, 0xC0, 0xFF,
    ]
    for _ in 0..<20_000 {
      var bytes = [UInt8](repeating: 0, count: 8)
      for index in 0..<8 {
        bytes[index] =
          random.below(2) == 0
          ? interesting[random.below(interesting.count)] : UInt8(random.below(256))
      }
      let word = bytes.withUnsafeBytes { $0.loadUnaligned(as: UInt64.self) }
      let expected = bytes.contains { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C }
      #expect(JSONEscapes.needsEscape(word) == expected, "\(bytes)")
      let plain = bytes.allSatisfy { $0 >= 0x20 && $0 < 0x7F && $0 != 0x22 && $0 != 0x5C }
      #expect(TextCut.isPlainASCII(word) == plain, "\(bytes)")
    }
  }

  @Test func escapingDecodingAndCountingAgreeWithReferences() {
    var random = SplitMix64(seed: 0x5EED)
    for round in 0..<400 {
      let text = Self.randomText(&random, length: random.below(60))
      let content = Self.escapedContent(text, &random)
      let scalars = Array(text.unicodeScalars)
      content.withUnsafeBufferPointer { buffer in
        // Decoding, whole and bounded.
        var decoded: [UInt8] = []
        JSONEscapes.decode(buffer, into: &decoded)
        #expect(decoded == Array(text.utf8), "round \(round)")
        #expect(JSONEscapes.decodedLength(buffer) == decoded.count)
        for limit in [0, 1, 7, 8, 9, 15, 16, 17, scalars.count - 1, scalars.count] where limit >= 0
        {
          var bounded: [UInt8] = []
          JSONEscapes.decode(buffer, into: &bounded, maxScalars: limit)
          var prefix = String.UnicodeScalarView()
          prefix.append(contentsOf: scalars.prefix(limit))
          #expect(bounded == Array(String(prefix).utf8), "round \(round), limit \(limit)")
          decoded.withUnsafeBufferPointer {
            #expect(TextCut.scalarPrefixEnd($0, scalars: limit) == String(prefix).utf8.count)
          }
        }
        // Counting scalars of escaped and of plain content.
        let slice = StringSlice(pointer: buffer.baseAddress!, count: buffer.count, hasEscapes: true)
        #expect(ScalarCount.of(slice) == scalars.count, "round \(round)")
        decoded.withUnsafeBufferPointer { #expect(ScalarCount.ofUTF8($0) == scalars.count) }
        // Escaping into a writer (word path) equals the generic byte path.
        var viaWriter = JSONWriter(capacity: 1)
        var viaArray: [UInt8] = []
        decoded.withUnsafeBufferPointer {
          JSONEscapes.appendEscaped($0, to: &viaWriter)
          JSONEscapes.appendEscaped($0, to: &viaArray)
        }
        #expect(viaWriter.bytes == viaArray)
      }
    }
  }

  /// Long texts whose escapes are a few bytes to a few dozen apart, so that the decoder's
  /// 16-byte blocks stop at a backslash in every lane, with multi-byte scalars before it, and a
  /// scalar bound falls inside a block.
  @Test func decodingLongTextsStopsAtEachEscapeAndBound() {
    var random = SplitMix64(seed: 0xB10C)
    let plain: [Unicode.Scalar] = ["a", "Z", " ", "é", "中", "😀"]
    var blocksCut = 0
    for round in 0..<600 {
      var text = String.UnicodeScalarView()
      let gap = 1 + random.below(40)
      for _ in 0..<random.below(120) {
        let escaped: Unicode.Scalar = random.below(2) == 0 ? "\n" : "文"
        text.append(random.below(gap) == 0 ? escaped : plain[random.below(plain.count)])
      }
      // Escapes: a newline as `\n`, 文 as `\u6587`, everything else as it is.
      var content: [UInt8] = []
      for scalar in text {
        switch scalar {
        case "\n": content += Array(#"\n"#.utf8)
        case "文": content += Array(#"\u6587"#.utf8)
        default: content += Array(String(scalar).utf8)
        }
      }
      let scalars = Array(text)
      content.withUnsafeBufferPointer { buffer in
        for limit in 0...scalars.count {
          var bounded: [UInt8] = []
          JSONEscapes.decode(buffer, into: &bounded, maxScalars: limit)
          var prefix = String.UnicodeScalarView()
          prefix.append(contentsOf: scalars.prefix(limit))
          #expect(bounded == Array(String(prefix).utf8), "round \(round), limit \(limit)")
          if limit % 16 != 0 && limit < scalars.count { blocksCut += 1 }
        }
      }
    }
    #expect(blocksCut > 10_000, "the bounds must fall inside blocks")
  }

  @Test func hexDigitsInEitherCase() {
    for (text, value) in [
      ("00e9", 0xE9), ("00E9", 0xE9), ("ABCD", 0xABCD), ("abcd", 0xABCD), ("9f0A", 0x9F0A),
    ] {
      Array(text.utf8).withUnsafeBufferPointer {
        #expect(JSONEscapes.hex4($0, 0) == UInt32(value))
      }
    }
  }

  @Test func lineHashesInBulkEqualOneAtATime() {
    var random = SplitMix64(seed: 99)
    for count in [0, 1, 3, 4, 5, 9, 40] {
      // All lines in one buffer; line `i` is `flat[bounds[i]]`.
      var flat: [UInt8] = []
      var bounds: [Range<Int>] = []
      for index in 0..<count {
        let length = index % 7 == 0 ? 0 : random.below(300)
        bounds.append(flat.count..<flat.count + length)
        for _ in 0..<length { flat.append(UInt8(random.below(256))) }
      }
      flat.withUnsafeBufferPointer { bytes in
        let lines = bounds.map { UnsafeBufferPointer(rebasing: bytes[$0]) }
        var hashes = [UInt64](repeating: 0, count: count)
        lines.withUnsafeBufferPointer { all in
          hashes.withUnsafeMutableBufferPointer { FNV1a.hashes(all, into: $0.baseAddress!) }
        }
        for index in 0..<count {
          #expect(hashes[index] == FNV1a.hash(lines[index]), "\(count) lines, line \(index)")
        }
      }
    }
  }

  /// A full pool used to refuse every new buffer: once filled with sizes nobody asked for any
  /// more (concurrent tests, or a run's odd sizes) it never recycled again, and
  /// `pageAlignedBuffersAreRecycled` failed now and then. It now drops its oldest buffer.
  @Test func highBitCountsAgreeWithNonzeroBitCount() {
    var random = SplitMix64(seed: 5)
    for _ in 0..<10_000 {
      let mask = random.next() & 0x8080_8080_8080_8080
      #expect(SWAR.countHighBits(mask) == mask.nonzeroBitCount)
    }
    #expect(SWAR.countHighBits(0) == 0)
    #expect(SWAR.countHighBits(0x8080_8080_8080_8080) == 8)
  }

  @Test func aFullPoolKeepsTheNewestAndHandsBackTheOldest() {
    let pool = BufferPool<Int>(limit: 2)
    #expect(pool.put(1) == nil)
    #expect(pool.put(2) == nil)
    #expect(pool.put(3) == 1)
    #expect(pool.take(where: { $0 == 1 }) == nil)
    #expect(pool.take(where: { $0 == 3 }) == 3)
    #expect(pool.take() == 2)
    #expect(pool.take() == nil)
  }

  @Test func pageAlignedBuffersAreRecycled() {
    let size = 3 * PageAlignedMemory.pageSize + 12_345
    let first = PageAlignedMemory.allocate(size)
    #expect(Int(bitPattern: first) % PageAlignedMemory.pageSize == 0)
    PageAlignedMemory.release(first, bytes: size)
    let second = PageAlignedMemory.allocate(size)
    #expect(second == first)
    PageAlignedMemory.release(second, bytes: size)
  }
}

extension SplitMix64 {
  /// A value in `0..<bound`.
  mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }
}
