import Foundation
import Glibc
import Testing

/// What a finished process left behind.
struct ProcessResult {
  var status: Int32
  /// True when the process ended by a signal (then `status` is the signal number).
  var signaled: Bool
  var stdout: Data
  var stderr: Data

  var stdoutText: String { String(decoding: stdout, as: UTF8.self) }
  var stderrText: String { String(decoding: stderr, as: UTF8.self) }

  /// The stdout lines (without terminators); a trailing `\n` ends the last line.
  var stdoutLines: [Substring] { CLI.lines(stdoutText) }
}

/// Runs the built `push-transcode` binary (and shell pipelines around it) as a user would.
enum CLI {
  /// The package root, found from this file's path.
  static let packageRoot: URL = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

  /// `push-transcode` next to the test bundle, else `<package root>/.build/debug/push-transcode`.
  ///
  /// `swift test` compiles the CLI's module but does not relink this executable: run
  /// `swift build` first (as `make test` does), or these tests exercise a stale binary.
  static let binary: String = {
    let manager = FileManager.default
    if let exe = try? manager.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
      var folder = URL(fileURLWithPath: exe).deletingLastPathComponent()
      // The test runner is `<bin>/<Package>PackageTests.xctest`, beside the CLI; a few levels
      // up are tried for other layouts.
      for _ in 0..<4 {
        let candidate = folder.appendingPathComponent("push-transcode").path
        if manager.isExecutableFile(atPath: candidate) { return candidate }
        folder = folder.deletingLastPathComponent()
      }
    }
    return packageRoot.appendingPathComponent(".build/debug/push-transcode").path
  }()

  /// `../shared`, where the corpus generator lives.
  static let shared: URL = packageRoot.deletingLastPathComponent().appendingPathComponent("shared")

  /// The corpus generator: the benchmark kit's `gen_corpus.py` when `../shared` is there,
  /// else the project's own `Corpus/make_test_corpus.py` (same arguments), so that a clone on
  /// its own runs every generated-corpus test.
  static let generator: (path: String, name: String) = {
    let kit = shared.appendingPathComponent("bench/gen_corpus.py").path
    if FileManager.default.fileExists(atPath: kit) { return (kit, "gen_corpus") }
    return (packageRoot.appendingPathComponent("Corpus/make_test_corpus.py").path, "own")
  }()

  /// Both generators are Python scripts.
  static let hasPython: Bool = {
    (try? execute("/usr/bin/env", ["python3", "-c", "pass"]).status) == 0
  }()

  /// Runs the binary with `arguments`; `stdin` is a file path, bytes, or nothing (`/dev/null`).
  static func run(
    _ arguments: [String], stdin: Data? = nil, stdinFile: String? = nil, in directory: URL? = nil
  ) throws -> ProcessResult {
    try execute(binary, arguments, stdin: stdin, stdinFile: stdinFile, in: directory)
  }

  /// Runs `script` with `/bin/sh -c`, with `$BIN` set to the binary.
  static func sh(_ script: String, stdinData: Data? = nil, in directory: URL? = nil) throws
    -> ProcessResult
  {
    try execute(
      "/bin/sh", ["-c", script], stdin: stdinData, in: directory, environment: ["BIN": binary])
  }

  /// Runs `python3 -c script arguments...`.
  static func python(_ script: String, _ arguments: [String] = [], in directory: URL? = nil) throws
    -> ProcessResult
  {
    try execute("/usr/bin/env", ["python3", "-c", script] + arguments, in: directory)
  }

  /// Starts the binary without waiting (for the SIGKILL test); output goes to `/dev/null`.
  static func start(_ arguments: [String], in directory: URL? = nil) throws -> Process {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: binary)
    process.arguments = arguments
    if let directory { process.currentDirectoryURL = directory }
    process.standardInput = FileHandle.nullDevice
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    return process
  }

  static func execute(
    _ executable: String, _ arguments: [String], stdin: Data? = nil, stdinFile: String? = nil,
    in directory: URL? = nil, environment: [String: String] = [:]
  ) throws -> ProcessResult {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    if let directory { process.currentDirectoryURL = directory }
    if !environment.isEmpty {
      process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
    }
    let out = Pipe()
    let err = Pipe()
    process.standardOutput = out
    process.standardError = err
    var input: Pipe? = nil
    if let stdinFile {
      guard let handle = FileHandle(forReadingAtPath: stdinFile) else {
        throw CLIError("cannot open \(stdinFile)")
      }
      process.standardInput = handle
    } else if stdin != nil {
      input = Pipe()
      process.standardInput = input
    } else {
      process.standardInput = FileHandle.nullDevice
    }
    try process.run()
    // Both pipes are drained concurrently, so a chatty child never blocks on a full pipe.
    let group = DispatchGroup()
    nonisolated(unsafe) var stdoutData = Data()
    nonisolated(unsafe) var stderrData = Data()
    DispatchQueue.global().async(group: group) {
      stdoutData = out.fileHandleForReading.readDataToEndOfFile()
    }
    DispatchQueue.global().async(group: group) {
      stderrData = err.fileHandleForReading.readDataToEndOfFile()
    }
    if let input, let stdin {
      // The child may stop reading early (that is fine): ignore EPIPE.
      signal(SIGPIPE, SIG_IGN)
      let fd = input.fileHandleForWriting.fileDescriptor
      stdin.withUnsafeBytes { buffer in
        var offset = 0
        while offset < buffer.count {
          let written = Glibc.write(fd, buffer.baseAddress! + offset, buffer.count - offset)
          if written < 0 {
            if errno == EINTR { continue }
            break
          }
          offset += written
        }
      }
      try input.fileHandleForWriting.close()
    }
    group.wait()
    process.waitUntilExit()
    return ProcessResult(
      status: process.terminationStatus,
      signaled: process.terminationReason == .uncaughtSignal, stdout: stdoutData,
      stderr: stderrData)
  }

  /// Splits text into lines the way NDJSON does.
  static func lines(_ text: String) -> [Substring] {
    var lines = text.split(separator: "\n", omittingEmptySubsequences: false)
    if lines.last == "" { lines.removeLast() }
    return lines
  }
}

