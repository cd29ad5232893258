import Foundation
import PushTranscoder

/// The hostile workload: every `HostileShape` at two sizes, the larger holding four
/// times the items of the smaller, transcoded to all nine vendors (or those the shape names,
/// `HostileShape.vendors`) at one thread. A stage that
/// is linear in the line's bytes shows about the same MB/s at both sizes and a time ratio near
/// 4; a quadratic one shows a ratio near 16.
enum HostileBench {
  /// Runs every shape (or those whose name contains `filter`) and prints the table.
  /// `smallBytes` is the target size of the smaller line.
  static func run(smallBytes: Int, rounds: Int, filter: String?, writeDirectory: String?) {
    let clock = ContinuousClock()
    print(
      "| shape | items | MB | best s | MB/s | items ×4 | MB | best s | MB/s | time ratio |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    for shape in HostileShape.allCases {
      if let filter, !shape.rawValue.contains(filter) { continue }
      // Items for a line of about `smallBytes`, from the size of a line of 1,000 items.
      let probe = shape.line(1000).count
      let items = max(4, Int(Double(smallBytes) / Double(probe) * 1000))
      var cells: [String] = []
      var times: [Double] = []
      let lines = [items, items * 4].map { (size: $0, line: shape.line($0)) }
      if let writeDirectory {
        // The directory is made if it is missing, as `-o DIR` makes its own.
        try? FileManager.default.createDirectory(
          atPath: writeDirectory, withIntermediateDirectories: true)
        for (size, line) in lines {
          let name = shape.rawValue.map { $0.isLetter || $0.isNumber ? $0 : "-" }
          let path = "\(writeDirectory)/\(String(name))-\(size).ndjson"
          guard FileManager.default.createFile(atPath: path, contents: Data(line + [0x0A])) else {
            fatalError("push-transcode-bench: cannot write \(path)")
          }
        }
      }
      // The two sizes take turns, round by round, so that both meet the same state of a shared
      // host (its speed drifts by half over seconds); each keeps its best round.
      var best = [Double.infinity, Double.infinity]
      var checks: [Int?] = [nil, nil]
      // One processor per size, kept from round to round as a worker keeps its own from line
      // to line: the first round grows its tape and buffers to the line (fresh pages, counted
      // in that round only), later rounds measure the work per line.
      var options = TranscodeOptions()
      options.vendors = shape.vendors
      var smaller = LineProcessor(options: options, directory: NameDirectory())
      var larger = LineProcessor(options: options, directory: NameDirectory())
      for _ in 0..<max(1, rounds) {
        for index in lines.indices {
          let start = clock.now
          let produced =
            index == 0
            ? process(shape, lines[index].line, &smaller)
            : process(shape, lines[index].line, &larger)
          best[index] = min(best[index], seconds(clock.now - start))
          if let check = checks[index], check != produced {
            fail("\(shape.rawValue) is not deterministic")
          }
          checks[index] = produced
        }
      }
      for index in lines.indices {
        let megabytes = Double(lines[index].line.count) / 1e6
        times.append(best[index])
        cells += [
          "\(lines[index].size)", String(format: "%.3f", megabytes),
          String(format: "%.4f", best[index]), String(format: "%.1f", megabytes / best[index]),
        ]
      }
      print(
        "| \(shape.rawValue) | " + cells.joined(separator: " | ")
          + String(format: " | %.1f |", times[1] / times[0]))
    }
  }

  /// One pass over `line`: all nine vendors for a message line (through `processor`); loading
  /// the entries for a directory shape. Returns the bytes produced (records, or entries), the pass's check value.
  static func process(
    _ shape: HostileShape, _ line: [UInt8], _ processor: inout LineProcessor
  ) -> Int {
    if shape.isDirectory {
      var directory = NameDirectory()
      var tokenizer = JSONTokenizer()
      var entries = 0
      line.withUnsafeBufferPointer { all in
        var start = 0
        while start < all.count {
          let end = all[start...].firstIndex(of: 0x0A) ?? all.count
          let part = UnsafeBufferPointer(rebasing: all[start..<end])
          if tokenizer.parse(part) == nil,
            tokenizer.withDocument(part, { directory.ingest($0) }) == .user
          {
            entries += 1
          }
          start = end + 1
        }
      }
      return entries
    }
    // Sized as a worker sizes it (`Worker.process`), so the line's records are written as the
    // CLI writes them, into a recycled buffer with room for them, not one grown by doubling.
    var output = ChunkOutput(
      sequence: 0, source: SourceName("hostile"),
      expectedBytes: processor.expectedOutputBytes(input: line.count + 1))
    line.withUnsafeBufferPointer { processor.process(line: $0, number: 1, into: &output) }
    let produced = output.main.count + output.rejects.count
    output.recycle()
    return produced
  }
}
