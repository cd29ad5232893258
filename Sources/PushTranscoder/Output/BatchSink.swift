import Dispatch

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Batch mode (`-o DIR`, SPEC 6.2): `DIR/<vendor>/batch-NNNNNN.ndjson[.gz|.lz4]` of at most
/// `batchRecords` records, compressed in parallel, each written under a temporary name and
/// renamed when complete; `DIR/rejects.ndjson`; `DIR/manifest.json` last.
///
/// Invariant: a file under a final `batch-*` name is always complete, and `manifest.json`
/// exists only when every batch it lists is; a directory without a manifest is an incomplete run.
public final class BatchSink: RecordSink, @unchecked Sendable {
  // Safe because the writer thread owns everything except `entries`/`failure`, which the
  // compression jobs update under `lock`.

  /// One manifest entry.
  struct Entry {
    var vendor: VendorID
    var index: Int
    var file: String
    var records: Int
    var bytes: Int
    var fileBytes: Int
    var crc32: UInt32
    var first: (SourceName, Int)
    var last: (SourceName, Int)
  }

  /// The open batch of one vendor.
  struct OpenBatch {
    var bytes = JSONWriter(capacity: 0)
    var records = 0
    var first: (SourceName, Int)? = nil
    /// The last record's line; its source is `lastSource` (set once per chunk, not per
    /// record: every record of a chunk has the chunk's source).
    var lastLine = 0
    var lastSource: SourceName? = nil
    var nextIndex = 1
  }

  private let directory: String
  private let compression: OutputCompression
  /// The level in effect (`OutputCompression.level(given:)`); unused without compression.
  private let level: Int
  private let batchRecords: Int
  private let optionsJSON: [UInt8]
  // Safe because only the writer thread (`consume`, `finish`) touches the open batches.
  @exclusivity(unchecked) private var open: [OpenBatch] = Array(
    repeating: OpenBatch(), count: VendorID.allCases.count)
  private var rejectsFile: BufferedFile
  /// `--rejects FILE`: the same reject records, also written there.
  private let rejectsCopy: BufferedFile?
  private var rejectRecords = 0
  private let lock = Lock()
  private var entries: [Entry] = []
  private var failure: String? = nil
  /// Batch contents and compressed files, recycled once a job has written its file: a batch
  /// buffer that grew from nothing by doubling would fault in fresh pages and copy its bytes
  /// a dozen times per batch.
  private let buffers = WriterPool(limit: 16, smallest: 1 << 16)
  /// gzip compressors kept between batches (`deflateReset` instead of a fresh quarter megabyte
  /// of zlib state per batch); at most one per compression job.
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
  /// `--threads 1`: batches are compressed and written on the writer thread, the run's one
  /// thread, not beside it.
  private let inline: Bool

  /// Prepares `directory` (refused when it exists, unless `force`). `rejectsPath` (`--rejects
  /// FILE`), when given, gets a copy of the reject records of `DIR/rejects.ndjson`.
  public init(
    directory: String, force: Bool, compression: OutputCompression, level: Int?, batchRecords: Int,
    threads: Int, optionsJSON: [UInt8], rejectsPath: String? = nil
  ) throws {
    self.directory = directory
    self.compression = compression
    self.level = compression.level(given: level) ?? 0
    self.batchRecords = batchRecords
    self.optionsJSON = optionsJSON
    self.jobSlots = DispatchSemaphore.permits(max(1, threads) + 1)
    self.inline = threads <= 1
    var replaced: ReplacedBatches? = nil
    if let kind = FileSystem.kind(of: directory) {
      guard force else {
        throw SinkError.io(
          "output directory \(directory) exists (use --force to replace its batches)")
      }
      guard kind == .directory else {
        throw SinkError.io("\(directory) exists and is not a directory")
      }
      // The manifest goes first, so the directory never looks complete while it is rewritten.
      for name in ["manifest.json", "rejects.ndjson"] {
        let path = directory + "/" + name
        if FileSystem.exists(path) {
          do { try FileSystem.removeTree(path) } catch {
            throw SinkError.io("cannot remove \(path): \(error)")
          }
        }
      }
      // The old batches are moved aside for their inodes (see `ReplacedBatches`).
      replaced = try ReplacedBatches(directory: directory, moving: VendorID.allCases.map(\.name))
    }
    do { try FileSystem.createDirectories(directory) } catch {
      throw SinkError.io("cannot create output directory \(directory): \(error)")
    }
    self.replaced = replaced
    rejectsFile = try BufferedFile(creating: directory + "/.rejects.ndjson.tmp")
    rejectsCopy = try rejectsPath.map { try BufferedFile(creating: $0) }
  }

