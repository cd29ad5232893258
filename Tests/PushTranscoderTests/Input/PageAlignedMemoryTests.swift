import Glibc
import Testing

@testable import PushTranscoder

/// Which buffers go on transparent huge pages. A huge page is resident whole from the first
/// byte written to it, so only buffers that are filled whole (the reader's chunk buffers) are
/// advised onto them; record buffers, written as far as their lines' records go, are not: each
/// kept up to 2 MiB more than it held, and the nine-vendor batch run's peak memory passed
/// 64 MB (docs/DECISIONS.md [7, memory]).
@Suite struct PageAlignedMemoryTests {
  /// The `VmFlags` of the mapping that holds `address`, from `/proc/self/smaps`; nil when the
  /// file cannot be read or names no such mapping.
  static func vmFlags(of address: UnsafeMutableRawPointer) -> [Substring]? {
    let fd = open("/proc/self/smaps", O_RDONLY)
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 1 << 16)
    while true {
      let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
      guard count > 0 else { break }
      bytes += buffer[..<count]
    }
    let target = UInt(bitPattern: address)
    var inside = false
    for line in String(decoding: bytes, as: UTF8.self).split(separator: "\n") {
      // A mapping's first line: `start-end perms offset dev inode [path]`, in hexadecimal.
      let fields = line.split(separator: " ", omittingEmptySubsequences: true)
      if let range = fields.first, let dash = range.firstIndex(of: "-"),
        let start = UInt(range[..<dash], radix: 16),
        let end = UInt(range[range.index(after: dash)...], radix: 16)
      {
        inside = start <= target && target < end
      } else if inside, line.hasPrefix("VmFlags:") {
        return Array(fields.dropFirst())
      }
    }
    return nil
  }

  /// True when this kernel has transparent huge pages (`madvise(MADV_HUGEPAGE)` then marks a
  /// mapping `hg`, whatever the mode).
  static var kernelHasHugePages: Bool {
    access("/sys/kernel/mm/transparent_hugepage/enabled", F_OK) == 0
  }

  @Test func recordBuffersStayOnSmallPages() throws {
    // The size of a nine-vendor work item's record buffer: larger than two huge pages.
    let size = 5 << 20
    let record = PageAlignedMemory.map(size)
    defer { PageAlignedMemory.unmap(record, size) }
    let flags = try #require(Self.vmFlags(of: record), "no smaps entry for the mapping")
    #expect(!flags.contains("hg"), "a record buffer was advised onto huge pages: \(flags)")
  }

  @Test(.enabled(if: kernelHasHugePages, "this kernel has no transparent huge pages"))
  func chunkBuffersGoOnHugePages() throws {
    // A chunk buffer: 4 MiB and the reader's headroom. Its whole huge pages are advised (the
    // check above reads the right mapping's flags: here they do say `hg`).
    let size = (4 << 20) + (64 << 10)
    let chunk = PageAlignedMemory.fresh(size)
    defer { free(chunk) }
    let flags = try #require(Self.vmFlags(of: chunk), "no smaps entry for the buffer")
    #expect(flags.contains("hg"), "\(flags)")
  }
}
