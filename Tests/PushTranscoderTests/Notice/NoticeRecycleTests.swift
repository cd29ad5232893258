import Foundation
import Testing

@testable import PushTranscoder

/// The pipeline reads every line into one recycled notice (`Notice.recycle` keeps the arrays'
/// storage and resets the other fields one by one). A field the reset forgot would carry one
/// line's value into the next line's records: these tests read each corpus line after other
/// lines and compare the notice, every stored field (`dump`), with a fresh read.
@Suite struct NoticeRecycleTests {
  /// Every line of `Corpus/messages/*.ndjson` and `Corpus/sample.ndjson`, with the corpus
  /// directory loaded (so fallback titles and display prefixes vary too).
  private static func corpus() throws -> (lines: [[UInt8]], options: MessageOptions) {
    var lines: [[UInt8]] = []
    var files = try GoldenCorpus.messageFiles().map {
      GoldenCorpus.messagesDirectory.appendingPathComponent($0)
    }
    files.append(GoldenCorpus.root.appendingPathComponent("Corpus/sample.ndjson"))
    for file in files {
      // As bytes: some lines are deliberately not UTF-8.
      let bytes = try [UInt8](Data(contentsOf: file))
      lines += bytes.split(separator: UInt8(ascii: "\n")).map { Array($0) }
    }
    let directoryText = try String(
      contentsOf: GoldenCorpus.messagesDirectory.appendingPathComponent(
        GoldenCorpus.directoryFile), encoding: .utf8)
    let options = PushTranscoderTests.options(directoryText.split(separator: "\n").map(String.init))
    return (lines, options)
  }

  /// The verdict and every field of the notice after reading `line` into `notice`.
  private static func readDump(
    _ line: [UInt8], into notice: inout Notice, options: MessageOptions
  ) -> String? {
    var tokenizer = JSONTokenizer()
    return line.withUnsafeBufferPointer { bytes -> String? in
      guard tokenizer.parse(bytes) == nil else { return nil }
      return tokenizer.withDocument(bytes) { document in
        var stats = MessageStats()
        let verdict = MessageReader.read(
          document, line: bytes, options: options, stats: &stats, into: &notice)
        var text = "\(verdict)\n"
        if case .notice = verdict { dump(notice, to: &text) }
        return text
      }
    }
  }

  private static func fresh() -> Notice {
    Notice(
      dialect: .tencent, body: [], untitledBody: [], fallbackTitle: StringSlice(""), lineHash: 0)
  }

  @Test func aRecycledNoticeReadsEveryLineAsAFreshOneDoes() throws {
    let (lines, options) = try Self.corpus()
    #expect(lines.count > 500)
    // The lines whose notices set the most optional fields are read before every line.
    var scored: [(Int, Int)] = []
    for (index, line) in lines.enumerated() {
      var notice = Self.fresh()
      let text = Self.readDump(line, into: &notice, options: options) ?? ""
      let setFields = text.split(separator: "\n").filter { $0.contains("Optional") }.count
      scored.append((setFields, index))
    }
    let richest = scored.sorted { $0 > $1 }.prefix(6).map(\.1)
    var shared = Self.fresh()
    var compared = 0
    for (index, line) in lines.enumerated() {
      var notice = Self.fresh()
      let expected = Self.readDump(line, into: &notice, options: options)
      // After the previous line (in file order), and after each of the richest lines.
      #expect(Self.readDump(line, into: &shared, options: options) == expected, "line \(index)")
      for before in richest {
        _ = Self.readDump(lines[before], into: &shared, options: options)
        let got = Self.readDump(line, into: &shared, options: options)
        #expect(got == expected, "line \(index) after line \(before)")
        compared += 1
      }
    }
    #expect(compared == lines.count * richest.count)
  }

  @Test func recycleEqualsAFreshNotice() throws {
    let (lines, options) = try Self.corpus()
    var freshDump = ""
    let title = StringSlice("New message")
    dump(
      Notice(dialect: .easemob, body: [], untitledBody: [], fallbackTitle: title, lineHash: 0),
      to: &freshDump)
    var notice = Self.fresh()
    for line in lines {
      _ = Self.readDump(line, into: &notice, options: options)
      notice.recycle(dialect: .easemob, fallbackTitle: title)
      var recycledDump = ""
      dump(notice, to: &recycledDump)
      #expect(recycledDump == freshDump)
    }
  }
}
