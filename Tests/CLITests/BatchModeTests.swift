import Foundation
import Glibc
import Testing

extension CLITests {
  /// SPEC 6.2: `-o DIR`.
  @Suite(needsGenerator) struct BatchModeTests {
    @Test(arguments: [("none", ""), ("gzip", ".gz"), ("lz4", ".lz4")])
    func batchesMatchTheStreamRunAndTheManifest(compress: String, suffix: String) throws {
      let dir = try TemporaryDirectory()
      defer { dir.remove() }
      let input = try Corpus.smallMalformed
      try PythonChecks.writeStreamReference(of: input, in: dir)
      let batch = try CLI.run([
        input, "-o", dir.file("out"), "--compress", compress, "--batch-records", "150",
        "--threads", "2",
      ])
      #expect(batch.status == 0, "\(batch.stderrText)")
      #expect(batch.stdout.isEmpty)
      #expect(batch.stderrText.contains(" lines: "), "no summary: \(batch.stderrText)")
      let check = try CLI.python(
        PythonChecks.batches,
        [
          dir.file("out"), dir.file("stream.ndjson"), dir.file("stream-rejects.ndjson"),
          dir.file("stats.json"), "150", suffix,
        ])
      #expect(check.status == 0, "\(check.stdoutText)\(check.stderrText)")
    }

    /// `--rejects FILE` with `-o DIR` was ignored without a word: the file now gets the same
    /// reject records as `DIR/rejects.ndjson` (the stream run's rejects).
    @Test func aRejectsFileInBatchModeGetsTheDirectorysRejects() throws {
      let dir = try TemporaryDirectory()
      defer { dir.remove() }
      let input = try Corpus.smallMalformed
      let stream = try CLI.run([input, "--rejects", dir.file("stream-rejects.ndjson")])
      #expect(stream.status == 0, "\(stream.stderrText)")
      let batch = try CLI.run([
        input, "-o", dir.file("out"), "--rejects", dir.file("batch-rejects.ndjson"),
      ])
      #expect(batch.status == 0, "\(batch.stderrText)")
      let copy = try Data(contentsOf: URL(fileURLWithPath: dir.file("batch-rejects.ndjson")))
      let inDirectory = try Data(contentsOf: URL(fileURLWithPath: dir.file("out/rejects.ndjson")))
      let streamed = try Data(contentsOf: URL(fileURLWithPath: dir.file("stream-rejects.ndjson")))
      #expect(!copy.isEmpty)
      #expect(copy == inDirectory)
      #expect(copy == streamed)
    }

