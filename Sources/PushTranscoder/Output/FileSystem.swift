#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The few file-system operations the batch writer needs, on POSIX calls: errors read as the C
/// library states them (`cannot create out/apns: Permission denied`), and the library links no
/// Foundation.
enum FileSystem {
  /// What a path names: a directory, or anything else.
  enum Kind { case directory, other }

  /// What is at a path (following symbolic links), or nil when nothing is.
  static func kind(of path: String) -> Kind? {
    var status = stat()
    guard stat(path, &status) == 0 else { return nil }
    return (status.st_mode & S_IFMT) == S_IFDIR ? .directory : .other
  }

  static func exists(_ path: String) -> Bool { kind(of: path) != nil }

  /// `mkdir -p`: creates `path` and its missing parents. Throws the C library's reason.
  static func createDirectories(_ path: String) throws(FileSystemError) {
    switch kind(of: path) {
    case .directory: return
    case .other: throw FileSystemError(errno: ENOTDIR)
    case nil: break
    }
    let parent = parentPath(path)
    if !parent.isEmpty && parent != path { try createDirectories(parent) }
    if mkdir(path, 0o777) != 0 && !(errno == EEXIST && kind(of: path) == .directory) {
      throw FileSystemError(errno: errno)
    }
  }

  /// `rm -r`: removes `path`, and everything under it when it is a directory (symbolic links
  /// are removed, not followed).
  static func removeTree(_ path: String) throws(FileSystemError) {
    var status = stat()
    guard lstat(path, &status) == 0 else { throw FileSystemError(errno: errno) }
    if (status.st_mode & S_IFMT) == S_IFDIR {
      for name in try entries(of: path) { try removeTree(path + "/" + name) }
      guard rmdir(path) == 0 else { throw FileSystemError(errno: errno) }
    } else {
      guard unlink(path) == 0 else { throw FileSystemError(errno: errno) }
    }
  }

  /// The names in a directory, without `.` and `..`, in the order the directory lists them.
  static func entries(of path: String) throws(FileSystemError) -> [String] {
    guard let stream = opendir(path) else { throw FileSystemError(errno: errno) }
    defer { closedir(stream) }
    return names(in: stream)
  }

  /// The names an open directory stream lists, without `.` and `..`.
  static func names(in stream: OpaquePointer) -> [String] {
    var names: [String] = []
    while let entry = readdir(stream) {
      // Safe because `entry` points to the entry readdir just returned, valid until the next
      // readdir or closedir on `stream`, and `d_name` is a NUL-terminated name inside its
      // fixed-size field.
      let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
        String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
      }
      if name != "." && name != ".." { names.append(name) }
    }
    return names
  }

  /// The whole content of a file, or nil when it cannot be read (read with `FileInput`).
  static func contents(of path: String) -> [UInt8]? {
    guard let input = try? FileInput(path: path) else { return nil }
    var bytes: [UInt8] = []
    var block = [UInt8](repeating: 0, count: FileInput.peekBytes)
    while true {
      // Safe because the block is not empty (so `baseAddress` is set) and `read` writes at most
      // `count` bytes into it.
      guard
        let count = try? block.withUnsafeMutableBytes({
          try input.read(into: $0.baseAddress!, capacity: $0.count)
        })
      else { return nil }
      if count == 0 { return bytes }
      bytes.append(contentsOf: block[..<count])
    }
  }

  private static func parentPath(_ path: String) -> String {
    var bytes = Array(path.utf8)
    while bytes.count > 1 && bytes.last == UInt8(ascii: "/") { bytes.removeLast() }
    guard let slash = bytes.lastIndex(of: UInt8(ascii: "/")) else { return "" }
    return slash == 0 ? "/" : String(decoding: bytes[..<slash], as: UTF8.self)
  }
}

/// An open directory: every name is resolved relative to its descriptor, one level at a time,
/// and never through a symbolic link (`openat`, `mkdirat`, `renameat`, `unlinkat` with
/// `O_NOFOLLOW` / `AT_SYMLINK_NOFOLLOW`). Why: `-o DIR --force` rewrites and deletes what it
/// finds inside `DIR`; a symbolic link planted there (`DIR/fcm -> ~/data`) must be removed as a
/// link, never followed to the files it points at, and a path re-resolved at each call could
/// be swapped for a link between two calls.
///
/// The directory itself is opened by the path the user gave, which may be a symbolic link
/// (an output folder on another disk); nothing below it is followed.
final class DirectoryHandle: @unchecked Sendable {
  // Safe because `fd` and `path` never change after `init`, and every call on `fd` is one
  // system call, which the kernel serializes.
  /// The path the directory was reached by, for messages only.
  let path: String
  let fd: Int32

  /// What a name inside the directory is, without following a symbolic link.
  enum EntryKind { case directory, regular, symbolicLink, other }

