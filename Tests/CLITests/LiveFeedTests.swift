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

    /// Each record is read before the next line is written, with the feed kept open. Without
    /// the idle hand-off the first read would wait for ever: a watchdog ends the feed after a
    /// minute so that the test fails instead of hanging.
    @Test(arguments: ["1", "2"])
    func eachLinesRecordsComeOutWhileTheFeedWaits(threads: String) throws {
      let process = Process()
      process.executableURL = URL(fileURLWithPath: CLI.binary)
      process.arguments = ["--vendors", "apns", "-o", "-", "--threads", threads]
      let feed = Pipe()
      let records = Pipe()
      process.standardInput = feed
      process.standardOutput = records
      process.standardError = FileHandle.nullDevice
      try process.run()
      let watch = Watch()
      let writer = feed.fileHandleForWriting
      DispatchQueue.global().asyncAfter(deadline: .now() + 60) {
        if watch.received.load(ordering: .relaxed) < 2 {
          watch.fired.store(true, ordering: .relaxed)
          try? writer.close()
        }
      }
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