    /// The manifest records the level in effect: the default level and the same level given
    /// explicitly write the same batches and the same manifest (SPEC 6.8: only `timing` may
    /// differ). It said `"level":null` for the default.
    @Test(arguments: [("gzip", "6"), ("lz4", "1")])
    func theManifestRecordsTheLevelInEffect(compress: String, level: String) throws {
      let dir = try TemporaryDirectory()
      defer { dir.remove() }
      let input = try Corpus.smallMalformed
      let implicit = try CLI.run([input, "-o", dir.file("a"), "--compress", compress])
      let explicit = try CLI.run([
        input, "-o", dir.file("b"), "--compress", compress, "--level", level,
      ])
      #expect(implicit.status == 0 && explicit.status == 0)
      let a = try DeterminismTests.contents(of: dir.file("a"))
      let b = try DeterminismTests.contents(of: dir.file("b"))
      #expect(a == b)
      let manifest = String(decoding: try #require(a["manifest.json"]), as: UTF8.self)
      #expect(manifest.contains("\"level\":\(level),"))
    }

    /// A fatal input error in batch mode: status 1 and no manifest (the run is incomplete), but
    /// the directory holds every record and reject of the lines before the fault, as the stream
    /// does. The open batches were dropped (the summary counted records no file held) and
    /// `rejects.ndjson` stayed under its temporary name.
    /// With `--threads 1` the one thread reads, renders and writes; with 2 a reader thread and
    /// two workers do: the fault is met at a different point of the run, the result is the same.
    @Test(arguments: ["none", "gzip"], ["1", "2"])
    func aCorruptInputLeavesEveryRecordBeforeTheFault(compress: String, threads: String) throws {
      let dir = try TemporaryDirectory()
      defer { dir.remove() }
      try FileManager.default.createDirectory(
        at: dir.url.appendingPathComponent("good"), withIntermediateDirectories: false)
      let made = try CLI.python(
        PythonChecks.corruptGzip, [try Corpus.malformed, "1000", "good/input", "input"],
        in: dir.url)
      try #require(made.status == 0, "\(made.stderrText)")
      // Both runs name their input `input`, so records and rejects have the same `source`.
      let good = try CLI.run(
        ["input", "--rejects", "../good-rejects.ndjson"], in: dir.url.appendingPathComponent("good")
      )
      #expect(good.status == 0, "\(good.stderrText)")
      let cut = try CLI.run(
        [
          "input", "-o", "out", "--batch-records", "400", "--threads", threads, "--compress",
          compress,
        ], in: dir.url)
      #expect(cut.status == 1)
      #expect(cut.stderrText.contains("1000 complete lines"), "\(cut.stderrText)")
      let files = try DeterminismTests.contents(of: dir.file("out"))
      #expect(files["manifest.json"] == nil)
      #expect(files.keys.filter { $0.hasSuffix(".tmp") }.isEmpty, "\(files.keys.sorted())")
      let rejects = try dir.read("good-rejects.ndjson")
      #expect(!rejects.isEmpty)
      #expect(files["rejects.ndjson"] == rejects, "\(files.keys.sorted())")
      // Each vendor's batches, in order, are the good input's records for that vendor.
      var expected: [String: [Substring]] = [:]
      for line in good.stdoutLines {
        expected[try recordHeader(line).vendor, default: []] += [line]
      }
      #expect(expected.count == 9)
      for (vendor, records) in expected {
        let names = files.keys.filter { $0.hasPrefix(vendor + "/batch-") }.sorted()
        #expect(names.count == (records.count + 399) / 400, "\(vendor): \(names)")
        var written = Data()
        for name in names {
          let bytes = try #require(files[name])
          if compress == "gzip" {
            try dir.write("batch.gz", bytes)
            let unzipped = try CLI.sh("gzip -dc batch.gz", in: dir.url)
            #expect(unzipped.status == 0, "\(name): \(unzipped.stderrText)")
            written += unzipped.stdout
          } else {
            written += bytes
          }
        }
        let lines = CLI.lines(String(decoding: written, as: UTF8.self))
        let firstDifference = zip(lines, records).enumerated().first {
          $0.element.0 != $0.element.1
        }
        #expect(
          lines.count == records.count && firstDifference == nil,
          "\(vendor): \(lines.count) of \(records.count) records, first difference at record \(firstDifference?.offset ?? -1)"
        )
      }
    }

    /// TSV framing is for the stream: with `-o DIR` it wrote TSV lines into `.ndjson` batches.
    @Test func tsvFramingWithAnOutputDirectoryIsBadUsage() throws {
      let dir = try TemporaryDirectory()
      defer { dir.remove() }
      let result = try CLI.run([
        try Corpus.smallMalformed, "-o", dir.file("out"), "--framing", "tsv",
      ])
      #expect(result.status == 64)
      #expect(result.stderrText.contains("--framing tsv"))
      #expect(!FileManager.default.fileExists(atPath: dir.file("out")))
    }

    @Test func forceReplacesThePreviousBatches() throws {
      let dir = try TemporaryDirectory()
      defer { dir.remove() }
      let input = try Corpus.smallMalformed
      let out = dir.file("out")
      let first = try CLI.run([input, "-o", out, "--batch-records", "50", "--compress", "gzip"])
      #expect(first.status == 0, "\(first.stderrText)")
      let again = try CLI.run([input, "-o", out, "--batch-records", "150"])
      #expect(again.status == 1)
      #expect(FileManager.default.fileExists(atPath: out + "/apns/batch-000001.ndjson.gz"))
      let forced = try CLI.run([
        input, "-o", out, "--batch-records", "150", "--force", "--vendors", "fcm,apns",
        "--rejects", dir.file("ignored.ndjson"),
      ])
      #expect(forced.status == 0, "\(forced.stderrText)")
      let stream = try CLI.run([
        input, "--vendors", "apns,fcm", "--rejects", dir.file("stream-rejects.ndjson"), "--stats",
        dir.file("stats.json"),
      ])
      try dir.write("stream.ndjson", stream.stdout)
      let check = try CLI.python(
        PythonChecks.batches,
        [
          out, dir.file("stream.ndjson"), dir.file("stream-rejects.ndjson"), dir.file("stats.json"),
          "150", "",
        ])
      #expect(check.status == 0, "\(check.stdoutText)\(check.stderrText)")
    }

