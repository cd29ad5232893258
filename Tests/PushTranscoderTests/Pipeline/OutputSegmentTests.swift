import Foundation
import Testing

@testable import PushTranscoder

/// A message with many recipients makes records far larger than its line (apns writes one per
/// recipient). A pipeline run hands a chunk's records to the writer in segments once they pass
/// `TranscodeOptions.segmentBytes` (`OutputSegments`). Before, they stayed in memory until the
/// chunk was done: a 4.8 MB line of 1.2 million recipients took 8.5 GB, and in batch mode
/// trapped when a record ended past 4 GiB (`RecordRef.end` was 32 bits).
///
/// Segments change nothing in the output: the same records, rejects, record ends and stats as
/// an undivided run, at any segment size and thread count, including a split message refused in
/// a later record (its earlier records must not have left).
@Suite struct OutputSegmentTests {
  /// What a sink is given, as a user of the run would see it: the record stream, the rejects,
  /// each record's vendor, line and bytes (batch mode), and how many segments came.
  final class Capture: RecordSink, @unchecked Sendable {
    // Unchecked: the pipeline calls a sink from its writer only, one call at a time.
    var main: [UInt8] = []
    var rejects: [UInt8] = []
    var records: [String] = []
    var segments = 0
    var finished = false

    func consume(_ output: borrowing ChunkOutput) throws {
      if output.isSegment { segments += 1 }
      let bytes = output.main.bytes
      var start = 0
      for ref in output.refs {
        records.append(
          "\(ref.vendor) \(ref.line) " + String(decoding: bytes[start..<ref.end], as: UTF8.self))
        start = ref.end
      }
      main += bytes
      rejects += output.rejects.bytes
    }

    func finish(
      stats: RunStats, elapsed: () -> Double, inputBytes: Int, beforeCommit: () throws -> Void
    ) throws {
      try beforeCommit()
      finished = true
    }
  }

  /// A group whose name makes a harmony payload (title = group name) exceed its 4096 bytes.
  static let groups = directory([
    #"{"GroupId":"g_huge","Name":"\#(String(repeating: "N", count: 4100))"}"#,
    #"{"GroupId":"g_small","Name":"Small"}"#,
  ]).0

  /// Ordinary lines around messages of many recipients, and two split messages one of whose
  /// later records a vendor refuses: apns `t` of a 4,100-byte recipient id, harmony's title of
  /// a huge group name.
  static let lines: [String] = {
    let recipients = (0..<700).map { "\"u\($0)\"" }.joined(separator: ",")
    let longID = String(repeating: "L", count: 4100)
    var lines: [String] = []
    for index in 0..<40 {
      lines.append(
        #"{"From_Account":"a\#(index)","To_Account":"b","MsgBody":[{"MsgType":"TIMTextElem","MsgContent":{"Text":"hello \#(index)"}}]}"#
      )
      if index % 10 == 3 {
        lines.append(
          #"{"From_Account":"a","To_Account":[\#(recipients)],"MsgBody":[{"MsgType":"TIMTextElem","MsgContent":{"Text":"to many \#(index)"}}],"OfflinePushInfo":{"Ext":"\#(String(repeating: "x", count: 300))"}}"#
        )
      }
      if index % 10 == 5 {
        lines.append(
          #"{"target_type":"users","target":["u1","u2","u3","\#(longID)"],"msg":{"type":"txt","msg":"refused late"},"from":"a"}"#
        )
        lines.append(
          #"{"target_type":"chatgroups","target":["g_small","g_small","g_huge"],"msg":{"type":"txt","msg":"hi"},"from":"a"}"#
        )
      }
    }
    return lines
  }()

  static func run(
    threads: Int, segmentBytes: Int, batchMode: Bool, lines: [String] = Self.lines
  ) -> (Capture, RunResult) {
    var options = TranscodeOptions()
    options.segmentBytes = segmentBytes
    options.rejectsInline = !batchMode
    options.collectRecordRefs = batchMode
    let storage = lines.map { Array($0.utf8) }
    // Items of 7 lines: many chunks, most of them cut into segments at small sizes.
    let batches = stride(from: 0, to: storage.count, by: 7).map {
      IndexedLinesTests.Lines(storage: Array(storage[$0..<min($0 + 7, storage.count)]))
    }
    let sink = Capture()
    let next = OneThreadPipelineTests.Counter()
    let result = Pipeline(threads: threads, cores: 2).run(
      options: options, directory: groups, sink: sink
    ) {
      let index = next.increment()
      return index < batches.count ? .lines(batches[index]) : nil
    }
    return (sink, result)
  }

