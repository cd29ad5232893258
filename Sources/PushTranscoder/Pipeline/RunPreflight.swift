import Glibc
import SystemPackage

/// Checks, before a run reads anything or makes its output directory, that the files it names
/// can be used: every input and `--directory` file read, and `--rejects` created (and `--stats`
/// and `--report`, which it writes only at its end). A run of tens of gigabytes must not
/// transcode a day of logs and then stop on a mistyped third input or stats folder, leaving a
/// finished directory and a failed status that makes a scheduler rerun the whole job; nor make
/// `-o DIR` and then fail on a missing `--directory` or `--rejects` path, leaving a directory
/// that the rerun must `--force`.
///
/// Nothing is opened or created here (`stat(2)`, `access(2)`): a refused run leaves no empty
/// file, and a FIFO input (`<(zcat a.gz)`) is not waited on. A file that changes after the check
/// still fails where it is opened.
enum RunPreflight {
  /// Why one of `configuration`'s files cannot be used, phrased as the failure to open it would
  /// be (`a.ndjson: cannot open: No such file or directory`, `cannot create x/stats.json: ...`),
  /// or nil. Inputs first, in the order they are read; `-` (stdin) only for being closed or a
  /// directory (`-o DIR <&-`), which would fail its first read after `DIR` was made.
  static func problem(in configuration: RunConfiguration) -> String? {
    for path in configuration.directories + configuration.inputs {
      if let reason = path == "-" ? reasonCannotReadStandardInput() : reasonCannotRead(path) {
        return "\(shown(path)): \(InputError.Reason.cannotOpen.rawValue): \(reason)"
      }
    }
    // The output directory and its missing parents are created before the run reads anything
    // (and a failure to create them is reported then): a file in one of them needs no folder
    // yet.
    let runDirectory =
      configuration.batchMode ? OutputOverlap.location(of: configuration.output) : nil
    for case let path? in [
      configuration.rejectsPath, configuration.statsPath, configuration.reportPath,
    ] {
      if let reason = reasonCannotCreate(path, runDirectory: runDirectory) {
        return "cannot create \(shown(path)): \(reason)"
      }
    }
    return nil
  }

  /// Why standard input cannot be read, or nil: closed (or held write-only in its place by
  /// the command, `ProcessSettings`), or a directory (`< /tmp`).
  private static func reasonCannotReadStandardInput() -> String? {
    let flags = fcntl(0, F_GETFL)
    if flags < 0 || flags & O_ACCMODE == O_WRONLY {
      return "standard input is closed (\(String(cString: strerror(EBADF))))"
    }
    var status = stat()
    if fstat(0, &status) == 0 && status.st_mode & S_IFMT == S_IFDIR {
      return String(cString: strerror(EISDIR))
    }
    return nil
  }

  /// The C library's reason `path` cannot be read as a file, or nil.
  private static func reasonCannotRead(_ path: String) -> String? {
    switch fileAccess(path, R_OK) {
    case .allowed: nil
    case .refused(let reason), .missing(let reason): reason
    }
  }

  /// A path as messages show it: an empty one as `""`, which would otherwise vanish.
  private static func shown(_ path: String) -> String {
    path.isEmpty ? "\"\"" : path
  }

  /// The C library's reason `path` cannot be created or overwritten, or nil.
  private static func reasonCannotCreate(_ path: String, runDirectory: FilePath?) -> String? {
    // What `open(2)` would say: an empty path names nothing, and a path ending in `/` names a
    // directory (`FilePath` drops the slash, so the folder check below would pass both).
    if path.isEmpty { return Errno.noSuchFileOrDirectory.description }
    if path.hasSuffix("/") { return Errno.isDirectory.description }
    switch fileAccess(path, W_OK) {
    case .allowed: return nil
    case .refused(let reason): return reason
    case .missing: break
    }
    // No file yet: its folder must let one be made.
    let folder = FilePath(path).removingLastComponent()
    let name = folder.isEmpty ? "." : folder.string
    if access(name, W_OK | X_OK) == 0 { return nil }
    let failure = Errno(rawValue: errno)
    // The run makes its directory and the missing folders above it (`mkdir -p`).
    if failure == .noSuchFileOrDirectory, let runDirectory,
      runDirectory.starts(with: OutputOverlap.location(of: name))
    {
      return nil
    }
    return failure.description
  }

  /// What the file at a path allows (`fileAccess`).
  private enum FileAccess {
    case allowed
    /// The file is there but refuses `mode`, or is a directory.
    case refused(String)
    /// No file at the path (`stat(2)`'s reason).
    case missing(String)
  }

  /// Whether the file at `path` allows `mode`; a directory in its place refuses any.
  private static func fileAccess(_ path: String, _ mode: Int32) -> FileAccess {
    let status: Stat
    do {
      status = try Stat(FilePath(path))
    } catch {
      return .missing(error.description)
    }
    if status.type == .directory { return .refused(Errno.isDirectory.description) }
    return access(path, mode) == 0 ? .allowed : .refused(Errno(rawValue: errno).description)
  }
}
