import Glibc
import SystemPackage

/// Checks, before a run reads anything or makes its output directory, that the files it names
/// (`--rejects`, and `--stats` and `--report`, which it writes only at its end) can be created:
/// a run of tens of gigabytes must not complete its batches and then fail on a mistyped folder,
/// leaving a finished directory and a failed status that makes a scheduler rerun the whole job;
/// nor make `-o DIR` and then fail on `--rejects`, leaving a directory that the rerun must
/// `--force`. Nothing is created here (a refused run leaves no empty file); `access(2)` tells
/// a missing or unwritable folder, a read-only file system and a directory in the file's place.
package enum OutputPreflight {
  /// Why `configuration`'s named output files cannot be written, or nil.
  package static func problem(in configuration: RunConfiguration) -> String? {
    // The output directory and its missing parents are created before the run reads anything
    // (and a failure to create them is reported then): a file in one of them needs no folder
    // yet.
    let runDirectory =
      configuration.batchMode ? OutputOverlap.location(of: configuration.output) : nil
    for case let path? in [
      configuration.rejectsPath, configuration.statsPath, configuration.reportPath,
    ] {
      if let reason = reasonCannotCreate(path, runDirectory: runDirectory) {
        return "cannot create \(path): \(reason)"
      }
    }
    return nil
  }

  /// The C library's reason `path` cannot be created or overwritten, or nil.
  static func reasonCannotCreate(_ path: String, runDirectory: FilePath?) -> String? {
    if let status = try? Stat(FilePath(path)) {
      if status.type == .directory { return Errno.isDirectory.description }
      return access(path, W_OK) == 0 ? nil : Errno(rawValue: errno).description
    }
    let folder = FilePath(path).removingLastComponent()
    let name = folder.isEmpty ? "." : folder.string
    if access(name, W_OK | X_OK) == 0 { return nil }
    let reason = Errno(rawValue: errno)
    // The run makes its directory and the missing folders above it (`mkdir -p`).
    if reason == .noSuchFileOrDirectory, let runDirectory,
      runDirectory.starts(with: OutputOverlap.location(of: name))
    {
      return nil
    }
    return reason.description
  }
}