struct CLIError: Error, CustomStringConvertible {
  var description: String
  init(_ description: String) { self.description = description }
}

/// A fresh directory under the system's temporary directory, removed by `remove()`.
struct TemporaryDirectory {
  let url: URL
  var path: String { url.path }

  init() throws {
    let base = URL(fileURLWithPath: NSTemporaryDirectory())
      .appendingPathComponent("push-transcode-clitests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: base, withIntermediateDirectories: true)
    url = base
  }

  func file(_ name: String) -> String { url.appendingPathComponent(name).path }

  func write(_ name: String, _ data: Data) throws {
    try data.write(to: url.appendingPathComponent(name))
  }

  func read(_ name: String) throws -> Data {
    try Data(contentsOf: url.appendingPathComponent(name))
  }

  func remove() {
    try? FileManager.default.removeItem(at: url)
  }
}

/// Generated corpora, made once per machine (the generator is deterministic) and shared.
enum Corpus {
  static let cache: URL = URL(fileURLWithPath: NSTemporaryDirectory())
    .appendingPathComponent("push-transcode-clitests-corpus")

  /// About 1 MB of valid messages.
  static var valid: String { get throws { try generated(seed: 7, megabytes: "1") } }
  /// About 1 MB with 5 % malformed lines (every kind the generator makes).
  static var malformed: String {
    get throws {
      try generated(seed: 11, megabytes: "1", extra: ["--malformed", "--malformed-rate", "0.05"])
    }
  }
  /// About 0.25 MB with 5 % malformed lines.
  static var smallMalformed: String {
    get throws {
      try generated(
        seed: 13, megabytes: "0.25", extra: ["--malformed", "--malformed-rate", "0.05"])
    }
  }
  /// About 2.5 MB with 5 % malformed lines: more than two work pieces (1 MiB) in one chunk.
  static var multiPiece: String {
    get throws {
      try generated(
        seed: 17, megabytes: "2.5", extra: ["--malformed", "--malformed-rate", "0.05"])
    }
  }
  /// About 0.25 MB of valid messages, for the many small runs.
  static var small: String { get throws { try generated(seed: 3, megabytes: "0.25") } }

