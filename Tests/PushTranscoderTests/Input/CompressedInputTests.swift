import CLZ4
import Foundation
import Glibc
import Testing

@testable import PushTranscoder

@Suite struct CompressedInputTests {
  let lines = sampleLines(4000, seed: 3)
  var text: String { lines.joined(separator: "\n") + "\n" }

  @Test func gzipFileDecodesByMagicNotName() throws {
    let dir = TemporaryDirectory()
    let path = dir.write("plain.txt", GzipFileCompressor.compress(Array(text.utf8)))
    let seen = collect(ChunkReader(paths: [path], chunkBytes: 64 << 10))
    #expect(seen.error == nil)
    #expect(seen.texts == lines)
  }

  @Test func gzipFromTheCommandLineToolDecodes() throws {
    let dir = TemporaryDirectory()
    let plain = dir.write("a.ndjson", text)
    #expect(try run("gzip", ["-k", "-9", plain]) == 0)
    #expect(collect(ChunkReader(paths: [plain + ".gz"])).texts == lines)
  }

  @Test func multiMemberGzipIsOneStream() throws {
    let dir = TemporaryDirectory()
    let first = GzipFileCompressor.compress(Array("a1\na2\n".utf8))
    let second = GzipFileCompressor.compress(Array("b1\nb2".utf8), level: 1)
    let third = GzipFileCompressor.compress(Array("\nc1\n".utf8))
    let path = dir.write("cat.gz", first + second + third)
    let seen = collect(ChunkReader(paths: [path]))
    #expect(seen.error == nil)
    #expect(seen.texts == ["a1", "a2", "b1", "b2", "c1"])
    #expect(seen.lines.last == .line(source: path, number: 5, bytes: Array("c1".utf8)))
  }

  @Test func lz4FramesDecodeIncludingConcatenatedAndSkippable() throws {
    let dir = TemporaryDirectory()
    let frame1 = LZ4FrameCompressor.compress(Array(text.utf8))
    let frame2 = LZ4FrameCompressor.compress(Array("tail1\ntail2\n".utf8), level: 9)
    // A skippable frame: magic 0x184D2A50 little-endian, 4-byte size, payload.
    let skippable: [UInt8] = [0x50, 0x2A, 0x4D, 0x18, 3, 0, 0, 0, 1, 2, 3]
    let path = dir.write("x.bin", frame1 + skippable + frame2)
    let seen = collect(ChunkReader(paths: [path], chunkBytes: 64 << 10))
    #expect(seen.error == nil)
    #expect(seen.texts == lines + ["tail1", "tail2"])
    let leading = dir.write("skip-first.bin", skippable + frame2)
    #expect(collect(ChunkReader(paths: [leading])).texts == ["tail1", "tail2"])
  }

  @Test func lz4FromTheCommandLineToolDecodes() throws {
    let dir = TemporaryDirectory()
    let plain = dir.write("a.ndjson", text)
    #expect(try run("lz4", ["-q", "-f", plain, plain + ".lz4"]) == 0)
    #expect(collect(ChunkReader(paths: [plain + ".lz4"])).texts == lines)
  }

  @Test(arguments: ["gzip", "lz4", "plain"])
  func compressedStandardInputIsDetectedFromItsFirstBytes(format: String) throws {
    let raw = Array(text.utf8)
    let bytes =
      switch format {
      case "gzip": GzipFileCompressor.compress(raw)
      case "lz4": LZ4FrameCompressor.compress(raw)
      default: raw
      }
    var fds: [Int32] = [0, 0]
    #expect(pipe(&fds) == 0)
    let writeEnd = fds[1]
    let writer = Thread {
      bytes.withUnsafeBytes { buffer in
        var offset = 0
        while offset < buffer.count {
          // Odd-sized writes so the reader sees short reads.
          let n = write(writeEnd, buffer.baseAddress! + offset, min(7001, buffer.count - offset))
          if n <= 0 { break }
          offset += n
        }
      }
      close(writeEnd)
    }
    writer.start()
    let reader = ChunkReader(inputs: [.descriptor(fds[0], name: "-")], chunkBytes: 64 << 10)
    let seen = collect(reader)
    close(fds[0])
    #expect(seen.error == nil)
    #expect(seen.texts == lines)
    #expect(seen.chunks.allSatisfy { $0.source == "-" })
    #expect(reader.progress.totalBytes == nil)
  }

