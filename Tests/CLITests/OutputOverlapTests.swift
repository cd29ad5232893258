import Foundation
import Glibc
import PushTranscoder
import Testing

extension CLITests {
  /// An output that would overwrite an input, another output or a file of the output directory
  /// is bad usage (64), refused before anything is read or written (`OutputOverlap`).
  @Suite struct OutputOverlapTests {
    static let sample = CLI.packageRoot.appendingPathComponent("Corpus/sample.ndjson")

    /// A folder holding `in.ndjson` (the sample), a symbolic and a hard link to it.
    static func folder() throws -> (TemporaryDirectory, Data) {
      let dir = try TemporaryDirectory()
      let input = try Data(contentsOf: sample)
      try dir.write("in.ndjson", input)
      try FileManager.default.createSymbolicLink(
        atPath: dir.file("symlink.ndjson"), withDestinationPath: "in.ndjson")
      #expect(link(dir.file("in.ndjson"), dir.file("hardlink.ndjson")) == 0)
      return (dir, input)
    }

    /// The refusal: status 64, one line on stderr saying why, nothing on stdout.
    static func expectRefused(_ result: ProcessResult, saying reason: String) {
      #expect(result.status == 64, "stderr: \(result.stderrText)")
      #expect(result.stdout.isEmpty)
      let lines = CLI.lines(result.stderrText)
      #expect(lines.count == 1, "stderr: \(result.stderrText)")
      #expect(lines.first?.hasPrefix("push-transcode: ") == true)
      #expect(result.stderrText.contains(reason), "stderr: \(result.stderrText)")
    }

    @Test(arguments: [
      ["--rejects", "in.ndjson"],
      ["--stats", "in.ndjson"],
      ["--report", "in.ndjson"],
      ["--stats", "symlink.ndjson"],
      ["--report", "hardlink.ndjson"],
      ["--rejects", "./sub/../in.ndjson"],
      ["-o", "out", "--stats", "in.ndjson"],
    ])
    func anOutputThatIsAnInputIsRefusedAndTheInputKept(arguments: [String]) throws {
      let (dir, input) = try Self.folder()
      defer { dir.remove() }
      try FileManager.default.createDirectory(
        atPath: dir.file("sub"), withIntermediateDirectories: false)
      let result = try CLI.run(["in.ndjson"] + arguments, in: dir.url)
      Self.expectRefused(result, saying: "is the input in.ndjson")
      #expect(try dir.read("in.ndjson") == input)
      #expect(!FileManager.default.fileExists(atPath: dir.file("out")))
    }

    /// A `--directory` file is an input too.
    @Test func anOutputThatIsADirectoryFileIsRefused() throws {
      let (dir, input) = try Self.folder()
      defer { dir.remove() }
      try dir.write("names.ndjson", Data("{\"UserID\":\"u\",\"Nick\":\"N\"}\n".utf8))
      let names = try dir.read("names.ndjson")
      let result = try CLI.run(
        ["in.ndjson", "--directory", "names.ndjson", "--stats", "names.ndjson"], in: dir.url)
      Self.expectRefused(result, saying: "is the input names.ndjson")
      #expect(try dir.read("names.ndjson") == names)
      #expect(try dir.read("in.ndjson") == input)
    }

    @Test(arguments: [
      ["--stats", "run.json", "--report", "run.json"],
      ["--rejects", "run.json", "--stats", "./run.json"],
      ["--rejects", "sub/../run.json", "--report", "run.json"],
    ])
    func twoOutputsNamingOneFileAreRefused(arguments: [String]) throws {
      let (dir, _) = try Self.folder()
      defer { dir.remove() }
      let result = try CLI.run(["in.ndjson"] + arguments, in: dir.url)
      Self.expectRefused(result, saying: "both name")
      #expect(!FileManager.default.fileExists(atPath: dir.file("run.json")))
    }

    /// The run's own files in `-o DIR`, whether or not DIR exists yet; `--force` or not.
    @Test(arguments: [
      (["--stats", "out/manifest.json"], false),
      (["--rejects", "out/rejects.ndjson"], false),
      (["--report", "out/apns/report.html"], false),
      (["--stats", "out/.replaced/s.json"], false),
      (["--stats", "out"], false),
      (["--stats", "out/manifest.json", "--force"], true),
      (["--rejects", "./out/../out/rejects.ndjson", "--force"], true),
      (["--stats", "out/fcm/batch-000001.ndjson", "--force"], true),
    ])
    func anOutputAmongTheRunsOwnFilesIsRefused(arguments: [String], existing: Bool) throws {
      let (dir, _) = try Self.folder()
      defer { dir.remove() }
      if existing {
        let first = try CLI.run(["in.ndjson", "-o", "out"], in: dir.url)
        #expect(first.status == 0, "\(first.stderrText)")
      }
      let manifest = try? dir.read("out/manifest.json")
      let result = try CLI.run(["in.ndjson", "-o", "out"] + arguments, in: dir.url)
      Self.expectRefused(result, saying: "the output directory out")
      // Nothing changed: no directory made, or the first run's manifest as it was.
      #expect((try? dir.read("out/manifest.json")) == manifest)
      #expect(existing || !FileManager.default.fileExists(atPath: dir.file("out")))
    }

