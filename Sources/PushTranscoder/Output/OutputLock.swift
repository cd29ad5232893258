#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The exclusive lock a batch run holds on its output directory: `flock` on `DIR/.lock`, taken
/// before the run changes anything in `DIR` and released once the manifest is written, so two
/// runs (a retried cron job, a second operator) never write into one directory at once; the
/// second fails at once with a message naming the directory and the holder's pid.
///
/// The lock belongs to the open file, so the kernel drops it when its process ends, however it
/// ends: a lock file left by a killed run never blocks the next one. The file stays after the
/// run (removing it would let a run that opened it just before the removal lock an unlinked
/// file while a third run locks a new one); it holds the holder's pid while a run writes and is
/// empty afterwards, so a completed directory is the same whichever process wrote it.
final class OutputLock {
  /// The lock file's name inside the output directory.
  static let name = ".lock"

  private var fd: Int32

  /// Takes the lock on `directory`, creating its lock file if needed (never through a
  /// symbolic link), or throws when another run holds it.
  init(on directory: DirectoryHandle) throws {
    let path = directory.path + "/" + Self.name
    // `fd` is set only once the lock is held: a throw before leaves nothing for `deinit`.
    let flags = O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC
    var file = openat(directory.fd, Self.name, flags, 0o644)
    if file < 0 && errno == ELOOP {
      // A symbolic link where the lock file goes: removed as a link, never followed.
      guard unlinkat(directory.fd, Self.name, 0) == 0 else {
        throw SinkError.io("cannot remove \(path): \(String(cString: strerror(errno)))")
      }
      file = openat(directory.fd, Self.name, flags | O_EXCL, 0o644)
    }
    if file < 0 { throw SinkError.io("cannot open \(path): \(String(cString: strerror(errno)))") }
    var status = stat()
    guard fstat(file, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else {
      _ = close(file)
      throw SinkError.io("\(path) is not a regular file")
    }
    while flock(file, LOCK_EX | LOCK_NB) != 0 {
      if errno == EINTR { continue }
      let code = errno
      let holder = Self.holder(file)
      _ = close(file)
      guard code == EWOULDBLOCK else {
        throw SinkError.io("cannot lock \(path): \(String(cString: strerror(code)))")
      }
      throw SinkError.io(
        "output directory \(directory.path) is in use by another run"
          + (holder.map { " (pid \($0))" } ?? "") + " (it holds \(path))")
    }
    fd = file
    // The pid is for the message of a run that finds the lock taken; it is written after the
    // lock is held, so only the holder writes it.
    let pid = Array("\(getpid())\n".utf8)
    _ = ftruncate(fd, 0)
    // Safe because `pwrite` reads `count` bytes from the array's own buffer.
    _ = pid.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, 0) }
  }

  /// Empties the lock file and releases the lock (closing its file does).
  func release() {
    guard fd >= 0 else { return }
    _ = ftruncate(fd, 0)
    _ = close(fd)
    fd = -1
  }

  deinit { release() }

  /// The pid the lock file names, if it names one.
  private static func holder(_ fd: Int32) -> Int? {
    var bytes = [UInt8](repeating: 0, count: 32)
    // Safe because `pread` writes at most `count` bytes into the buffer.
    let count = bytes.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, 0) }
    guard count > 0 else { return nil }
    let text = String(decoding: bytes[..<count], as: UTF8.self)
    return Int(text.prefix { $0 != "\n" })
  }
}