  /// Opens the directory at `path` (following `path` itself when it is a symbolic link).
  init(opening path: String) throws(FileSystemError) {
    self.path = path
    fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    if fd < 0 { throw FileSystemError(errno: errno) }
  }

  /// Opens the directory `name` inside this one; a symbolic link there fails (`ELOOP` or
  /// `ENOTDIR`) instead of being followed.
  init(in parent: DirectoryHandle, name: String) throws(FileSystemError) {
    path = parent.path + "/" + name
    fd = openat(parent.fd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
    if fd < 0 { throw FileSystemError(errno: errno) }
  }

  deinit { _ = close(fd) }

  /// The status of `name` (a symbolic link's own), or nil when nothing has that name.
  func status(of name: String) -> stat? {
    var status = stat()
    guard fstatat(fd, name, &status, AT_SYMLINK_NOFOLLOW) == 0 else { return nil }
    return status
  }

  /// What `name` is, or nil when nothing has that name.
  func kind(of name: String) -> EntryKind? {
    guard let status = status(of: name) else { return nil }
    switch status.st_mode & S_IFMT {
    case S_IFDIR: return .directory
    case S_IFREG: return .regular
    case S_IFLNK: return .symbolicLink
    default: return .other
    }
  }

  /// Creates the directory `name` and opens it. An existing directory is opened as it is;
  /// anything else there (a symbolic link, a file) fails: it is not followed.
  func makeDirectory(_ name: String) throws(FileSystemError) -> DirectoryHandle {
    if mkdirat(fd, name, 0o777) != 0 && errno != EEXIST { throw FileSystemError(errno: errno) }
    return try DirectoryHandle(in: self, name: name)
  }

  /// Creates a new, empty regular file `name` and opens it for writing. Whatever had that name
  /// (a file, a symbolic link, a hard link to a file elsewhere) is unlinked first, never
  /// written through: `O_EXCL` creates a new inode or fails.
  func createFile(_ name: String) throws(FileSystemError) -> Int32 {
    let flags = O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC
    var file = openat(fd, name, flags, 0o644)
    if file < 0 && errno == EEXIST {
      guard unlinkat(fd, name, 0) == 0 else { throw FileSystemError(errno: errno) }
      file = openat(fd, name, flags, 0o644)
    }
    if file < 0 { throw FileSystemError(errno: errno) }
    return file
  }

  /// Opens the existing regular file `name` for writing, or nil when it is not one with a single
  /// link (checked on the open descriptor, so it cannot be swapped in between): overwriting a
  /// file also linked elsewhere would change that copy too. Returns the descriptor and size.
  func openSoleRegularFile(_ name: String) -> (fd: Int32, size: Int)? {
    let file = openat(fd, name, O_WRONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
    guard file >= 0 else { return nil }
    var status = stat()
    guard fstat(file, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG, status.st_nlink == 1
    else {
      _ = close(file)
      return nil
    }
    return (file, Int(status.st_size))
  }

  /// Renames `name` to `newName` in `target` (a symbolic link at either name is renamed or
  /// replaced as a link, never followed).
  func rename(_ name: String, to target: DirectoryHandle, _ newName: String) throws(FileSystemError)
  {
    if renameat(fd, name, target.fd, newName) != 0 { throw FileSystemError(errno: errno) }
  }

  /// Removes `name`, and everything under it when it is a directory; a symbolic link is
  /// removed as a link. Nothing there is not an error.
  func remove(_ name: String) throws(FileSystemError) {
    guard let kind = kind(of: name) else { return }
    if kind == .directory {
      let child = try DirectoryHandle(in: self, name: name)
      for entry in try child.entries() { try child.remove(entry) }
      guard unlinkat(fd, name, AT_REMOVEDIR) == 0 else { throw FileSystemError(errno: errno) }
    } else if unlinkat(fd, name, 0) != 0 && errno != ENOENT {
      throw FileSystemError(errno: errno)
    }
  }

  /// The names in the directory, without `.` and `..`.
  func entries() throws(FileSystemError) -> [String] {
    let copy = dup(fd)
    guard copy >= 0 else { throw FileSystemError(errno: errno) }
    guard let stream = fdopendir(copy) else {
      let code = errno
      _ = close(copy)
      throw FileSystemError(errno: code)
    }
    // The copy shares its offset with `fd`: start from the first entry whatever read before.
    rewinddir(stream)
    defer { closedir(stream) }
    return FileSystem.names(in: stream)
  }

  /// Flushes the directory's entries (names created, renamed, removed) to stable storage.
  func sync() throws(FileSystemError) {
    if fsync(fd) != 0 { throw FileSystemError(errno: errno) }
  }
}

/// A failed file-system call: the C library's description of its `errno`.
struct FileSystemError: Error, CustomStringConvertible {
  let code: Int32
  init(errno code: Int32) { self.code = code }
  var description: String { String(cString: strerror(code)) }
}
