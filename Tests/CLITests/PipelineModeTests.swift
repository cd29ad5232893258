import Foundation
import Testing

/// The record's `vendor` and `line` (records and reject records alike).
func recordHeader(_ line: Substring) throws -> (vendor: String, line: Int) {
  let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
  guard let vendor = object?["vendor"] as? String, let number = object?["line"] as? Int else {
    throw CLIError("not a record: \(line.prefix(200))")
  }
  return (vendor, number)
}

extension CLITests {
  /// SPEC 6.3: `-o -`, framing, compression, closed stdout; SPEC 2.1: inputs.
  @Suite(needsGenerator) struct PipelineModeTests {
    @Test func tsvFramingIsVendorLineRecord() throws {
      let input = try Corpus.smallMalformed
      let ndjson = try CLI.run([input, "--threads", "2"])
      let tsv = try CLI.run([input, "--threads", "2", "--framing", "tsv"])
      #expect(ndjson.status == 0 && tsv.status == 0, "\(tsv.stderrText)")
      let records = ndjson.stdoutLines
      let rows = tsv.stdoutLines
      #expect(rows.count == records.count)
      var rejects = 0
      for (row, record) in zip(rows, records) {
        let fields = row.split(separator: "\t", maxSplits: 2, omittingEmptySubsequences: false)
        try #require(fields.count == 3, "row: \(row.prefix(200))")
        #expect(fields[2] == record)
        let header = try recordHeader(record)
        #expect(String(fields[0]) == header.vendor)
        #expect(Int(fields[1]) == header.line)
        if header.vendor == "reject" { rejects += 1 }
      }
      #expect(rejects > 0, "the malformed corpus should give inline rejects")
    }

    @Test func rejectsTravelInlineUnlessARejectsFileIsGiven() throws {
      let dir = try TemporaryDirectory()
      defer { dir.remove() }
      let input = try Corpus.smallMalformed
      let inline = try CLI.run([input])
      let separate = try CLI.run([input, "--rejects", dir.file("rejects.ndjson")])
      #expect(inline.status == 0 && separate.status == 0, "\(separate.stderrText)")
      var expectedStream: [Substring] = []
      var expectedRejects: [Substring] = []
      for line in inline.stdoutLines {
        if try recordHeader(line).vendor == "reject" {
          expectedRejects.append(line)
        } else {
          expectedStream.append(line)
        }
      }
      #expect(!expectedRejects.isEmpty)
      #expect(separate.stdoutLines == expectedStream)
      let file = String(decoding: try dir.read("rejects.ndjson"), as: UTF8.self)
      #expect(CLI.lines(file) == expectedRejects)
    }

    @Test(arguments: [("gzip", "gzip"), ("lz4", "lz4")])
    func compressedStdoutDecompressesToThePlainStream(compress: String, tool: String) throws {
      let dir = try TemporaryDirectory()
      defer { dir.remove() }
      let input = try Corpus.smallMalformed
      let plain = try CLI.run([input])
      let result = try CLI.sh(
        """
        "$BIN" '\(input)' --compress \(compress) > out.z && \(tool) -t out.z && \(tool) -dc out.z > out.ndjson
        """, in: dir.url)
      #expect(result.status == 0, "\(result.stderrText)")
      #expect(try dir.read("out.ndjson") == plain.stdout)
      // With a level too.
      let leveled = try CLI.sh(
        "\"$BIN\" '\(input)' --compress \(compress) --level 3 | \(tool) -dc > out3.ndjson",
        in: dir.url)
      #expect(leveled.status == 0, "\(leveled.stderrText)")
      #expect(try dir.read("out3.ndjson") == plain.stdout)
    }

