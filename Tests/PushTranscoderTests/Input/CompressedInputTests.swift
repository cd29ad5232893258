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

  @Test func garbageAfterAGzipMemberIsCorrupt() throws {
    let dir = TemporaryDirectory()
    let path = dir.write("junk.gz", GzipFileCompressor.compress(Array("a\n".utf8)) + [1, 2, 3])
    let seen = collect(ChunkReader(paths: [path]))
    #expect(seen.texts == ["a"])
    #expect(seen.error?.reason == .corrupt)
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
