import Glibc

/// Page-aligned allocations for read buffers.
///
/// A `read(2)` into a buffer that does not start on a page boundary is much slower than one into
/// a page-aligned buffer, so every buffer the input layer reads into comes from here.
/// The memory is raw and uninitialised; whoever holds the pointer gives it back with
/// `release(_:bytes:)`, which keeps a few buffers for the next `allocate` of the same size: the
/// reader allocates a chunk buffer on its thread and a worker releases it on another, and
/// without the pool every chunk would be a fresh `mmap` (4 KiB page faults on every first touch,
/// and a TLB shootdown on every `munmap`).
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

  /// Free buffers kept for reuse: (size, address) pairs. At most the pool's `limit` of them, so
  /// the pool never holds more than the pipeline had in flight at its peak.
  private static let pool = BufferPool<(size: Int, address: UInt)>(limit: 24)

  /// Allocates `bytes` (at least one page) aligned to a page boundary; traps when memory is out.
  static func allocate(_ bytes: Int) -> UnsafeMutableRawPointer {
    let size = max(bytes, pageSize)
    // Safe because the address came from `posix_memalign` and was released, not freed.
    if let reused = pool.take(where: { $0.size == size }) {
      return UnsafeMutableRawPointer(bitPattern: reused.address)!
    }
    return fresh(size)
  }

  /// The huge page size. Read buffers larger than this (`fresh`: the 4 MiB chunk buffers, which
  /// are filled whole) are backed by transparent huge pages when the kernel offers them
  /// (`madvise` mode), up to their last whole huge page: one page fault per 2 MiB instead of
  /// one per 4 KiB. Record buffers (`map`) are not: how far one is written depends on the
  /// lines (a nine-vendor item's records fill 4.3 MB of a 5.1 MB buffer, an apns one's 430 KB
  /// of 2 MiB), and a huge page is resident whole from its first byte written, so each buffer
  /// kept up to 2 MiB more than it held. On a VM whose host takes back freed memory, that
  /// zeroing also recurs after every pause.
  static let hugePageBytes = 2 << 20

  /// A new page-aligned allocation (huge-page aligned and advised above `hugePageBytes`);
  /// traps when memory is out. Freed with `free`.
  static func fresh(_ size: Int) -> UnsafeMutableRawPointer {
    let huge = size > hugePageBytes
    var pointer: UnsafeMutableRawPointer? = nil
    let status = posix_memalign(&pointer, huge ? hugePageBytes : pageSize, max(size, pageSize))
    guard status == 0, let pointer else {
      fatalError("push-transcode: out of memory allocating \(size) bytes")
    }
    // Safe because [pointer, pointer + size rounded down to 2 MiB) lies inside the
    // allocation; the advice is a hint, its failure (no THP) changes nothing.
    if huge { _ = madvise(pointer, size / hugePageBytes * hugePageBytes, MADV_HUGEPAGE) }
    return pointer
  }

  /// A new anonymous mapping of `size` bytes (whole pages, never advised onto huge pages: see
  /// `hugePageBytes`); traps when memory is out. Its pages are backed when first written, and
  /// `unmap` returns them to the system.
  static func map(_ size: Int) -> UnsafeMutableRawPointer {
    let bytes = roundUp(max(size, pageSize))
    let pointer = mmap(nil, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)
    guard let pointer, pointer != MAP_FAILED else {
      fatalError("push-transcode: out of memory mapping \(size) bytes")
    }
    return pointer
  }

  /// Releases a mapping `map(size)` returned.
  static func unmap(_ pointer: UnsafeMutableRawPointer, _ size: Int) {
    // Safe because `pointer` is a mapping of `roundUp(size)` bytes that nobody uses any more.
    _ = munmap(pointer, roundUp(max(size, pageSize)))
  }

  /// Gives back a buffer `allocate(bytes)` returned: kept for reuse; when the pool is full its
  /// oldest buffer is freed instead.
  static func release(_ pointer: UnsafeMutableRawPointer, bytes: Int) {
    let size = max(bytes, pageSize)
    if let evicted = pool.put((size, UInt(bitPattern: pointer))) {
      // Safe because the pool only holds addresses `allocate` returned and nobody uses.
      free(UnsafeMutableRawPointer(bitPattern: evicted.address))
    }
  }
}

/// A page-aligned buffer (`PageAlignedMemory`) given back to the pool when the last reference
/// goes: a staging buffer, which the reader fills while the chunks cut from its front are still
/// with the workers.
final class SharedPageMemory: @unchecked Sendable {
  // Safe because the pointer and size never change, and the memory is released only in deinit,
  // when no holder is left. Who writes which bytes is the holders' contract (`ChunkReader`
  // writes only bytes no chunk it handed out covers: past them, or anywhere once it holds the
  // buffer alone).

  /// The start of the allocation.
  let memory: UnsafeMutableRawPointer
  /// The size of the allocation (what `PageAlignedMemory.release` is given).
  let bytes: Int

  /// Allocates `bytes` (at least one page).
  init(bytes: Int) {
    self.bytes = max(bytes, PageAlignedMemory.pageSize)
    memory = PageAlignedMemory.allocate(self.bytes)
  }

  deinit { PageAlignedMemory.release(memory, bytes: bytes) }
}