  /// Checks a truncated stream: complete lines before the cut are delivered, the partial last
  /// line is not, and the error names the file and the counts.
  private func checkTruncated(_ compressed: [UInt8], format: InputFormat, keep: Int) throws {
    let dir = TemporaryDirectory()
    let path = dir.write("cut", Array(compressed.prefix(keep)))
    let seen = collect(ChunkReader(paths: [path], chunkBytes: 64 << 10))
    let error = try #require(seen.error)
    #expect(error.reason == .truncated)
    #expect(error.source == path && error.format == format)
    #expect(error.completeLines == seen.lines.count)
    #expect(error.compressedBytes <= UInt64(keep))
    #expect(seen.lines.count <= lines.count)
    #expect(seen.texts == Array(lines.prefix(seen.lines.count)))
    let delivered = seen.texts.reduce(0) { $0 + $1.utf8.count + 1 }
    #expect(error.uncompressedBytes >= UInt64(delivered))
    #expect(error.description.contains(path))
  }

  @Test func truncatedGzipDeliversCompleteLinesThenFails() throws {
    let compressed = GzipFileCompressor.compress(Array(text.utf8))
    try checkTruncated(compressed, format: .gzip, keep: compressed.count / 2)
    try checkTruncated(compressed, format: .gzip, keep: compressed.count - 4)
    try checkTruncated(compressed, format: .gzip, keep: 2)
  }

  @Test func truncatedLZ4DeliversCompleteLinesThenFails() throws {
    let compressed = LZ4FrameCompressor.compress(Array(text.utf8))
    try checkTruncated(compressed, format: .lz4, keep: compressed.count / 2)
    try checkTruncated(compressed, format: .lz4, keep: compressed.count - 2)
    try checkTruncated(compressed, format: .lz4, keep: 6)
  }

  @Test func truncatedStreamDropsTheFinalPartialLine() throws {
    // Everything decodes except the gzip trailer: the last line has no `\n` and is dropped.
    let dir = TemporaryDirectory()
    let compressed = GzipFileCompressor.compress(Array("one\ntwo\nthr".utf8))
    let path = dir.write("cut.gz", Array(compressed.dropLast(8)))
    let seen = collect(ChunkReader(paths: [path]))
    #expect(seen.texts == ["one", "two"])
    #expect(seen.error?.reason == .truncated && seen.error?.completeLines == 2)
    #expect(seen.error?.uncompressedBytes == 11)
  }

  @Test func truncatedStreamInsideAnOverlongLineDeliversNothingOfIt() throws {
    let dir = TemporaryDirectory()
    let raw = Array(("ok\n" + String(repeating: "w", count: 500_000) + "\nnext\n").utf8)
    let compressed = LZ4FrameCompressor.compress(raw)
    let path = dir.write("cut.lz4", Array(compressed.prefix(compressed.count - 30)))
    let seen = collect(ChunkReader(paths: [path], chunkBytes: 64 << 10, maxLineBytes: 1000))
    #expect(seen.error?.reason == .truncated)
    #expect(seen.texts == ["ok"] && seen.overlong.isEmpty)
    #expect(seen.error?.completeLines == 1)
  }