  /// `gen_corpus.py SEED SIZE_MB [extra]`, cached under a name made of its arguments.
  static func generated(seed: Int, megabytes: String, extra: [String] = []) throws -> String {
    let generator = CLI.generator
    let name =
      (["corpus", generator.name, "\(seed)", megabytes] + extra).joined(separator: "_") + ".ndjson"
    let path = cache.appendingPathComponent(name).path
    if FileManager.default.fileExists(atPath: path) { return path }
    try FileManager.default.createDirectory(at: cache, withIntermediateDirectories: true)
    let result = try CLI.execute(
      "/usr/bin/env", ["python3", generator.path, "\(seed)", megabytes] + extra)
    guard result.status == 0 else {
      throw CLIError("\(generator.path) failed: \(result.stderrText)")
    }
    let temporary = path + ".\(getpid()).tmp"
    try result.stdout.write(to: URL(fileURLWithPath: temporary))
    guard rename(temporary, path) == 0 else { throw CLIError("cannot rename \(temporary)") }
    return path
  }
}

/// Skips a test when python3, which runs the corpus generators, is missing.
let needsGenerator = Testing.ConditionTrait.enabled(
  if: CLI.hasPython, "python3 is missing: generated-corpus tests skipped")

/// True when this process may mount a tmpfs (root with the capability to mount; a container
/// without it cannot): tried once, on a scratch directory.
let canMountTmpfs: Bool = {
  guard getuid() == 0, FileManager.default.isExecutableFile(atPath: "/bin/mount") else {
    return false
  }
  let point = NSTemporaryDirectory() + "push-transcode-mount-probe-\(getpid())"
  guard
    (try? FileManager.default.createDirectory(atPath: point, withIntermediateDirectories: true))
      != nil
  else { return false }
  defer { try? FileManager.default.removeItem(atPath: point) }
  guard
    let mounted = try? CLI.execute(
      "/bin/mount", ["-t", "tmpfs", "-o", "size=64k", "tmpfs", point]),
    mounted.status == 0
  else { return false }
  _ = try? CLI.execute("/bin/umount", [point])
  return true
}()

/// Skips a test that needs a tmpfs mount when running as root cannot mount one.
let needsMountWhenRoot = Testing.ConditionTrait.enabled(
  if: getuid() != 0 || canMountTmpfs,
  "running as root without the right to mount a tmpfs: this test is skipped")

/// True when the binary under test runs under a small file-size limit (`ulimit -f 64`), as a
/// release or debug build does. ThreadSanitizer's runtime does not: a run with worker threads
/// dies of SIGBUS in it (a single-threaded `--version` may not), so under `make tsan` the tests
/// that set such a limit are skipped, not failed. The probe is a small run with two threads.
let startsUnderFileSizeLimit: Bool = {
  guard
    let probe = try? CLI.sh(
      "ulimit -f 64 && printf '{}\\n' | \"$BIN\" -o - --threads 2 > /dev/null 2>&1")
  else {
    return false
  }
  return probe.status == 0
}()

/// Skips a test that runs the binary under `ulimit -f` when the binary cannot start there.
let needsFileSizeLimit = Testing.ConditionTrait.enabled(
  if: startsUnderFileSizeLimit,
  "the binary under test cannot start under `ulimit -f` (ThreadSanitizer's runtime): skipped")

/// The whole CLI suite runs one test at a time: the machine has few cores, and many tests start
/// runs of several threads each.
@Suite(.serialized) struct CLITests {}
