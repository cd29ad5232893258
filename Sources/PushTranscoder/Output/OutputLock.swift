import Glibc
import SystemPackage

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

  private var fd: FileDescriptor?

  /// Takes the lock on `directory`, creating its lock file if needed (never through a
  /// symbolic link), or throws when another run holds it. `flock` is the one call swift-system
  /// does not wrap.
  init(on directory: DirectoryHandle) throws {
    let path = directory.path + "/" + Self.name
    // `fd` is set only once the lock is held: a throw before leaves nothing for `deinit`.
    let options: FileDescriptor.OpenOptions = [.create, .noFollow, .closeOnExec]
    let permissions: FilePermissions = [.ownerReadWrite, .groupRead, .otherRead]
    let file: FileDescriptor
    do {
      file = try directory.open(Self.name, .readWrite, options: options, permissions: permissions)
    } catch .tooManySymbolicLinkLevels {
      // A symbolic link where the lock file goes: removed as a link, never followed.
      do { try directory.removeEntry(Self.name) } catch {
        throw SinkError.io("cannot remove \(path): \(error)")
      }
      do {
        file = try directory.open(
          Self.name, .readWrite, options: options.union(.exclusiveCreate),
          permissions: permissions)
      } catch { throw SinkError.io("cannot open \(path): \(error)") }
    } catch { throw SinkError.io("cannot open \(path): \(error)") }
    guard let status = try? Stat(file), status.type == .regular else {
      try? file.close()
      throw SinkError.io("\(path) is not a regular file")
    }
    while flock(file.rawValue, LOCK_EX | LOCK_NB) != 0 {
      if errno == EINTR { continue }
      let code = Errno(rawValue: errno)
      let holder = Self.holder(file)
      try? file.close()
      guard code == .wouldBlock else { throw SinkError.io("cannot lock \(path): \(code)") }
      throw SinkError.io(
        "output directory \(directory.path) is in use by another run"
          + (holder.map { " (pid \($0))" } ?? "") + " (it holds \(path))")
    }
    fd = file
    // The pid is for the message of a run that finds the lock taken; it is written after the
    // lock is held, so only the holder writes it.
    _ = try? file.resize(to: 0)
    _ = try? file.writeAll(toAbsoluteOffset: 0, Array("\(getpid())\n".utf8))
  }

  /// Empties the lock file and releases the lock (closing its file does).
  func release() {
    guard let file = fd else { return }
    _ = try? file.resize(to: 0)
    try? file.close()
    fd = nil
  }

  deinit { release() }

  /// The pid the lock file names, if it names one.
  private static func holder(_ fd: FileDescriptor) -> Int? {
    var bytes = [UInt8](repeating: 0, count: 32)
    // Safe because `read` writes at most `count` bytes into the buffer.
    let count =
      (try? bytes.withUnsafeMutableBytes { try fd.read(fromAbsoluteOffset: 0, into: $0) }) ?? 0
    guard count > 0 else { return nil }
    let text = String(decoding: bytes[..<count], as: UTF8.self)
    return Int(text.prefix { $0 != "\n" })
  }
}
