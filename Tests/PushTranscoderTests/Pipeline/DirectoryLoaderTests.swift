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
}
