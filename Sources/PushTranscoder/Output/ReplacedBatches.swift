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
/// holds only this run's batches from the start. Each new batch is written over an old file
/// where it lies in `.replaced/` (its temporary name, in effect: nothing outside `.replaced/`
/// names it), cut at its new length, and renamed to its final name; whatever is left is deleted,
/// with `.replaced/`, before the manifest is written. Writing over the old bytes instead of
/// truncating them keeps the file's blocks: on ext4 an `O_TRUNC` open frees them (with a
/// discard on a `discard` mount) and makes `close` start the write-back at once
/// (`auto_da_alloc`), 3 % of the CPU of a 2-thread lz4 batch run. Only writable regular files
/// with a single link are reused: overwriting a file that is also linked elsewhere would destroy
/// that copy (and a file that cannot be opened is replaced by a new one, as without reuse).
///
/// A run stopped mid-way leaves `.replaced/` behind (with no manifest, as any incomplete run);
/// the next `--force` run reuses and then removes it.
final class ReplacedBatches: @unchecked Sendable {
  // Safe because `files`, `taken`, `byName` and `firstFree` change only in `init`, before the
  // object is shared, or while `lock` is held.
  private let root: String
  private let lock = Lock()
  /// Every reusable file's path, and whether a new batch took it.
  private var files: [String] = []
  private var taken: [Bool] = []
  /// `<vendor folder>/<file name>` → index in `files`.
  private var byName: [String: Int] = [:]
  /// Below this index every file is taken (the fallback scans from here).
  private var firstFree = 0

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
          byName[entry + "/" + file] = files.count
          files.append(path)
          taken.append(false)
        }
      }
    }
  }

  /// A replaced file, opened to be written over from its start (the caller cuts it at its new
  /// length, then renames it to its final name), or nil when none is left: create a file as
  /// usual. The old file of the same name comes first: a rerun over the same input writes each
  /// batch over one of exactly its size, so nothing is freed or allocated. A file that cannot
  /// be opened is skipped (`removeRest` deletes it).
  func take(vendor: String, name: String) -> BufferedFile? {
    while true {
      lock.lock()
      var index = byName.removeValue(forKey: vendor + "/" + name)
      if index == nil || taken[index!] {
        while firstFree < files.count && taken[firstFree] { firstFree += 1 }
        index = firstFree < files.count ? firstFree : nil
      }
      if let index { taken[index] = true }
      lock.unlock()
      guard let index else { return nil }
      if let file = try? BufferedFile(overwriting: files[index]) { return file }
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
