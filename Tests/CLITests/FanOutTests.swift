import Foundation
import Testing

extension CLITests {
  /// A message naming many recipients makes records hundreds of times the size of its line:
  /// apns writes one record per recipient. They leave for stdout or the batches in segments
  /// (`OutputSegments`), so the run's memory does not grow with them. Before, a 400 KB line of
  /// 100,000 recipients (400 MB of records) took 543 MB, and a 4.8 MB line of 1.2 million took
  /// 8.5 GB and crashed a batch run once its records passed 4 GiB.
  @Suite(.enabled(if: CLI.hasPython, "needs python3 to measure peak memory"))
  struct FanOutTests {
    /// A Tencent message to `recipients` recipients, with an ext of 3,900 bytes: each apns
    /// record is about 4 KB.
    static func line(recipients: Int) -> String {
      let targets = [String](repeating: #""r""#, count: recipients).joined(separator: ",")
      let ext = String(repeating: "x", count: 3900)
      return
        #"{"From_Account":"a","To_Account":[\#(targets)],"MsgBody":[{"MsgType":"TIMTextElem","MsgContent":{"Text":"hi"}}],"OfflinePushInfo":{"Ext":"\#(ext)"}}"#
        + "\n"
    }

    /// Runs the binary with `arguments` under a python3 parent that has no other child, and
    /// returns its exit status and peak resident memory in MB.
    static func peak(_ arguments: [String]) throws -> (status: Int32, megabytes: Double) {
      let result = try CLI.python(
        """
        import resource, subprocess, sys
        done = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        print(done.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
        """, [CLI.binary] + arguments)
      let fields = result.stdoutText.split(separator: " ")
      guard result.status == 0, fields.count == 2, let status = Int32(fields[0]),
        let kilobytes = Double(fields[1].trimmingCharacters(in: .whitespacesAndNewlines))
      else { throw CLIError("measuring failed: \(result.stdoutText)\(result.stderrText)") }
      return (status, kilobytes / 1024)
    }

    @Test func memoryDoesNotGrowWithTheRecordsOfOneLine() throws {
      let dir = try TemporaryDirectory()
      defer { dir.remove() }
      try dir.write("small.ndjson", Data(Self.line(recipients: 10_000).utf8))
      try dir.write("large.ndjson", Data(Self.line(recipients: 100_000).utf8))
      // The large line's records: 100,000 of them, some 400 MB.
      let counted = try CLI.sh(
        #""$BIN" large.ndjson --vendors apns --stats stats.json > /dev/null"#, in: dir.url)
      #expect(counted.status == 0, "\(counted.stderrText)")
      let json = try JSONSerialization.jsonObject(with: dir.read("stats.json")) as? [String: Any]
      #expect((json?["records"] as? [String: Any])?["apns"] as? Int == 100_000)

      for threads in ["1", "2"] {
        let stream = ["--vendors", "apns", "-o", "-", "--threads", threads]
        let small = try Self.peak([dir.file("small.ndjson")] + stream)
        let large = try Self.peak([dir.file("large.ndjson")] + stream)
        #expect(small.status == 0 && large.status == 0)
        // The records grow by some 360 MB from the small line to the large one.
        #expect(large.megabytes - small.megabytes < 100, "\(small) \(large), \(threads) threads")

        let batches = ["--vendors", "apns", "--compress", "lz4", "--threads", threads, "-o"]
        let smallBatches = try Self.peak(
          [dir.file("small.ndjson")] + batches + [dir.file("s\(threads)")])
        let largeBatches = try Self.peak(
          [dir.file("large.ndjson")] + batches + [dir.file("l\(threads)")])
        #expect(smallBatches.status == 0 && largeBatches.status == 0)
        #expect(
          largeBatches.megabytes - smallBatches.megabytes < 100,
          "\(smallBatches) \(largeBatches), \(threads) threads")
      }
    }

    /// One batch for the whole run (`--batch-records` above its record count) is written as it
    /// grows (`SpilledBatch`), not held whole: here 30,000 records, some 120 MB, in one file.
    @Test(arguments: ["none", "lz4", "gzip"])
    func memoryDoesNotGrowWithTheSizeOfABatch(compress: String) throws {
      let dir = try TemporaryDirectory()
      defer { dir.remove() }
      try dir.write("line.ndjson", Data(Self.line(recipients: 30_000).utf8))
      let common = [
        dir.file("line.ndjson"), "--vendors", "apns", "--compress", compress, "--level", "1",
        "--threads", "2", "--no-sync", "-o",
      ]
      let batches = try Self.peak(common + [dir.file("batches"), "--batch-records", "1000"])
      let whole = try Self.peak(common + [dir.file("whole"), "--batch-records", "100000000"])
      #expect(batches.status == 0 && whole.status == 0)
      let manifest =
        try JSONSerialization.jsonObject(with: dir.read("whole/manifest.json")) as? [String: Any]
      let entries = manifest?["batches"] as? [[String: Any]] ?? []
      #expect(entries.count == 1)
      #expect(entries.first?["records"] as? Int == 30_000)
      #expect((entries.first?["bytes"] as? Int ?? 0) > 100_000_000)
      #expect(whole.megabytes - batches.megabytes < 50, "\(batches) \(whole)")
    }
  }
}