  @Test(arguments: [1, 2, 3], [false, true])
  func segmentsWriteWhatAnUndividedRunWrites(threads: Int, batchMode: Bool) throws {
    let (whole, wholeResult) = Self.run(threads: 1, segmentBytes: 1 << 40, batchMode: batchMode)
    #expect(whole.segments == 0 && whole.finished)
    // The messages are rendered and refused as the test means them to be.
    let text = String(decoding: whole.main + whole.rejects, as: UTF8.self)
    #expect(text.contains(#""for":"apns","reason":"over-budget""#))
    #expect(text.contains(#""for":"harmony","reason":"over-budget""#))
    #expect(wholeResult.stats.records[VendorID.apns.rawValue] > 2800)
    for segmentBytes in [1, 3000, 100_000] {
      let (cut, result) = Self.run(
        threads: threads, segmentBytes: segmentBytes, batchMode: batchMode)
      #expect(cut.segments > 0, "\(segmentBytes)")
      #expect(cut.finished && result.fatal == nil)
      #expect(cut.main == whole.main, "\(segmentBytes)")
      #expect(cut.rejects == whole.rejects, "\(segmentBytes)")
      #expect(cut.records == whole.records, "\(segmentBytes)")
      #expect(result.stats == wholeResult.stats, "\(segmentBytes)")
      #expect(result.outputBytes == wholeResult.outputBytes)
    }
  }

  /// A long line that most vendors refuse (an ext over every budget and field limit but
  /// meizu's, which has none) makes rejects several times its size: each carries the line. The
  /// line's records and rejects leave in segments between vendors, not all at the end of the
  /// chunk (a 14 MB line took 301 MB; 126 MB since).
  @Test(arguments: [false, true])
  func aLongLineRefusedByManyVendorsLeavesInSegmentsBetweenVendors(batchMode: Bool) {
    let ext = String(repeating: "x", count: 60_000)
    let long =
      #"{"From_Account":"a","To_Account":"b","MsgBody":[{"MsgType":"TIMTextElem","MsgContent":{"Text":"hi"}}],"OfflinePushInfo":{"Ext":"\#(ext)"}}"#
    let lines = [Self.lines[0], long, Self.lines[1]]
    let (whole, wholeResult) = Self.run(
      threads: 1, segmentBytes: 1 << 40, batchMode: batchMode, lines: lines)
    let (cut, result) = Self.run(
      threads: 1, segmentBytes: 100_000, batchMode: batchMode, lines: lines)
    // Eight rejects of some 60 KB each, one meizu record of as much: handed over in segments.
    #expect(wholeResult.stats.overBudget.reduce(0, +) == 8)
    #expect(wholeResult.stats.records[VendorID.meizu.rawValue] == 3)
    #expect(cut.segments >= 3)
    #expect(cut.main == whole.main)
    #expect(cut.rejects == whole.rejects)
    #expect(cut.records == whole.records)
    #expect(result.stats == wholeResult.stats)
  }

  /// Lines rejected whole (not a message, a syntax fault) make rejects many times their size:
  /// 16 million lines of `{}` made 3 GB of rejects, which the workers held chunk by chunk until
  /// each chunk was done (406 MB at two threads, 913 MB at eight). They now leave in segments
  /// too, after the line whose reject passes the segment size, and the output is the same.
  @Test(arguments: [1, 2], [false, true])
  func rejectedLinesLeaveInSegments(threads: Int, batchMode: Bool) {
    var lines = Array(repeating: "{}", count: 60)
    lines.insert(Self.lines[0], at: 10)
    lines.insert("{not json", at: 30)
    lines.append(Self.lines[1])
    let (whole, wholeResult) = Self.run(
      threads: threads, segmentBytes: 1 << 40, batchMode: batchMode, lines: lines)
    #expect(wholeResult.stats.rejected.reduce(0, +) == 61)
    #expect(whole.segments == 0)
    let (cut, result) = Self.run(
      threads: threads, segmentBytes: 500, batchMode: batchMode, lines: lines)
    // Items of 7 lines, each reject some 190 bytes: a segment after every third reject or so.
    #expect(cut.segments >= 10)
    #expect(cut.main == whole.main)
    #expect(cut.rejects == whole.rejects)
    #expect(cut.records == whole.records)
    #expect(result.stats == wholeResult.stats)
  }

  /// A run that stops (stdout closed, or a write that failed) while a worker waits for the
  /// writer to take its segment ends: the worker is released and the run returns, and the sink
  /// is not called again. With one thread, the chunk's last output once reached a sink that had
  /// failed on one of the chunk's segments: a sink whose failure was passing (a full pipe, a
  /// full disk) wrote the outputs after it, with a hole where the failed one belonged.
  @Test(arguments: [(1, true), (2, true), (1, false), (2, false)])
  func aStoppedRunReleasesAWorkerWaitingWithASegment(threads: Int, closes: Bool) {
    var options = TranscodeOptions()
    options.segmentBytes = 1
    let storage = Self.lines.map { Array($0.utf8) }
    let batches = stride(from: 0, to: storage.count, by: 7).map {
      IndexedLinesTests.Lines(storage: Array(storage[$0..<min($0 + 7, storage.count)]))
    }
    let next = OneThreadPipelineTests.Counter()
    let sink = PipelineFailureTests.FailingSink(failAt: 3, closes: closes)
    let result = Pipeline(threads: threads, cores: 2).run(
      options: options, directory: Self.groups, sink: sink
    ) {
      let index = next.increment()
      return index < batches.count ? .lines(batches[index]) : nil
    }
    #expect(result.closedOutput == closes)
    #expect((result.fatal != nil) == !closes)
    #expect(sink.calls == 3)
  }
}
