import Foundation
import Testing

extension CLITests {
  /// SPEC 7: the output bytes do not depend on `--threads` or `--chunk-bytes`.
  @Suite(needsGenerator) struct DeterminismTests {
    @Test func streamIsByteIdenticalAcrossThreadsAndChunkSizes() throws {
      let input = try Corpus.malformed
      var reference: Data? = nil
      for threads in [1, 2, 4] {
        for chunk in [65536, 1_048_576, 4_194_304] {
          let result = try CLI.run([input, "--threads", "\(threads)", "--chunk-bytes", "\(chunk)"])
          #expect(result.status == 0, "\(result.stderrText)")
          if let reference {
            #expect(result.stdout == reference, "--threads \(threads) --chunk-bytes \(chunk)")
          } else {
            reference = result.stdout
            #expect(result.stdout.count > 1_000_000)
          }
        }
      }
    }

    /// A 4 MiB chunk goes to the workers in ~1 MiB pieces: the 1 MB corpus above fits in one
    /// piece, so this one is larger than two pieces, and its default-size chunks split while
    /// 64 KiB chunks never do.
    @Test func streamIsByteIdenticalWhenChunksSplitIntoPieces() throws {
      let input = try Corpus.multiPiece
      let size = try FileManager.default.attributesOfItem(atPath: input)[.size] as? Int ?? 0
      #expect(size > 2 << 20, "the corpus must span more than two pieces")
      var reference: Data? = nil
      for (threads, chunk) in [(1, 65536), (1, 4_194_304), (2, 4_194_304), (3, 2_097_152)] {
        let result = try CLI.run([input, "--threads", "\(threads)", "--chunk-bytes", "\(chunk)"])
        #expect(result.status == 0)
        if let reference {
          #expect(result.stdout == reference, "--threads \(threads) --chunk-bytes \(chunk)")
        } else {
          reference = result.stdout
        }
      }
    }

    /// The compressed stream too: its compressor sees the records chunk by chunk, and liblz4's
    /// frame once depended on where those pieces began and ended.
    @Test(arguments: ["gzip", "lz4"])
    func compressedStreamIsByteIdenticalAcrossChunkSizes(compress: String) throws {
      let input = try Corpus.multiPiece
      var reference: Data? = nil
      for (threads, chunk) in [(1, 4_194_304), (1, 65536), (2, 300_000), (3, 1_048_576)] {
        let result = try CLI.run([
          input, "--compress", compress, "--threads", "\(threads)", "--chunk-bytes", "\(chunk)",
        ])
        #expect(result.status == 0, "\(result.stderrText)")
        if let reference {
          #expect(result.stdout == reference, "--threads \(threads) --chunk-bytes \(chunk)")
        } else {
          reference = result.stdout
        }
      }
    }

    @Test(arguments: ["none", "gzip", "lz4"])
    func batchDirectoriesAreIdenticalAcrossThreads(compress: String) throws {
      let dir = try TemporaryDirectory()
      defer { dir.remove() }
      let input = try Corpus.smallMalformed
      var reference: [String: Data]? = nil
      for (threads, chunk) in [(1, 65536), (2, 1_048_576), (4, 65536)] {
        let out = dir.file("out-\(threads)")
        let result = try CLI.run([
          input, "-o", out, "--threads", "\(threads)", "--chunk-bytes", "\(chunk)",
          "--batch-records", "97", "--compress", compress,
        ])
        #expect(result.status == 0, "\(result.stderrText)")
        let files = try Self.contents(of: out)
        #expect(files.count > 20)
        if let reference {
          #expect(files.keys.sorted() == reference.keys.sorted())
          for (name, data) in files where reference[name] != data {
            Issue.record("--threads \(threads): \(name) differs")
          }
        } else {
          reference = files
        }
      }
    }

    /// A line of spaces longer than `--max-line-bytes` is `line-too-long` whatever the chunk
    /// size. It was `blank` when it fitted in a chunk (the blank test came first) and
    /// `line-too-long` when it did not (the reader hands on only its prefix).
    @Test func aLongBlankLineIsTooLongForEveryChunkSize() throws {
      let dir = try TemporaryDirectory()
      defer { dir.remove() }
      try dir.write("blank.ndjson", Data(String(repeating: " ", count: 200_000).utf8 + [10]))
      for chunk in [65536, 4_194_304] {
        let result = try CLI.run([
          dir.file("blank.ndjson"), "--max-line-bytes", "10", "--chunk-bytes", "\(chunk)",
        ])
        #expect(result.status == 0)
        #expect(result.stdoutText.contains(#""reason":"line-too-long""#), "--chunk-bytes \(chunk)")
        #expect(result.stderrText.contains("0 blank"), "--chunk-bytes \(chunk)")
      }
    }

    /// Every file under `directory` by relative path; the manifest without its `timing`.
    static func contents(of directory: String) throws -> [String: Data] {
      var files: [String: Data] = [:]
      let root = URL(fileURLWithPath: directory)
      let walker = FileManager.default.enumerator(atPath: directory)
      while let name = walker?.nextObject() as? String {
        let url = root.appendingPathComponent(name)
        var isDirectory: ObjCBool = false
        let exists = FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory)
        if !exists || isDirectory.boolValue { continue }
        var data = try Data(contentsOf: url)
        if name == "manifest.json" {
          let text = String(decoding: data, as: UTF8.self)
          let range = try #require(text.range(of: ",\"timing\":{"), "manifest has no timing")
          data = Data(text[..<range.lowerBound].utf8)
        }
        files[name] = data
      }
      return files
    }
  }
}
