import Glibc

/// The batch files of the run that `--force` replaces, kept aside so that the new run's batches
/// can reuse their inodes instead of deleting them and allocating new ones.
///
/// Why: on ext4 without a journal (the benchmark machines' root file system), allocating an
/// inode skips every free inode deleted in the last minutes, reading its inode table block for
/// each. A run that deletes the old run's few hundred batches and then creates as many new ones
/// spent much of its CPU time in that scan (`recently_deleted`), more with every `--force`
/// rerun. A reused inode is never freed, so nothing is "recently deleted".
///
/// How: the old vendor folders are moved (one `rename` each) into `DIR/.replaced/`, so `DIR`
/// holds only this run's batches from the start. Each new batch is written over an old file
/// where it lies in `.replaced/` (its temporary name, in effect: nothing outside `.replaced/`
/// names it), cut at its new length, and renamed to its final name; whatever is left is deleted,
/// with `.replaced/`, before the manifest is written. Writing over the old bytes instead of
/// truncating them keeps the file's blocks: on ext4 an `O_TRUNC` open frees them (with a
/// discard on a `discard` mount) and makes `close` start the write-back at once
/// (`auto_da_alloc`).
///
/// Only what the replaced run's manifest listed as its batches is reused, and only regular
/// files with a single link, opened without following a symbolic link: overwriting a file that
/// is also linked elsewhere would destroy that copy, and a link planted in `DIR` would lead the
/// writes outside it (a file that cannot be opened so is replaced by a new one, as without
/// reuse). Everything else is deleted at once, before the run writes anything, a link as a
/// link and never through it (see `DirectoryHandle`): a `.replaced/` that a stopped run left
/// behind, and every entry of the moved folders that the manifest does not list. A run that
/// failed on a full disk leaves its batches without a manifest; the `--force` rerun frees their
/// space before it needs it, instead of holding it to its end and failing again.
final class ReplacedBatches: @unchecked Sendable {
  // Safe because `files`, `taken`, `byName` and `firstFree` change only in `init`, before the
  // object is shared, or while `lock` is held.
  /// A reusable file: the folder it lies in (under `.replaced/`) and its name there.
  struct File {
    var folder: DirectoryHandle
    var name: String
  }

  /// The name of the folder the old vendor folders move into.
  static let folderName = ".replaced"

  private let root: DirectoryHandle
  private let lock = Lock()
  /// Every reusable file, and whether a new batch took it.
  private var files: [File] = []
  private var taken: [Bool] = []
  /// `<vendor folder>/<file name>` → index in `files`.
  private var byName: [String: Int] = [:]
  /// Below this index every file is taken (the fallback scans from here).
  private var firstFree = 0

  /// Moves each of `names` that is a directory in `root` into `root/.replaced/` (anything else
  /// of that name, such as a symbolic link, is removed), collects the files there that `listed`
  /// names (`<vendor>/<file>`, the previous manifest's batches), and deletes everything else
  /// under `.replaced/`.
  init(root: DirectoryHandle, moving names: [String], listed: Set<String>) throws {
    self.root = root
    // A stopped run's leftovers: nothing there is listed (its manifest was removed when it
    // started), so the folder goes whole, and the moves below never meet a name in use.
    try Self.remove(Self.folderName, in: root)
    var replaced: DirectoryHandle? = nil
    var moved: [String] = []
    for name in names {
      guard let kind = root.kind(of: name) else { continue }
      guard kind == .directory else {
        try Self.remove(name, in: root)
        continue
      }
      if replaced == nil {
        do { replaced = try root.makeDirectory(Self.folderName) } catch {
          throw SinkError.io("cannot create \(root.path)/\(Self.folderName): \(error)")
        }
      }
      do { try root.rename(name, to: replaced!, name) } catch {
        throw SinkError.io("cannot move \(root.path)/\(name) aside: \(error)")
      }
      moved.append(name)
    }
    guard let replaced else { return }
    for name in moved {
      let folder: DirectoryHandle
      let entries: [String]
      do {
        folder = try DirectoryHandle(in: replaced, name: name)
        entries = try folder.entries()
      } catch {
        throw SinkError.io("cannot read \(replaced.path)/\(name): \(error)")
      }
      for file in entries {
        if listed.contains(name + "/" + file) && folder.kind(of: file) == .regular {
          byName[name + "/" + file] = files.count
          files.append(File(folder: folder, name: file))
          taken.append(false)
        } else {
          try Self.remove(file, in: folder)
        }
      }
    }
  }

  /// A replaced file, opened to be written over from its start (the caller cuts it at its new
  /// length, then renames it to its final name), or nil when none is left: create a file as
  /// usual. The old file of the same name comes first: a rerun over the same input writes each
  /// batch over one of exactly its size, so nothing is freed or allocated. A file that is not
  /// (or no longer) a regular file with one link is skipped (`removeRest` deletes it).
  func take(vendor: String, name: String) -> (
    file: BufferedFile, folder: DirectoryHandle, name: String
  )? {
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
      let candidate = files[index]
      if let opened = candidate.folder.openSoleRegularFile(candidate.name) {
        let file = BufferedFile(
          descriptor: opened.fd, path: candidate.folder.path + "/" + candidate.name,
          oldSize: opened.size)
        return (file, candidate.folder, candidate.name)
      }
    }
  }

  /// Deletes what was not reused, and `.replaced/` itself.
  func removeRest() throws {
    try Self.remove(Self.folderName, in: root)
  }

  /// Removes `name` from `root` (a tree, a file, or a symbolic link as a link).
  static func remove(_ name: String, in root: DirectoryHandle) throws {
    do { try root.remove(name) } catch {
      throw SinkError.io("cannot remove \(root.path)/\(name): \(error)")
    }
  }
}