    /// `| head -1` closes stdout early: the producer exits 0 and says nothing.
    @Test(arguments: ["", "--framing tsv", "--compress gzip", "--threads 1 --chunk-bytes 65536"])
    func closedStdoutEndsTheRunQuietly(options: String) throws {
      let dir = try TemporaryDirectory()
      defer { dir.remove() }
      let input = try Corpus.malformed
      let result = try CLI.sh(
        """
        { "$BIN" '\(input)' \(options) 2> stderr.txt; echo $? > status.txt; } | head -c 100 > first.txt
        """, in: dir.url)
      #expect(result.status == 0)
      let status = String(decoding: try dir.read("status.txt"), as: UTF8.self)
      #expect(status == "0\n", "producer status \(status)")
      let stderr = String(decoding: try dir.read("stderr.txt"), as: UTF8.self)
      #expect(stderr.isEmpty, "stderr: \(stderr)")
      #expect(try dir.read("first.txt").count == 100)
    }

    /// `--stats` and `--report` are written when stdout closes early, with the counts of the
    /// lines read before it closed: the run ended with status 0 and neither file, so a job that
    /// checked the status then found no stats.
    @Test(arguments: ["--threads 1", "--threads 2"])
    func closedStdoutStillWritesTheRunFiles(options: String) throws {
      let dir = try TemporaryDirectory()
      defer { dir.remove() }
      let input = try Corpus.malformed
      let result = try CLI.sh(
        """
        { "$BIN" '\(input)' \(options) --stats s.json --report r.html 2> stderr.txt; echo $? > status.txt; } | head -c 100 > /dev/null
        """, in: dir.url)
      #expect(result.status == 0)
      #expect(String(decoding: try dir.read("status.txt"), as: UTF8.self) == "0\n")
      #expect(try dir.read("stderr.txt").isEmpty)
      let stats = String(decoding: try dir.read("s.json"), as: UTF8.self)
      #expect(stats.hasPrefix("{\"lines\":"), "\(stats)")
      #expect(String(decoding: try dir.read("r.html"), as: UTF8.self).hasPrefix("<!DOCTYPE html>"))
    }

    /// After stdout closes (`| head`), `--rejects FILE` holds the rejects of the lines the
    /// stats count, no more: the full run's rejects of those lines, in order. A chunk's rejects
    /// were written before its records, so the file ran up to a work item past the stats.
    @Test(
      needsGenerator,
      arguments: [
        "--threads 1 | head -n 1", "--threads 2 | head -n 1", "--threads 1 | head -c 300000",
      ])
    func closedStdoutLeavesTheRejectsOfTheCountedLinesOnly(pipeline: String) throws {
      let dir = try TemporaryDirectory()
      defer { dir.remove() }
      let input = try Corpus.malformed
      let result = try CLI.sh(
        """
        "$BIN" '\(input)' --chunk-bytes 65536 --rejects all.ndjson > /dev/null 2>&1 &&
        "$BIN" '\(input)' -o - --chunk-bytes 65536 --rejects r.ndjson --stats s.json \(pipeline) > /dev/null
        """, in: dir.url)
      #expect(result.status == 0, "\(result.stderrText)")
      let stats = try JSONSerialization.jsonObject(with: try dir.read("s.json")) as? [String: Any]
      let counted = try #require(stats?["lines"] as? Int)
      let all = CLI.lines(String(decoding: try dir.read("all.ndjson"), as: UTF8.self))
      let kept = CLI.lines(String(decoding: try dir.read("r.ndjson"), as: UTF8.self))
      let expected = try all.filter { record in
        let fields = try JSONSerialization.jsonObject(with: Data(record.utf8)) as? [String: Any]
        return try #require(fields?["line"] as? Int) <= counted
      }
      #expect(kept == expected, "stats count \(counted) lines; \(kept.count) rejects kept")
    }