  /// Appends the chunk's rejects to the rejects file and its records to their vendors' open
  /// batches, handing each batch that reaches `batchRecords` to a compression job.
  public func consume(_ output: ChunkOutput) throws {
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
      var last = index
      while last + 1 < refs.count && last + 1 - index < room && Int(refs[last + 1].vendor) == vendor
      {
        last += 1
      }
      let end = Int(refs[last].end)
      if open[vendor].records == 0 {
        open[vendor].bytes = buffers.take(minimumCapacity: lastBatchBytes[vendor] + end - start)
        open[vendor].first = (output.source, Int(refs[index].line))
      }
      // In place: no copy of the open batch (its writer, its source names) per record.
      // Safe because each ref's `end` is `main.count` right after its record (refs past a
      // truncation are dropped), so the ascending `start ..< end` lies within `bytes`.
      open[vendor].bytes.raw(UnsafeBufferPointer(rebasing: bytes[start..<end]))
      open[vendor].records += last - index + 1
      open[vendor].lastLine = Int(refs[last].line)
      touched |= 1 << vendor
      start = end
      index = last + 1
      if open[vendor].records == batchRecords {
        open[vendor].lastSource = output.source
        touched &= ~(1 << vendor)
        try submit(VendorID(rawValue: vendor)!)
      }
    }
    for vendor in VendorID.allCases where touched & (1 << vendor.rawValue) != 0 {
      open[vendor.rawValue].lastSource = output.source
    }
    try checkFailure()
  }

  /// Writes the open batches and the rejects file, waits for every job, then the manifest.
  public func finish(stats: RunStats, seconds: Double, inputBytes: Int) throws {
    try writeEverythingConsumed()
    try writeManifest(stats: stats, seconds: seconds, inputBytes: inputBytes)
  }

  /// After a fatal input error: the directory holds every record and reject of the lines before
  /// the fault, as the stream would (SPEC 2.1: "everything produced up to that point is still
  /// accounted for"), the open batches written as they are; but no manifest, since the run is
  /// incomplete (SPEC 6.2).
  public func finishAfterInputError() throws {
    try writeEverythingConsumed()
  }

  /// Writes the open batches, waits for every compression job, and completes the rejects file
  /// (and its `--rejects` copy) under its final name.
  private func writeEverythingConsumed() throws {
    for vendor in VendorID.allCases where open[vendor.rawValue].records > 0 { try submit(vendor) }
    jobs.wait()
    try checkFailure()
    try replaced?.removeRest()
    try rejectsFile.close()
    try rejectsCopy?.close()
    try rename(directory + "/.rejects.ndjson.tmp", directory + "/rejects.ndjson")
  }

  private func checkFailure() throws {
    lock.lock()
    defer { lock.unlock() }
    if let failure { throw SinkError.io(failure) }
  }

  /// Hands the vendor's open batch to a compression job.
  private func submit(_ vendor: VendorID) throws {
    var batch = open[vendor.rawValue]
    let index = batch.nextIndex
    open[vendor.rawValue] = OpenBatch(nextIndex: index + 1)
    let folder = directory + "/" + vendor.name
    if index == 1 {
      do { try FileSystem.createDirectories(folder) } catch {
        throw SinkError.io("cannot create \(folder): \(error)")
      }
    }
    let name = String(cFormat: "batch-%06ld.ndjson", index) + compression.fileSuffix
    let compression = self.compression
    let level = self.level
    let first = batch.first!
    let last = (batch.lastSource!, batch.lastLine)
    let records = batch.records
    let content = batch.bytes
    batch.bytes = JSONWriter(capacity: 0)
    lastBatchBytes[vendor.rawValue] = content.count
    jobSlots.wait()
    jobs.enter()
    let job: @Sendable () -> Void = { [self] in
      defer {
        jobSlots.signal()
        jobs.leave()
      }
      do {
        let crc: UInt32
        var compressed: JSONWriter? = nil
        switch compression {
        case .none:
          crc = CRC32.checksum(content.buffer)
        case .gzip:
          // The CRC-32 of the gzip trailer is the manifest's: no second pass.
          var file = buffers.take(minimumCapacity: content.count / 2)
          let compressor =
            gzipCompressors.take() ?? GzipFileCompressor(level: level)
          crc = compressor.compress(content.buffer, into: &file)
          gzipCompressors.put(compressor)
          compressed = file
        case .lz4:
          crc = CRC32.checksum(content.buffer)
          var file = buffers.take(minimumCapacity: content.count / 2)
          // No frame checksum: the manifest's CRC-32 covers the same bytes (docs/DECISIONS.md).
          LZ4FrameCompressor.compress(
            content.buffer, level: level, contentChecksum: false, into: &file)
          compressed = file
        }
        defer {
          buffers.recycle(content)
          if let compressed { buffers.recycle(compressed) }
        }
        // Written under a name that is not final (a replaced run's file in `.replaced/`, or
        // a temporary name), complete before it is renamed to its final name.
        let file =
          try replaced?.take(vendor: vendor.name, name: name)
          ?? BufferedFile(creating: folder + "/." + name + ".tmp")
        try file.write(compressed?.buffer ?? content.buffer)
        try file.close()
        try rename(file.path, folder + "/" + name)
        let entry = Entry(
          vendor: vendor, index: index, file: vendor.name + "/" + name, records: records,
          bytes: content.count, fileBytes: compressed?.count ?? content.count, crc32: crc,
          first: first,
          last: last)
        lock.lock()
        entries.append(entry)
        lock.unlock()
      } catch {
        lock.lock()
        if failure == nil { failure = Pipeline.describe(error) }
        lock.unlock()
      }
    }
    if inline { job() } else { queue.async(execute: job) }
  }

  private func rename(_ from: String, _ to: String) throws {
    if Glibc.rename(from, to) != 0 {
      throw SinkError.io("cannot rename \(from) to \(to): \(String(cString: strerror(errno)))")
    }
  }

  private func writeManifest(stats: RunStats, seconds: Double, inputBytes: Int) throws {
    let sorted = entries.sorted { ($0.vendor, $0.index) < ($1.vendor, $1.index) }
    var writer = JSONWriter()
    writer.raw("{\"version\":1,\"complete\":true,\"options\":")
    writer.raw(optionsJSON)
    writer.raw(",\"batches\":[")
    for (position, entry) in sorted.enumerated() {
      if position > 0 { writer.byte(ASCII.comma) }
      writer.raw("{\"vendor\":\"")
      writer.raw(entry.vendor.staticName)
      writer.raw("\",\"file\":")
      writer.string(decoded: Array(entry.file.utf8))
      writer.raw(",\"records\":")
      writer.integer(entry.records)
      writer.raw(",\"bytes\":")
      writer.integer(entry.bytes)
      writer.raw(",\"file_bytes\":")
      writer.integer(entry.fileBytes)
      writer.raw(",\"crc32\":\"")
      writer.raw(utf8: CRC32.hex(entry.crc32))
      writer.raw("\",\"first\":{\"source\":")
      writer.raw(entry.first.0.jsonString)
      writer.raw(",\"line\":")
      writer.integer(entry.first.1)
      writer.raw("},\"last\":{\"source\":")
      writer.raw(entry.last.0.jsonString)
      writer.raw(",\"line\":")
      writer.integer(entry.last.1)
      writer.raw("}}")
    }
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
    let temporary = directory + "/.manifest.json.tmp"
    let file = try BufferedFile(creating: temporary)
    try file.write(writer.bytes)
    try file.close()
    try rename(temporary, directory + "/manifest.json")
  }
}
