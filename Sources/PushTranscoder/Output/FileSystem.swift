import Glibc
import SystemPackage

/// The few file-system operations the batch writer needs, on swift-system (`FilePath`, `Stat`,
/// `Errno`) and, where swift-system has no wrapper, the C library: errors read as the C library
/// states them (`cannot create out/apns: Permission denied`), and the library links no
/// Foundation.
///
/// Hand-written on Glibc because swift-system 1.8 has no public wrapper for them: `mkdir`,
/// `rmdir`, `unlink`, directory listing (`opendir`/`readdir`), and in `DirectoryHandle` the
/// descriptor-relative calls (`openat`, `mkdirat`, `renameat`, `unlinkat`) and `fsync`. Each
/// is one call whose failure becomes an `Errno`.
enum FileSystem {
  /// What a path names: a directory, or anything else.
  enum Kind { case directory, other }

  /// What is at a path (following symbolic links), or nil when nothing is.
  static func kind(of path: String) -> Kind? {
    guard let status = try? Stat(FilePath(path)) else { return nil }
    return status.type == .directory ? .directory : .other
  }

  static func exists(_ path: String) -> Bool { kind(of: path) != nil }

  /// `mkdir -p`: creates `path` and its missing parents. Throws the C library's reason.
  static func createDirectories(_ path: String) throws(Errno) {
    switch kind(of: path) {
    case .directory: return
    case .other: throw Errno.notDirectory
    case nil: break
    }
    let parent = FilePath(path).removingLastComponent().string
    if !parent.isEmpty && parent != path { try createDirectories(parent) }
    if mkdir(path, 0o777) != 0 && !(errno == EEXIST && kind(of: path) == .directory) {
      throw Errno(rawValue: errno)
    }
  }

  /// `rm -r`: removes `path`, and everything under it when it is a directory (symbolic links
  /// are removed, not followed).
  static func removeTree(_ path: String) throws(Errno) {
    if try Stat(FilePath(path), followTargetSymlink: false).type == .directory {
      for name in try entries(of: path) { try removeTree(path + "/" + name) }
      guard rmdir(path) == 0 else { throw Errno(rawValue: errno) }
    } else {
      guard unlink(path) == 0 else { throw Errno(rawValue: errno) }
    }
  }

