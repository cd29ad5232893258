import Foundation
import Testing

@testable import PushTranscoder

@Suite struct CompressionTests {
  let payload = Array((sampleLines(20_000, seed: 11).joined(separator: "\n") + "\n").utf8)

  @Test func crc32MatchesTheStandardCheckValue() {
    #expect(CRC32.checksum(Array("123456789".utf8)) == 0xCBF4_3926)
    var crc = CRC32()
    crc.update(Array("1234".utf8))
    crc.update(Array("56789".utf8))
    #expect(crc.value == 0xCBF4_3926 && crc.hex == "cbf43926")
    #expect(CRC32().hex == "00000000")
  }

  /// A gzip file as the batch sink writes it (libdeflate, one call) decodes to its content
  /// through the input decoder and through `gzip -dc`, at the fastest, default and best levels.
  @Test(arguments: [1, 6, 9])
  func gzipRoundTripsThroughTheDecoder(level: Int) throws {
    let output = GzipFileCompressor.compress(payload, level: level)
    let dir = TemporaryDirectory()
    let path = dir.write("out.gz", output)
    let seen = collect(ChunkReader(paths: [path]))
    #expect(seen.error == nil)
    #expect(Array(seen.texts.joined(separator: "\n").utf8) + [ASCII.newline] == payload)
    #expect(try run("gzip", ["-t", path]) == 0)
    // The CLI decodes it to the same bytes and the same CRC-32.
    #expect(try run("gzip", ["-dc"], stdin: path, stdout: dir.path("back")) == 0)
    #expect(CRC32.checksum(readBytes(dir.path("back"))) == CRC32.checksum(payload))
  }

  @Test(arguments: [1, 3, 9, 12])
  func lz4RoundTripsThroughTheDecoder(level: Int) throws {
    let compressor = LZ4FrameCompressor(level: level)
    var output: [UInt8] = []
    for start in stride(from: 0, to: payload.count, by: 100_003) {
      compressor.append(Array(payload[start..<min(payload.count, start + 100_003)]), to: &output)
    }
    compressor.finish(to: &output)
    let dir = TemporaryDirectory()
    let path = dir.write("out.lz4", output)
    let seen = collect(ChunkReader(paths: [path]))
    #expect(seen.error == nil)
    #expect(Array(seen.texts.joined(separator: "\n").utf8) + [ASCII.newline] == payload)
    #expect(try run("lz4", ["-t", "-q", path]) == 0)
    #expect(try run("lz4", ["-dc", "-q"], stdin: path, stdout: dir.path("back")) == 0)
    #expect(readBytes(dir.path("back")) == payload)
  }

  @Test func emptyInputGivesValidFiles() throws {
    let dir = TemporaryDirectory()
    let gz = dir.write("e.gz", GzipFileCompressor.compress([]))
    let lz = dir.write("e.lz4", LZ4FrameCompressor.compress([]))
    #expect(try run("gzip", ["-t", gz]) == 0)
    #expect(try run("lz4", ["-t", "-q", lz]) == 0)
    #expect(collect(ChunkReader(paths: [gz, lz])).lines.isEmpty)
  }

  /// The one-call batch paths (`GzipFileCompressor.compress(_:into:)`,
  /// `LZ4FrameCompressor.compress(_:level:into:)`) append after what the writer holds
  /// and round-trip through the command-line tools.
  @Test(arguments: ["gzip", "lz4"], [1, 9])
  func oneCallCompressionIntoAWriterRoundTrips(codec: String, level: Int) throws {
    for input in [payload, [], Array("x".utf8)] {
      var writer = JSONWriter(capacity: 16)
      writer.raw("prefix")
      input.withUnsafeBufferPointer { bytes in
        if codec == "gzip" {
          _ = GzipFileCompressor(level: level).compress(bytes, into: &writer)
        } else {
          LZ4FrameCompressor.compress(bytes, level: level, into: &writer)
        }
      }
      #expect(Array(writer.bytes.prefix(6)) == Array("prefix".utf8))
      let file = Array(writer.bytes.dropFirst(6))
      let dir = TemporaryDirectory()
      let path = dir.write("out." + codec, file)
      #expect(try run(codec, ["-t", "-q", path]) == 0)
      #expect(try run(codec, ["-dc", "-q"], stdin: path, stdout: dir.path("back")) == 0)
      #expect(readBytes(dir.path("back")) == input)
    }
  }

  /// A batch frame leaves out the content checksum (the manifest's CRC-32 covers it); the
  /// default frame, and the streaming one, carry it. Both pass `lz4 -t` and decode.
  @Test(arguments: [true, false])
  func lz4ContentChecksumFollowsTheOption(checksum: Bool) throws {
    var writer = JSONWriter(capacity: 16)
    payload.withUnsafeBufferPointer {
      LZ4FrameCompressor.compress($0, contentChecksum: checksum, into: &writer)
    }
    let frame = writer.bytes
    // Magic (4 bytes), then FLG: bit 2 is the content checksum flag.
    #expect((frame[4] & 0b100 != 0) == checksum)
    #expect(LZ4FrameCompressor.compress(payload)[4] & 0b100 != 0)
    let dir = TemporaryDirectory()
    let path = dir.write("c.lz4", frame)
    #expect(try run("lz4", ["-t", "-q", path]) == 0)
    #expect(collect(ChunkReader(paths: [path])).lines.count == payload.count { $0 == 0x0A })
  }

