import Foundation
import Glibc
import PushTranscoder
import Testing

extension CLITests {
  /// SPEC 6.5: 0 done, 1 fatal, 3 too many rejects, 64 bad usage.
  @Suite struct ExitStatusTests {
    @Test func successExitsZeroAndWritesOnlyRecordsToStdout() throws {
      let input = Data(
        "{\"MsgBody\":[{\"MsgType\":\"TIMTextElem\",\"MsgContent\":{\"Text\":\"hi\"}}],\"To_Account\":\"u1\"}\n"
          .utf8)
      let result = try CLI.run(["--vendors", "apns"], stdin: input)
      #expect(result.status == 0, "\(result.stderrText)")
      // Exactly one record line: nothing after it (no blank line at exit).
      #expect(result.stdoutText.hasPrefix("{\"source\":\"-\",\"line\":1,"))
      #expect(result.stdoutLines.count == 1, "stdout: \(result.stdoutText.debugDescription)")
      #expect(result.stdoutText.hasSuffix("}\n"))
      #expect(!result.stdoutText.hasSuffix("\n\n"))
    }

    @Test(arguments: [
      ["--bogus"],
      ["--vendors", "apns,nope"],
      ["--compress", "gzip", "--level", "10"],
      ["--compress", "lz4", "--level", "13"],
      ["--compress", "gzip", "--level", "0"],
      ["--chunk-bytes", "65535"],
      ["--chunk-bytes", "1073741825"],
      ["--chunk-bytes", "9223372036854775807"],
      ["validate", "--chunk-bytes", "68719476736"],
      ["--level", "13"],
      ["--threads", "0"],
      ["validate", "--threads", "0"],
      ["-o", ""],
    ])
    func badUsageExits64WithOneLineReason(arguments: [String]) throws {
      let result = try CLI.run(arguments, stdin: Data())
      #expect(result.status == 64)
      #expect(result.stdout.isEmpty)
      let lines = CLI.lines(result.stderrText)
      #expect(lines.count == 1, "stderr: \(result.stderrText)")
      #expect(lines.first?.hasPrefix("push-transcode: ") == true)
    }

    /// An out-of-range `--level` names the range the codec takes (OutputCompression.levels).
    @Test(arguments: [
      (["--compress", "gzip", "--level", "10"], "--level for gzip must be 1-9"),
      (["--compress", "lz4", "--level", "13"], "--level for lz4 must be 1-12"),
      (["--level", "13"], "--level must be 1-9 (gzip) or 1-12 (lz4)"),
    ])
    func anOutOfRangeLevelNamesTheRange(arguments: [String], message: String) throws {
      let result = try CLI.run(arguments, stdin: Data())
      #expect(result.status == 64)
      #expect(result.stderrText.contains(message), "stderr: \(result.stderrText)")
    }

    /// `all` among vendor ids is bad usage saying that `all` stands alone (the message said
    /// "unknown vendor id 'all'" and listed `all` among the known ids).
    @Test(arguments: [["--vendors", "all,apns"], ["--vendors", "fcm,all"]])
    func allAmongVendorIdsSaysItStandsAlone(arguments: [String]) throws {
      let result = try CLI.run(arguments, stdin: Data())
      #expect(result.status == 64)
      #expect(
        result.stderrText
          == "push-transcode: 'all' stands alone in --vendors: it selects every vendor\n")
    }

    /// A value an enum option does not take is bad usage naming every value it takes, spelled
    /// as the library's raw values (the CLI lists them without ArgumentParser's key paths).
    @Test(arguments: [
      ("--framing", OutputFraming.allCases.map(\.rawValue)),
      ("--locale", PushLocale.allCases.map(\.rawValue)),
      ("--display", DisplayMode.allCases.map(\.rawValue)),
      ("--unicode", UnicodeMode.allCases.map(\.rawValue)),
      ("--compress", OutputCompression.allCases.map(\.rawValue)),
      ("--progress", ProgressMode.allCases.map(\.rawValue)),
    ])
    func anUnknownValueListsEveryValueTheOptionTakes(option: String, values: [String]) throws {
      let result = try CLI.run([option, "bogus"], stdin: Data())
      #expect(result.status == 64)
      #expect(values.count >= 2)
      for value in values {
        #expect(result.stderrText.contains("'\(value)'"), "\(option): \(result.stderrText)")
      }
    }

