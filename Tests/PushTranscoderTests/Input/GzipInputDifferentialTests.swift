import Foundation
import Testing

@testable import PushTranscoder

/// `GzipDecoder` against Python's zlib, on the streams `Corpus/make_gzip_cases.py` builds:
/// header fields, empty members, zlib streams after members (corrupt), flushed
/// and stored blocks, padding, every cut through a two-member file and every flipped trailer
/// byte. Each case is decoded with compressed reads from 1 byte to 256 KiB and output reads
/// from 7 bytes to 1 MiB, so that the reads split headers, blocks and trailers everywhere.
@Suite struct GzipInputDifferentialTests {
  /// A whole stream yields its content; a corrupt one, everything before the fault; a truncated
  /// one, a prefix of the content. The outcome is the case's.
  @Test func everyCaseDecodesAsZlibSaysAtEveryReadSize() throws {
    let dir = TemporaryDirectory()
    let script = GoldenCorpus.root.appendingPathComponent("Corpus/make_gzip_cases.py").path
    #expect(try run("python3", [script, dir.url.path]) == 0)
    let list = try String(contentsOfFile: dir.path("cases.txt"), encoding: .utf8)
    var cases = 0
    var problems: [String] = []
    for line in list.split(separator: "\n") {
      let fields = line.split(separator: " ").map(String.init)
      let (name, outcome) = (fields[0], fields[1])
      let content = readBytes(dir.path(name + ".out"))
      cases += 1
      for inputCapacity in [1, 3, 8, 13, 4096, 256 << 10] {
        for outputCapacity in [7, 1 << 20] {
          let decoded = CompressedInputTests.decodeAll(
            GzipDecoder(
              file: try FileInput(path: dir.path(name + ".gz")), inputCapacity: inputCapacity),
            outputCapacity: outputCapacity)
          let got: String
          switch decoded.failure?.reason {
          case nil: got = "ok"
          case .truncated?: got = "truncated"
          case .corrupt?: got = "corrupt"
          case let other?: got = other.rawValue
          }
          let bytesRight =
            outcome == "truncated"
            ? decoded.bytes.count <= content.count
              && decoded.bytes[...] == content[..<decoded.bytes.count]
            : decoded.bytes == content
          if got != outcome || !bytesRight {
            problems.append(
              "\(name), reads of \(inputCapacity) / \(outputCapacity): \(got) "
                + "(\(decoded.failure?.detail ?? "")) after \(decoded.bytes.count) of "
                + "\(content.count) bytes, expected \(outcome)")
          }
        }
      }
    }
    #expect(cases > 90)
    // One Bool: an expectation on the array would print every problem.
    let none = problems.isEmpty
    #expect(none, "\(problems.count) problems, first: \(problems.prefix(5))")
  }
}