    /// `--force` reuses the replaced run's batch files for their inodes (`ReplacedBatches`): the
    /// new batches are what a fresh run writes, an old batch also linked elsewhere is left
    /// alone, and the `.replaced/` folder a stopped run leaves behind is deleted, its files not
    /// reused (no manifest listed them).
    @Test func forceReusesOldBatchesSafely() throws {
      let dir = try TemporaryDirectory()
      defer { dir.remove() }
      let input = try Corpus.smallMalformed
      let out = dir.file("out")
      let arguments = [input, "-o", out, "--batch-records", "50", "--vendors", "apns,vivo"]
      let first = try CLI.run(arguments)
      #expect(first.status == 0, "\(first.stderrText)")
      let manager = FileManager.default
      let names = try manager.contentsOfDirectory(atPath: out + "/apns").sorted()
      try #require(names.count > 2)
      var contents: [String: Data] = [:]
      for name in names {
        contents[name] = try Data(contentsOf: URL(fileURLWithPath: out + "/apns/" + name))
      }
      // A hard link to an old batch (someone archived it), and a stopped run's leftovers.
      try #require(link(out + "/apns/" + names[0], dir.file("archived.ndjson")) == 0)
      try manager.createDirectory(atPath: out + "/.replaced/fcm", withIntermediateDirectories: true)
      try Data("stale\n".utf8).write(
        to: URL(fileURLWithPath: out + "/.replaced/fcm/batch-000009.ndjson"))
      func inodes(_ folders: [String]) throws -> Set<Int> {
        var found = Set<Int>()
        for folder in folders {
          for name in try manager.contentsOfDirectory(atPath: folder) {
            let attributes = try manager.attributesOfItem(atPath: folder + "/" + name)
            found.insert((attributes[.systemFileNumber] as! NSNumber).intValue)
          }
        }
        return found
      }
      let reusable = try inodes([out + "/apns", out + "/vivo"])
      let leftover = try inodes([out + "/.replaced/fcm"])
      // Held open through the run: the run deletes the leftover before it writes, and its inode
      // number, still in use, cannot come back as a new batch's.
      let stale = try #require(
        FileHandle(forReadingAtPath: out + "/.replaced/fcm/batch-000009.ndjson"))
      defer { try? stale.close() }
      let forced = try CLI.run(arguments + ["--force"])
      #expect(forced.status == 0, "\(forced.stderrText)")
      #expect(
        try Data(contentsOf: URL(fileURLWithPath: dir.file("archived.ndjson")))
          == contents[names[0]])
      #expect(!manager.fileExists(atPath: out + "/.replaced"))
      // Every new batch took an old batch's inode but the one whose old file is linked
      // elsewhere: it got a new one, not the leftover's.
      let reused = try inodes([out + "/apns", out + "/vivo"])
      #expect(reused.subtracting(reusable).count == 1)
      #expect(reused.isDisjoint(with: leftover))
      try stale.seek(toOffset: 0)
      #expect(try stale.readToEnd() == Data("stale\n".utf8))
      #expect(
        !reused.contains(
          try
            (manager.attributesOfItem(atPath: dir.file("archived.ndjson"))[.systemFileNumber]
            as! NSNumber).intValue))
      #expect(try manager.contentsOfDirectory(atPath: out + "/apns").sorted() == names)
      for name in names {
        #expect(
          try Data(contentsOf: URL(fileURLWithPath: out + "/apns/" + name)) == contents[name],
          "\(name)")
      }
    }

    /// A reused old batch larger than the new one is cut at the new length: `--force` over a
    /// run of bigger batches writes the same files as a run into an empty directory.
    @Test(arguments: ["none", "lz4"])
    func forceOverLargerBatchesWritesWhatAFreshRunWrites(compress: String) throws {
      let dir = try TemporaryDirectory()
      defer { dir.remove() }
      let input = try Corpus.smallMalformed
      let common = [input, "--vendors", "apns,vivo", "--compress", compress, "--threads", "2"]
      let big = try CLI.run(common + ["-o", dir.file("out"), "--batch-records", "400"])
      #expect(big.status == 0, "\(big.stderrText)")
      let small = ["--batch-records", "40"]
      let forced = try CLI.run(common + small + ["-o", dir.file("out"), "--force"])
      #expect(forced.status == 0, "\(forced.stderrText)")
      let fresh = try CLI.run(common + small + ["-o", dir.file("fresh")])
      #expect(fresh.status == 0, "\(fresh.stderrText)")
      try Self.expectSameBatches(
        dir.file("out"), dir.file("fresh"), vendors: ["apns", "vivo"], moreThan: 2)
    }

    /// Expects `actual` (a batch directory) to hold, for each of `vendors`, the same batch files
    /// with the same bytes as `expected`, and more than `moreThan` of them.
    static func expectSameBatches(
      _ actual: String, _ expected: String, vendors: [String], moreThan: Int
    ) throws {
      let manager = FileManager.default
      for vendor in vendors {
        let names = try manager.contentsOfDirectory(atPath: expected + "/" + vendor).sorted()
        #expect(names.count > moreThan)
        #expect(try manager.contentsOfDirectory(atPath: actual + "/" + vendor).sorted() == names)
        for name in names {
          let path = vendor + "/" + name
          #expect(
            try Data(contentsOf: URL(fileURLWithPath: actual + "/" + path))
              == Data(contentsOf: URL(fileURLWithPath: expected + "/" + path)), "\(path)")
        }
      }
    }

    /// Many more workers than cores (`--threads 64`) and many small batches: the flushes keep
    /// up, and the directory equals a two-thread run's. Compression jobs waiting for a flush
    /// slot held every pooled thread the flushes needed, and the run advanced by one thread
    /// libdispatch added a second: 47 s instead of 0.2 on this corpus (1.3 s for the debug
    /// build), so the watchdog (`timeout 20`, status 124) tells a stalled run from a slow one.
    @Test func manyMoreThreadsThanCoresDoNotStallTheFlushes() throws {
      let dir = try TemporaryDirectory()
      defer { dir.remove() }
      let input = try Corpus.valid
      let many = try CLI.sh(
        "timeout 20 \"$BIN\" '\(input)' -o many --threads 64 --batch-records 20", in: dir.url)
      #expect(many.status == 0, "status \(many.status): \(many.stderrText)")
      let two = try CLI.run(
        [input, "-o", dir.file("two"), "--threads", "2", "--batch-records", "20"])
      #expect(two.status == 0, "\(two.stderrText)")
      try Self.expectSameBatches(
        dir.file("many"), dir.file("two"), vendors: ["apns", "vivo"], moreThan: 16)
    }

    /// A low soft limit on open files (`ulimit -Sn 20`) does not fail a nine-vendor batch run:
    /// the run raises it to the hard limit. It ended with "Too many open files" (status 1) or a
    /// trap in libdispatch (status 132).
    @Test func aLowSoftLimitOnOpenFilesIsRaised() throws {
      let dir = try TemporaryDirectory()
      defer { dir.remove() }
      let input = try Corpus.valid
      let limited = try CLI.sh(
        "ulimit -Sn 20 && \"$BIN\" '\(input)' -o low --threads 2 --compress lz4 --batch-records 50",
        in: dir.url)
      #expect(limited.status == 0, "status \(limited.status): \(limited.stderrText)")
      let plain = try CLI.run(
        [
          input, "-o", dir.file("plain"), "--threads", "2", "--compress", "lz4",
          "--batch-records", "50",
        ])
      #expect(plain.status == 0)
      try Self.expectSameBatches(
        dir.file("low"), dir.file("plain"), vendors: ["oppo"], moreThan: 16)
    }

    /// A `--stats` or `--report` file that cannot be written (`/dev/full` here, a full disk in
    /// life) fails the run before its manifest: the directory is visibly incomplete, as status 1
    /// says. The files were written after the manifest, leaving a complete directory behind a
    /// failed run.
    @Test(
      .enabled(
        if: FileManager.default.fileExists(atPath: "/dev/full"), "/dev/full is missing: skipped"),
      arguments: ["--stats", "--report"])
    func aRunFileThatCannotBeWrittenLeavesNoManifest(option: String) throws {
      let dir = try TemporaryDirectory()
      defer { dir.remove() }
      let input = try Corpus.small
      let run = try CLI.run([input, "-o", dir.file("out"), option, "/dev/full"])
      #expect(run.status == 1)
      #expect(run.stderrText.contains("/dev/full: No space left on device"), "\(run.stderrText)")
      #expect(!FileManager.default.fileExists(atPath: dir.file("out/manifest.json")))
      #expect(FileManager.default.fileExists(atPath: dir.file("out/apns")))
    }

    /// Standard input closed (`<&-`) or a directory (`< /`) fails the run before `-o DIR` is
    /// made, as a named input that cannot be read does: the rerun needs no `--force`. The first
    /// read failed after `DIR` held its lock file and an empty `rejects.ndjson`.
    @Test(arguments: ["<&-", "< /"])
    func anUnreadableStdinFailsBeforeTheDirectoryIsMade(redirection: String) throws {
      let dir = try TemporaryDirectory()
      defer { dir.remove() }
      let run = try CLI.sh("\"$BIN\" -o out \(redirection)", in: dir.url)
      #expect(run.status == 1)
      let expected =
        redirection == "<&-" ? "standard input is closed (Bad file descriptor)" : "Is a directory"
      #expect(run.stderrText.contains("-: cannot open: " + expected), "\(run.stderrText)")
      #expect(!FileManager.default.fileExists(atPath: dir.file("out")))
    }

    /// SIGKILL mid-run: no manifest, and no file under a final `batch-*` name is incomplete.
    /// The run reads its input from a pipe the test never closes, so it is still running when
    /// it is killed, on an event (its first, eighth, thirtieth batch under its final name) and
    /// not after a delay that a fast machine would outrun; compression jobs are at work beside
    /// the writer at that moment.
    @Test(arguments: ["gzip", "lz4", "none"])
    func killedRunLeavesNoIncompleteBatch(compress: String) throws {
      let dir = try TemporaryDirectory()
      defer { dir.remove() }
      let valid = try Data(contentsOf: URL(fileURLWithPath: try Corpus.valid))
      var input = Data()
      for _ in 0..<8 { input += valid }
      for (attempt, wanted) in [1, 8, 30].enumerated() {
        let out = dir.file("out-\(attempt)")
        let run = try FedRun(
          [
            "-", "-o", out, "--batch-records", "40", "--compress", compress, "--threads", "2",
            "--chunk-bytes", "65536",
          ], feeding: input)
        let reached = FedRun.wait(for: { finalBatchCount(out) >= wanted }, while: run)
        let wasRunning = run.process.isRunning
        run.kill()
        #expect(reached, "never \(wanted) final batches")
        #expect(wasRunning, "the run ended with its input still open")
        #expect(run.process.terminationReason == .uncaughtSignal)
        let check = try CLI.python(PythonChecks.killed, [out, "40"])
        #expect(check.status == 0, "after \(wanted): \(check.stdoutText)\(check.stderrText)")
        let final = Int(check.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
        #expect(final >= wanted, "\(final) final batches")
      }
    }
  }

  /// SPEC 6.4: the progress line.
  @Suite(needsGenerator) struct ProgressTests {
    @Test func alwaysWritesAProgressLine() throws {
      let result = try CLI.run([try Corpus.small, "--progress", "always", "-o", "-"])
      #expect(result.status == 0)
      #expect(result.stderrText.contains("\r"), "\(result.stderrText.debugDescription)")
      #expect(result.stderrText.contains(" lines, "), "\(result.stderrText.debugDescription)")
      #expect(result.stderrText.contains("MB/s"))
      #expect(result.stderrText.contains("ETA"), "known input size gives an ETA")
    }

    /// Stdin redirected from a file (`- < big.ndjson`) has a known size too: the line showed
    /// no share and no ETA.
    @Test func stdinFromAFileGivesAnETA() throws {
      let result = try CLI.run(
        ["-", "--progress", "always", "-o", "-"], stdinFile: try Corpus.small)
      #expect(result.status == 0)
      #expect(result.stderrText.contains(" lines, "), "\(result.stderrText.debugDescription)")
      #expect(result.stderrText.contains("ETA"), "\(result.stderrText.debugDescription)")
    }

    /// `auto` on a terminal: `script` gives the run a pseudo-terminal for stderr.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/script")))
    func autoWritesAProgressLineOnATerminal() throws {
      let input = try Corpus.small
      let auto = try CLI.execute(
        "/usr/bin/script",
        ["-qec", "\"\(CLI.binary)\" '\(input)' --chunk-bytes 65536 > /dev/null", "/dev/null"])
      #expect(auto.status == 0, "\(auto.stdoutText)")
      #expect(auto.stdoutText.contains(" lines, "), "\(auto.stdoutText.debugDescription)")
      let never = try CLI.execute(
        "/usr/bin/script",
        ["-qec", "\"\(CLI.binary)\" '\(input)' --progress never > /dev/null", "/dev/null"])
      #expect(never.status == 0)
      #expect(!never.stdoutText.contains(" lines, "), "\(never.stdoutText.debugDescription)")
    }

    @Test(arguments: [["--progress", "never"], ["--progress", "auto"], []])
    func neverOrNotATerminalWritesNone(options: [String]) throws {
      let result = try CLI.run([try Corpus.small] + options)
      #expect(result.status == 0)
      #expect(!result.stderrText.contains("\r"), "\(result.stderrText.debugDescription)")
      #expect(CLI.lines(result.stderrText).count == 1, "only the summary")
    }
  }
}
