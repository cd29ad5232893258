import Foundation
import Glibc
import Testing

extension CLITests {
  /// `-o DIR` keeps to its directory: `--force` never follows a symbolic link planted in it,
  /// one run at a time writes into it, and `--no-sync` changes nothing but the flushes.
  @Suite(needsGenerator) struct OutputDirectoryTests {
    /// Every file under `path` (links as `-> target`, not followed), for before/after checks.
    static func snapshot(_ path: String) throws -> [String: Data] {
      let manager = FileManager.default
      var files: [String: Data] = [:]
      for name in try manager.subpathsOfDirectory(atPath: path) {
        let full = path + "/" + name
        if let target = try? manager.destinationOfSymbolicLink(atPath: full) {
          files[name] = Data(("-> " + target).utf8)
          continue
        }
        var isDirectory: ObjCBool = false
        _ = manager.fileExists(atPath: full, isDirectory: &isDirectory)
        files[name] =
          isDirectory.boolValue ? Data() : try Data(contentsOf: URL(fileURLWithPath: full))
      }
      return files
    }

    /// The stream run of `input` the batch checker compares a directory with.
    static func streamReference(_ input: String, in dir: TemporaryDirectory, stdin: Bool = false)
      throws
    {
      let stream = try CLI.run(
        [
          stdin ? "-" : input, "--rejects", dir.file("stream-rejects.ndjson"), "--stats",
          dir.file("stats.json"),
        ], stdinFile: stdin ? input : nil)
      try #require(stream.status == 0, "\(stream.stderrText)")
      try dir.write("stream.ndjson", stream.stdout)
    }

    static func checkBatches(_ out: String, _ dir: TemporaryDirectory, batchRecords: String)
      throws
    {
      let check = try CLI.python(
        PythonChecks.batches,
        [
          out, dir.file("stream.ndjson"), dir.file("stream-rejects.ndjson"),
          dir.file("stats.json"), batchRecords, "",
        ])
      #expect(check.status == 0, "\(check.stdoutText)\(check.stderrText)")
    }

    /// A symbolic link where a vendor folder, a batch, `.replaced/`, `rejects.ndjson`,
    /// `manifest.json`, a temporary name or the lock file is expected is removed as a link:
    /// what it points at outside `DIR` is byte for byte unchanged, and the run writes what a
    /// fresh run writes. `--force` wrote batches over the files of a linked folder and moved
    /// them into `DIR`.
    @Test func forceNeverFollowsALinkPlantedInTheDirectory() throws {
      let dir = try TemporaryDirectory()
      defer { dir.remove() }
      let input = try Corpus.smallMalformed
      let out = dir.file("out")
      let outside = dir.file("outside")
      let manager = FileManager.default
      try manager.createDirectory(atPath: outside + "/folder", withIntermediateDirectories: true)
      try manager.createDirectory(
        atPath: outside + "/aside/apns", withIntermediateDirectories: true)
      try Data("notes\n".utf8).write(to: URL(fileURLWithPath: outside + "/folder/notes.txt"))
      try Data("a,b\n1,2\n".utf8).write(to: URL(fileURLWithPath: outside + "/folder/data.csv"))
      try Data("keep\n".utf8).write(
        to: URL(fileURLWithPath: outside + "/folder/batch-000001.ndjson"))
      try Data("aside\n".utf8).write(
        to: URL(fileURLWithPath: outside + "/aside/apns/batch-000001.ndjson"))
      for name in ["file.txt", "rejects.txt", "manifest.txt", "tmp.txt", "lock.txt"] {
        try Data("outside \(name)\n".utf8).write(to: URL(fileURLWithPath: outside + "/" + name))
      }
      try Self.streamReference(input, in: dir)
      let arguments = [input, "-o", out, "--batch-records", "50"]
      let first = try CLI.run(arguments)
      #expect(first.status == 0, "\(first.stderrText)")

      // Links in place of a listed batch, a vendor folder, `.replaced/`, the rejects, the lock
      // and the temporary names; the manifest stays, so its batches are candidates for reuse.
      func plant(_ name: String, _ target: String) throws {
        try? manager.removeItem(atPath: out + "/" + name)
        try #require(symlink(target, out + "/" + name) == 0, "\(name)")
      }
      try plant("apns/batch-000001.ndjson", outside + "/file.txt")
      try plant("fcm", outside + "/folder")
      try plant(".replaced", outside + "/aside")
      try plant("rejects.ndjson", outside + "/rejects.txt")
      try plant(".rejects.ndjson.tmp", outside + "/tmp.txt")
      try plant(".manifest.json.tmp", outside + "/tmp.txt")
      try plant(".lock", outside + "/lock.txt")
      let before = try Self.snapshot(outside)
      let forced = try CLI.run(arguments + ["--force"])
      #expect(forced.status == 0, "\(forced.stderrText)")
      #expect(try Self.snapshot(outside) == before)
      try Self.checkBatches(out, dir, batchRecords: "50")

      // The manifest itself a link (to a copy of a real manifest): not read, not followed.
      let manifest = try Data(contentsOf: URL(fileURLWithPath: out + "/manifest.json"))
      try manifest.write(to: URL(fileURLWithPath: outside + "/manifest.txt"))
      try plant("manifest.json", outside + "/manifest.txt")
      try plant("vivo/batch-000002.ndjson", outside + "/file.txt")
      let before2 = try Self.snapshot(outside)
      let again = try CLI.run(arguments + ["--force"])
      #expect(again.status == 0, "\(again.stderrText)")
      #expect(try Self.snapshot(outside) == before2)
      try Self.checkBatches(out, dir, batchRecords: "50")
    }

