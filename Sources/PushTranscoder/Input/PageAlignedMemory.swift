#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Page-aligned allocations for read buffers.
///
/// A `read(2)` into a buffer that does not start on a page boundary ran at 0.29x the speed of
/// `cat` on the benchmark machine, so every buffer the input layer reads into comes from here.
/// The memory is raw and uninitialised; whoever holds the pointer frees it with `free`.
enum PageAlignedMemory {
  /// The system page size (4 KiB on the machines we target).
  static let pageSize: Int = {
    let size = sysconf(Int32(_SC_PAGESIZE))
    return size > 0 ? size : 4096
  }()

  /// Rounds `bytes` up to a whole number of pages (0 stays 0).
  @inline(__always)
  static func roundUp(_ bytes: Int) -> Int {
    (bytes + pageSize - 1) / pageSize * pageSize
  }

  /// Allocates `bytes` (at least one page) aligned to a page boundary; traps when memory is out.
  static func allocate(_ bytes: Int) -> UnsafeMutableRawPointer {
    var pointer: UnsafeMutableRawPointer? = nil
    let status = posix_memalign(&pointer, pageSize, max(bytes, pageSize))
    guard status == 0, let pointer else {
      fatalError("push-transcode: out of memory allocating \(bytes) bytes")
    }
    return pointer
  }
}
