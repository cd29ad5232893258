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

/// A failed file-system call: the C library's description of its `errno`.
struct FileSystemError: Error, CustomStringConvertible {
  let code: Int32
  init(errno code: Int32) { self.code = code }
  var description: String { String(cString: strerror(code)) }
}
