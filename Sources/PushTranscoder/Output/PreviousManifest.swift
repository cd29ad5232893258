import SystemPackage

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
    guard
      let fd = try? root.open(
        "manifest.json", .readOnly, options: [.noFollow, .nonBlocking, .closeOnExec])
    else { return [] }
    defer { try? fd.close() }
    guard let status = try? Stat(fd), status.type == .regular, status.size <= maximumBytes
    else { return [] }
    var bytes = [UInt8](repeating: 0, count: Int(status.size))
    var filled = 0
    while filled < bytes.count {
      // Safe because `read` writes at most `count - filled` bytes past `filled`, inside the array
      // (it retries an interrupted read itself).
      let count =
        (try? bytes.withUnsafeMutableBytes {
          try fd.read(into: UnsafeMutableRawBufferPointer(rebasing: $0[filled...]))
        }) ?? 0
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