    /// A stdin and a stdout in non-blocking mode (the mode belongs to the open pipe: a parent
    /// that made its pipes non-blocking passes them on so) are read and written as blocking
    /// ones: the run finds its stdin empty between two writes and its stdout full while the
    /// reader sleeps, and waits both times. It ended with status 1 at the first `EAGAIN`
    /// ("Resource temporarily unavailable"), its output cut short.
    @Test func nonBlockingStdinAndStdoutAreWaitedFor() throws {
      let input = try Corpus.valid
      let script = """
        import fcntl, os, subprocess, sys, threading, time
        binary, corpus = sys.argv[1], sys.argv[2]
        data = open(corpus, 'rb').read()
        cut = data.rindex(b'\\n', 0, len(data) // 2) + 1
        in_r, in_w = os.pipe()
        out_r, out_w = os.pipe()
        for fd in (in_r, out_w):
            fcntl.fcntl(fd, fcntl.F_SETFL, fcntl.fcntl(fd, fcntl.F_GETFL) | os.O_NONBLOCK)
        run = subprocess.Popen([binary, '-', '-o', '-'], stdin=in_r, stdout=out_w,
                               stderr=subprocess.PIPE)
        os.close(in_r)
        os.close(out_w)
        def feed():
            try:
                with os.fdopen(in_w, 'wb') as f:
                    f.write(data[:cut])
                    f.flush()
                    time.sleep(0.3)  # the run finds its stdin empty
                    f.write(data[cut:])
            except BrokenPipeError:
                pass
        feeder = threading.Thread(target=feed)
        feeder.start()
        time.sleep(0.5)  # the run finds its stdout full
        out = bytearray()
        while True:
            piece = os.read(out_r, 1 << 16)
            if not piece:
                break
            out += piece
        feeder.join()
        sys.stderr.buffer.write(run.stderr.read())
        sys.stdout.buffer.write(out)
        sys.exit(run.wait())
        """
      let result = try CLI.python(script, [CLI.binary, input])
      #expect(result.status == 0, "\(result.stderrText)")
      #expect(result.stderrText.contains(" lines: "), "\(result.stderrText)")
      let blocking = try CLI.run(["-"], stdinFile: input)
      #expect(blocking.status == 0)
      #expect(blocking.stdout.count > 1 << 20)
      let same = result.stdout == blocking.stdout
      #expect(same, "\(result.stdout.count) bytes, \(blocking.stdout.count) from a blocking stdin")
    }