  @Test func corruptGzipIsAFatalError() throws {
    let dir = TemporaryDirectory()
    var compressed = GzipFileCompressor.compress(Array(text.utf8))
    for index in stride(from: compressed.count / 2, to: compressed.count / 2 + 64, by: 1) {
      compressed[index] ^= 0x5A
    }
    let path = dir.write("bad.gz", compressed)
    let seen = collect(ChunkReader(paths: [path]))
    #expect(seen.error?.reason == .corrupt)
    #expect(seen.error?.source == path)
    // A bad CRC in the trailer is corrupt too.
    var trailer = GzipFileCompressor.compress(Array("a\nb\n".utf8))
    trailer[trailer.count - 8] ^= 1
    let crcPath = dir.write("crc.gz", trailer)
    let crc = collect(ChunkReader(paths: [crcPath]))
    #expect(crc.error?.reason == .corrupt)
    #expect(crc.texts == ["a", "b"])
  }

  @Test func corruptLZ4IsAFatalError() throws {
    let dir = TemporaryDirectory()
    var compressed = LZ4FrameCompressor.compress(Array(text.utf8))
    compressed[compressed.count - 1] ^= 0xFF  // content checksum
    let path = dir.write("bad.lz4", compressed)
    let seen = collect(ChunkReader(paths: [path]))
    #expect(seen.error?.reason == .corrupt && seen.error?.format == .lz4)
  }

  /// liblz4 reports a bad content checksum without saying what it wrote in that call: a read
  /// that decoded blocks and then met the checksum lost them, more of them the larger the read
  /// (`--chunk-bytes`). Every line before the checksum is delivered, whatever the chunk size,
  /// as `lz4 -d` delivers them.
  @Test(arguments: [64 << 10, 1 << 20, 4 << 20])
  func aBadContentChecksumDeliversEveryDecodedLine(chunkBytes: Int) throws {
    let dir = TemporaryDirectory()
    let lines = sampleLines(8000, seed: 5)
    var compressed = LZ4FrameCompressor.compress(Array((lines.joined(separator: "\n") + "\n").utf8))
    compressed[compressed.count - 1] ^= 0xFF  // content checksum
    let path = dir.write("bad.lz4", compressed)
    let seen = collect(ChunkReader(paths: [path], chunkBytes: chunkBytes))
    #expect(seen.error?.reason == .corrupt)
    #expect(seen.texts == lines)
  }

  /// A frame whose header declares a content size the blocks do not add up to fails at its
  /// end (`ERROR_frameSize_wrong`). liblz4 hands out a block larger than the room given in
  /// pieces; the call that handed out the last piece also checked the frame's end and failed,
  /// losing that piece, so the lines delivered depended on `--chunk-bytes` and `--threads`
  /// (SPEC 7). Every line is delivered, whatever the chunk size, then the error; with block
  /// checksums too, for which liblz4's hint counts a block's checksum twice.
  @Test(arguments: [64 << 10, 1 << 20, 4 << 20], [false, true])
  func aWrongContentSizeDeliversEveryDecodedLine(chunkBytes: Int, blockChecksums: Bool) throws {
    let dir = TemporaryDirectory()
    let lines = sampleLines(20000, seed: 9)
    let content = Array((lines.joined(separator: "\n") + "\n").utf8)
    let path = dir.write(
      "size.lz4",
      Self.lz4FrameDeclaring(content.count + 1, content, blockChecksums: blockChecksums))
    let seen = collect(ChunkReader(paths: [path], chunkBytes: chunkBytes))
    #expect(seen.error?.reason == .corrupt)
    #expect(seen.error?.description.contains("frameSize_wrong") == true)
    let everyLine = seen.texts == lines
    #expect(everyLine, "\(seen.texts.count) of \(lines.count) lines")
  }

