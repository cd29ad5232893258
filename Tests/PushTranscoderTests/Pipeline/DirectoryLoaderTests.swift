import Foundation
import Testing

@testable import PushTranscoder

/// Directory lines pass the same line gate as message lines (SPEC 2.4: "bad directory lines are
/// reported like bad input lines").
@Suite struct DirectoryLoaderTests {
  /// Loads `text` as the `--directory` file `path` (written there), read in chunks of
  /// `chunkBytes`.
  static func load(_ text: String, at path: String, maxLineBytes: Int, chunkBytes: Int) throws
    -> Loaded
  {
    _ = FileManager.default.createFile(atPath: path, contents: Data(text.utf8))
    var options = TranscodeOptions()
    options.maxLineBytes = maxLineBytes
    var directory = NameDirectory()
    var output = ChunkOutput(sequence: -1, source: SourceName("-"))
    try DirectoryLoader.load(
      paths: [path], into: &directory, options: options, chunkBytes: chunkBytes,
      output: &output)
    return Loaded(directory: directory, output: output)
  }

  /// A loaded directory and the loader's output (stats and rejects).
  struct Loaded: ~Copyable {
    var directory: NameDirectory
    var output: ChunkOutput
  }

  /// A too-long directory line's detail names the limit, as a message line's does, whether the
  /// line fitted in a chunk or reached the loader as its prefix only; and a long line of spaces
  /// is `line-too-long`, not blank, whatever the chunk size.
  @Test func tooLongLinesAreRejectedLikeMessageLines() throws {
    let long = "{\"username\":\"" + String(repeating: "x", count: 200_000) + "\"}"
    let spaces = String(repeating: " ", count: 200_000)
    let text = [#"{"username":"u1","nickname":"A"}"#, long, spaces].joined(separator: "\n") + "\n"
    let dir = TemporaryDirectory()
    var outputs: [[UInt8]] = []
    for chunkBytes in [64 << 10, 4 << 20] {
      let loaded = try Self.load(
        text, at: dir.path("directory.ndjson"), maxLineBytes: 100, chunkBytes: chunkBytes)
      let output = loaded.output
      #expect(loaded.directory.nickname(of: "u1") == "A")
      #expect(output.stats.directoryLines == 3)
      #expect(output.stats.directoryEntries == 1)
      #expect(output.stats.directoryRejected[RejectReason.lineTooLong.rawValue] == 2)
      let records = String(decoding: output.main.bytes, as: UTF8.self)
        .split(separator: "\n").map(String.init)
      #expect(records.count == 2)
      #expect(
        records.first?.contains(
          #""detail":"line of 200015 bytes is longer than --max-line-bytes 100""#) == true,
        "--chunk-bytes \(chunkBytes)")
      #expect(
        records.last?.contains(
          #""detail":"line of 200000 bytes is longer than --max-line-bytes 100""#) == true,
        "--chunk-bytes \(chunkBytes)")
      outputs.append(Array(output.main.bytes))
    }
    #expect(outputs[0] == outputs[1])
  }

  /// A directory line and a message line with the same fault get the same reject, but for the
  /// source, which names the directory file.
  @Test func faultsMatchTheMessageLineGate() throws {
    let bad = #"{"username":"u1","nickname":"A\u00"}"#
    let dir = TemporaryDirectory()
    let loaded = try Self.load(
      bad + "\n", at: dir.path("directory.ndjson"), maxLineBytes: 100, chunkBytes: 64 << 10)
    var processor = LineProcessor(options: TranscodeOptions(), directory: NameDirectory())
    var message = ChunkOutput(sequence: 0, source: SourceName("m"))
    Array(bad.utf8).withUnsafeBufferPointer {
      processor.process(line: $0, number: 1, into: &message)
    }
    let directoryReject = String(decoding: loaded.output.main.bytes, as: UTF8.self)
    let messageReject = String(decoding: message.main.bytes, as: UTF8.self)
    let tail = { (record: String) in record[record.range(of: #","line""#)!.lowerBound...] }
    #expect(tail(directoryReject) == tail(messageReject))
    #expect(directoryReject.contains(#""reason":"syntax""#))
  }

  /// The rejects of a directory of many bad lines leave as the file is read (to the run's
  /// output, before any message record), not held until it is loaded: 2 million bad lines took
  /// 532 MB. What leaves, in order, is what an undivided load writes; the stats stay whole.
  @Test func rejectsOfABadDirectoryLeaveAsItIsRead() throws {
    let good = #"{"username":"u1","nickname":"A"}"#
    let lines = (0..<40_000).map { $0 % 100 == 0 ? good : #"{"username":\#($0)}"# }
    let dir = TemporaryDirectory()
    let path = dir.path("directory.ndjson")
    _ = FileManager.default.createFile(
      atPath: path, contents: Data((lines.joined(separator: "\n") + "\n").utf8))
    func load(flushing: Bool) throws -> (flushed: [[UInt8]], rest: [UInt8], stats: RunStats) {
      var options = TranscodeOptions()
      options.segmentBytes = 100_000
      var directory = NameDirectory()
      var output = ChunkOutput(sequence: -1, source: SourceName("-"))
      var flushed: [[UInt8]] = []
      try DirectoryLoader.load(
        paths: [path], into: &directory, options: options, chunkBytes: 64 << 10,
        output: &output, flush: flushing ? { flushed.append(Array($0.main.bytes)) } : nil)
      #expect(directory.nickname(of: "u1") == "A")
      return (flushed, Array(output.main.bytes), output.stats)
    }
    let whole = try load(flushing: false)
    let flushed = try load(flushing: true)
    #expect(whole.flushed.isEmpty)
    #expect(whole.stats.directoryRejected[RejectReason.notAMessage.rawValue] == 39_600)
    // A 0.9 MB file in chunks of 64 KiB, whose rejects (some 700 KB a chunk) each pass the
    // segment size: a segment per chunk, never more than one chunk's rejects past it.
    #expect(flushed.flushed.count >= 10)
    #expect(flushed.flushed.allSatisfy { $0.count < 100_000 + 1_000_000 })
    #expect(flushed.flushed.joined() + flushed.rest == whole.rest)
    #expect(flushed.stats == whole.stats)
  }
}
