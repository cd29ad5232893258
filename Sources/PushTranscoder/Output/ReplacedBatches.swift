#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The batch files of the run that `--force` replaces, kept aside so that the new run's batches
/// can reuse their inodes instead of deleting them and allocating new ones.
///
/// Why: on ext4 without a journal (the benchmark machines' root file system), allocating an
/// inode skips every free inode deleted in the last minutes, reading its inode table block for
/// each. A run that deletes the old run's few hundred batches and then creates as many new ones
/// spent a fifth of its CPU time in that scan (`recently_deleted`), more with every `--force`
/// rerun. A reused inode is never freed, so nothing is "recently deleted".
///
/// How: the old vendor folders are moved (one `rename` each) into `DIR/.replaced/`, so `DIR`
/// holds only this run's batches from the start. Each new batch file takes an old file by
/// renaming it to its temporary name and truncating it on open; whatever is left is deleted, with
/// `.replaced/`, before the manifest is written. Only writable regular files with a single link
/// are reused: truncating a file that is also linked elsewhere would destroy that copy (and a
/// file that still cannot be opened is replaced by a new one, as without reuse).
///
/// A run stopped mid-way leaves `.replaced/` behind (with no manifest, as any incomplete run);
/// the next `--force` run reuses and then removes it.
final class ReplacedBatches: @unchecked Sendable {
  // Safe because `files` is only touched while `lock` is held.
  private let root: String
  private let lock = Lock()
  private var files: [String] = []

  /// Moves `directory/<name>` for each of `names` that exists into `directory/.replaced/`, and
  /// collects the regular files found there.
  init(directory: String, moving names: [String]) throws {
    root = directory + "/.replaced"
    for name in names {
      let path = directory + "/" + name
      guard FileSystem.exists(path) else { continue }
      try Self.createDirectory(root)
      // A free name under `.replaced/` (an interrupted run may have left the same one).
      var index = 0
      var target = root + "/" + name
      while FileSystem.exists(target) {
        index += 1
        target = root + "/" + name + ".\(index)"
      }
      guard Glibc.rename(path, target) == 0 else {
        throw SinkError.io("cannot move \(path) aside: \(String(cString: strerror(errno)))")
      }
    }
    guard FileSystem.exists(root) else { return }
    // One level of folders (the vendor folders moved here), and files directly inside them.
    for entry in (try? FileSystem.entries(of: root)) ?? [] {
      let folder = root + "/" + entry
      for file in (try? FileSystem.entries(of: folder)) ?? [] {
        let path = folder + "/" + file
        var status = stat()
        if lstat(path, &status) == 0 && (status.st_mode & S_IFMT) == S_IFREG
          && status.st_nlink == 1 && access(path, W_OK) == 0
        {
          files.append(path)
        }
      }
    }
  }

  /// Renames one replaced file to `path` (its old content is truncated when `path` is opened
  /// with `O_TRUNC`). False when none is left or the rename failed: create `path` as usual.
  func reuse(as path: String) -> Bool {
    while true {
      lock.lock()
      let file = files.popLast()
      lock.unlock()
      guard let file else { return false }
      if Glibc.rename(file, path) == 0 { return true }
    }
  }

  /// Deletes what was not reused, and `.replaced/` itself.
  func removeRest() throws {
    guard FileSystem.exists(root) else { return }
    do { try FileSystem.removeTree(root) } catch {
      throw SinkError.io("cannot remove \(root): \(error)")
    }
  }

  private static func createDirectory(_ path: String) throws {
    do { try FileSystem.createDirectories(path) } catch {
      throw SinkError.io("cannot create \(path): \(error)")
    }
  }
}
