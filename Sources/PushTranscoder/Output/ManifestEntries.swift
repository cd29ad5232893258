import Glibc
import SystemPackage

/// The manifest's batch entries (SPEC 6.8), kept in files as the batches are written, not in
/// memory until the run ends.
///
/// Why: a run over tens of gigabytes writes hundreds of thousands of batches, and their
/// entries, held in an array and then written out as one manifest text, took about 700 bytes
/// of memory a batch (a nine-vendor run of 161,000 batches peaked at 170 MB instead of 59 MB).
///
/// How: each entry is rendered as JSON when its batch is written, then appended to a file of
/// its vendor's (`DIR/.manifest-<vendor>.tmp`, unlinked as soon as it is created, so a stopped
/// run leaves nothing behind): the manifest lists batches by vendor, then by index. Compression
/// jobs finish out of order, so an entry waits in memory until the ones before it of its vendor
/// have come (at most one per job running beside it). `writeBatches` then copies the files into
/// the manifest, a piece at a time.
final class ManifestEntries: @unchecked Sendable {
  // Safe because every property is touched only under `lock`, or by `writeBatches` after every
  // job has finished.
  private let lock = Lock()
  private let root: DirectoryHandle
  /// Per vendor: the next index to append, the entries that came before it, and its file.
  private var nextIndex = [Int](repeating: 1, count: VendorID.allCases.count)
  private var waiting = [[Int: [UInt8]]](repeating: [:], count: VendorID.allCases.count)
  private var files = [SpillFile?](repeating: nil, count: VendorID.allCases.count)
  /// The most entries that ever waited at once (tests read it).
  private(set) var mostWaiting = 0
  private var waitingCount = 0

  /// One vendor's entries on disk: written through a buffer (a `BufferedFile` writes them),
  /// read back from the start through a second descriptor of the same file.
  private final class SpillFile {
    let file: BufferedFile
    let readFD: Int32
    var buffer = JSONWriter(capacity: 1 << 16)
    var size = 0

    init(file: BufferedFile, readFD: Int32) {
      self.file = file
      self.readFD = readFD
    }

    func append(_ json: [UInt8], separated: Bool) throws {
      if separated { buffer.byte(ASCII.comma) }
      // Safe because `json` is a live array for the duration of the call.
      json.withUnsafeBufferPointer { buffer.raw($0) }
      if buffer.count >= 1 << 16 { try flush() }
    }

    func flush() throws {
      guard !buffer.isEmpty else { return }
      try file.write(buffer.buffer)
      size += buffer.count
      buffer.removeAll()
    }

    deinit { _ = Glibc.close(readFD) }
  }

  /// Entries whose files go in `root`.
  init(root: DirectoryHandle) { self.root = root }

  /// Adds the entry of `vendor`'s batch `index` (its JSON object text). Batches of a vendor are
  /// numbered from 1 and each is added once, in any order.
  func add(vendor: VendorID, index: Int, json: [UInt8]) throws {
    lock.lock()
    defer { lock.unlock() }
    let slot = vendor.rawValue
    guard index == nextIndex[slot] else {
      waiting[slot][index] = json
      waitingCount += 1
      mostWaiting = max(mostWaiting, waitingCount)
      return
    }
    try append(json, slot: slot, vendor: vendor)
    while let next = waiting[slot].removeValue(forKey: nextIndex[slot]) {
      waitingCount -= 1
      try append(next, slot: slot, vendor: vendor)
    }
  }

  private func append(_ json: [UInt8], slot: Int, vendor: VendorID) throws {
    if files[slot] == nil {
      let name = ".manifest-\(vendor.name).tmp"
      let path = root.path + "/" + name
      do {
        let fd = try root.createFile(name, readable: true)
        let file = BufferedFile(descriptor: fd, path: path, oldSize: 0)
        try root.removeEntry(name)
        let readFD = dup(fd)
        guard readFD >= 0 else { throw Errno(rawValue: errno) }
        files[slot] = SpillFile(file: file, readFD: readFD)
      } catch {
        throw SinkError.io("cannot create \(path): \(error)")
      }
    }
    // Entries after the first of a file start with the comma that separates them.
    try files[slot]!.append(json, separated: nextIndex[slot] > 1)
    nextIndex[slot] += 1
  }

  /// Writes every entry to `file`, separated by commas: vendor by vendor in canonical order,
  /// each vendor's by index. Call once every batch is added.
  func writeBatches(to file: BufferedFile) throws {
    lock.lock()
    defer { lock.unlock() }
    precondition(waitingCount == 0, "a batch's entry is missing")
    var piece = [UInt8](repeating: 0, count: 1 << 20)
    var first = true
    for case let spill? in files {
      try spill.flush()
      if !first { try file.write([ASCII.comma]) }
      first = false
      var offset = 0
      while offset < spill.size {
        let count = try piece.withUnsafeMutableBytes { buffer -> Int in
          // Safe because `buffer` is the array's storage, `buffer.count` bytes long.
          let read = pread(
            spill.readFD, buffer.baseAddress, min(buffer.count, spill.size - offset),
            off_t(offset))
          guard read > 0 else {
            let reason = read < 0 ? String(cString: strerror(errno)) : "unexpected end of file"
            throw SinkError.io("cannot read \(spill.file.path): \(reason)")
          }
          return read
        }
        try piece.withUnsafeBufferPointer {
          try file.write(UnsafeBufferPointer(rebasing: $0[..<count]))
        }
        offset += count
      }
    }
  }
}