  /// One LZ4 frame of `content` in 4 MiB blocks whose header declares `declared` bytes.
  static func lz4FrameDeclaring(_ declared: Int, _ content: [UInt8], blockChecksums: Bool)
    -> [UInt8]
  {
    var preferences = LZ4F_preferences_t()
    preferences.frameInfo.blockSizeID = LZ4F_max4MB
    if blockChecksums { preferences.frameInfo.blockChecksumFlag = LZ4F_blockChecksumEnabled }
    // Any non-zero size asks for the field; liblz4 writes the content's true size.
    preferences.frameInfo.contentSize = 1
    let bound = LZ4F_compressFrameBound(content.count, &preferences)
    var frame = [UInt8](repeating: 0, count: bound)
    let written = frame.withUnsafeMutableBytes { target in
      content.withUnsafeBytes { source in
        LZ4F_compressFrame(
          target.baseAddress, bound, source.baseAddress, source.count, &preferences)
      }
    }
    precondition(LZ4F_isError(written) == 0)
    frame.removeSubrange(written...)
    // Magic (4), FLG, BD, the content size (8, little-endian), then the header checksum: the
    // second byte of the descriptor's XXH32.
    for index in 0..<8 { frame[6 + index] = UInt8(truncatingIfNeeded: declared >> (8 * index)) }
    frame[14] = UInt8(truncatingIfNeeded: xxh32(Array(frame[4..<14])) >> 8)
    return frame
  }

  /// XXH32 with seed 0 of an input shorter than 16 bytes (a frame descriptor).
  static func xxh32(_ bytes: [UInt8]) -> UInt32 {
    let prime1: UInt32 = 2_654_435_761
    let prime2: UInt32 = 2_246_822_519
    let prime3: UInt32 = 3_266_489_917
    let prime4: UInt32 = 668_265_263
    let prime5: UInt32 = 374_761_393
    func rotate(_ value: UInt32, _ by: UInt32) -> UInt32 { value << by | value >> (32 - by) }
    var hash = prime5 &+ UInt32(bytes.count)
    var index = 0
    while index + 4 <= bytes.count {
      let word =
        UInt32(bytes[index]) | UInt32(bytes[index + 1]) << 8 | UInt32(bytes[index + 2]) << 16
        | UInt32(bytes[index + 3]) << 24
      hash = rotate(hash &+ word &* prime3, 17) &* prime4
      index += 4
    }
    while index < bytes.count {
      hash = rotate(hash &+ UInt32(bytes[index]) &* prime5, 11) &* prime1
      index += 1
    }
    hash ^= hash >> 15
    hash = hash &* prime2
    hash ^= hash >> 13
    hash = hash &* prime3
    hash ^= hash >> 16
    return hash
  }

  @Test func garbageAfterAGzipMemberIsCorrupt() throws {
    let dir = TemporaryDirectory()
    let path = dir.write("junk.gz", GzipFileCompressor.compress(Array("a\n".utf8)) + [1, 2, 3])
    let seen = collect(ChunkReader(paths: [path]))
    #expect(seen.texts == ["a"])
    #expect(seen.error?.reason == .corrupt)
  }

  /// A gzip member or LZ4 frame that fails before writing anything is a fault at its first
  /// byte: the error counts the compressed bytes before it (SPEC 2.1, "how many bytes ... were
  /// processed before it"), not the few of its own the decoder read to tell (zlib two header
  /// bytes, liblz4 up to seven), whatever the reads.
  @Test func aCorruptMemberOrFrameIsReportedAtItsFirstByte() throws {
    let dir = TemporaryDirectory()
    let member = GzipFileCompressor.compress(Array("a\nb\n".utf8))
    let frame = LZ4FrameCompressor.compress(Array("a\nb\n".utf8))
    // A frame whose header is damaged after its magic number (reserved FLG bits set).
    var badHeader = frame
    badHeader[4] |= 0x03
    let one = ["a", "b"]
    let cases: [(name: String, bytes: [UInt8], faultAt: Int, lines: [String])] = [
      ("z.gz", member + Array("Z".utf8), member.count, one),
      ("nul.gz", member + [0x1F, 0x00], member.count, one),
      (
        "method.gz", member + member + [0x1F, 0x8B, 0x09, 0, 0, 0, 0, 0, 0, 0], 2 * member.count,
        one + one
      ),
      ("first.gz", [0x1F, 0x8B, 0x09, 0, 0, 0, 0, 0, 0, 0], 0, []),
      ("zz.lz4", frame + Array("ZZ".utf8), frame.count, one),
      ("z8.lz4", frame + Array("ZZZZZZZZ".utf8), frame.count, one),
      ("nul.lz4", frame + [0x00], frame.count, one),
      ("header.lz4", frame + badHeader, frame.count, one),
    ]
    for (name, bytes, faultAt, lines) in cases {
      let path = dir.write(name, bytes)
      for chunkBytes in [64 << 10, 1 << 20] {
        let seen = collect(ChunkReader(paths: [path], chunkBytes: chunkBytes))
        let error = try #require(seen.error, "\(name)")
        #expect(error.reason == .corrupt, "\(name): \(error)")
        #expect(error.compressedBytes == UInt64(faultAt), "\(name): \(error)")
        #expect(seen.texts == lines, "\(name)")
      }
    }
  }

