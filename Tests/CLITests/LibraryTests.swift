import Foundation
import Glibc
import PushTranscoder
import Testing

/// The public library API against the command: the README's example program, built as the
/// package's `transcode-one-line` target, and the API's records and runs, byte for byte what
/// `push-transcode` writes for the same input and options.
@Suite struct LibraryTests {
  /// The built example, next to the built `push-transcode`.
  static let example = URL(fileURLWithPath: CLI.binary).deletingLastPathComponent()
    .appendingPathComponent("transcode-one-line").path

  @Test func readmeExampleIsTheExampleProgramAndPrintsTheRecordShown() throws {
    let root = CLI.packageRoot
    let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
    let program = try String(
      contentsOf: root.appendingPathComponent("Examples/transcode-one-line/main.swift"),
      encoding: .utf8)
    let section = try #require(
      readme.components(separatedBy: "## Use it from Swift").dropFirst().first,
      "README has no 'Use it from Swift' section")
    let blocks = DocumentedExampleTests.codeBlocks(section)
    try #require(blocks.count >= 2, "the section needs the program and its output")
    #expect(blocks[0] + "\n" == program, "README's program differs from the example file")
    let result = try CLI.execute(Self.example, [])
    #expect(result.status == 0, "\(result.stderrText)")
    #expect(result.stdoutText == blocks[1] + "\n")
  }

  /// The option sets the golden files use, as command-line arguments and as API options.
  static let optionSets: [(arguments: [String], options: TranscoderOptions)] = {
    var sets: [([String], TranscoderOptions)] = [([], TranscoderOptions())]
    var zh = TranscoderOptions()
    zh.locale = .zh
    sets.append((["--locale", "zh"], zh))
    var banner = TranscoderOptions()
    banner.display = .banner
    sets.append((["--display", "banner"], banner))
    var title = TranscoderOptions()
    title.defaultTitle = "通知 \"Inbox\""
    sets.append((["--default-title", "通知 \"Inbox\""], title))
    sets.append(
      (
        ["--vendors", "vivo,apns"],
        TranscoderOptions(vendors: ["vivo", "apns"].map { Vendor(name: $0)! })
      ))
    var replace = TranscoderOptions()
    replace.unicode = .replace
    replace.maxLineBytes = 300
    sets.append((["--unicode", "replace", "--max-line-bytes", "300"], replace))
    return sets
  }()

  /// Every `Corpus/messages` file and the generated corpus with malformed lines.
  static func inputs() throws -> [String] {
    let messages = try FileManager.default.contentsOfDirectory(
      atPath: CLI.packageRoot.appendingPathComponent("Corpus/messages").path
    ).filter { $0.hasSuffix(".ndjson") }.sorted().map { "Corpus/messages/" + $0 }
    return messages + (CLI.hasPython ? [try Corpus.smallMalformed] : [])
  }

  @Test(arguments: 0..<optionSets.count)
  func transcoderWritesTheCommandsRecordsAndStats(set: Int) throws {
    let (arguments, options) = Self.optionSets[set]
    let dir = try TemporaryDirectory()
    defer { dir.remove() }
    for input in try Self.inputs() {
      let stats = dir.file("stats.json")
      let command = try CLI.run(
        [input, "-o", "-", "--threads", "1", "--stats", stats] + arguments, in: CLI.packageRoot)
      #expect(command.status == 0, "\(command.stderrText)")
      let bytes = try [UInt8](
        Data(contentsOf: URL(fileURLWithPath: input, relativeTo: CLI.packageRoot)))
      let transcoder = try Transcoder(options: options, source: input)
      let records = transcoder.transcode(lines: bytes)
      let text = records.map { $0.text + "\n" }.joined()
      #expect(text == command.stdoutText, "\(input) \(arguments)")
      let commandStats = try String(contentsOfFile: stats, encoding: .utf8)
      #expect(transcoder.stats.json + "\n" == commandStats, "\(input) \(arguments)")

      // The same lines one at a time give the same records.
      let single = try Transcoder(options: options, source: input)
      var lines = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
      if bytes.last == UInt8(ascii: "\n") { lines.removeLast() }
      let oneByOne = lines.flatMap { line -> [TranscodedRecord] in
        var line = Array(line)
        if line.last == UInt8(ascii: "\r") { line.removeLast() }
        return single.transcode(line: line)
      }
      #expect(oneByOne == records, "\(input) \(arguments)")
      #expect(single.stats == transcoder.stats)
    }
  }

  /// A transcoder with `--directory` files writes what the command writes with them: the bad
  /// directory lines' rejects first, then the records, names from the directory, and the same
  /// stats. It had no way to take a directory, so its records lacked the display names.
  @Test func transcoderWithDirectoriesWritesTheCommandsRecordsAndStats() throws {
    let dir = try TemporaryDirectory()
    defer { dir.remove() }
    let names = CLI.packageRoot.appendingPathComponent("Corpus/messages/directory.ndjson").path
    try dir.write(
      "bad-names.ndjson",
      Data(
        "{\"GroupId\":\"@TGS#x\",\"Name\":\"X\"}\n{\"GroupId\":\n\n{\"Name\":\"no id\"}\n".utf8))
    let directories = [names, dir.file("bad-names.ndjson")]
    let input = "Corpus/messages/tencent-display.ndjson"
    let stats = dir.file("stats.json")
    let command = try CLI.run(
      [input, "-o", "-", "--threads", "1", "--stats", stats]
        + directories.flatMap { ["--directory", $0] }, in: CLI.packageRoot)
    #expect(command.status == 0, "\(command.stderrText)")

    let transcoder = try Transcoder(source: input, directories: directories)
    let badNames = transcoder.directoryRejects.filter { $0.text.contains("bad-names.ndjson") }
    #expect(badNames.map(\.line) == [2, 4])
    #expect(
      transcoder.directoryRejects.allSatisfy {
        if case .reject(let reject) = $0.kind { return reject.vendor == nil }
        return false
      })
    let bytes = try [UInt8](
      Data(contentsOf: CLI.packageRoot.appendingPathComponent(input)))
    let records = transcoder.directoryRejects + transcoder.transcode(lines: bytes)
    let text = records.map { $0.text + "\n" }.joined()
    #expect(text == command.stdoutText)
    #expect(text.contains("Nickname:"), "no record took its name from the directory")
    #expect(transcoder.stats.json + "\n" == (try String(contentsOfFile: stats, encoding: .utf8)))

    #expect(throws: TranscodeError.self) {
      try Transcoder(directories: [dir.file("absent.ndjson")])
    }
  }

  /// A buffer holding only a byte-order mark has no line, as a file holding only one has none
  /// for the command; it was counted as one blank line.
  @Test func aBufferHoldingOnlyAByteOrderMarkHasNoLine() throws {
    let dir = try TemporaryDirectory()
    defer { dir.remove() }
    try dir.write("bom.ndjson", Data([0xEF, 0xBB, 0xBF]))
    let stats = dir.file("stats.json")
    let command = try CLI.run([dir.file("bom.ndjson"), "-o", "-", "--stats", stats])
    #expect(command.status == 0)
    let transcoder = try Transcoder()
    #expect(transcoder.transcode(lines: [0xEF, 0xBB, 0xBF]).isEmpty)
    #expect(transcoder.stats.lines == 0)
    #expect(transcoder.stats.json + "\n" == (try String(contentsOfFile: stats, encoding: .utf8)))
    // Two marks: the command drops the first and rejects line 1, which starts with the second
    // (the buffer's mark was dropped, then the line's).
    let twice = try Transcoder()
    let doubled = twice.transcode(
      lines: [0xEF, 0xBB, 0xBF, 0xEF, 0xBB, 0xBF] + Array(#"{"To_Account":"b"}"#.utf8))
    #expect(doubled.count == 1)
    if case .reject(let reject)? = doubled.first?.kind {
      #expect(reject.reason == "syntax")
    } else {
      Issue.record("expected a syntax reject, got \(doubled)")
    }
    // After the mark, the first line is still line 1.
    let records = transcoder.transcode(
      lines: Array(
        #"{"To_Account":"b","MsgBody":[{"MsgType":"TIMTextElem","MsgContent":{"Text":"hi"}}]}"#
          .utf8))
    #expect(records.first?.line == 1)
  }

  @Test func rejectsCarryReasonVendorDetailAndOffset() throws {
    let transcoder = try Transcoder(options: TranscoderOptions(vendors: [Vendor(name: "huawei")!]))
    let records = transcoder.transcode(line: #"{"a":1,}"#)
    try #require(records.count == 1)
    #expect(records[0].line == 1)
    #expect(
      records[0].kind
        == .reject(
          LineReject(reason: "syntax", vendor: nil, detail: "expected a string key", offset: 7)))
    #expect(transcoder.stats.rejectedByReason == ["syntax": 1])

    // Line 102 of budgets-bytes.ndjson is over the budgets of six vendors (SPEC 5).
    let corpus = try [UInt8](
      Data(
        contentsOf: CLI.packageRoot.appendingPathComponent("Corpus/messages/budgets-bytes.ndjson")))
    let refusals = try Transcoder().transcode(lines: corpus).filter { $0.line == 102 }
    let refused = refusals.compactMap { record -> LineReject? in
      if case .reject(let reject) = record.kind { return reject }
      return nil
    }
    #expect(
      refused.map(\.vendor)
        == ["fcm", "huawei", "honor", "harmony", "oppo", "vivo"].map { Vendor(name: $0)! })
    #expect(refused.allSatisfy { $0.reason == "over-budget" && $0.offset == 0 })
    #expect(refused.first?.detail.hasPrefix("fcm payload is 4167 bytes") == true)
    #expect(refusals.contains { $0.kind == .payload(Vendor(name: "apns")!) })
  }

  @Test func jobWritesWhatTheCommandWritesToAStreamAndADirectory() throws {
    let dir = try TemporaryDirectory()
    defer { dir.remove() }
    let input = "Corpus/sample.ndjson"
    let path = CLI.packageRoot.appendingPathComponent(input).path
    let command = try CLI.run([path, "-o", dir.file("by-command"), "--compress", "lz4"])
    #expect(command.status == 0, "\(command.stderrText)")
    let stream = try CLI.run([path, "-o", "-", "--vendors", "fcm,oppo"])

    var job = TranscodeJob(inputs: [path], output: .directory(dir.file("by-library")))
    job.compression = .lz4
    job.threads = 2
    let result = try job.run()
    #expect(result.exitStatus == 0)
    let stats = try #require(result.stats)
    #expect(
      stats.lines > 0
        && stats.lines == stats.transcoded + stats.skipped + stats.rejected + stats.blank)
    let manifest = { (name: String) throws -> Data in try dir.read(name + "/manifest.json") }
    // Only `timing` may differ (SPEC 6.8).
    func withoutTiming(_ data: Data) -> String {
      String(decoding: data, as: UTF8.self).replacingOccurrences(
        of: #","timing":\{[^}]*\}"#, with: "", options: .regularExpression)
    }
    #expect(withoutTiming(try manifest("by-library")) == withoutTiming(try manifest("by-command")))

    let file = dir.file("stream.ndjson")
    let descriptor = open(file, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    try #require(descriptor >= 0)
    var streamJob = TranscodeJob(inputs: [path], output: .stream(fileDescriptor: descriptor))
    streamJob.options.vendors = [Vendor(name: "oppo")!, Vendor(name: "fcm")!]
    let streamResult = try streamJob.run()
    close(descriptor)
    #expect(streamResult.exitStatus == 0)
    #expect(try dir.read("stream.ndjson") == stream.stdout)
  }

  /// The command's `--framing`, `--report`, `--no-sync` and `--chunk-bytes` are the job's too
  /// (a program feeding Spark's `TRANSFORM` needs the TSV framing); they had no public setting.
  @Test func jobTakesTheFramingReportSyncAndChunkOptions() throws {
    let dir = try TemporaryDirectory()
    defer { dir.remove() }
    let path = CLI.packageRoot.appendingPathComponent("Corpus/sample.ndjson").path
    let tsv = try CLI.run([path, "-o", "-", "--framing", "tsv", "--chunk-bytes", "65536"])
    #expect(tsv.status == 0, "\(tsv.stderrText)")
    let file = dir.file("stream.tsv")
    let descriptor = open(file, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    try #require(descriptor >= 0)
    var job = TranscodeJob(inputs: [path], output: .stream(fileDescriptor: descriptor))
    job.framing = .tsv
    job.chunkBytes = 65536
    job.reportPath = dir.file("run.html")
    _ = try job.run()
    close(descriptor)
    #expect(try dir.read("stream.tsv") == tsv.stdout)
    #expect(tsv.stdoutText.hasPrefix("apns\t1\t"))
    let page = try String(contentsOfFile: dir.file("run.html"), encoding: .utf8)
    #expect(page.hasPrefix("<!DOCTYPE html>"))

    var batches = TranscodeJob(inputs: [path], output: .directory(dir.file("out")))
    batches.sync = false
    #expect(try batches.run().exitStatus == 0)
    let command = try CLI.run([path, "-o", dir.file("by-command"), "--no-sync"])
    #expect(command.status == 0)
    #expect(
      try dir.read("out/apns/batch-000001.ndjson")
        == dir.read("by-command/apns/batch-000001.ndjson"))

    // TSV is for a stream; chunks have the command's bounds.
    batches.framing = .tsv
    batches.force = true
    #expect(throws: TranscodeError.self) { try batches.run() }
    batches.framing = .ndjson
    for bytes in [65535, (1 << 30) + 1] {
      batches.chunkBytes = bytes
      #expect(throws: TranscodeError.self) { try batches.run() }
    }
  }

  @Test func jobReportsTheRejectLimitAndFatalErrors() throws {
    let dir = try TemporaryDirectory()
    defer { dir.remove() }
    try dir.write("in.ndjson", Data("{\"x\":1}\nnot json\n".utf8))
    let descriptor = open("/dev/null", O_WRONLY)
    defer { close(descriptor) }
    var job = TranscodeJob(
      inputs: [dir.file("in.ndjson")], output: .stream(fileDescriptor: descriptor))
    job.maxRejects = 1
    let result = try job.run()
    #expect(result.exitStatus == 3)
    #expect(result.stats?.rejected == 2)

    // An existing output directory without `force` is the command's status 1.
    try FileManager.default.createDirectory(
      atPath: dir.file("out/apns"), withIntermediateDirectories: true)
    let existing = TranscodeJob(
      inputs: [dir.file("in.ndjson")], output: .directory(dir.file("out")))
    #expect(throws: TranscodeError.self) { try existing.run() }

    // A descriptor that is not open for writing is named in the failure of the first write
    // (it was reported as "stdout").
    let readOnly = open("/dev/null", O_RDONLY)
    defer { close(readOnly) }
    for descriptor in [Int32(9999), readOnly] {
      let stale = TranscodeJob(
        inputs: [dir.file("in.ndjson")], output: .stream(fileDescriptor: descriptor))
      #expect(
        throws: TranscodeError.fatal(
          "cannot write to output descriptor \(descriptor): Bad file descriptor")
      ) {
        try stale.run()
      }
    }

    let missing = TranscodeJob(
      inputs: [dir.file("absent.ndjson")], output: .directory(dir.file("o2")))
    do {
      _ = try missing.run()
      Issue.record("a missing input must be a fatal error")
    } catch {
      guard case .fatal(let message) = error else {
        Issue.record("expected .fatal, got \(error)")
        return
      }
      #expect(message.contains("absent.ndjson"))
    }
  }

  @Test func jobRefusesOptionsOutOfRangeBeforeItStarts() throws {
    let dir = try TemporaryDirectory()
    defer { dir.remove() }
    var job = TranscodeJob(inputs: ["-"], output: .directory(dir.file("never")))
    job.compression = .gzip
    job.level = 10
    #expect(throws: TranscodeError.self) { try job.run() }
    job.compression = .lz4
    job.level = 13
    #expect(throws: TranscodeError.self) { try job.run() }
    // Without compression a level either codec accepts is allowed; 13 is not.
    job.compression = .none
    #expect(throws: TranscodeError.self) { try job.run() }
    job.compression = .gzip
    job.level = nil
    job.threads = 0
    #expect(throws: TranscodeError.self) { try job.run() }
    job.threads = 1
    job.options.vendors = []
    #expect(throws: TranscodeError.self) { try job.run() }
    job.options = TranscoderOptions()
    job.options.maxLineBytes = 0
    #expect(throws: TranscodeError.self) { try job.run() }
    #expect(!FileManager.default.fileExists(atPath: dir.file("never")))
  }

  /// The library leaves the process's signal dispositions alone: they are the command's to set
  /// (`ProcessSettings`), and the command still sets them (`| head` and `ulimit -f` tests).
  @Test func jobLeavesSignalDispositionsAlone() throws {
    let dir = try TemporaryDirectory()
    defer { dir.remove() }
    try dir.write("in.ndjson", Data("{\"x\":1}\n".utf8))
    // SIGXFSZ is raised only past a file-size limit, which no test sets: its default action is
    // safe to restore here.
    signal(SIGXFSZ, SIG_DFL)
    let pipeBefore = signal(SIGPIPE, SIG_IGN)
    signal(SIGPIPE, pipeBefore)
    let job = TranscodeJob(inputs: [dir.file("in.ndjson")], output: .directory(dir.file("out")))
    _ = try job.run()
    let xfsz = signal(SIGXFSZ, SIG_DFL)
    let pipeAfter = signal(SIGPIPE, pipeBefore)
    #expect(Self.address(xfsz) == Self.address(SIG_DFL), "the run changed SIGXFSZ")
    #expect(Self.address(pipeAfter) == Self.address(pipeBefore), "the run changed SIGPIPE")
  }

  /// A disposition as a number, to compare two of them.
  static func address(_ handler: __sighandler_t?) -> Int {
    // Safe because a C function pointer, or nil, is one pointer-sized word.
    unsafeBitCast(handler, to: Int.self)
  }
}