    /// Two runs into one directory: while the first holds it, the second stops at once with
    /// status 1 and a message naming the directory and the first run's pid, and changes
    /// nothing; the first run's manifest then agrees with its files. Two `--force` runs a few
    /// milliseconds apart left a manifest whose batches all failed their CRC-32.
    @Test func aSecondRunIntoADirectoryInUseStopsAtOnce() throws {
      let dir = try TemporaryDirectory()
      defer { dir.remove() }
      let input = try Corpus.malformed
      let out = dir.file("out")
      try Self.streamReference(input, in: dir, stdin: true)
      // The first run reads its input from a pipe this test closes: it holds the directory
      // for as long as the test needs.
      let first = try FedRun(
        ["-", "-o", out, "--batch-records", "100", "--threads", "2", "--force"],
        feeding: try Data(contentsOf: URL(fileURLWithPath: input)))
      let holds = FedRun.wait(
        for: {
          (try? Data(contentsOf: URL(fileURLWithPath: out + "/.lock")))?.isEmpty == false
        }, while: first)
      try #require(holds, "the first run never took the lock")
      for extra in [["--force"], ["--force", "--compress", "gzip"]] {
        let second = try CLI.run(
          [try Corpus.small, "-o", out, "--batch-records", "7"] + extra)
        #expect(second.status == 1)
        #expect(
          second.stderrText.contains("output directory \(out) is in use by another run"),
          "\(second.stderrText)")
        #expect(second.stderrText.contains("(pid \(first.pid))"), "\(second.stderrText)")
      }
      // Without --force the directory is refused as it always was.
      let plain = try CLI.run([try Corpus.small, "-o", out])
      #expect(plain.status == 1)
      #expect(plain.stderrText.contains(out), "\(plain.stderrText)")
      let done = first.finish()
      #expect(done.status == 0, "\(done.stderr)")
      try Self.checkBatches(out, dir, batchRecords: "100")
      // The lock went with the run: the next one takes it.
      let next = try CLI.run([input, "-o", out, "--force", "--batch-records", "100"])
      #expect(next.status == 0, "\(next.stderrText)")
    }

    /// A lock file left by a killed run does not block the next run (the kernel drops the lock
    /// with its process; the pid left in the file is ignored).
    @Test func aKilledRunsLockDoesNotBlockTheNext() throws {
      let dir = try TemporaryDirectory()
      defer { dir.remove() }
      let input = try Corpus.smallMalformed
      let out = dir.file("out")
      let run = try FedRun(
        ["-", "-o", out], feeding: try Data(contentsOf: URL(fileURLWithPath: input)))
      let holds = FedRun.wait(
        for: {
          (try? Data(contentsOf: URL(fileURLWithPath: out + "/.lock")))?.isEmpty == false
        }, while: run)
      try #require(holds, "the run never took the lock")
      run.kill()
      #expect(!(try Data(contentsOf: URL(fileURLWithPath: out + "/.lock")).isEmpty))
      try Self.streamReference(input, in: dir)
      let next = try CLI.run([input, "-o", out, "--force", "--batch-records", "1000"])
      #expect(next.status == 0, "\(next.stderrText)")
      try Self.checkBatches(out, dir, batchRecords: "1000")
    }

    /// `--no-sync` writes the same batches; its manifest's options say `"sync":false`, and a
    /// run without it writes the manifest it always wrote (no `sync` key).
    @Test func noSyncChangesOnlyTheManifestsOptions() throws {
      let dir = try TemporaryDirectory()
      defer { dir.remove() }
      let input = try Corpus.smallMalformed
      let common = [input, "--batch-records", "60", "--compress", "lz4", "--threads", "2"]
      let synced = try CLI.run(common + ["-o", dir.file("synced")])
      let scratch = try CLI.run(common + ["-o", dir.file("scratch"), "--no-sync"])
      #expect(synced.status == 0 && scratch.status == 0, "\(scratch.stderrText)")
      var a = try DeterminismTests.contents(of: dir.file("synced"))
      var b = try DeterminismTests.contents(of: dir.file("scratch"))
      let rawA = a.removeValue(forKey: "manifest.json")
      let rawB = b.removeValue(forKey: "manifest.json")
      let manifestA = String(decoding: try #require(rawA), as: UTF8.self)
      let manifestB = String(decoding: try #require(rawB), as: UTF8.self)
      #expect(a == b)
      #expect(!manifestA.contains("\"sync\""))
      #expect(manifestA.contains("\"batch_records\":60},"))
      #expect(
        manifestB
          == manifestA.replacingOccurrences(
            of: "\"batch_records\":60},", with: "\"batch_records\":60,\"sync\":false},"))
    }
  }
}
