import Glibc

/// One input file descriptor, read with `read(2)`, with the bytes peeked for format detection
/// kept aside and served first.
///
/// Invariant: `pushback[pushbackStart..<pushbackEnd]` holds bytes already read from `fd` but
/// not yet handed out; `bytesRead` counts every byte read from `fd` (handed out or not). The
/// peek reads one page-aligned block of 64 KiB so that later reads of a regular file start at a
/// page-aligned file offset too.
final class FileInput {
  let fd: Int32
  private let ownsDescriptor: Bool
  private let pushback: UnsafeMutableRawPointer
  private var pushbackStart = 0
  private var pushbackEnd = 0
  private(set) var bytesRead: UInt64 = 0
  /// Called with the byte count after every successful `read(2)` (progress reporting).
  var onRead: ((Int) -> Void)?
  /// True for a pipe, socket, terminal or device: data arrives as a writer makes it, and a
  /// read may wait for it. False for a regular file.
  var isStream: Bool { bytesAtOpen == nil }
  /// For a regular file, the bytes it held past the descriptor's offset when it was opened: a
  /// read that meets the end before them means the file shrank while it was read (truncated
  /// in place, as `logrotate`'s `copytruncate` does), which is reported, never taken as its
  /// end. Nil for a stream. A file that grows meanwhile is read to its new end.
  private let bytesAtOpen: UInt64?

  static let peekBytes = 64 << 10

  /// Opens `path` read-only; throws a `cannotOpen` failure with the `errno` text.
  init(path: String) throws(DecodeFailure) {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else {
      throw DecodeFailure(reason: .cannotOpen, detail: String(cString: strerror(errno)))
    }
    _ = posix_fadvise(fd, 0, 0, Int32(POSIX_FADV_SEQUENTIAL))
    self.fd = fd
    self.ownsDescriptor = true
    self.bytesAtOpen = Self.regularFileBytesLeft(fd)
    self.pushback = PageAlignedMemory.allocate(Self.peekBytes)
  }

  /// Wraps an open descriptor (stdin, or a pipe in tests); it is not closed at the end.
  init(descriptor: Int32) {
    self.fd = descriptor
    self.ownsDescriptor = false
    self.bytesAtOpen = Self.regularFileBytesLeft(descriptor)
    self.pushback = PageAlignedMemory.allocate(Self.peekBytes)
  }

  deinit {
    // Safe because `PageAlignedMemory` memory comes from `posix_memalign`, which `free` takes.
    free(pushback)
    if ownsDescriptor { _ = close(fd) }
  }

  /// Reads until at least `count` bytes are buffered or the input ends, and returns the first
  /// bytes (possibly fewer than `count` for a short file). Call once, before any `read`.
  func peek(_ count: Int) throws(DecodeFailure) -> UnsafeRawBufferPointer {
    while pushbackEnd < count {
      // Safe because the read writes at most `peekBytes - pushbackEnd` bytes, inside `pushback`.
      let n = try readDescriptor(pushback + pushbackEnd, Self.peekBytes - pushbackEnd)
      if n == 0 { break }
      pushbackEnd += n
    }
    // Safe because pushback[0..<pushbackEnd] holds bytes read from `fd`.
    return UnsafeRawBufferPointer(start: pushback, count: min(count, pushbackEnd))
  }

  /// Reads up to `capacity` bytes into `buffer`; 0 means end of input.
  func read(into buffer: UnsafeMutableRawPointer, capacity: Int) throws(DecodeFailure) -> Int {
    if pushbackStart < pushbackEnd {
      let n = min(capacity, pushbackEnd - pushbackStart)
      // Safe because n fits both the caller's `capacity` and the unread pushback bytes.
      buffer.copyMemory(from: pushback + pushbackStart, byteCount: n)
      pushbackStart += n
      return n
    }
    return try readDescriptor(buffer, capacity)
  }

  /// Reads the rest of the input (the peeked bytes first) in blocks of `peekBytes`, calling
  /// `body` with each; false when a read fails.
  func forEachBlock(_ body: (UnsafeBufferPointer<UInt8>) -> Void) -> Bool {
    var block = [UInt8](repeating: 0, count: Self.peekBytes)
    while true {
      // Safe because the block is not empty (so `baseAddress` is set) and `read` writes at most
      // `count` bytes into it.
      guard
        let count = try? block.withUnsafeMutableBytes({
          try read(into: $0.baseAddress!, capacity: $0.count)
        })
      else { return false }
      if count == 0 { return true }
      block.withUnsafeBufferPointer { body(UnsafeBufferPointer(rebasing: $0[..<count])) }
    }
  }

  private func readDescriptor(_ buffer: UnsafeMutableRawPointer, _ capacity: Int)
    throws(DecodeFailure) -> Int
  {
    while true {
      let n = Glibc.read(fd, buffer, capacity)
      if n > 0 {
        bytesRead += UInt64(n)
        if let onRead { onRead(n) }
        return n
      }
      if n == 0 {
        if let bytesAtOpen, bytesRead < bytesAtOpen {
          throw DecodeFailure(
            reason: .truncated,
            detail: "the file shrank while it was read (\(bytesAtOpen) bytes when opened)")
        }
        return 0
      }
      var code = errno
      if code == EINTR { continue }
      // A non-blocking descriptor (the mode belongs to the open pipe or terminal, shared with
      // whoever set it) with nothing to read yet is waited for, as a blocking one would be.
      if code == EAGAIN || code == EWOULDBLOCK {
        guard let failure = DescriptorReadiness.wait(fd, for: Int16(POLLIN)) else { continue }
        code = failure
      }
      throw DecodeFailure(reason: .readFailed, detail: String(cString: strerror(code)))
    }
  }

  /// True when a read would not wait: bytes peeked and not handed out yet, or data (or the
  /// end of input, or an error for `read` to report) on the descriptor within `milliseconds`.
  func hasDataReady(within milliseconds: Int32) -> Bool {
    if pushbackStart < pushbackEnd { return true }
    var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
    // A failed poll (EINTR included) counts as ready: the read that follows decides.
    return poll(&descriptor, 1, milliseconds) != 0
  }

  /// The size of a regular file at `path`, nil for anything else (pipes, devices, missing).
  static func regularFileSize(_ path: String) -> UInt64? {
    var info = stat()
    guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
    return UInt64(info.st_size)
  }

  /// The bytes left to read from `descriptor` when it is a regular file (`< big.ndjson`): its
  /// size less its offset; nil for a pipe, a terminal or a socket.
  static func regularFileBytesLeft(_ descriptor: Int32) -> UInt64? {
    var info = stat()
    guard fstat(descriptor, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
    let offset = lseek(descriptor, 0, SEEK_CUR)
    guard offset >= 0, offset <= info.st_size else { return nil }
    return UInt64(info.st_size - offset)
  }
}
