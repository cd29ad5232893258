import Foundation
import Glibc

/// A run of the binary whose stdin is a pipe the test feeds: the run cannot finish before the
/// test closes the pipe, so a test can act on an event of the run (a file appears) while the
/// run is certainly still going, without depending on the machine's speed.
final class FedRun: @unchecked Sendable {
  // Safe because `process` and the pipes are set in `init`; `stderr` is written by the drain
  // job and read only after `group.wait()`.
  let process: Process
  /// The input pipe's write end (the read end is the child's stdin only).
  private let writeEnd: Int32
  private let errors = Pipe()
  private let group = DispatchGroup()
  private let closed = DispatchSemaphore(value: 0)
  private var stderrData = Data()

  /// Starts the binary with `arguments` and feeds it `data` from a background job; after the
  /// data the pipe stays open until `close()` (or the run's death) ends it.
  init(_ arguments: [String], feeding data: Data, in directory: URL? = nil) throws {
    // A write into the pipe of a killed run must fail with EPIPE, not kill the test runner.
    signal(SIGPIPE, SIG_IGN)
    var ends: [Int32] = [0, 0]
    // Safe because `pipe` writes two descriptors into the two-element array.
    let made = ends.withUnsafeMutableBufferPointer { pipe($0.baseAddress!) }
    guard made == 0 else { throw CLIError("pipe: \(String(cString: strerror(errno)))") }
    // Neither end leaks into other children the test runner starts.
    for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
    writeEnd = ends[1]
    process = Process()
    process.executableURL = URL(fileURLWithPath: CLI.binary)
    process.arguments = arguments
    if let directory { process.currentDirectoryURL = directory }
    process.standardInput = FileHandle(fileDescriptor: ends[0], closeOnDealloc: false)
    process.standardOutput = FileHandle.nullDevice
    process.standardError = errors
    defer { _ = Glibc.close(ends[0]) }
    try process.run()
    let errors = self.errors
    DispatchQueue.global().async(group: group) { [self] in
      stderrData = errors.fileHandleForReading.readDataToEndOfFile()
    }
    let fd = writeEnd
    let closed = self.closed
    DispatchQueue.global().async(group: group) {
      data.withUnsafeBytes { buffer in
        var offset = 0
        while offset < buffer.count {
          // Safe because `offset < count`, so the pointer and length stay inside the buffer.
          let written = Glibc.write(fd, buffer.baseAddress! + offset, buffer.count - offset)
          if written < 0 {
            if errno == EINTR { continue }
            break
          }
          offset += written
        }
      }
      closed.wait()
      _ = Glibc.close(fd)
    }
  }

  var pid: Int32 { process.processIdentifier }

  /// Ends the input (the run then finishes), or lets the feeder go after a kill.
  func close() { closed.signal() }

  /// Kills the run with SIGKILL and waits for it.
  func kill() {
    _ = Glibc.kill(pid, SIGKILL)
    process.waitUntilExit()
    close()
    group.wait()
  }

  /// Closes the input and waits for the run to end; returns its status and stderr.
  func finish() -> (status: Int32, stderr: String) {
    close()
    process.waitUntilExit()
    group.wait()
    return (process.terminationStatus, String(decoding: stderrData, as: UTF8.self))
  }

  /// Waits until `condition` holds, polling; false when the run ended first or after `limit`
  /// polls (a guard against a hang, never a measure of speed: the run waits for its input).
  static func wait(for condition: () -> Bool, while run: FedRun, limit: Int = 12_000) -> Bool {
    for _ in 0..<limit {
      if condition() { return true }
      if !run.process.isRunning { return condition() }
      usleep(10_000)
    }
    return false
  }
}

/// The files under `directory/<folder>/` whose names are final batch names.
func finalBatchCount(_ directory: String) -> Int {
  let manager = FileManager.default
  var count = 0
  for folder in (try? manager.contentsOfDirectory(atPath: directory)) ?? [] {
    for name in (try? manager.contentsOfDirectory(atPath: directory + "/" + folder)) ?? []
    where name.hasPrefix("batch-") {
      count += 1
    }
  }
  return count
}
