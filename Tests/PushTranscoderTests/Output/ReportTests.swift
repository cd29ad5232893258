import Testing

@testable import PushTranscoder

/// The report's data (`PayloadSizes`, `ReasonExamples`) and its page (`RunReport`).
@Suite struct ReportDataTests {
  @Test func payloadBucketsHaveInclusiveUpperBoundsOf256Bytes() {
    #expect(PayloadSizes.bucket(1) == 0)
    #expect(PayloadSizes.bucket(256) == 0)
    #expect(PayloadSizes.bucket(257) == 1)
    #expect(PayloadSizes.bucket(4000) == 15)
    #expect(PayloadSizes.bucket(4096) == 15)
    #expect(PayloadSizes.bucket(4097) == 16)
    #expect(PayloadSizes.bucket(5120) == 19)
    #expect(PayloadSizes.bucket(5121) == 20)
    #expect(PayloadSizes.bucket(1 << 40) == 20)
    #expect(PayloadSizes.upperBounds.count == PayloadSizes.buckets - 1)
    for (index, bound) in PayloadSizes.upperBounds.enumerated() {
      #expect(PayloadSizes.bucket(bound) == index)
      #expect(PayloadSizes.bucket(bound + 1) == index + 1)
    }
  }

  @Test func examplesKeepTheFirstLinesInInputOrderWhateverTheSplit() {
    let source = SourceName("a.ndjson")
    let lines = Array(1...12)
    var whole = ReasonExamples()
    for line in lines { whole.rejected(.syntax, source, line: line) }
    for size in 1...12 {
      var merged = ReasonExamples()
      for start in stride(from: 0, to: lines.count, by: size) {
        var chunk = ReasonExamples()
        for line in lines[start..<min(lines.count, start + size)] {
          chunk.rejected(.syntax, source, line: line)
        }
        merged.append(chunk)
      }
      #expect(merged == whole, "chunks of \(size)")
    }
    #expect(whole.rejected[RejectReason.syntax.rawValue].map(\.line) == [1, 2, 3, 4, 5])
  }

  @Test func mergedStatsAddHistogramsAndAppendExamples() {
    var first = RunStats()
    first.countPayload(.fcm, bytes: 300)
    first.examples.skipped(.emptyText, SourceName("x"), line: 3)
    var second = RunStats()
    second.countPayload(.fcm, bytes: 300)
    second.countPayload(.meizu, bytes: 9000)
    second.examples.skipped(.emptyText, SourceName("y"), line: 1)
    first.merge(second)
    #expect(first.payloadHistogram(.fcm)[PayloadSizes.bucket(300) + PayloadSizes.buckets] == 2)
    #expect(first.payloadHistogram(.meizu).last == 1)
    #expect(first.examples.skipped[SkipReason.emptyText.index].map(\.source.path) == ["x", "y"])
  }

  @Test func pageEscapesSourceNamesAndQuotesThemForTheShell() {
    var stats = RunStats()
    stats.lines = 1
    stats.rejected[RejectReason.syntax.rawValue] = 1
    stats.examples.rejected(.syntax, SourceName("<b>&'x\".ndjson"), line: 7)
    let page = RunReport.html(
      stats: stats, vendors: [.apns], timing: .init(seconds: 1, inputBytes: 10, outputBytes: 0))
    #expect(page.contains("&lt;b&gt;&amp;&#39;x&quot;.ndjson"))
    #expect(!page.contains("<b>"))
    #expect(RunReport.shellQuoted("<b>&'x\".ndjson") == #"'<b>&'\''x".ndjson'"#)
    #expect(RunReport.shellQuoted("logs/a-1.ndjson") == "logs/a-1.ndjson")
  }
}