  /// Zero padding after the last member (tape blocks; GNU gzip ignores it) ended the run with
  /// "unknown compression method" after every line was read.
  @Test func zeroPaddingAfterTheLastMemberIsIgnored() throws {
    let dir = TemporaryDirectory()
    let member = GzipFileCompressor.compress(Array("a\nb\n".utf8))
    let padded = collect(
      ChunkReader(paths: [dir.write("pad.gz", member + member + [UInt8](repeating: 0, count: 700))])
    )
    #expect(padded.error == nil)
    #expect(padded.texts == ["a", "b", "a", "b"])
    // Anything but zeros after the padding is still corrupt.
    let junk = collect(ChunkReader(paths: [dir.write("junk.gz", member + [0, 0, 7])]))
    #expect(junk.texts == ["a", "b"])
    #expect(junk.error?.reason == .corrupt)
  }

  /// The decoder checks each member against its trailer, the last bytes inflate consumed,
  /// which the compressed reads can split anywhere: at every read size from 1 to 16 bytes, a
  /// gzip member, a zlib stream and a second gzip member decode whole, and a flipped CRC-32,
  /// length or Adler-32 is `corrupt` after the lines before it.
  @Test func memberChecksHoldWhereverTheReadsSplitTheTrailer() throws {
    let dir = TemporaryDirectory()
    let first = Array("a1\na2\n".utf8)
    let middle = Array("z1\n".utf8)
    let last = Array((lines.prefix(50).joined(separator: "\n") + "\n").utf8)
    let whole = first + middle + last
    let gzipFirst = GzipFileCompressor.compress(first)
    let gzipMiddle = GzipFileCompressor.compress(middle, level: 9)
    let gzipLast = GzipFileCompressor.compress(last, level: 1)
    let good = gzipFirst + gzipMiddle + gzipLast
    var badCRC = good
    badCRC[gzipFirst.count - 8] ^= 1
    var badLength = good
    badLength[badLength.count - 1] ^= 1
    var badMiddle = good
    badMiddle[gzipFirst.count + gzipMiddle.count - 8] ^= 1
    let paths = [
      dir.write("good.gz", good), dir.write("crc.gz", badCRC), dir.write("length.gz", badLength),
      dir.write("middle.gz", badMiddle),
    ]
    for capacity in 1...16 {
      let decoded = try Self.decode(paths[0], inputCapacity: capacity)
      #expect(decoded.failure == nil, "read size \(capacity)")
      // Compared as one Bool: a failing `==` of two arrays would print every byte of both.
      let decodedWhole = decoded.bytes == whole
      #expect(decodedWhole, "read size \(capacity)")
      let crc = try Self.decode(paths[1], inputCapacity: capacity)
      #expect(crc.bytes == first && crc.failure?.detail == "incorrect data check")
      let length = try Self.decode(paths[2], inputCapacity: capacity)
      let lengthWhole = length.bytes == whole
      #expect(lengthWhole)
      #expect(length.failure?.detail == "incorrect length check", "read size \(capacity)")
      let second = try Self.decode(paths[3], inputCapacity: capacity)
      #expect(second.bytes == first + middle && second.failure?.detail == "incorrect data check")
      #expect([crc, length, second].allSatisfy { $0.failure?.reason == .corrupt })
    }
  }

