import Dispatch
import Foundation
import Testing

@testable import PushTranscoder

/// Runs that fail part-way, at random places: a reader that throws at some work item (a
/// corrupt compressed input), a sink that fails at some call (stdout closed, a write error),
/// at 1, 2 and 3 threads, with segments of several sizes (records handed over mid-chunk), and
/// lines of one recipient or hundreds (records of one line over many segments). What holds:
/// no run hangs; the sink is never called after it failed; the output is a prefix of the
/// full run's, and after a reader error exactly the output of the items before it.
@Suite struct PipelineFailureTests {
  /// A sink that keeps what it takes, and fails at call `failAt`.
  final class FailingSink: RecordSink, @unchecked Sendable {
    // Unchecked: called from the writer only.
    let failAt: Int?
    let closes: Bool
    var main: [UInt8] = []
    var calls = 0
    var callsAfterFailure = 0

    init(failAt: Int?, closes: Bool) {
      self.failAt = failAt
      self.closes = closes
    }

    func consume(_ output: borrowing ChunkOutput) throws {
      calls += 1
      if let failAt, calls > failAt { callsAfterFailure += 1 }
      if calls == failAt { throw closes ? SinkError.closedOutput : SinkError.io("write failed") }
      main += output.main.bytes
    }

    func finish(
      stats: RunStats, elapsed: () -> Double, inputBytes: Int, beforeCommit: () throws -> Void
    ) throws { try beforeCommit() }
  }

  /// The work items, handed out in order from any thread; throws at item `throwAt`.
  final class Items: @unchecked Sendable {
    // Unchecked: `index` is guarded by `lock`.
    struct ReaderFault: Error {}
    private let lock = Lock()
    private var index = 0
    let lines: [[[UInt8]]]
    let throwAt: Int?

    init(_ lines: [[[UInt8]]], throwAt: Int?) {
      self.lines = lines
      self.throwAt = throwAt
    }

    func next() throws -> WorkItem? {
      lock.lock()
      defer { lock.unlock() }
      let item = index
      index += 1
      if item == throwAt { throw ReaderFault() }
      return item < lines.count ? .lines(IndexedLinesTests.Lines(storage: lines[item])) : nil
    }
  }

  /// `count` work items of 1 to 20 lines; about one line in 30 has 50 to 450 recipients.
  static func items(_ count: Int, _ random: inout SplitMix64) -> [[[UInt8]]] {
    (0..<count).map { item in
      (0..<Int.random(in: 1...20, using: &random)).map { number in
        let body =
          #""MsgBody":[{"MsgType":"TIMTextElem","MsgContent":{"Text":"hello \#(number)"}}]"#
        if Int.random(in: 0..<30, using: &random) == 0 {
          let recipients = (0..<Int.random(in: 50..<450, using: &random)).map { "\"u\($0)\"" }
          return Array(
            #"{"From_Account":"a","To_Account":[\#(recipients.joined(separator: ","))],"#
              .utf8) + Array(#""MsgKey":"k\#(item)_\#(number)",\#(body)}"#.utf8)
        }
        return Array(#"{"From_Account":"a\#(item)","To_Account":"b",\#(body)}"#.utf8)
      }
    }
  }

  /// One run on a thread of its own; nil when it has not returned within 30 seconds.
  static func run(
    threads: Int, lines: [[[UInt8]]], throwAt: Int? = nil, failAt: Int? = nil,
    closes: Bool = false, segmentBytes: Int = 1 << 30
  ) -> (sink: FailingSink, result: RunResult)? {
    var options = TranscodeOptions()
    options.segmentBytes = segmentBytes
    let sink = FailingSink(failAt: failAt, closes: closes)
    let items = Items(lines, throwAt: throwAt)
    final class Outcome: @unchecked Sendable {
      // Unchecked: written before `done` is signalled, read after it.
      var result: RunResult?
    }
    let outcome = Outcome()
    let done = DispatchSemaphore(value: 0)
    Thread.detachNewThread { [options] in
      outcome.result = Pipeline(threads: threads, cores: 8).run(
        options: options, directory: NameDirectory(), sink: sink
      ) { try items.next() }
      done.signal()
    }
    guard done.wait(timeout: .now() + 30) == .success, let result = outcome.result else {
      return nil
    }
    return (sink, result)
  }

  @Test func aRunThatFailsAnywhereStopsCleanly() {
    var random = SplitMix64(seed: 42)
    var problems: [String] = []
    for round in 0..<40 {
      let lines = Self.items(Int.random(in: 10..<40, using: &random), &random)
      let segmentBytes = [256, 4096, 1 << 20][Int.random(in: 0..<3, using: &random)]
      guard let whole = Self.run(threads: 1, lines: lines)?.sink.main else {
        problems.append("round \(round): the reference run hung")
        continue
      }
      for threads in 1...3 {
        let mode = Int.random(in: 0..<4, using: &random)
        let throwAt = mode == 1 ? Int.random(in: 0..<lines.count, using: &random) : nil
        let failAt = mode >= 2 ? Int.random(in: 1...40, using: &random) : nil
        let closes = mode == 2
        let run =
          "round \(round), \(threads) threads, segments of \(segmentBytes), reader "
          + "fault at \(throwAt.map(String.init) ?? "none"), sink failure at "
          + "\(failAt.map(String.init) ?? "none")"
        guard
          let (sink, result) = Self.run(
            threads: threads, lines: lines, throwAt: throwAt, failAt: failAt, closes: closes,
            segmentBytes: segmentBytes)
        else {
          problems.append("\(run): hung")
          continue
        }
        if sink.callsAfterFailure > 0 {
          problems.append("\(run): \(sink.callsAfterFailure) sink calls after it failed")
        }
        if let throwAt {
          let before = Self.run(threads: 1, lines: Array(lines.prefix(throwAt)))?.sink.main
          if sink.main != before { problems.append("\(run): not the items before the fault") }
          if result.fatal == nil { problems.append("\(run): the reader's fault was lost") }
        } else if let failAt, sink.calls >= failAt {
          let prefix = sink.main.count <= whole.count && sink.main[...] == whole[..<sink.main.count]
          if !prefix { problems.append("\(run): not a prefix of the whole output") }
          if result.closedOutput != closes || (result.fatal != nil) == closes {
            problems.append("\(run): the failure was not reported")
          }
        } else if sink.main != whole || result.fatal != nil {
          problems.append("\(run): not the whole output")
        }
      }
    }
    // One Bool: an expectation on the array would print every problem.
    let none = problems.isEmpty
    #expect(none, "\(problems.count) problems: \(problems.prefix(5))")
  }
}
