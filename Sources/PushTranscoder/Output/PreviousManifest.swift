#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The manifest of the run that `--force` replaces, read for the one thing the new run needs
/// from it: which files were its batches (`ReplacedBatches` reuses only those).
enum PreviousManifest {
  /// The largest manifest read; a larger file there is not a manifest this program wrote for
  /// any input it can finish, and its files are simply not reused.
  static let maximumBytes = 1 << 28

  /// The `file` of every batch `manifest.json` in `root` lists (`<vendor>/<file name>`), or
  /// none when it is absent, not a regular file (a symbolic link is not followed), or not a
  /// manifest.
  static func batchFiles(in root: DirectoryHandle) -> Set<String> {
    let fd = openat(root.fd, "manifest.json", O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
    guard fd >= 0 else { return [] }
    defer { _ = close(fd) }
    var status = stat()
    guard fstat(fd, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG,
      status.st_size <= maximumBytes
    else { return [] }
    var bytes = [UInt8](repeating: 0, count: Int(status.st_size))
    var filled = 0
    while filled < bytes.count {
      // Safe because `read` writes at most `count - filled` bytes past `filled`, inside the array.
      let count = bytes.withUnsafeMutableBytes {
        read(fd, $0.baseAddress! + filled, $0.count - filled)
      }
      if count < 0 && errno == EINTR { continue }
      guard count > 0 else { break }
      filled += count
    }
    while filled > 0 && bytes[filled - 1] == ASCII.newline { filled -= 1 }
    var names = Set<String>()
    var tokenizer = JSONTokenizer()
    bytes.withUnsafeBufferPointer { whole in
      // Safe because `filled` is at most the array's count.
      let manifest = UnsafeBufferPointer(rebasing: whole[..<filled])
      guard tokenizer.parse(manifest) == nil else { return }
      tokenizer.withDocument(manifest) { document in
        guard let batches = document.member(document.root, "batches") else { return }
        document.forEachElement(batches) { batch in
          guard let file = document.member(batch, "file"), document.kind(file) == .string
          else { return }
          names.insert(String(decoding: document.string(file).decodedBytes(), as: UTF8.self))
        }
      }
    }
    return names
  }
}