  /// SPEC 2.1's gzip input is gzip members (`1f 8b`): a zlib stream after a member was decoded
  /// as more data (zlib's header detection), where `gzip -d` and Python refuse it; and one byte
  /// that starts no member read as a member cut short (`truncated`), where two such bytes are
  /// `corrupt`. Both are `corrupt` after the member's lines, at every read size.
  @Test func onlyGzipMembersFollowAMember() throws {
    let dir = TemporaryDirectory()
    let first = Array("a1\na2\n".utf8)
    let member = GzipFileCompressor.compress(first)
    let paths = [
      dir.write("zlib.gz", member + Self.storedZlibStream(Array("z1\n".utf8))),
      dir.write("byte.gz", member + [0x01]), dir.write("bytes.gz", member + [0x01, 0x02]),
    ]
    for capacity in [1, 2, 3, 7, 4096] {
      for path in paths {
        let decoded = try Self.decode(path, inputCapacity: capacity)
        #expect(decoded.bytes == first, "\(path), read size \(capacity)")
        #expect(decoded.failure?.reason == .corrupt, "\(path), read size \(capacity)")
        #expect(decoded.failure?.detail == "incorrect header check", "\(path)")
      }
    }
    // A member cut short after its magic number is still `truncated`.
    let cut = try Self.decode(dir.write("cut.gz", member + [0x1F]), inputCapacity: 4096)
    #expect(cut.bytes == first && cut.failure?.reason == .truncated)
  }

  /// A read of the compressed input that fails (a reset connection here; an I/O error on a
  /// disk or a network file system) after the decoder produced bytes in the same call: those
  /// bytes come first, then the failure, as for a truncated or corrupt stream. The decoders
  /// threw at once, and the lines decoded in that call were lost (all of them, when one call
  /// decoded every block read so far).
  @Test(arguments: ["gzip", "lz4"])
  func aFailedReadDeliversWhatWasDecodedBeforeIt(format: String) throws {
    let content = Array((sampleLines(40000, seed: 7).joined(separator: "\n") + "\n").utf8)
    let compressed =
      format == "gzip"
      ? GzipFileCompressor.compress(content, level: 1) : LZ4FrameCompressor.compress(content)
    // Less than a socket's receive buffer holds, more than a few blocks' worth.
    let prefix = Array(compressed.prefix(48 << 10))
    #expect(prefix.count < compressed.count)
    func decoder(_ file: FileInput) -> ByteDecoder {
      format == "gzip" ? GzipDecoder(file: file, inputCapacity: 4096) : LZ4Decoder(file: file)
    }
    // The reference: the same compressed bytes from a file, which end `truncated`.
    let dir = TemporaryDirectory()
    let cut = Self.decodeAll(
      decoder(try FileInput(path: dir.write("cut", prefix))), outputCapacity: 1 << 20)
    #expect(cut.failure?.reason == .truncated)
    #expect(!cut.bytes.isEmpty)
    // The same bytes from a connection the peer then resets: the read after them fails.
    let connection = try ResetConnection(holding: prefix)
    let failed = Self.decodeAll(
      decoder(FileInput(descriptor: connection.descriptor)), outputCapacity: 1 << 20)
    #expect(failed.failure?.reason == .readFailed)
    let sameBytes = failed.bytes == cut.bytes
    #expect(sameBytes, "\(failed.bytes.count) bytes against \(cut.bytes.count)")
  }

