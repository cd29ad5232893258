import Glibc
import SystemPackage

/// Checks, before a run reads anything or makes its output directory, that every file it reads
/// (the inputs and the `--directory` files) is there and readable: a run must not transcode a
/// day of logs and then stop on a mistyped third path, nor make `-o DIR` and then fail on a
/// missing `--directory` file, leaving a directory that the rerun must `--force`. Nothing is
/// opened here: a FIFO (`<(zcat a.gz)`) would wait for its writer. A file that goes away after
/// the check still fails where it is opened, as before.
package enum InputPreflight {
  /// Why one of `configuration`'s input or directory files cannot be read, phrased as the
  /// failure to open it would be (`a.ndjson: cannot open: No such file or directory`), or nil.
  package static func problem(in configuration: RunConfiguration) -> String? {
    for path in configuration.directories + configuration.inputs where path != "-" {
      if let reason = reasonCannotRead(path) {
        return "\(path): \(InputError.Reason.cannotOpen.rawValue): \(reason)"
      }
    }
    return nil
  }

  /// The C library's reason `path` cannot be read as a file, or nil.
  static func reasonCannotRead(_ path: String) -> String? {
    let status: Stat
    do {
      status = try Stat(FilePath(path))
    } catch {
      return error.description
    }
    if status.type == .directory { return Errno.isDirectory.description }
    return access(path, R_OK) == 0 ? nil : Errno(rawValue: errno).description
  }
}