    /// An input among the batches `--force` reuses in place, named as a path or given as
    /// standard input (`- < out/apns/batch-000001.ndjson`): `--force` would write the new batch
    /// over the file while the run reads it.
    @Test(arguments: [
      ("\"$BIN\" out/apns/batch-000001.ndjson -o out --force", "out/apns/batch-000001.ndjson"),
      ("\"$BIN\" - -o out --force < out/apns/batch-000001.ndjson", "- (standard input)"),
    ])
    func anInputAmongTheOutputDirectorysBatchesIsRefused(script: String, input: String) throws {
      let (dir, _) = try Self.folder()
      defer { dir.remove() }
      let first = try CLI.run(["in.ndjson", "-o", "out"], in: dir.url)
      #expect(first.status == 0, "\(first.stderrText)")
      let batch = try dir.read("out/apns/batch-000001.ndjson")
      let result = try CLI.sh(script, in: dir.url)
      Self.expectRefused(result, saying: "the input \(input) is a file of")
      #expect(try dir.read("out/apns/batch-000001.ndjson") == batch)
      // Standard input from a file outside the directory is an input like any other.
      let outside = try CLI.sh("\"$BIN\" - -o out --force < in.ndjson", in: dir.url)
      #expect(outside.status == 0, "\(outside.stderrText)")
    }

    /// Files of the output directory that the run does not own, and devices, stay allowed.
    @Test func otherFilesAndDevicesStayAllowed() throws {
      let (dir, _) = try Self.folder()
      defer { dir.remove() }
      let batch = try CLI.run(
        ["in.ndjson", "-o", "out", "--stats", "out/stats.json", "--report", "out/run.html"],
        in: dir.url)
      #expect(batch.status == 0, "\(batch.stderrText)")
      #expect(FileManager.default.fileExists(atPath: dir.file("out/stats.json")))
      #expect(FileManager.default.fileExists(atPath: dir.file("out/manifest.json")))
      let devices = try CLI.run(
        ["in.ndjson", "--stats", "/dev/stdout", "--rejects", "/dev/null"], in: dir.url)
      #expect(devices.status == 0, "\(devices.stderrText)")
      #expect(devices.stdoutText.contains("\"transcoded\":11"))
      // A device named twice is no clash: only regular files count. `/dev/null` twice was
      // compared by location and refused.
      let twice = try CLI.run(
        ["in.ndjson", "-o", "out2", "--stats", "/dev/null", "--report", "/dev/null"], in: dir.url)
      #expect(twice.status == 0, "\(twice.stderrText)")
    }

    /// Standard output redirected onto an input: `>>` would read the run's own records back,
    /// and `>` has emptied it already. Checked for `validate` too.
    @Test(arguments: [
      "\"$BIN\" in.ndjson >> in.ndjson",
      "\"$BIN\" validate in.ndjson >> in.ndjson",
      "\"$BIN\" in.ndjson -o - --threads 1 >> symlink.ndjson",
      "\"$BIN\" - < in.ndjson >> hardlink.ndjson",
    ])
    func standardOutputOntoAnInputIsRefused(script: String) throws {
      let (dir, original) = try Self.folder()
      defer { dir.remove() }
      let result = try CLI.sh(script, in: dir.url)
      let input = script.contains(" - <") ? "- (standard input)" : "in.ndjson"
      Self.expectRefused(result, saying: "the standard output is the input \(input)")
      #expect(try dir.read("in.ndjson") == original)
    }

    @Test func aNamedOutputThatIsTheStandardOutputIsRefused() throws {
      let (dir, _) = try Self.folder()
      defer { dir.remove() }
      let result = try CLI.sh("\"$BIN\" in.ndjson --rejects r.ndjson > r.ndjson", in: dir.url)
      Self.expectRefused(result, saying: "--rejects r.ndjson is the standard output")
    }

    /// The library refuses the same, as an invalid option.
    @Test func theLibraryRefusesAnOutputThatIsAnInput() throws {
      let (dir, input) = try Self.folder()
      defer { dir.remove() }
      var job = TranscodeJob(inputs: [dir.file("in.ndjson")], output: .directory(dir.file("out")))
      job.statsPath = dir.file("hardlink.ndjson")
      do {
        _ = try job.run()
        Issue.record("an output that is an input must be refused")
      } catch {
        guard case .invalidOption(let message) = error else {
          Issue.record("expected .invalidOption, got \(error)")
          return
        }
        #expect(message.contains("is the input"), "\(message)")
      }
      #expect(try dir.read("in.ndjson") == input)
      #expect(!FileManager.default.fileExists(atPath: dir.file("out")))
    }
  }
}