  /// Bytes after the last LZ4 frame that cannot start a frame are `corrupt`, however few; a
  /// frame header cut short is `truncated`. liblz4 looks at the magic number only once it holds
  /// 7 header bytes, so up to 6 bytes of garbage were called a truncated frame.
  @Test func shortGarbageAfterAnLZ4FrameIsCorruptAndACutHeaderTruncated() throws {
    let dir = TemporaryDirectory()
    let frame = LZ4FrameCompressor.compress(Array("a\nb\n".utf8))
    let corrupt: [[UInt8]] = [
      [0x61], [0x61, 0x62, 0x63, 0x64], [0, 0, 0, 0], [0x04, 0x22, 0x4D, 0x19],
      [0x61, 0x62, 0x63, 0x64, 0x65, 0x66], Array("abcdefgh".utf8),
    ]
    let truncated: [[UInt8]] = [
      [0x04], [0x04, 0x22], [0x04, 0x22, 0x4D, 0x18], [0x04, 0x22, 0x4D, 0x18, 0x64, 0x40],
      [0x5A, 0x2A], [0x5A, 0x2A, 0x4D, 0x18, 3],
    ]
    for (index, tail) in (corrupt + truncated).enumerated() {
      let path = dir.write("t\(index).lz4", frame + tail)
      let seen = collect(ChunkReader(paths: [path]))
      #expect(seen.texts == ["a", "b"], "\(tail)")
      let expected: InputError.Reason = index < corrupt.count ? .corrupt : .truncated
      #expect(seen.error?.reason == expected, "\(tail): \(String(describing: seen.error))")
      // Whatever the reads, so that the magic number straddles them.
      for inputCapacity in 1...8 {
        let decoded = Self.decodeAll(
          LZ4Decoder(file: try FileInput(path: path), inputCapacity: inputCapacity))
        #expect(decoded.bytes == Array("a\nb\n".utf8), "\(tail), reads of \(inputCapacity)")
        #expect(decoded.failure?.reason == expected, "\(tail), reads of \(inputCapacity)")
      }
    }
  }

  /// Everything `decoder` yields, read `outputCapacity` bytes at a time, and the failure that
  /// ended it, if any.
  static func decodeAll(_ decoder: ByteDecoder, outputCapacity: Int = 1000) -> (
    bytes: [UInt8], failure: DecodeFailure?
  ) {
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: outputCapacity)
    while true {
      do {
        let count = try buffer.withUnsafeMutableBytes {
          try decoder.read(into: $0.baseAddress!, capacity: $0.count)
        }
        if count == 0 { return (bytes, nil) }
        bytes += buffer[..<count]
      } catch {
        return (bytes, error as? DecodeFailure)
      }
    }
  }

  /// Everything `GzipDecoder` yields from `path`, reading `inputCapacity` compressed bytes at a
  /// time, and the failure that ended it, if any.
  static func decode(_ path: String, inputCapacity: Int) throws -> (
    bytes: [UInt8], failure: DecodeFailure?
  ) {
    decodeAll(GzipDecoder(file: try FileInput(path: path), inputCapacity: inputCapacity))
  }

  /// `bytes` (under 64 KiB) as a zlib stream of one stored block (RFC 1950, 1951), with its
  /// Adler-32.
  static func storedZlibStream(_ bytes: [UInt8]) -> [UInt8] {
    var a: UInt32 = 1
    var b: UInt32 = 0
    for byte in bytes {
      a = (a + UInt32(byte)) % 65521
      b = (b + a) % 65521
    }
    let adler = b << 16 | a
    let length = UInt16(bytes.count)
    return [0x78, 0x01, 0x01, UInt8(length & 0xFF), UInt8(length >> 8)]
      + [UInt8(~length & 0xFF), UInt8(~length >> 8)] + bytes
      + [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: adler >> $0) }
  }

  @Test func mixedInputsInOneRun() throws {
    let dir = TemporaryDirectory()
    let gz = dir.write("1", GzipFileCompressor.compress(Array("g1\ng2\n".utf8)))
    let lz = dir.write("2", LZ4FrameCompressor.compress(Array("l1\n".utf8)))
    let plain = dir.write("3", [0xEF, 0xBB, 0xBF] + Array("p1\np2".utf8))
    let seen = collect(ChunkReader(paths: [gz, lz, plain]))
    #expect(seen.texts == ["g1", "g2", "l1", "p1", "p2"])
    #expect(seen.lines[2] == .line(source: lz, number: 1, bytes: Array("l1".utf8)))
    #expect(seen.lines[4] == .line(source: plain, number: 2, bytes: Array("p2".utf8)))
  }
}
