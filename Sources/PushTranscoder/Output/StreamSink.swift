import Glibc

/// Pipeline mode (`-o -`, SPEC 6.3): records to stdout in input order, optionally compressed;
/// rejects inline or to `--rejects FILE`.
package final class StreamSink: RecordSink {
  private let fd: Int32
  private var compressor: OutputCompressor?
  private var compressed: [UInt8] = []
  private let rejectsFile: BufferedFile?

  /// A sink writing records to `fd` (stdout by default).
  ///
  /// - Parameters:
  ///   - compression: `.none` for plain output.
  ///   - rejectsPath: where reject records go instead of the stream.
  package init(fd: Int32 = 1, compression: OutputCompression, level: Int?, rejectsPath: String?)
    throws
  {
    self.fd = fd
    self.compressor = try OutputCompressor(compression, level: level)
    self.rejectsFile = try rejectsPath.map { try BufferedFile(creating: $0) }
  }

  /// Writes the chunk's records to the stream, then its rejects to `--rejects FILE` when
  /// given: a stream that fails or closes (`| head`) on a chunk leaves that chunk's rejects
  /// unwritten, as the stats leave it uncounted, so the file holds the rejects of the lines
  /// the stats count.
  package func consume(_ output: borrowing ChunkOutput) throws {
    if compressor != nil {
      compressed.removeAll(keepingCapacity: true)
      try compressor!.append(output.main.buffer, to: &compressed)
      try compressed.withUnsafeBufferPointer { try emit($0) }
    } else {
      try emit(output.main.buffer)
    }
    if let rejectsFile, !output.rejects.isEmpty {
      try rejectsFile.write(output.rejects.buffer)
    }
  }

  /// Ends the compressed stream, if any, closes the rejects file, then runs `beforeCommit`
  /// (a stream has no commit of its own).
  package func finish(
    stats: RunStats, elapsed: () -> Double, inputBytes: Int, beforeCommit: () throws -> Void
  ) throws {
    try endStream()
    try beforeCommit()
  }

  /// Ends a compressed stream properly, so the records written before the fault can be read.
  package func finishAfterInputError() throws {
    try endStream()
  }

  private func endStream() throws {
    if compressor != nil {
      compressed.removeAll(keepingCapacity: true)
      try compressor!.finish(to: &compressed)
      try compressed.withUnsafeBufferPointer { try emit($0) }
    }
    try rejectsFile?.close()
  }

  private func emit(_ bytes: UnsafeBufferPointer<UInt8>) throws {
    if let error = FileDescriptorWriter.writeAll(fd, bytes) {
      if error == EPIPE { throw SinkError.closedOutput }
      throw SinkError.io(
        "cannot write to \(Self.name(of: fd)): \(String(cString: strerror(error)))")
    }
  }

  /// The stream's descriptor as messages name it: `stdout`, or the descriptor a host program
  /// gave (`TranscodeJob.Output.stream`).
  static func name(of fd: Int32) -> String {
    fd == 1 ? "stdout" : "output descriptor \(fd)"
  }
}