    /// A negative number was taken for an option name ("Missing value for '--max-line-bytes'").
    @Test(arguments: [
      (["--max-line-bytes", "-1"], "--max-line-bytes must be at least 1"),
      (["--threads", "-2"], "--threads must be between 1 and 1024"),
      (["--max-rejects", "-5"], "--max-rejects must be at least 0"),
      (["--batch-records", "-1"], "--batch-records must be at least 1"),
    ])
    func negativeNumbersAreReadAsValues(arguments: [String], reason: String) throws {
      let result = try CLI.run(arguments, stdin: Data())
      #expect(result.status == 64)
      #expect(result.stderrText.contains(reason), "stderr: \(result.stderrText)")
    }

    /// SPEC 6.7 makes only out-of-range values bad usage: a level without `--compress` is
    /// accepted (any level a codec takes) and changes nothing.
    /// `help TOPIC` explains a subcommand; a topic that names none is bad usage naming it (the
    /// parser printed the general help and exited 0, as if it had answered).
    @Test func helpOfAnUnknownTopicIsBadUsageAndOfAKnownOneIsTheSubcommandsHelp() throws {
      let unknown = try CLI.run(["help", "nosuch"])
      #expect(unknown.status == 64)
      #expect(unknown.stdout.isEmpty)
      #expect(
        unknown.stderrText
          == "push-transcode: help: no subcommand 'nosuch' (transcode, validate, explain)\n")
      for topic in ["transcode", "validate", "explain"] {
        let known = try CLI.run(["help", topic])
        #expect(known.status == 0, "\(topic): \(known.stderrText)")
        #expect(known.stdoutText.contains("USAGE: push-transcode \(topic)"), "\(known.stdoutText)")
      }
      let general = try CLI.run(["help"])
      #expect(general.status == 0 && general.stdoutText.contains("SUBCOMMANDS:"))
    }

    @Test func levelWithoutCompressionIsAcceptedAndHasNoEffect() throws {
      let input = Data(
        "{\"MsgBody\":[{\"MsgType\":\"TIMTextElem\",\"MsgContent\":{\"Text\":\"hi\"}}],\"To_Account\":\"u1\"}\n"
          .utf8)
      let plain = try CLI.run(["--vendors", "apns"], stdin: input)
      for level in ["1", "5", "12"] {
        let result = try CLI.run(["--vendors", "apns", "--level", level], stdin: input)
        #expect(result.status == 0, "\(result.stderrText)")
        #expect(result.stdout == plain.stdout)
      }
    }

    @Test func smallestChunkSizeIsAccepted() throws {
      let result = try CLI.run(
        ["--chunk-bytes", "65536", "--threads", "1"], stdin: Data("{}\n".utf8))
      #expect(result.status == 0, "\(result.stderrText)")
    }

    @Test func missingInputFileExits1NamingIt() throws {
      let dir = try TemporaryDirectory()
      defer { dir.remove() }
      let result = try CLI.run([dir.file("absent.ndjson")])
      #expect(result.status == 1)
      #expect(result.stderrText.contains("absent.ndjson"))
      #expect(result.stderrText.contains("No such file"))
    }

    /// An input truncated in place while the run reads it (`logrotate`'s `copytruncate` on a
    /// log being processed): the run stops with status 1 naming the file, after writing the
    /// records of every complete line it read, instead of ending as if the file had ended there.
    /// The run is held on a full stdout pipe while the file is cut.
    @Test func anInputTruncatedDuringTheRunExits1AfterTheLinesBeforeTheCut() throws {
      let dir = try TemporaryDirectory()
      defer { dir.remove() }
      let result = try CLI.sh(
        #"""
        awk 'BEGIN { for (i = 0; i < 200000; i++) printf "{\"MsgKey\":\"k%d\",\"MsgBody\":[{\"MsgType\":\"TIMTextElem\",\"MsgContent\":{\"Text\":\"hello\"}}],\"To_Account\":\"u1\"}\n", i }' > big.ndjson
        { "$BIN" big.ndjson -o - --vendors apns --threads 1 --chunk-bytes 65536 2> err.txt; echo $? > status.txt; } | { sleep 1; : > big.ndjson; cat > records.ndjson; }
        """#, in: dir.url)
      #expect(result.status == 0, "\(result.stderrText)")
      let status = String(decoding: try dir.read("status.txt"), as: UTF8.self)
      let stderr = String(decoding: try dir.read("err.txt"), as: UTF8.self)
      #expect(status == "1\n", "stderr: \(stderr)")
      #expect(stderr.contains("big.ndjson: truncated file after "), "\(stderr)")
      #expect(stderr.contains("shrank while it was read"), "\(stderr)")
      let records = CLI.lines(String(decoding: try dir.read("records.ndjson"), as: UTF8.self))
      #expect(!records.isEmpty && records.count < 200_000)
      // One apns record per line, in order; the message's count of complete lines is theirs.
      for (index, record) in records.enumerated() {
        #expect(
          record.hasPrefix(#"{"source":"big.ndjson","line":\#(index + 1),"key":"k\#(index)","#))
      }
      #expect(stderr.contains("(\(records.count) complete lines)"), "\(stderr)")
    }

    /// Swift reads arguments as UTF-8 strings, replacing other bytes with U+FFFD: a file named
    /// in Latin-1 was looked for under another name ("No such file or directory" for a file
    /// that is there). Such an argument is bad usage naming it; stdin reads the file.
    @Test func anArgumentThatIsNotUTF8IsBadUsageNamingIt() throws {
      let dir = try TemporaryDirectory()
      defer { dir.remove() }
      let sample = CLI.packageRoot.appendingPathComponent("Corpus/sample.ndjson").path
      let named = try CLI.sh(
        "cp '\(sample)' \"$(printf 'caf\\351.ndjson')\" && exec \"$BIN\" \"$(printf 'caf\\351.ndjson')\" -o -",
        in: dir.url)
      #expect(named.status == 64, "\(named.stderrText)")
      #expect(named.stdout.isEmpty)
      #expect(CLI.lines(named.stderrText).count == 1, "\(named.stderrText)")
      #expect(named.stderrText.contains("argument 1 is not UTF-8 (\"caf\u{FFFD}.ndjson\""))
      #expect(named.stderrText.contains("push-transcode - < FILE"))
      let piped = try CLI.sh(
        "exec \"$BIN\" - --vendors apns < \"$(printf 'caf\\351.ndjson')\"", in: dir.url)
      #expect(piped.status == 0, "\(piped.stderrText)")
      #expect(piped.stdoutLines.count == 16)  // 14 apns records, 2 rejects
      #expect(piped.stdoutText.hasPrefix("{\"source\":\"-\",\"line\":1,"))
      let title = try CLI.sh("exec \"$BIN\" --default-title \"$(printf 'T\\351')\" -", in: dir.url)
      #expect(title.status == 64)
      #expect(title.stderrText.contains("argument 2 is not UTF-8"), "\(title.stderrText)")
    }

    /// `--stats` and `--report` are written at the end of a run: a folder that is missing (or
    /// a directory in the file's place) failed the run only after every record was written, a
    /// finished batch directory with status 1. `--rejects` failed after `-o DIR` was made. Each
    /// now fails before anything is read or made. An empty path and a path ending in `/` passed
    /// the check (their folder, `.`, is writable) and failed at the end, or after `-o DIR` was
    /// made and locked.
    @Test(arguments: [
      ["--stats", "missing/stats.json"], ["--report", "missing/run.html"], ["--stats", "."],
      ["--stats", "out/sub/stats.json"], ["--rejects", "missing/rejects.ndjson"],
      ["--stats", ""], ["--rejects", ""], ["--report", ""], ["--stats", "new/"],
    ])
    func anOutputFileThatCannotBeCreatedFailsBeforeTheRun(arguments: [String]) throws {
      let dir = try TemporaryDirectory()
      defer { dir.remove() }
      let sample = CLI.packageRoot.appendingPathComponent("Corpus/sample.ndjson").path
      let stream = try CLI.run([sample, "-o", "-"] + arguments, in: dir.url)
      #expect(stream.status == 1)
      #expect(stream.stdout.isEmpty, "records were written before the failure")
      #expect(stream.stderrText.hasPrefix("push-transcode: error: cannot create"))
      #expect(!stream.stderrText.contains(" lines: "), "the run started: \(stream.stderrText)")
      let batch = try CLI.run([sample, "-o", "out"] + arguments, in: dir.url)
      #expect(batch.status == 1)
      #expect(!FileManager.default.fileExists(atPath: dir.file("out")))
    }

    /// An input or `--directory` file that is missing, or a directory, failed the run only when
    /// it was reached: after every earlier input was transcoded (a mistyped third path cost the
    /// first two), and a `--directory` file after `-o DIR` was made, so the rerun was refused
    /// ("output directory exists"). Each now fails before anything is read or made, with the
    /// message the open would have given.
    @Test(arguments: [["missing.ndjson"], ["sub"], ["--directory", "missing.ndjson"]])
    func anInputThatCannotBeReadFailsBeforeTheRun(arguments: [String]) throws {
      let name = arguments[arguments.count - 1]
      let reason = name == "sub" ? "Is a directory" : "No such file or directory"
      let message: String = name + ": cannot open: " + reason
      let dir = try TemporaryDirectory()
      defer { dir.remove() }
      try FileManager.default.createDirectory(
        atPath: dir.file("sub"), withIntermediateDirectories: false)
      let sample = CLI.packageRoot.appendingPathComponent("Corpus/sample.ndjson").path
      let stream = try CLI.run([sample, "-o", "-"] + arguments, in: dir.url)
      #expect(stream.status == 1)
      #expect(stream.stdout.isEmpty, "records were written before the failure")
      #expect(stream.stderrText == "push-transcode: error: " + message + "\n")
      let batch = try CLI.run([sample, "-o", "out"] + arguments, in: dir.url)
      #expect(batch.status == 1)
      #expect(!FileManager.default.fileExists(atPath: dir.file("out")))
      if arguments[0] != "--directory" {
        let validate = try CLI.run(["validate", sample] + arguments, in: dir.url)
        #expect(validate.status == 1)
        #expect(validate.stdout.isEmpty, "reject records were written before the failure")
      }
    }

    /// A FIFO (`<(zcat a.gz)`, a named pipe) passes the input check without being opened, which
    /// would wait for its writer, and is read as before.
    @Test func aNamedPipeInputIsReadAfterTheCheck() throws {
      let dir = try TemporaryDirectory()
      defer { dir.remove() }
      let sample = CLI.packageRoot.appendingPathComponent("Corpus/sample.ndjson").path
      #expect(mkfifo(dir.file("feed"), 0o600) == 0)
      let script =
        "cat '" + sample + "' > feed & \"$BIN\" feed -o - --vendors apns; status=$?; wait; "
        + "exit $status"
      let piped = try CLI.sh(script, in: dir.url)
      #expect(piped.status == 0, "\(piped.stderrText)")
      #expect(piped.stderrText.contains("17 lines"), "\(piped.stderrText)")
    }

    /// The files the run makes its folders for pass the check: a stats file beside a new output
    /// directory whose parent is new too (`make sample`'s `-o out/sample --stats
    /// out/sample.stats.json` on a fresh clone), and one inside it.
    @Test(arguments: ["new/out.stats.json", "new/out/stats.json"])
    func aStatsFileInFoldersTheRunMakesIsWritten(stats: String) throws {
      let dir = try TemporaryDirectory()
      defer { dir.remove() }
      let sample = CLI.packageRoot.appendingPathComponent("Corpus/sample.ndjson").path
      let result = try CLI.run([sample, "-o", "new/out", "--stats", stats], in: dir.url)
      #expect(result.status == 0, "\(result.stderrText)")
      #expect(FileManager.default.fileExists(atPath: dir.file(stats)))
      #expect(FileManager.default.fileExists(atPath: dir.file("new/out/manifest.json")))
    }

    @Test func existingOutputDirectoryWithoutForceExits1() throws {
      let dir = try TemporaryDirectory()
      defer { dir.remove() }
      try FileManager.default.createDirectory(
        atPath: dir.file("out"), withIntermediateDirectories: false)
      try dir.write("in.ndjson", Data("{}\n".utf8))
      let result = try CLI.run([dir.file("in.ndjson"), "-o", dir.file("out")])
      #expect(result.status == 1)
      #expect(result.stderrText.contains("exists"))
      #expect(!FileManager.default.fileExists(atPath: dir.file("out/manifest.json")))
      let forced = try CLI.run([dir.file("in.ndjson"), "-o", dir.file("out"), "--force"])
      #expect(forced.status == 0, "\(forced.stderrText)")
      #expect(FileManager.default.fileExists(atPath: dir.file("out/manifest.json")))
    }

    @Test func outputDirectoryUnderAFileExits1() throws {
      let dir = try TemporaryDirectory()
      defer { dir.remove() }
      try dir.write("in.ndjson", Data("{}\n".utf8))
      try dir.write("plain-file", Data())
      let result = try CLI.run([dir.file("in.ndjson"), "-o", dir.file("plain-file/out")])
      #expect(result.status == 1)
      #expect(result.stderrText.contains("plain-file/out"), "\(result.stderrText)")
      // The reason in words (it was "NSCocoaErrorDomain error 512" through FileManager).
      #expect(result.stderrText.contains("Not a directory"), "\(result.stderrText)")
    }

    /// A directory the process may not write into: mode 0555 (as a normal user) or a read-only
    /// tmpfs (as root, which ignores modes).
    @Test(needsMountWhenRoot) func unwritableOutputDirectoryExits1() throws {
      let dir = try TemporaryDirectory()
      defer { dir.remove() }
      try dir.write("in.ndjson", Data("{}\n".utf8))
      let parent = dir.file("locked")
      try FileManager.default.createDirectory(atPath: parent, withIntermediateDirectories: false)
      var mounted = false
      if getuid() == 0 {
        mounted =
          try CLI.execute("/bin/mount", ["-t", "tmpfs", "-o", "ro,size=64k", "tmpfs", parent])
          .status == 0
        if !mounted {
          Issue.record("running as root and cannot mount a read-only tmpfs: untested")
          return
        }
      } else {
        chmod(parent, 0o555)
      }
      defer {
        if mounted { _ = try? CLI.execute("/bin/umount", [parent]) } else { chmod(parent, 0o755) }
      }
      let result = try CLI.run([dir.file("in.ndjson"), "-o", parent + "/out"])
      #expect(result.status == 1)
      #expect(result.stderrText.contains("locked/out"), "\(result.stderrText)")
      let reason = result.stderrText.lowercased()
      #expect(
        reason.contains("read-only") || reason.contains("read only")
          || reason.contains("permission denied"), "\(result.stderrText)")
    }

    /// A stream whose first write fails, compressed or not: status 1 with the reason, and the
    /// summary and `--stats` as after any failed write, counting what was written (nothing).
    /// The LZ4 stream wrote its frame header before the first line, with the directory's
    /// (empty) output, and lost the summary and the stats file there.
    @Test(
      .enabled(if: FileManager.default.fileExists(atPath: "/dev/full")),
      arguments: ["none", "gzip", "lz4"])
    func fullDiskOnStdoutExits1WithReason(compress: String) throws {
      let dir = try TemporaryDirectory()
      defer { dir.remove() }
      let input = try Data(
        contentsOf: URL(
          fileURLWithPath: CLI.packageRoot.appendingPathComponent("Corpus/sample.ndjson").path))
      let result = try CLI.sh(
        "exec \"$BIN\" - --compress \(compress) --stats s.json > /dev/full", stdinData: input,
        in: dir.url)
      #expect(result.status == 1)
      #expect(result.stderrText.contains("No space left on device"), "\(result.stderrText)")
      #expect(result.stderrText.hasPrefix("push-transcode: "), "\(result.stderrText)")
      #expect(result.stderrText.contains(" lines: "), "no summary: \(result.stderrText)")
      let stats = try JSONSerialization.jsonObject(with: try dir.read("s.json")) as? [String: Any]
      #expect(stats?["lines"] != nil, "\(String(describing: stats))")
    }

    /// A file-size limit (`ulimit -f`) makes write(2) fail with EFBIG; SIGXFSZ must not kill
    /// the run silently.
    @Test(needsGenerator, needsFileSizeLimit, arguments: ["-o -", "-o out"])
    func fileSizeLimitIsAClearFatalError(output: String) throws {
      let dir = try TemporaryDirectory()
      defer { dir.remove() }
      let input = try Corpus.small
      let result = try CLI.sh(
        "ulimit -f 64 && \"$BIN\" '\(input)' \(output) --batch-records 100000 > stdout.ndjson",
        in: dir.url)
      #expect(result.status == 1, "status \(result.status), stderr: \(result.stderrText)")
      #expect(result.stderrText.contains("File too large"), "\(result.stderrText)")
      #expect(!FileManager.default.fileExists(atPath: dir.file("out/manifest.json")))
    }

    /// A full file system (a 256 KiB tmpfs, when this runs as root and may mount).
    @Test(
      needsGenerator, needsMountWhenRoot,
      .enabled(if: getuid() == 0, "not root: cannot mount a small tmpfs to fill"))
    func fullFileSystemInBatchModeExits1() throws {
      let dir = try TemporaryDirectory()
      defer { dir.remove() }
      let mountPoint = dir.file("tiny")
      try FileManager.default.createDirectory(
        atPath: mountPoint, withIntermediateDirectories: false)
      guard
        try CLI.execute("/bin/mount", ["-t", "tmpfs", "-o", "size=256k", "tmpfs", mountPoint])
          .status == 0
      else {
        Issue.record("cannot mount a tmpfs as root: untested")
        return
      }
      defer { _ = try? CLI.execute("/bin/umount", [mountPoint]) }
      let result = try CLI.run([try Corpus.small, "-o", mountPoint + "/out"])
      #expect(result.status == 1)
      #expect(result.stderrText.contains("No space left on device"), "\(result.stderrText)")
      #expect(!FileManager.default.fileExists(atPath: mountPoint + "/out/manifest.json"))
    }

    @Test(needsGenerator) func tooManyRejectsExits3() throws {
      let input = try Corpus.malformed
      let over = try CLI.run([input, "--max-rejects", "10", "--vendors", "apns"])
      #expect(over.status == 3, "\(over.stderrText)")
      #expect(!over.stdout.isEmpty)
      // The status says why on stderr, after the summary.
      let lastLine = CLI.lines(over.stderrText).last ?? ""
      let reason = " lines rejected, more than --max-rejects 10 allows (exit status 3)"
      #expect(
        lastLine.hasPrefix("push-transcode: ") && lastLine.hasSuffix(reason), "\(over.stderrText)")
      let within = try CLI.run([input, "--max-rejects", "100000", "--vendors", "apns"])
      #expect(within.status == 0, "\(within.stderrText)")
      #expect(!within.stderrText.contains("--max-rejects"), "\(within.stderrText)")
      #expect(within.stdout == over.stdout)
    }

    @Test(needsGenerator) func validateExits3OnBadLinesAnd0OnGoodOnes() throws {
      let bad = try CLI.run(["validate", try Corpus.malformed])
      #expect(bad.status == 3)
      #expect(!bad.stdout.isEmpty)
      let good = try CLI.run(["validate", try Corpus.small])
      #expect(good.status == 0, "\(good.stderrText)")
      #expect(good.stdout.isEmpty)
    }

    /// `--version` prints one line with the executable's GNU build-id note and exits 0, whatever
    /// else is on the command line.
    @Test func versionPrintsTheBuildIDNoteAndExitsZero() throws {
      let id = try #require(ELFNotesProbe.buildIDNote(of: CLI.binary))
      for arguments in [
        ["--version"], ["validate", "--version"], ["--vendors", "nope", "--version"],
      ] {
        let result = try CLI.run(arguments, stdin: Data())
        #expect(result.status == 0, "\(arguments): \(result.stderrText)")
        #expect(result.stdoutText == "push-transcode \(BuildInfo.version) (build \(id))\n")
        #expect(result.stderr.isEmpty)
      }
    }
  }
}
