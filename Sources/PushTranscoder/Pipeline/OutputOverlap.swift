import Glibc
import SystemPackage

/// Refuses, before anything is read or written, a run whose outputs would overwrite its
/// inputs, each other, or the files of its output directory. Each of these would destroy data
/// in a run that otherwise succeeds:
/// - `--rejects in.ndjson` empties the input before it is read;
/// - `--stats in.ndjson` or `--report in.ndjson` replaces the input after the run;
/// - `--stats DIR/manifest.json` replaces the manifest, so a complete run looks incomplete;
/// - `-o - >> in.ndjson` reads its own records back as input.
///
/// Two paths name the same file when their device and inode are equal (hard links and
/// symbolic links included), or, for files still to be created, when their locations are
/// equal. A location is the real path of the longest existing ancestor followed by the rest of
/// the path, normalized by its words. Only regular files count: `/dev/stdout`, pipes and
/// terminals may be named more than once.
package enum OutputOverlap {
  /// Why `configuration`'s outputs cannot be written, or nil when they can.
  package static func problem(in configuration: RunConfiguration) -> String? {
    // Each input as messages name it, its identity, and where it is (for the batch
    // directory's check, which goes by location; nil when it cannot be found).
    var inputs: [(path: String, file: FileID, location: String?)] =
      (configuration.inputs.filter { $0 != "-" } + configuration.directories).compactMap { path in
        FileID(path: path).map { (path, $0, path) }
      }
    // Standard input redirected from a file (`< in.ndjson`) is that file, found where the
    // kernel says the descriptor's file is.
    if configuration.inputs.contains("-"), let file = FileID(descriptor: 0) {
      let opened = openedPath(of: 0).flatMap { FileID(path: $0) == file ? $0 : nil }
      inputs.append(("- (standard input)", file, opened))
    }
    let outputs: [(option: String, path: String)] = [
      ("--rejects", configuration.rejectsPath), ("--stats", configuration.statsPath),
      ("--report", configuration.reportPath),
    ].compactMap { option, path in path.map { (option, $0) } }

    for output in outputs {
      guard let file = FileID(path: output.path) else { continue }
      if let input = inputs.first(where: { $0.file == file }) {
        return
          "\(output.option) \(output.path) is the input \(input.path): writing it would destroy it"
      }
    }
    for (index, first) in outputs.enumerated() {
      for second in outputs[(index + 1)...] where sameFile(first.path, second.path) {
        return "\(first.option) and \(second.option) both name \(second.path)"
      }
    }

    if configuration.batchMode {
      let directory = location(of: configuration.output)
      for output in outputs where runOwns(output.path, in: directory) {
        let what =
          location(of: output.path) == directory ? "is" : "is a file of"
        return
          "\(output.option) \(output.path) \(what) the output directory \(configuration.output), which the run writes and --force replaces"
      }
      for input in inputs where input.location.map({ runOwns($0, in: directory) }) ?? false {
        return
          "the input \(input.path) is a file of the output directory \(configuration.output), which the run writes and --force replaces"
      }
    } else if let stream = FileID(descriptor: configuration.streamDescriptor) {
      let name = streamName(configuration)
      if let input = inputs.first(where: { $0.file == stream }) {
        return "\(name) is the input \(input.path): the run would read its own records"
      }
      if let output = outputs.first(where: { FileID(path: $0.path) == stream }) {
        return "\(output.option) \(output.path) is \(name), where the records go"
      }
    }
    return nil
  }

  /// The path of the file open on `descriptor` (`/proc/self/fd/N`), or nil when there is none
  /// to find (a removed file, no `/proc`). The caller checks that the path still names the
  /// descriptor's file.
  private static func openedPath(of descriptor: Int32) -> String? {
    withUnsafeTemporaryAllocation(of: CChar.self, capacity: Int(PATH_MAX) + 1) { buffer in
      // Safe because readlink(2) writes at most PATH_MAX bytes into the buffer of PATH_MAX + 1
      // and returns their count, after which the terminator is stored; the string is copied
      // before the buffer goes.
      let count = readlink("/proc/self/fd/\(descriptor)", buffer.baseAddress!, Int(PATH_MAX))
      guard count > 0, buffer[0] == CChar(UInt8(ascii: "/")) else { return nil }
      buffer[count] = 0
      return String(cString: buffer.baseAddress!)
    }
  }

  /// The stream as these messages name it: the standard output, or a host program's descriptor.
  private static func streamName(_ configuration: RunConfiguration) -> String {
    let descriptor = configuration.streamDescriptor
    return descriptor == 1 ? "the standard output" : StreamSink.name(of: descriptor)
  }

  /// Whether a batch run into `directory` writes, moves or deletes `path`: the directory
  /// itself, its vendor folders and `.replaced/` with everything in them, its manifest, rejects
  /// and lock files, and its hidden `.tmp` files. Other files in the directory are left alone
  /// (`--stats DIR/stats.json` is fine).
  static func runOwns(_ path: String, in directory: FilePath) -> Bool {
    let place = location(of: path)
    guard place.starts(with: directory) else { return false }
    let inside = place.components.dropFirst(directory.components.count)
    guard let first = inside.first?.string else { return true }
    if folderNames.contains(first) { return true }
    return inside.count == 1
      && (fileNames.contains(first) || first.hasPrefix(".") && first.hasSuffix(".tmp"))
  }

  private static let folderNames = Set(VendorID.allCases.map(\.name) + [ReplacedBatches.folderName])
  private static let fileNames: Set<String> = ["manifest.json", "rejects.ndjson", OutputLock.name]

  /// A regular file's identity: its device and inode.
  struct FileID: Hashable {
    let device: DeviceID
    let inode: Inode

    /// The file at `path` (following symbolic links), or nil when it is missing or not a
    /// regular file.
    init?(path: String) {
      guard let status = try? Stat(FilePath(path)) else { return nil }
      self.init(status)
    }

    /// The file open on `descriptor`, or nil when it is not a regular file.
    init?(descriptor: Int32) {
      guard let status = try? Stat(FileDescriptor(rawValue: descriptor)) else { return nil }
      self.init(status)
    }

    /// The regular file `status` describes, or nil for anything else.
    init?(_ status: Stat) {
      guard status.type == .regular else { return nil }
      device = status.deviceID
      inode = status.inode
    }
  }

  /// Whether two paths name one file: one existing regular file, or one location to be
  /// created. A device, pipe or terminal (`/dev/null` twice) is never a clash.
  static func sameFile(_ first: String, _ second: String) -> Bool {
    let (a, b) = (try? Stat(FilePath(first)), try? Stat(FilePath(second)))
    if let a, a.type != .regular { return false }
    if let b, b.type != .regular { return false }
    if let a, let b { return FileID(a) == FileID(b) }
    return location(of: first) == location(of: second)
  }

  /// Where `path` is or would be: the real path of its longest existing ancestor (symbolic
  /// links and `..` resolved by the file system), then the remaining components, normalized
  /// by their words.
  static func location(of path: String) -> FilePath {
    var missing: [FilePath.Component] = []
    var existing = FilePath(path)
    while true {
      // A relative path runs out of components at the current directory, `.`.
      if let resolved = realPath(existing.isEmpty ? FilePath(".") : existing) {
        return resolved.appending(missing.reversed()).lexicallyNormalized()
      }
      guard let last = existing.lastComponent else { return existing.lexicallyNormalized() }
      missing.append(last)
      existing.removeLastComponent()
    }
  }

  private static func realPath(_ path: FilePath) -> FilePath? {
    path.withPlatformString { name in
      // realpath(3) writes at most PATH_MAX bytes, its terminator included, into a buffer of
      // the caller's (no allocation to free).
      withUnsafeTemporaryAllocation(of: CChar.self, capacity: Int(PATH_MAX) + 1) { buffer in
        // Safe because the buffer holds PATH_MAX + 1 characters, more than realpath writes,
        // and its result is copied before the buffer goes.
        guard let resolved = realpath(name, buffer.baseAddress) else { return nil }
        return FilePath(platformString: resolved)
      }
    }
  }
}