/// A file written with `write(2)`, failing with a clear message (disk full, permissions).
package final class BufferedFile {
  /// The path the file was opened at.
  package let path: String
  private var fd: Int32
  /// Bytes written since the file was opened.
  private var written = 0
  /// The size the file had when opened: 0 for a created (truncated) file; `Int.max` for an
  /// overwritten one whose size `fstat` could not tell, so that `close()` cuts it anyway.
  private var oldSize = 0
  /// True when the file is written through a copy of stdout or stderr (`init(creating:)`):
  /// never cut or synced (the file is the job's, open before the run), only closed.
  private var sharesStandardDescriptor = false

  /// Creates the file at `path`, or empties it when it exists.
  ///
  /// A path to the regular file stdout or stderr is open on (`/dev/stdout`, `/dev/stderr`, or
  /// the log a job appends both to) is written through a copy of that descriptor instead, at its
  /// offset and with its flags, as `>&2` writes: opened anew with `O_TRUNC` it would empty the
  /// job's log (`>> job.log`), and write over what the run wrote before.
  package init(creating path: String) throws {
    self.path = path
    if let standard = Self.standardDescriptor(openOn: path) {
      fd = fcntl(standard, F_DUPFD_CLOEXEC, 3)
      if fd < 0 { throw SinkError.io("cannot write \(path): \(String(cString: strerror(errno)))") }
      sharesStandardDescriptor = true
      return
    }
    fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
    if fd < 0 { throw SinkError.io("cannot create \(path): \(String(cString: strerror(errno)))") }
  }

  /// 1 or 2 when that descriptor is open for writing on the regular file at `path` (same
  /// device and inode), else nil. A pipe or terminal opened anew loses nothing; and a
  /// read-only descriptor (the command's `/dev/null` holding a closed stdout or stderr) could
  /// not be written through.
  private static func standardDescriptor(openOn path: String) -> Int32? {
    guard let named = OutputOverlap.FileID(path: path) else { return nil }
    return [Int32(1), 2].first { descriptor in
      let flags = fcntl(descriptor, F_GETFL)
      return flags >= 0 && flags & O_ACCMODE != O_RDONLY
        && OutputOverlap.FileID(descriptor: descriptor) == named
    }
  }

  /// Opens an existing file to write over it from its start, without truncating it first;
  /// `close()` cuts off whatever of the old content lies past the new. Overwriting keeps the
  /// file's blocks; on ext4 an `O_TRUNC` open frees them (with a discard on this machine's
  /// mount) and makes `close` start the write-back at once (`auto_da_alloc`).
  package init(overwriting path: String) throws {
    self.path = path
    fd = open(path, O_WRONLY | O_CLOEXEC)
    if fd < 0 { throw SinkError.io("cannot open \(path): \(String(cString: strerror(errno)))") }
    var status = stat()
    oldSize = fstat(fd, &status) == 0 ? Int(status.st_size) : Int.max
  }

  /// Takes over `descriptor`, open for writing at `path` (see `DirectoryHandle`); `oldSize` is
  /// the size of the file it writes over (0 for a new file): `close()` cuts it after the new
  /// content.
  init(descriptor: Int32, path: String, oldSize: Int) {
    self.path = path
    fd = descriptor
    self.oldSize = oldSize
  }

  /// Ends an overwritten file after the bytes written so far (drops its old tail). A file that
  /// was no longer than that already ends there: nothing to cut, and no system call.
  private func cutAtWrittenLength() throws {
    guard oldSize > written else { return }
    if ftruncate(fd, off_t(written)) != 0 {
      throw SinkError.io("cannot truncate \(path): \(String(cString: strerror(errno)))")
    }
  }

  /// Appends `bytes` to the file.
  package func write(_ bytes: [UInt8]) throws {
    try bytes.withUnsafeBufferPointer { try write($0) }
  }

  /// Appends `bytes` to the file.
  package func write(_ bytes: UnsafeBufferPointer<UInt8>) throws {
    if let error = FileDescriptorWriter.writeAll(fd, bytes) {
      throw SinkError.io("cannot write \(path): \(String(cString: strerror(error)))")
    }
    written += bytes.count
  }

  /// Closes the file (an overwritten file ends where the new content does).
  package func close() throws { try close(syncingData: false) }

  /// Closes the file; with `syncingData`, its content and size are first on stable storage
  /// (`fdatasync`), so a name given to it later never names blocks that a power cut could lose.
  func close(syncingData: Bool) throws {
    guard fd >= 0 else { return }
    if !sharesStandardDescriptor { try cutAtWrittenLength() }
    if syncingData && !sharesStandardDescriptor && fdatasync(fd) != 0 {
      throw SinkError.io("cannot sync \(path): \(String(cString: strerror(errno)))")
    }
    let result = Glibc.close(fd)
    fd = -1
    if result != 0 {
      throw SinkError.io("cannot close \(path): \(String(cString: strerror(errno)))")
    }
  }

  deinit {
    if fd >= 0 { _ = Glibc.close(fd) }
  }
}
