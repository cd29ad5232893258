import Dispatch
import Glibc

/// Batch mode (`-o DIR`, SPEC 6.2): `DIR/<vendor>/batch-NNNNNN.ndjson[.gz|.lz4]` of at most
/// `batchRecords` records, compressed in parallel, each written under a temporary name and
/// renamed when complete; `DIR/rejects.ndjson`; `DIR/manifest.json` last.
///
/// A batch is compressed and written in one call when it is complete. One whose content passes
/// `pieceBytes` first (large `--batch-records`) is written as it grows instead, a piece at a
/// time, by its vendor's serial queue (`SpilledBatch`): memory holds at most a piece per vendor
/// and the pieces in flight, whatever the batch size.
///
/// Invariant: a file under a final `batch-*` name is always complete, and `manifest.json`
/// exists only when every batch it lists is; a directory without a manifest is an incomplete run.
///
/// Durability (unless `sync` is off): each batch's data is flushed (`fdatasync`) before its
/// rename, on a flush queue beside the compression jobs (`complete`), and `rejects.ndjson`
/// before its own; once every job and flush is done the vendor folders and `DIR` are flushed
/// (`fsync`), so their names are stable too; only then is the manifest written to a temporary
/// name, flushed, renamed, and `DIR` flushed again. After a power cut, a directory whose
/// manifest survived holds every batch the manifest lists. `--force` flushes `DIR` after
/// removing the old manifest, before it touches any old batch.
///
/// Containment: every file is reached through `DirectoryHandle`s opened on `DIR` and its
/// vendor folders, never through a symbolic link inside `DIR`; and the run holds `OutputLock`
/// on `DIR` from before its first change until the manifest is written.
package final class BatchSink: RecordSink, @unchecked Sendable {
  // Safe because the writer thread owns everything except `failure`, which the compression
  // jobs update under `lock`, and `manifest`, which has a lock of its own.

  /// The open batch of one vendor (its records are in `openBytes`).
  struct OpenBatch {
    var records = 0
    var first: (SourceName, Int)? = nil
    /// The last record's line; its source is `lastSource` (set once per chunk, not per
    /// record: every record of a chunk has the chunk's source).
    var lastLine = 0
    var lastSource: SourceName? = nil
    var nextIndex = 1
  }

  private let directory: String
  /// `DIR`, opened once: every name below is resolved from it.
  private let root: DirectoryHandle
  /// Held from `init` until the manifest is written.
  private let outputLock: OutputLock
  /// False with `--no-sync`: nothing is flushed to stable storage.
  private let sync: Bool
  // Safe because only the writer thread (`submit`, `writeEverythingConsumed`) reads and writes
  // it; a job gets its folder as a value.
  /// Each vendor's folder, once its first batch created it.
  @exclusivity(unchecked) private var folders: [DirectoryHandle?] = Array(
    repeating: nil, count: VendorID.allCases.count)
  private let compression: OutputCompression
  /// The level in effect (`OutputCompression.level(given:)`); unused without compression.
  private let level: Int
  private let batchRecords: Int
  /// The content size past which an open batch is written out as a piece (`SpilledBatch`).
  private let pieceBytes: Int
  /// The default `pieceBytes`: above the batches of the default `--batch-records` (some 400 KB
  /// of records, 4.3 MB at most), which stay one-call files.
  package static let defaultPieceBytes = 4 << 20
  // Safe because only the writer thread (`consume`, `writePiece`, `submit`) reads and writes
  // it; the jobs get the batch object.
  /// Each vendor's open batch, once it has been written out in pieces.
  @exclusivity(unchecked) private var spilled: [SpilledBatch?] = Array(
    repeating: nil, count: VendorID.allCases.count)
  /// One serial queue per vendor: a spilled batch's pieces are written in order.
  private let pieceQueues: [DispatchQueue] = VendorID.allCases.map {
    DispatchQueue(label: "push-transcode.pieces.\($0.name)")
  }
  private let optionsJSON: [UInt8]
  // Safe because only the writer thread (`consume`, `finish`) touches the open batches.
  @exclusivity(unchecked) private var open: [OpenBatch] = Array(
    repeating: OpenBatch(), count: VendorID.allCases.count)
  /// The records of each vendor's open batch, one box (the writer's one owner) per vendor.
  private let openBytes: [WriterBox] = VendorID.allCases.map { _ in
    WriterBox(JSONWriter(capacity: 0))
  }
  private var rejectsFile: BufferedFile
  /// `--rejects FILE`: the same reject records, also written there.
  private let rejectsCopy: BufferedFile?
  private var rejectRecords = 0
  private let lock = Lock()
  /// The written batches' manifest entries, on disk until the manifest is written.
  private let manifest: ManifestEntries
  private var failure: String? = nil
  /// Batch contents and compressed files, recycled once a job has written its file: a batch
  /// buffer that grew from nothing by doubling would fault in fresh pages and copy its bytes
  /// a dozen times per batch.
  private let buffers = WriterPool(limit: 16, smallest: 1 << 16)
  /// gzip compressors kept between batches (libdeflate's state, a few hundred kilobytes at the
  /// default level, allocated once per compressor, not once per batch); at most one per
  /// compression job.
  private let gzipCompressors = BufferPool<GzipFileCompressor>(limit: 16)
  // Safe because only the writer thread reads and writes it (`consume`, `submit`, not the jobs).
  /// Per vendor, the size of its last batch: the next one starts with room for about as much.
  @exclusivity(unchecked) private var lastBatchBytes: [Int] = Array(
    repeating: 0, count: VendorID.allCases.count)
  /// The replaced run's batch files (`--force` on an existing directory), reused for new ones.
  private let replaced: ReplacedBatches?
  private let jobs = DispatchGroup()
  private let jobSlots: DispatchSemaphore
  private let queue = DispatchQueue(label: "push-transcode.compress", attributes: .concurrent)
  /// The most batch files waiting for their flush at once (each holds its file open).
  static let syncsInFlight = 16
  private let syncSlots = DispatchSemaphore.permits(BatchSink.syncsInFlight)
  /// Where written batch files wait for their flush to stable storage (`complete`): serial
  /// queues, taken in turn, not one concurrent queue. libdispatch gives a serial queue a thread
  /// of its own when it has work, while concurrent queues share a pool about as wide as the
  /// cores; a compression job that waits for a flush slot holds a pool thread, so with the
  /// flushes in that pool too, once more compression jobs than pool threads waited (`--threads`
  /// above about 16), no thread was left to run a flush until libdispatch's monitor added one,
  /// about a second apart (a 20 MB run with `--threads 32` took 16 s instead of 0.4).
  private let syncQueues = (0..<BatchSink.syncsInFlight).map {
    DispatchQueue(label: "push-transcode.sync.\($0)")
  }
  // Safe because it is read and written under `lock` only (`nextSyncQueue()`).
  @exclusivity(unchecked) private var syncTurn = 0
  /// `--threads 1`: batches are compressed and written on the writer thread, the run's one
  /// thread, not beside it.
  private let inline: Bool

  /// Prepares `directory` (refused when it exists, unless `force`, and when another run holds
  /// it). `rejectsPath` (`--rejects FILE`), when given, gets a copy of the reject records of
  /// `DIR/rejects.ndjson`. `sync: false` (`--no-sync`) skips every flush to stable storage.
  package init(
    directory: String, force: Bool, compression: OutputCompression, level: Int?, batchRecords: Int,
    threads: Int, optionsJSON: [UInt8], rejectsPath: String? = nil, sync: Bool = true,
    pieceBytes: Int = BatchSink.defaultPieceBytes
  ) throws {
    self.directory = directory
    self.pieceBytes = max(1, pieceBytes)
    self.sync = sync
    self.compression = compression
    self.level = compression.level(given: level) ?? 0
    self.batchRecords = batchRecords
    self.optionsJSON = optionsJSON
    self.jobSlots = DispatchSemaphore.permits(max(1, threads) + 1)
    self.inline = threads <= 1
    let existed: Bool
    switch FileSystem.kind(of: directory) {
    case .directory?:
      guard force else {
        throw SinkError.io(
          "output directory \(directory) exists (use --force to replace its batches)")
      }
      existed = true
    case .other?:
      throw SinkError.io("\(directory) exists and is not a directory")
    case nil:
      do { try FileSystem.createDirectories(directory) } catch {
        throw SinkError.io("cannot create output directory \(directory): \(error)")
      }
      existed = false
    }
    do { root = try DirectoryHandle(opening: directory) } catch {
      throw SinkError.io("cannot open output directory \(directory): \(error)")
    }
    // Before anything in the directory changes: a second run stops here.
    outputLock = try OutputLock(on: root)
    manifest = ManifestEntries(root: root)
    var replaced: ReplacedBatches? = nil
    if existed {
      let listed = PreviousManifest.batchFiles(in: root)
      // The manifest goes first, so the directory never looks complete while it is rewritten;
      // symbolic links at these names are removed as links.
      for name in ["manifest.json", ".manifest.json.tmp", "rejects.ndjson", ".rejects.ndjson.tmp"] {
        try ReplacedBatches.remove(name, in: root)
      }
      // The removal is on stable storage before any old batch changes: after a power cut the
      // old manifest never lists a batch this run has started to overwrite.
      if sync { try Self.sync(root) }
      // The old batches are moved aside for their inodes (see `ReplacedBatches`).
      replaced = try ReplacedBatches(
        root: root, moving: VendorID.allCases.map(\.name), listed: listed)
    }
    self.replaced = replaced
    rejectsFile = try Self.createFile(".rejects.ndjson.tmp", in: root)
    rejectsCopy = try rejectsPath.map { try BufferedFile(creating: $0) }
  }

  /// A new file `name` in `folder` (whatever had that name before is unlinked, not followed).
  private static func createFile(_ name: String, in folder: DirectoryHandle) throws -> BufferedFile
  {
    let path = folder.path + "/" + name
    do {
      return BufferedFile(descriptor: try folder.createFile(name), path: path, oldSize: 0)
    } catch {
      throw SinkError.io("cannot create \(path): \(error)")
    }
  }

  /// Flushes `folder`'s entries to stable storage.
  private static func sync(_ folder: DirectoryHandle) throws {
    do { try folder.sync() } catch { throw SinkError.io("cannot sync \(folder.path): \(error)") }
  }

  /// Appends the chunk's rejects to the rejects file and its records to their vendors' open
  /// batches, handing each batch that reaches `batchRecords` to a compression job.
  package func consume(_ output: borrowing ChunkOutput) throws {
    if !output.rejects.isEmpty {
      try rejectsFile.write(output.rejects.buffer)
      try rejectsCopy?.write(output.rejects.buffer)
      for byte in output.rejects.buffer where byte == ASCII.newline { rejectRecords += 1 }
    }
    // Records come in runs of one vendor (all of them with one vendor selected); each run,
    // cut at batch boundaries, is appended with one copy.
    let bytes = output.main.buffer
    let refs = output.refs
    var start = 0
    var index = 0
    var touched = 0 as UInt32
    while index < refs.count {
      let vendor = Int(refs[index].vendor)
      let room = batchRecords - open[vendor].records
      // A run also ends once it fills the batch's piece: a segment of 16 MiB of one vendor's
      // records would otherwise make a piece of 16 MiB.
      let pieceEnd = start + pieceBytes - openBytes[vendor].writer.count
      var last = index
      while last + 1 < refs.count && last + 1 - index < room && Int(refs[last + 1].vendor) == vendor
        && refs[last].end < pieceEnd
      {
        last += 1
      }
      let end = refs[last].end
      if open[vendor].records == 0 {
        openBytes[vendor].writer = buffers.take(
          minimumCapacity: lastBatchBytes[vendor] + end - start)
        open[vendor].first = (output.source, refs[index].line)
      }
      // In place: no copy of the open batch (its writer, its source names) per record.
      // Safe because each ref's `end` is `main.count` right after its record (refs past a
      // truncation are dropped), so the ascending `start ..< end` lies within `bytes`.
      openBytes[vendor].writer.raw(UnsafeBufferPointer(rebasing: bytes[start..<end]))
      open[vendor].records += last - index + 1
      open[vendor].lastLine = refs[last].line
      touched |= 1 << vendor
      start = end
      index = last + 1
      if open[vendor].records == batchRecords {
        open[vendor].lastSource = output.source
        touched &= ~(1 << vendor)
        try submit(VendorID(rawValue: vendor)!)
      } else if openBytes[vendor].writer.count >= pieceBytes {
        try writePiece(VendorID(rawValue: vendor)!)
      }
    }
    for vendor in VendorID.allCases where touched & (1 << vendor.rawValue) != 0 {
      open[vendor.rawValue].lastSource = output.source
    }
    try checkFailure()
  }

  /// Writes the open batches and the rejects file, waits for every job, then the manifest.
  package func finish(
    stats: RunStats, elapsed: () -> Double, inputBytes: Int, beforeCommit: () throws -> Void
  ) throws {
    try writeEverythingConsumed()
    try beforeCommit()
    // The manifest's time counts everything before it: the last flushes and the run files.
    try writeManifest(stats: stats, seconds: elapsed(), inputBytes: inputBytes)
    outputLock.release()
  }

  /// After a fatal input error: the directory holds every record and reject of the lines before
  /// the fault, as the stream would (SPEC 2.1: "everything produced up to that point is still
  /// accounted for"), the open batches written as they are; but no manifest, since the run is
  /// incomplete (SPEC 6.2).
  package func finishAfterInputError() throws {
    try writeEverythingConsumed()
    outputLock.release()
  }

  /// Writes the open batches, waits for every compression job, and completes the rejects file
  /// (and its `--rejects` copy) under its final name.
  private func writeEverythingConsumed() throws {
    for vendor in VendorID.allCases where open[vendor.rawValue].records > 0 { try submit(vendor) }
    jobs.wait()
    try checkFailure()
    try replaced?.removeRest()
    try rejectsFile.close(syncingData: sync)
    try rejectsCopy?.close()
    try rename(".rejects.ndjson.tmp", in: root, to: root, "rejects.ndjson")
    // Every batch's data is on stable storage (`complete` flushed it); now their names, and the
    // vendor folders' own names in `DIR`.
    if sync {
      for case let folder? in folders { try Self.sync(folder) }
      try Self.sync(root)
    }
  }

  private func checkFailure() throws {
    lock.lock()
    defer { lock.unlock() }
    if let failure { throw SinkError.io(failure) }
  }

  /// The vendor's folder, created by its first batch.
  private func folder(of vendor: VendorID) throws -> DirectoryHandle {
    if let folder = folders[vendor.rawValue] { return folder }
    // A symbolic link or a file of this name is refused, not followed (`--force` has moved
    // or removed whatever was there).
    do {
      let folder = try root.makeDirectory(vendor.name)
      folders[vendor.rawValue] = folder
      return folder
    } catch {
      throw SinkError.io("cannot create \(directory)/\(vendor.name): \(error)")
    }
  }

  /// The final name of the vendor's batch number `index`.
  private func batchName(_ index: Int) -> String {
    String(cFormat: "batch-%06ld.ndjson", index) + compression.fileSuffix
  }

  /// A new file for batch `name`: a replaced run's file in `.replaced/` (`--force`), else a
  /// temporary name in `folder`; renamed to `name` once complete.
  private func target(for vendor: VendorID, _ name: String, in folder: DirectoryHandle) throws
    -> (file: BufferedFile, folder: DirectoryHandle, name: String)
  {
    try replaced?.take(vendor: vendor.name, name: name)
      ?? (Self.createFile("." + name + ".tmp", in: folder), folder, "." + name + ".tmp")
  }

  /// Runs `job` on `queue` holding one of `slots` (by default a job slot, and on the writer
  /// thread with one thread); `jobs` counts it until it ends. Its error becomes the run's
  /// failure, which the writer reports (`checkFailure`).
  private func schedule(
    on queue: DispatchQueue, slots: DispatchSemaphore? = nil, inline: Bool? = nil,
    _ job: @escaping @Sendable () throws -> Void
  ) {
    let slots = slots ?? jobSlots
    slots.wait()
    jobs.enter()
    let run: @Sendable () -> Void = { [self] in
      defer {
        slots.signal()
        jobs.leave()
      }
      do { try job() } catch {
        lock.lock()
        if failure == nil { failure = SinkError.describe(error) }
        lock.unlock()
      }
    }
    if inline ?? self.inline { run() } else { queue.async(execute: run) }
  }

  /// Writes the vendor's open batch so far to its file, which stays open for the rest.
  private func writePiece(_ vendor: VendorID) throws {
    let piece = WriterBox(openBytes[vendor.rawValue].take())
    // A new buffer, not one from the pool: a piece buffer's written pages would stay resident
    // in the pool.
    openBytes[vendor.rawValue].writer = JSONWriter(capacity: pieceBytes + pieceBytes / 2)
    let batch: SpilledBatch
    if let open = spilled[vendor.rawValue] {
      batch = open
    } else {
      batch = try SpilledBatch(compression: compression, level: level)
      spilled[vendor.rawValue] = batch
      let folder = try folder(of: vendor)
      let name = batchName(open[vendor.rawValue].nextIndex)
      schedule(on: pieceQueues[vendor.rawValue]) { [self] in
        batch.target = try target(for: vendor, name, in: folder)
      }
    }
    schedule(on: pieceQueues[vendor.rawValue]) {
      defer { _ = piece.take() }
      // Without a file (its creation failed, and the run has failed with it) there is nothing
      // to write to.
      guard let target = batch.target else { return }
      try batch.write(piece.writer.buffer, to: target.file)
    }
  }

  /// Hands the vendor's open batch to a compression job (or, for a batch written in pieces,
  /// its last piece to the vendor's queue).
  private func submit(_ vendor: VendorID) throws {
    let batch = open[vendor.rawValue]
    let index = batch.nextIndex
    open[vendor.rawValue] = OpenBatch(nextIndex: index + 1)
    let folder = try folder(of: vendor)
    let name = batchName(index)
    let compression = self.compression
    let level = self.level
    let label = BatchLabel(
      vendor: vendor, index: index, name: name, records: batch.records, first: batch.first!,
      last: (batch.lastSource!, batch.lastLine))
    // Moved into a box of its own for the job; the vendor's box keeps an empty writer.
    let content = WriterBox(openBytes[vendor.rawValue].take())
    if let pieces = spilled[vendor.rawValue] {
      spilled[vendor.rawValue] = nil
      lastBatchBytes[vendor.rawValue] = pieceBytes
      schedule(on: pieceQueues[vendor.rawValue]) { [self] in
        defer { _ = content.take() }
        guard let target = pieces.target else { return }
        try pieces.write(content.writer.buffer, to: target.file)
        try pieces.finish(to: target.file)
        try complete(
          target, as: label, in: folder, bytes: pieces.bytes, fileBytes: pieces.fileBytes,
          crc32: pieces.crc.value)
      }
      return
    }
    lastBatchBytes[vendor.rawValue] = content.writer.count
    schedule(on: queue) { [self] in
      let crc: UInt32
      var compressed: JSONWriter? = nil
      switch compression {
      case .none:
        crc = CRC32.checksum(content.writer.buffer)
      case .gzip:
        // The CRC-32 of the gzip trailer is the manifest's: no second pass.
        var file = buffers.take(minimumCapacity: content.writer.count / 2)
        let compressor =
          gzipCompressors.take() ?? GzipFileCompressor(level: level)
        crc = compressor.compress(content.writer.buffer, into: &file)
        gzipCompressors.put(compressor)
        compressed = .some(file)
      case .lz4:
        crc = CRC32.checksum(content.writer.buffer)
        var file = buffers.take(minimumCapacity: content.writer.count / 2)
        // No frame checksum: the manifest's CRC-32 covers the same bytes (docs/DECISIONS.md).
        LZ4FrameCompressor.compress(
          content.writer.buffer, level: level, contentChecksum: false, into: &file)
        compressed = .some(file)
      }
      defer {
        buffers.recycle(content.take())
        if let file = compressed.take() { buffers.recycle(file) }
      }
      // Written under a name that is not final (a replaced run's file in `.replaced/`, or
      // a temporary name), complete before it is renamed to its final name.
      let target = try target(for: vendor, name, in: folder)
      try target.file.write(compressed?.buffer ?? content.writer.buffer)
      try complete(
        target, as: label, in: folder, bytes: content.writer.count,
        fileBytes: compressed?.count ?? content.writer.count, crc32: crc)
    }
  }

  /// A written batch file on its way to its final name, handed from the job that wrote it to
  /// the one that flushes it (`complete`).
  private final class WrittenFile: @unchecked Sendable {
    // Safe because the file is handed over whole: the job that wrote it never touches it again,
    // and the one flush job that takes it is its only user from then on.
    let target: (file: BufferedFile, folder: DirectoryHandle, name: String)

    init(_ target: (file: BufferedFile, folder: DirectoryHandle, name: String)) {
      self.target = target
    }
  }

  /// What a batch's manifest entry says besides its sizes and checksum.
  private struct BatchLabel: Sendable {
    let vendor: VendorID
    let index: Int
    let name: String
    let records: Int
    let first: (SourceName, Int)
    let last: (SourceName, Int)
  }

  /// Completes a written batch file: flushed before its final name exists, renamed to it, and
  /// its entry handed to the manifest.
  ///
  /// A flush waits for the disk, not for a core: it runs on `syncQueues`, so the compression job
  /// that wrote the file hands back its slot, and the next batch is compressed meanwhile (with
  /// `--threads 1`, instead of the run's one thread waiting). Up to `syncsInFlight` flushes wait
  /// at once, each holding its file open; several in flight also share the file system's
  /// journal commits. `jobs` counts them, so the manifest still waits for every one
  /// (docs/DECISIONS.md [6.2] has the measurements).
  private func complete(
    _ target: (file: BufferedFile, folder: DirectoryHandle, name: String), as label: BatchLabel,
    in folder: DirectoryHandle, bytes: Int, fileBytes: Int, crc32: UInt32
  ) throws {
    let written = WrittenFile(target)
    let finish: @Sendable () throws -> Void = { [self] in
      let target = written.target
      try target.file.close(syncingData: sync)
      try rename(target.name, in: target.folder, to: folder, label.name)
      try manifest.add(
        vendor: label.vendor, index: label.index,
        json: Self.entryJSON(
          file: label.vendor.name + "/" + label.name, vendor: label.vendor,
          records: label.records, bytes: bytes, fileBytes: fileBytes, crc32: crc32,
          first: label.first, last: label.last))
    }
    guard sync else { return try finish() }
    schedule(on: nextSyncQueue(), slots: syncSlots, inline: false, finish)
  }

  /// The flush queue whose turn it is (compression jobs on several threads ask).
  private func nextSyncQueue() -> DispatchQueue {
    lock.lock()
    defer { lock.unlock() }
    syncTurn = (syncTurn + 1) % syncQueues.count
    return syncQueues[syncTurn]
  }

  private func rename(
    _ name: String, in folder: DirectoryHandle, to target: DirectoryHandle, _ newName: String
  ) throws {
    do { try folder.rename(name, to: target, newName) } catch {
      throw SinkError.io(
        "cannot rename \(folder.path)/\(name) to \(target.path)/\(newName): \(error)")
    }
  }

  /// A batch's manifest entry (SPEC 6.8), as JSON text.
  private static func entryJSON(
    file: String, vendor: VendorID, records: Int, bytes: Int, fileBytes: Int, crc32: UInt32,
    first: (SourceName, Int), last: (SourceName, Int)
  ) -> [UInt8] {
    var writer = JSONWriter(capacity: 512)
    writer.raw("{\"vendor\":\"")
    writer.raw(vendor.staticName)
    writer.raw("\",\"file\":")
    writer.string(decoded: Array(file.utf8))
    writer.raw(",\"records\":")
    writer.integer(records)
    writer.raw(",\"bytes\":")
    writer.integer(bytes)
    writer.raw(",\"file_bytes\":")
    writer.integer(fileBytes)
    writer.raw(",\"crc32\":\"")
    writer.raw(utf8: CRC32.hex(crc32))
    writer.raw("\",\"first\":{\"source\":")
    writer.raw(first.0.jsonString)
    writer.raw(",\"line\":")
    writer.integer(first.1)
    writer.raw("},\"last\":{\"source\":")
    writer.raw(last.0.jsonString)
    writer.raw(",\"line\":")
    writer.integer(last.1)
    writer.raw("}}")
    return writer.bytes
  }

  private func writeManifest(stats: RunStats, seconds: Double, inputBytes: Int) throws {
    let file = try Self.createFile(".manifest.json.tmp", in: root)
    var writer = JSONWriter()
    writer.raw("{\"version\":1,\"complete\":true,\"options\":")
    writer.raw(optionsJSON)
    writer.raw(",\"batches\":[")
    try file.write(writer.buffer)
    try manifest.writeBatches(to: file)
    writer.removeAll()
    writer.raw("],\"rejects\":{\"file\":\"rejects.ndjson\",\"records\":")
    writer.integer(rejectRecords)
    writer.raw("},\"stats\":")
    stats.writeJSON(into: &writer)
    writer.raw(",\"timing\":{\"seconds\":")
    writer.raw(utf8: String(cFormat: "%.3f", seconds))
    writer.raw(",\"mb_per_s\":")
    let rate = seconds > 0 ? Double(inputBytes) / 1e6 / seconds : 0
    writer.raw(utf8: String(cFormat: "%.1f", rate))
    writer.raw("}}\n")
    try file.write(writer.buffer)
    try file.close(syncingData: sync)
    try rename(".manifest.json.tmp", in: root, to: root, "manifest.json")
    if sync { try Self.sync(root) }
  }
}
