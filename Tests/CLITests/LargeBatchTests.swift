import Foundation
import PushTranscoder
import Testing

extension CLITests {
  /// A batch whose content passes `BatchSink`'s piece size before it is complete is written as
  /// it grows, a piece at a time (`SpilledBatch`). Before, every batch was held whole until it
  /// was complete: `--batch-records 100000000` (one file per vendor) held all the records of a
  /// run in memory, 631 MB for a 128 MB input.
  @Suite(needsGenerator) struct LargeBatchTests {
    /// Batches written in pieces of any size (one byte, a few records, more than a batch) hold
    /// what the stream run writes, and the manifest describes them, for every codec, with one
    /// and three threads (the same check as `batchesMatchTheStreamRunAndTheManifest`).
    @Test(arguments: [("none", ""), ("gzip", ".gz"), ("lz4", ".lz4")])
    func batchesWrittenInPiecesHoldTheStreamsRecords(compress: String, suffix: String) throws {
      let dir = try TemporaryDirectory()
      defer { dir.remove() }
      let input = try Corpus.smallMalformed
      try PythonChecks.writeStreamReference(of: input, in: dir)
      for pieceBytes in [1, 5000, 1 << 30] {
        for threads in [1, 3] {
          let out = dir.file("out-\(pieceBytes)-\(threads)")
          var configuration = RunConfiguration()
          configuration.inputs = [input]
          configuration.output = out
          configuration.compression = OutputCompression(rawValue: compress)!
          configuration.batchRecords = 150
          configuration.threads = threads
          configuration.sync = false
          configuration.batchPieceBytes = pieceBytes
          #expect(Runner.execute(configuration).status == 0)
          let check = try CLI.python(
            PythonChecks.batches,
            [
              out, dir.file("stream.ndjson"), dir.file("stream-rejects.ndjson"),
              dir.file("stats.json"), "150", suffix,
            ])
          #expect(
            check.status == 0, "pieces of \(pieceBytes), \(threads) threads: \(check.stdoutText)")
        }
      }
    }

    /// Pieces of a batch and whole batches do not change what a batch holds, only how the
    /// compressed file is laid out: the manifests are equal but for `file_bytes` and `timing`.
    @Test(arguments: ["none", "gzip", "lz4"])
    func piecesChangeNoManifestFigureButTheFileSize(compress: String) throws {
      let dir = try TemporaryDirectory()
      defer { dir.remove() }
      let input = try Corpus.small
      var manifests: [String] = []
      var batchCount = 0
      for pieceBytes in [BatchSink.defaultPieceBytes, 3000] {
        var configuration = RunConfiguration()
        configuration.inputs = [input]
        configuration.output = dir.file("out-\(pieceBytes)")
        configuration.compression = OutputCompression(rawValue: compress)!
        configuration.batchRecords = 100
        configuration.threads = 2
        configuration.batchPieceBytes = pieceBytes
        #expect(Runner.execute(configuration).status == 0)
        var manifest = try #require(
          try JSONSerialization.jsonObject(
            with: Data(contentsOf: URL(fileURLWithPath: configuration.output + "/manifest.json")))
            as? [String: Any])
        manifest["timing"] = nil
        let batches = (manifest["batches"] as? [[String: Any]]) ?? []
        batchCount = batches.count
        manifest["batches"] = batches.map {
          var entry = $0
          entry["file_bytes"] = nil
          return entry
        }
        let text = try JSONSerialization.data(withJSONObject: manifest, options: [.sortedKeys])
        manifests.append(String(decoding: text, as: UTF8.self))
      }
      #expect(manifests[0] == manifests[1])
      #expect(batchCount > 9, "the corpus makes more than one batch per vendor")
    }
  }
}