  /// The names in a directory, without `.` and `..`, in the order the directory lists them.
  static func entries(of path: String) throws(Errno) -> [String] {
    guard let stream = opendir(path) else { throw Errno(rawValue: errno) }
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
    return input.forEachBlock { bytes.append(contentsOf: $0) } ? bytes : nil
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
  let fd: FileDescriptor

  /// What a name inside the directory is, without following a symbolic link.
  enum EntryKind { case directory, regular, symbolicLink, other }

  /// Opens the directory at `path` (following `path` itself when it is a symbolic link).
  init(opening path: String) throws(Errno) {
    self.path = path
    do {
      fd = try FileDescriptor.open(
        FilePath(path), .readOnly, options: [.directory, .closeOnExec])
    } catch {
      throw error as? Errno ?? .ioError
    }
  }

  /// Opens the directory `name` inside this one; a symbolic link there fails (`ELOOP` or
  /// `ENOTDIR`) instead of being followed.
  init(in parent: DirectoryHandle, name: String) throws(Errno) {
    path = parent.path + "/" + name
    fd = try parent.open(name, .readOnly, options: [.directory, .noFollow, .closeOnExec])
  }

  deinit { try? fd.close() }

  /// `openat`, which swift-system does not wrap: opens `name` in this directory. `.create`
  /// needs `permissions`.
  func open(
    _ name: String, _ mode: FileDescriptor.AccessMode, options: FileDescriptor.OpenOptions,
    permissions: FilePermissions? = nil
  ) throws(Errno) -> FileDescriptor {
    while true {
      let file = openat(
        fd.rawValue, name, mode.rawValue | options.rawValue, permissions?.rawValue ?? 0)
      if file >= 0 { return FileDescriptor(rawValue: file) }
      if errno != EINTR { throw Errno(rawValue: errno) }
    }
  }

  /// The status of `name` (a symbolic link's own), or nil when nothing has that name.
  func status(of name: String) -> Stat? {
    try? Stat(FilePath(name), relativeTo: fd, flags: .symlinkNoFollow)
  }

  /// What `name` is, or nil when nothing has that name.
  func kind(of name: String) -> EntryKind? {
    guard let status = status(of: name) else { return nil }
    switch status.type {
    case .directory: return .directory
    case .regular: return .regular
    case .symbolicLink: return .symbolicLink
    default: return .other
    }
  }

  /// Creates the directory `name` and opens it. An existing directory is opened as it is;
  /// anything else there (a symbolic link, a file) fails: it is not followed.
  func makeDirectory(_ name: String) throws(Errno) -> DirectoryHandle {
    if mkdirat(fd.rawValue, name, 0o777) != 0 && errno != EEXIST { throw Errno(rawValue: errno) }
    return try DirectoryHandle(in: self, name: name)
  }

  /// Creates a new, empty regular file `name` and opens it for writing (and reading, when
  /// `readable`); the caller takes over the descriptor. Whatever had that name (a file, a
  /// symbolic link, a hard link to a file elsewhere) is unlinked first, never written through:
  /// `O_EXCL` creates a new inode or fails.
  func createFile(_ name: String, readable: Bool = false) throws(Errno) -> Int32 {
    let options: FileDescriptor.OpenOptions = [.create, .exclusiveCreate, .noFollow, .closeOnExec]
    let permissions: FilePermissions = [.ownerReadWrite, .groupRead, .otherRead]
    let mode: FileDescriptor.AccessMode = readable ? .readWrite : .writeOnly
    do {
      return try open(name, mode, options: options, permissions: permissions).rawValue
    } catch .fileExists {
      try removeEntry(name)
      return try open(name, mode, options: options, permissions: permissions).rawValue
    }
  }

  /// Opens the existing regular file `name` for writing, or nil when it is not one with a single
  /// link (checked on the open descriptor, so it cannot be swapped in between): overwriting a
  /// file also linked elsewhere would change that copy too. Returns the descriptor, which the
  /// caller takes over, and the size.
  func openSoleRegularFile(_ name: String) -> (fd: Int32, size: Int)? {
    guard
      let file = try? open(name, .writeOnly, options: [.noFollow, .nonBlocking, .closeOnExec])
    else { return nil }
    guard let status = try? Stat(file), status.type == .regular, status.linkCount == 1 else {
      try? file.close()
      return nil
    }
    return (file.rawValue, Int(status.size))
  }

  /// Renames `name` to `newName` in `target` (a symbolic link at either name is renamed or
  /// replaced as a link, never followed).
  func rename(_ name: String, to target: DirectoryHandle, _ newName: String) throws(Errno) {
    if renameat(fd.rawValue, name, target.fd.rawValue, newName) != 0 {
      throw Errno(rawValue: errno)
    }
  }

  /// Unlinks `name` (a file, or a symbolic link as a link).
  func removeEntry(_ name: String) throws(Errno) {
    if unlinkat(fd.rawValue, name, 0) != 0 { throw Errno(rawValue: errno) }
  }

  /// Removes `name`, and everything under it when it is a directory; a symbolic link is
  /// removed as a link. Nothing there is not an error.
  func remove(_ name: String) throws(Errno) {
    guard let kind = kind(of: name) else { return }
    if kind == .directory {
      let child = try DirectoryHandle(in: self, name: name)
      for entry in try child.entries() { try child.remove(entry) }
      guard unlinkat(fd.rawValue, name, AT_REMOVEDIR) == 0 else { throw Errno(rawValue: errno) }
    } else if unlinkat(fd.rawValue, name, 0) != 0 && errno != ENOENT {
      throw Errno(rawValue: errno)
    }
  }

  /// The names in the directory, without `.` and `..`.
  func entries() throws(Errno) -> [String] {
    let copy: FileDescriptor
    do { copy = try fd.duplicate() } catch { throw error as? Errno ?? .ioError }
    guard let stream = fdopendir(copy.rawValue) else {
      let code = Errno(rawValue: errno)
      try? copy.close()
      throw code
    }
    // The copy shares its offset with `fd`: start from the first entry whatever read before.
    rewinddir(stream)
    defer { closedir(stream) }
    return FileSystem.names(in: stream)
  }

  /// Flushes the directory's entries (names created, renamed, removed) to stable storage.
  func sync() throws(Errno) {
    if fsync(fd.rawValue) != 0 { throw Errno(rawValue: errno) }
  }
}