  /// One gzip file compressor (libdeflate) reused for several batch files: each file is a
  /// standard gzip file (`gzip -t`, `gzip -dc`, the input decoder) holding exactly its input,
  /// the CRC-32 it returns is the content's, and the same input gives the same bytes again.
  @Test(arguments: [1, 2, 6, 9, 12])
  func aReusedGzipFileCompressorWritesStandardGzipFiles(level: Int) throws {
    let compressor = GzipFileCompressor(level: level)
    let dir = TemporaryDirectory()
    let inputs = [payload, Array("short\n".utf8), [], Array(payload.prefix(70_001))]
    for (index, input) in inputs.enumerated() {
      var writer = JSONWriter(capacity: 16)
      let crc = input.withUnsafeBufferPointer { compressor.compress($0, into: &writer) }
      #expect(crc == CRC32.checksum(input))
      var again = JSONWriter(capacity: 16)
      _ = input.withUnsafeBufferPointer { compressor.compress($0, into: &again) }
      #expect(again.bytes == writer.bytes)
      let path = dir.write("b\(index).gz", writer.bytes)
      #expect(try run("gzip", ["-t", path]) == 0)
      #expect(try run("gzip", ["-dc"], stdin: path, stdout: dir.path("back\(index)")) == 0)
      #expect(readBytes(dir.path("back\(index)")) == input)
      let seen = collect(ChunkReader(paths: [path]))
      #expect(seen.error == nil)
    }
  }

  /// SPEC 7: the compressed stream is a function of its content, not of how the stream's chunks
  /// cut it. liblz4 compressed a 64 KiB block straight from the caller's piece when handed a
  /// whole one and from its own buffer otherwise, and the two picked different matches.
  @Test(arguments: ["gzip", "lz4"], [1, 9])
  func streamedBytesDoNotDependOnThePieces(codec: String, level: Int) throws {
    func streamed(_ cuts: [Int]) throws -> [UInt8] {
      var compressor = try #require(
        try OutputCompressor(OutputCompression(rawValue: codec)!, level: level))
      var output: [UInt8] = []
      var start = 0
      for end in cuts + [payload.count] where end > start {
        try payload[start..<end].withUnsafeBufferPointer {
          try compressor.append($0, to: &output)
        }
        start = end
      }
      try compressor.finish(to: &output)
      return output
    }
    let whole = try streamed([])
    // Aligned and unaligned to the 64 KiB block, pieces larger and smaller than a block.
    #expect(try streamed(Array(stride(from: 65536, to: payload.count, by: 65536))) == whole)
    #expect(try streamed(Array(stride(from: 1000, to: payload.count, by: 70_001))) == whole)
    #expect(try streamed(Array(stride(from: 7, to: payload.count, by: 4099))) == whole)
    #expect(try streamed([1, 65535, 65537, 200_000, 200_001]) == whole)
  }

  /// `-o - --compress gzip` writes one gzip member per MiB of content (libdeflate), cut by
  /// content size: `gzip -t` passes, `gzip -dc` and the input decoder read the members as one
  /// stream, and an empty stream is still a gzip file.
  @Test func streamedGzipIsAMultiMemberFile() throws {
    let content = Array(
      (0..<3).flatMap { _ in payload }.prefix(GzipMemberStream.memberBytes * 2 + 12345))
    let dir = TemporaryDirectory()
    for input in [content, []] {
      var compressor = try #require(try OutputCompressor(.gzip, level: nil))
      var output: [UInt8] = []
      try input.withUnsafeBufferPointer { try compressor.append($0, to: &output) }
      try compressor.finish(to: &output)
      // Members start with the gzip magic and deflate method: three for 2 MiB and a bit.
      let members = (0..<(output.count - 3)).filter {
        output[$0] == 0x1F && output[$0 + 1] == 0x8B && output[$0 + 2] == 8 && output[$0 + 3] == 0
      }
      if input.isEmpty { #expect(members == [0]) } else { #expect(members.count >= 3) }
      let path = dir.write("s\(input.count).gz", output)
      #expect(try run("gzip", ["-t", path]) == 0)
      #expect(try run("gzip", ["-dc"], stdin: path, stdout: dir.path("back")) == 0)
      #expect(readBytes(dir.path("back")) == input)
      #expect(collect(ChunkReader(paths: [path])).error == nil)
    }
  }

  @Test func compressionIsDeterministic() {
    #expect(GzipFileCompressor.compress(payload) == GzipFileCompressor.compress(payload))
    #expect(LZ4FrameCompressor.compress(payload) == LZ4FrameCompressor.compress(payload))
  }
}