    /// A stdout or stderr the parent closed (`>&-`) is not handed to the first file the run
    /// opens: writing to it fails as to a closed descriptor. With stdout closed, the record
    /// stream went into the `--rejects` file (opened first when the input is stdin), status 0.
    /// With stderr closed the file took number 2 too; the summary missed it only because the
    /// file is closed before the summary is written.
    @Test func closedStdoutOrStderrIsNotReusedForAFile() throws {
      let dir = try TemporaryDirectory()
      defer { dir.remove() }
      let input = try Corpus.small
      let closedStdout = try CLI.sh(
        "\"$BIN\" - -o - --rejects out.ndjson < '\(input)' >&-", in: dir.url)
      #expect(closedStdout.status == 1)
      #expect(closedStdout.stderrText.contains("cannot write to stdout: Bad file descriptor"))
      // Reject records only (the corpus may have some), never the record stream.
      let stdoutRejects = String(decoding: try dir.read("out.ndjson"), as: UTF8.self)
      #expect(
        CLI.lines(stdoutRejects).allSatisfy { $0.contains(#""vendor":"reject""#) },
        "\(stdoutRejects.prefix(300))")
      // A run that writes nothing to stdout succeeds with it closed: `validate` of a clean
      // file (a check of the descriptor before the run failed it).
      let quiet = try CLI.sh("\"$BIN\" validate '\(input)' >&-", in: dir.url)
      #expect(quiet.status == 0, "\(quiet.stderrText)")
      let closedStderr = try CLI.sh(
        "\"$BIN\" - -o - --rejects err.ndjson < '\(input)' 2>&-", in: dir.url)
      #expect(closedStderr.status == 0)
      #expect(!closedStderr.stdout.isEmpty)
      // Reject records only (the corpus may have some: the project's own generator writes
      // over-budget lines), never the summary.
      let rejects = String(decoding: try dir.read("err.ndjson"), as: UTF8.self)
      #expect(
        CLI.lines(rejects).allSatisfy { $0.hasPrefix(#"{"source":"-","line":"#) },
        "\(rejects.prefix(300))")
      #expect(!rejects.contains("push-transcode:"), "\(rejects.prefix(300))")
      // `/dev/null` named while the closed descriptors hold it read-only is opened as named;
      // written through the held descriptor, it failed with "Bad file descriptor".
      let malformed = try Corpus.smallMalformed
      for script in [
        "\"$BIN\" '\(malformed)' -o - --rejects /dev/null > out1.ndjson 2>&-",
        "\"$BIN\" '\(input)' -o null --stats /dev/null >&-",
      ] {
        let run = try CLI.sh(script, in: dir.url)
        #expect(run.status == 0, "\(script): \(run.stderrText)")
      }
      #expect(FileManager.default.fileExists(atPath: dir.file("null/manifest.json")))
    }

    /// `--rejects /dev/stdout` or `--stats /dev/stderr` into a job's log (`>> job.log`) add to
    /// the log: they are written through the descriptor, not opened anew with `O_TRUNC`, which
    /// emptied the log (and, with `2>&1`, wrote over the summary).
    @Test func outputsNamingStdoutOrStderrAddToTheJobLog() throws {
      let dir = try TemporaryDirectory()
      defer { dir.remove() }
      let input = try Corpus.smallMalformed
      let rejects = try CLI.sh(
        """
        printf 'yesterday\\n' > job.log
        "$BIN" '\(input)' -o out --rejects /dev/stdout >> job.log 2>> job.log
        """, in: dir.url)
      #expect(rejects.status == 0, "\(rejects.stderrText)")
      let log = CLI.lines(String(decoding: try dir.read("job.log"), as: UTF8.self))
      #expect(log.first == "yesterday")
      #expect(log.dropFirst().dropLast().allSatisfy { $0.contains("\"vendor\":\"reject\"") })
      #expect(log.count > 3)
      #expect(log.last?.hasPrefix("push-transcode: ") == true)
      let stats = try CLI.sh(
        """
        printf 'yesterday\\n' > err.log
        "$BIN" '\(input)' -o - --stats /dev/stderr > /dev/null 2>> err.log
        """, in: dir.url)
      #expect(stats.status == 0, "\(stats.stderrText)")
      let errLog = CLI.lines(String(decoding: try dir.read("err.log"), as: UTF8.self))
      #expect(errLog.count == 3)
      #expect(errLog.first == "yesterday")
      // The stats are written as the run completes, the summary after.
      #expect(errLog.dropFirst().first?.hasPrefix("{\"lines\":") == true)
      #expect(errLog.last?.hasPrefix("push-transcode: ") == true)
    }

    /// The brief's own pipeline, with bash's pipefail when bash is there.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/bin/bash")))
    func headOneWithPipefailExitsZero() throws {
      let input = try Corpus.malformed
      let result = try CLI.execute(
        "/bin/bash", ["-c", "set -o pipefail; \"$BIN\" '\(input)' | head -1"],
        environment: ["BIN": CLI.binary])
      #expect(result.status == 0, "\(result.stderrText)")
      #expect(result.stderr.isEmpty, "\(result.stderrText)")
      #expect(result.stdoutLines.count == 1)
    }

    @Test func stdinIsDashOrNoArguments() throws {
      let input = try Corpus.smallMalformed
      let file = try CLI.run([input])
      let dash = try CLI.run(["-"], stdinFile: input)
      let none = try CLI.run([], stdinFile: input)
      #expect(dash.status == 0 && none.status == 0)
      #expect(dash.stdout == none.stdout)
      #expect(dash.stdoutText.hasPrefix("{\"source\":\"-\","))
      let renamed = file.stdoutText.replacingOccurrences(
        of: "{\"source\":\"\(input)\",", with: "{\"source\":\"-\",")
      #expect(renamed == dash.stdoutText)
    }

    @Test func multipleInputsAreOneStreamNumberedPerFile() throws {
      let dir = try TemporaryDirectory()
      defer { dir.remove() }
      try dir.write("a.ndjson", try Data(contentsOf: URL(fileURLWithPath: try Corpus.small)))
      try dir.write(
        "b.ndjson", try Data(contentsOf: URL(fileURLWithPath: try Corpus.smallMalformed)))
      let a = try CLI.run(["a.ndjson"], in: dir.url)
      let b = try CLI.run(["b.ndjson"], in: dir.url)
      let both = try CLI.run(
        ["a.ndjson", "b.ndjson", "--threads", "2", "--chunk-bytes", "65536"], in: dir.url)
      #expect(both.status == 0, "\(both.stderrText)")
      #expect(both.stdout == a.stdout + b.stdout)
      let firstOfB = try #require(b.stdoutLines.first)
      #expect(try recordHeader(firstOfB).line < 50)
    }

    /// gzip (multi-member) and LZ4 (concatenated frames) inputs, detected by content.
    @Test(arguments: [
      "gzip -c part1 > in.z && gzip -9 -c part2 >> in.z",
      "lz4 -q -c part1 > in.z && lz4 -q -9 -c part2 >> in.z",
      "gzip -c part1 > in.z && gzip -c /dev/null >> in.z && gzip -c part2 >> in.z",
    ])
    func compressedInputsEqualThePlainRun(make: String) throws {
      let dir = try TemporaryDirectory()
      defer { dir.remove() }
      let input = try Corpus.smallMalformed
      let setup = try CLI.sh(
        "head -n 1000 '\(input)' > part1 && tail -n +1001 '\(input)' > part2 && \(make)",
        in: dir.url)
      try #require(setup.status == 0, "\(setup.stderrText)")
      let plain = try CLI.run(["-"], stdinFile: input)
      let compressed = try CLI.run(
        ["-", "--threads", "2", "--chunk-bytes", "65536"], stdinFile: dir.file("in.z"))
      #expect(compressed.status == 0, "\(compressed.stderrText)")
      #expect(compressed.stdout == plain.stdout)
    }

    /// A truncated gzip input: status 1, the message names the file and how far it got, and the
    /// records of the lines before it are written and accounted for.
    @Test(arguments: [1, 2])
    func truncatedGzipInputStopsAfterWhatCameBefore(threads: Int) throws {
      let dir = try TemporaryDirectory()
      defer { dir.remove() }
      let input = try Corpus.small
      let setup = try CLI.sh(
        """
        mkdir plain gz && cp '\(input)' plain/input && gzip -c '\(input)' > full.gz &&
        head -c $(( $(wc -c < full.gz) * 2 / 5 )) full.gz > gz/input
        """, in: dir.url)
      try #require(setup.status == 0, "\(setup.stderrText)")
      let plain = try CLI.run(["input"], in: dir.url.appendingPathComponent("plain"))
      let cut = try CLI.run(
        ["input", "--threads", "\(threads)", "--chunk-bytes", "65536", "--stats", "../stats.json"],
        in: dir.url.appendingPathComponent("gz"))
      #expect(cut.status == 1)
      let stderr = cut.stderrText
      #expect(stderr.contains("input"), "\(stderr)")
      #expect(stderr.contains("truncated"), "\(stderr)")
      #expect(stderr.contains("lines:"), "no summary: \(stderr)")
      let linesMatch = try #require(stderr.firstMatch(of: /(\d+) complete lines/), "\(stderr)")
      let completeLines = Int(linesMatch.1)!
      let stats =
        try JSONSerialization.jsonObject(with: try dir.read("stats.json")) as! [String: Any]
      #expect(stats["lines"] as? Int == completeLines)
      #expect(completeLines > 100)
      let expected = try plain.stdoutLines.filter { try recordHeader($0).line <= completeLines }
      #expect(cut.stdoutLines == expected)
    }

    /// After a fatal input error, a compressed stdout is still a complete stream that holds the
    /// records of the lines before the fault (as the plain stream does).
    @Test(arguments: [("gzip", "gzip"), ("lz4", "lz4")])
    func compressedStdoutAfterTruncatedInputHoldsTheRecordsBefore(compress: String, tool: String)
      throws
    {
      let dir = try TemporaryDirectory()
      defer { dir.remove() }
      let input = try Corpus.small
      let setup = try CLI.sh(
        "gzip -c '\(input)' > full.gz && head -c $(( $(wc -c < full.gz) / 2 )) full.gz > input",
        in: dir.url)
      try #require(setup.status == 0, "\(setup.stderrText)")
      let plain = try CLI.run(["input", "--chunk-bytes", "65536"], in: dir.url)
      #expect(plain.status == 1)
      #expect(plain.stdoutLines.count > 100)
      let result = try CLI.sh(
        """
        "$BIN" input --chunk-bytes 65536 --compress \(compress) > out.z; echo $? > status.txt
        \(tool) -t out.z && \(tool) -dc out.z > out.ndjson
        """, in: dir.url)
      #expect(result.status == 0, "\(result.stderrText)")
      #expect(String(decoding: try dir.read("status.txt"), as: UTF8.self) == "1\n")
      #expect(try dir.read("out.ndjson") == plain.stdout)
    }

    /// A gzip member with an invalid deflate block after a good member.
    @Test func corruptGzipInputStopsAfterWhatCameBefore() throws {
      let dir = try TemporaryDirectory()
      defer { dir.remove() }
      let input = try Corpus.small
      let made = try CLI.python(
        PythonChecks.corruptGzip, [input, "200", "good", "input"], in: dir.url)
      try #require(made.status == 0, "\(made.stderrText)")
      let good = try CLI.run(["-"], stdinFile: dir.file("good"))
      let corrupt = try CLI.run(["-", "--threads", "2"], stdinFile: dir.file("input"))
      #expect(corrupt.status == 1)
      #expect(corrupt.stderrText.contains("corrupt"), "\(corrupt.stderrText)")
      #expect(corrupt.stderrText.contains("200 complete lines"), "\(corrupt.stderrText)")
      #expect(corrupt.stdout == good.stdout)
      // SPEC 2.1: the error names the file and how many bytes and lines came before the fault.
      let named = try CLI.run(["input"], in: dir.url)
      #expect(named.status == 1)
      let message = try #require(
        named.stderrText.split(separator: "\n").first { $0.contains("error: input: ") },
        "\(named.stderrText)")
      #expect(message.contains("error: input: corrupt gzip stream after "), "\(message)")
      #expect(message.contains(" uncompressed, 200 complete lines): "), "\(message)")
      let size = try FileManager.default.attributesOfItem(atPath: dir.file("input"))[.size] as? Int
      let bytes = message.split(separator: "after ").last?.split(separator: " ").first.flatMap {
        Int($0)
      }
      #expect(bytes.map { $0 > 0 && $0 <= (size ?? 0) } == true, "\(message)")
    }

    /// `push-transcode -o out` without its input file reads the terminal, and looked hung: a
    /// line on stderr now says so. The lines typed are read as before; a pipe or file on stdin
    /// gets no such line.
    @Test func aTerminalOnStdinIsNamed() throws {
      let script = #"""
        import os, pty, subprocess, sys
        master, slave = pty.openpty()
        line = b'{"MsgBody":[{"MsgType":"TIMTextElem","MsgContent":{"Text":"hi"}}],"To_Account":"u1"}'
        run = subprocess.Popen(
            [sys.argv[1], "--vendors", "apns", "--progress", "never"], stdin=slave,
            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        os.close(slave)
        os.write(master, line + b"\n\x04")  # a line, then end of input (Ctrl-D)
        out, err = run.communicate(timeout=60)
        sys.stdout.write(out.decode())
        sys.stderr.write(err.decode())
        sys.exit(run.returncode)
        """#
      let terminal = try CLI.python(script, [CLI.binary])
      #expect(terminal.status == 0, "\(terminal.stderrText)")
      #expect(terminal.stdoutLines.count == 1, "\(terminal.stdoutText)")
      #expect(
        terminal.stderrText.hasPrefix(
          "push-transcode: reading standard input from the terminal; end it with Ctrl-D"),
        "\(terminal.stderrText)")
      let piped = try CLI.run(["--vendors", "apns"], stdin: Data("{}\n".utf8))
      #expect(!piped.stderrText.contains("terminal"), "\(piped.stderrText)")
    }
  }
}
