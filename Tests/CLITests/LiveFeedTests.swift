import Foundation
import Synchronization
import Testing

extension CLITests {
  /// A live feed on stdin (`tail -f app.log | push-transcode -o -`): a pipe that goes quiet
  /// between lines. Its records come out while the feed waits, not once a 4 MiB buffer fills
  /// or the input ends (`ChunkReader.idleMilliseconds`).
  @Suite struct LiveFeedTests {
    static let line = Data(
      #"{"MsgBody":[{"MsgType":"TIMTextElem","MsgContent":{"Text":"hi"}}],"To_Account":"u1"}"#
        .utf8 + [0x0A])

    /// What the watchdog and the test share.
    final class Watch: Sendable {
      let fired = Atomic<Bool>(false)
      let received = Atomic<Int>(0)

      /// A minute on, closes `writer` (ending the feed) and sets `fired` unless `expected`
      /// reads were counted in `received` by then.
      func closeAfterAMinute(_ writer: FileHandle, unlessReceived expected: Int) {
        DispatchQueue.global().asyncAfter(deadline: .now() + 60) {
          if self.received.load(ordering: .relaxed) < expected {
            self.fired.store(true, ordering: .relaxed)
            try? writer.close()
          }
        }
      }
    }

    /// Starts an apns stream run on `threads` threads, fed and read through pipes.
    static func startFed(threads: String) throws -> (Process, feed: Pipe, records: Pipe) {
      try startFed(["--vendors", "apns", "-o", "-", "--threads", threads])
    }

    /// Starts the binary with `arguments`, fed and read through pipes.
    static func startFed(_ arguments: [String]) throws -> (Process, feed: Pipe, records: Pipe) {
      let process = Process()
      process.executableURL = URL(fileURLWithPath: CLI.binary)
      process.arguments = arguments
      let feed = Pipe()
      let records = Pipe()
      process.standardInput = feed
      process.standardOutput = records
      process.standardError = FileHandle.nullDevice
      try process.run()
      return (process, feed, records)
    }

    /// Reads from `handle` until a `\n` arrives or the pipe ends; returns what came.
    static func readLine(_ handle: FileHandle) -> String {
      var bytes = Data()
      while !bytes.contains(0x0A) {
        let more = handle.availableData
        if more.isEmpty { break }
        bytes += more
      }
      return String(decoding: bytes, as: UTF8.self)
    }

    /// A feed that never goes quiet for 100 ms (a line every 30 ms): a line's records still come
    /// out within about the delay, while the feed goes on writing, not once a buffer fills or
    /// the feed ends; and every line's record comes out once.
    @Test func aSteadyFeedsRecordsComeOutWhileItGoesOnWriting() throws {
      let (process, feed, records) = try Self.startFed(threads: "1")
      let total = 200
      let written = Atomic<Int>(0)
      let writer = feed.fileHandleForWriting
      let done = DispatchSemaphore(value: 0)
      DispatchQueue.global().async {
        for _ in 0..<total {
          writer.write(Self.line)
          written.add(1, ordering: .relaxed)
          usleep(30_000)
        }
        try? writer.close()
        done.signal()
      }
      let first = Self.readLine(records.fileHandleForReading)
      let writtenThen = written.load(ordering: .relaxed)
      #expect(first.hasPrefix("{\"source\":\"-\",\"line\":1,"), "\(first)")
      // About 4 lines are written by then; 100 (3 s) leaves room for a loaded machine, and
      // waiting for the feed to end would make it 200.
      #expect(writtenThen < total / 2, "the first record came after \(writtenThen) lines")
      var rest = Data()
      while true {
        let more = records.fileHandleForReading.availableData
        if more.isEmpty { break }
        rest += more
      }
      done.wait()
      process.waitUntilExit()
      #expect(process.terminationStatus == 0)
      let lines = CLI.lines(first + String(decoding: rest, as: UTF8.self))
      #expect(lines.count == total)
      for (index, record) in lines.enumerated() {
        #expect(record.hasPrefix("{\"source\":\"-\",\"line\":\(index + 1),"))
      }
    }

    /// `explain` on a live feed (`tail -f app.log | push-transcode explain - --line 1 ...`) prints
    /// each line's explanation as the line arrives, in the order asked: it printed them all
    /// once the last was read, holding every one in memory until then (2,000 lines of the
    /// benchmark corpus: 83 MB for 13 MB of text). Without streaming the first read waits for
    /// ever: a watchdog ends the feed after a minute so that the test fails instead of hanging.
    @Test(arguments: [false, true])
    func explainPrintsEachLineAsItArrives(json: Bool) throws {
      let (process, feed, explained) = try Self.startFed(
        ["explain", "-", "--vendors", "apns", "--line", "1", "--line", "2"]
          + (json ? ["--json"] : []))
      let watch = Watch()
      let writer = feed.fileHandleForWriting
      watch.closeAfterAMinute(writer, unlessReceived: 1)
      writer.write(Self.line)
      // The first bytes of line 1's explanation (a JSON element ends with no newline).
      let first = String(decoding: explained.fileHandleForReading.availableData, as: UTF8.self)
      watch.received.add(1, ordering: .relaxed)
      if watch.fired.load(ordering: .relaxed) {
        Issue.record("line 1's explanation came only when the feed ended")
      } else {
        writer.write(Self.line)
        try writer.close()
      }
      let rest = explained.fileHandleForReading.readDataToEndOfFile()
      process.waitUntilExit()
      #expect(process.terminationStatus == 0)
      let output = first + String(decoding: rest, as: UTF8.self)
      if json {
        #expect(first.hasPrefix(#"[{"line":1,"#), "\(first)")
        let array = try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [[String: Any]]
        #expect(array?.compactMap { $0["line"] as? Int } == [1, 2])
      } else {
        #expect(first.hasPrefix("line 1\n"), "\(first)")
        #expect(output.contains("\nline 2\n"), "\(output)")
      }
    }

    /// Each record is read before the next line is written, with the feed kept open. Without
    /// the idle hand-off the first read would wait for ever: a watchdog ends the feed after a
    /// minute so that the test fails instead of hanging.
    @Test(arguments: ["1", "2"])
    func eachLinesRecordsComeOutWhileTheFeedWaits(threads: String) throws {
      let (process, feed, records) = try Self.startFed(threads: threads)
      let watch = Watch()
      let writer = feed.fileHandleForWriting
      watch.closeAfterAMinute(writer, unlessReceived: 2)
      for number in 1...2 {
        writer.write(Self.line)
        let record = Self.readLine(records.fileHandleForReading)
        watch.received.add(1, ordering: .relaxed)
        #expect(record.hasPrefix("{\"source\":\"-\",\"line\":\(number),"), "\(record)")
        if watch.fired.load(ordering: .relaxed) {
          Issue.record("record \(number) came only when the feed ended")
          break
        }
      }
      if !watch.fired.load(ordering: .relaxed) { try writer.close() }
      process.waitUntilExit()
      #expect(process.terminationStatus == 0)
    }
  }
}
