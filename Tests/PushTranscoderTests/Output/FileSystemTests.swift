import Foundation
import SystemPackage
import Testing

@testable import PushTranscoder

/// The POSIX helpers that replaced FileManager and `String(format:)` in the library.
@Suite struct FileSystemTests {
  private func scratch() -> String {
    let path = NSTemporaryDirectory() + "/fs-tests-" + UUID().uuidString
    return path
  }

  @Test func createsNestedDirectoriesAndRemovesTrees() throws {
    let root = scratch()
    let nested = root + "/a/b//c/"
    try FileSystem.createDirectories(nested)
    #expect(FileSystem.kind(of: root + "/a/b/c") == .directory)
    // Creating what exists is not an error.
    try FileSystem.createDirectories(root + "/a/b")
    #expect(FileManager.default.createFile(atPath: root + "/a/file", contents: Data([1, 2, 3])))
    #expect(FileSystem.kind(of: root + "/a/file") == .other)
    #expect(try FileSystem.entries(of: root + "/a").sorted() == ["b", "file"])
    #expect(FileSystem.contents(of: root + "/a/file") == [1, 2, 3])
    try FileSystem.removeTree(root)
    #expect(!FileSystem.exists(root))
  }

  @Test func failuresCarryTheCLibrarysReason() throws {
    let root = scratch()
    try FileSystem.createDirectories(root)
    defer { try? FileSystem.removeTree(root) }
    #expect(FileManager.default.createFile(atPath: root + "/file", contents: Data()))
    // A directory under a regular file cannot be created.
    let error = #expect(throws: Errno.self) {
      try FileSystem.createDirectories(root + "/file/sub")
    }
    #expect(error?.description == "Not a directory")
    let missing = #expect(throws: Errno.self) {
      try FileSystem.removeTree(root + "/missing")
    }
    #expect(missing?.description == "No such file or directory")
    #expect(FileSystem.contents(of: root + "/missing") == nil)
  }

  @Test func cFormatMatchesFoundationsFormatting() {
    let values: [Double] = [0, 0.05, 0.25, 1.45, 2.675, 123.456789, 1e9 + 0.5, 99.95]
    for value in values {
      for format in ["%.0f", "%.1f", "%.2f", "%.3f"] {
        #expect(String(cFormat: format, value) == String(format: format, value), "\(format)")
      }
    }
    #expect(String(cFormat: "batch-%06ld.ndjson", 42) == "batch-000042.ndjson")
    // Swift's Int is a C long: `%ld` prints it whole, past 32 bits.
    #expect(String(cFormat: "%ld lines", 5_000_000_000) == "5000000000 lines")
    #expect(String(cFormat: "%08x", UInt32(0xBEEF)) == "0000beef")
    // Longer than the first buffer.
    let long = String(repeating: "x", count: 300)
    #expect(String(cFormat: long + "%d", 5) == long + "5")
  }

  /// Counts are Swift Ints, C longs: `%d` printed only their low 32 bits.
  @Test func progressLinePrintsLargeLineCountsWhole() {
    let line = Progress.line(
      bytes: 2_000_000_000_000, lines: 5_000_000_000, seconds: 1000, totalBytes: 4_000_000_000_000,
      readBytes: 2_000_000_000_000)
    #expect(line == "\r2000000.0 MB, 5000000000 lines, 2000 MB/s, 50%, ETA 1000 s\u{1B}[K")
  }

  /// For compressed input the share and the ETA follow the compressed bytes read, the unit of
  /// the known total: 40 MB decoded from the first 1 MB of a 5 MB gzip file is 20 %, not 100 %.
  @Test func progressOfCompressedInputFollowsTheCompressedBytesRead() {
    let line = Progress.line(
      bytes: 40_000_000, lines: 100, seconds: 2, totalBytes: 5_000_000, readBytes: 1_000_000)
    #expect(line == "\r40.0 MB, 100 lines, 20 MB/s, 20%, ETA 8 s\u{1B}[K")
  }
}
