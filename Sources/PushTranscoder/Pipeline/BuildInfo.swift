import Glibc

/// Version and build id for job logs (`--version`).
package enum BuildInfo {
  /// The release version printed by `--version`.
  package static let version = "0.1.0"

  /// `push-transcode 0.1.0 (build bab43b338265267161daac99b6641d0c1fdbdf98)`.
  package static var versionLine: String {
    "push-transcode \(version) (build \(buildID))"
  }

  /// The running executable's build id (`buildID(ofExecutable:)` of `/proc/self/exe`), or
  /// `unknown` when it cannot be read.
  package static var buildID: String {
    buildID(ofExecutable: "/proc/self/exe") ?? "unknown"
  }

  /// The build id of the executable at `path`, in lower-case hex: its GNU build-id note (the
  /// linker's hash of what it linked, the id `file`, `readelf -n` and debuggers show), found
  /// through the program headers in a few small reads; for a file without one, the 64-bit
  /// FNV-1a hash of its bytes, read in blocks. Two executables get the same id when they are
  /// the same program. Nil when the file cannot be read.
  package static func buildID(ofExecutable path: String) -> String? {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { return nil }
    defer { close(descriptor) }
    if let note = ELFNotes.gnuBuildID(descriptor) {
      return note.map { byte in String(byte, radix: 16).leftPadded(to: 2) }.joined()
    }
    guard let hash = hashOfFile(descriptor) else { return nil }
    return String(hash, radix: 16).leftPadded(to: 16)
  }

  /// FNV-1a of the whole file, 64 KiB at a time.
  private static func hashOfFile(_ descriptor: Int32) -> UInt64? {
    var hash = FNV1a.offsetBasis
    var block = [UInt8](repeating: 0, count: 64 << 10)
    var offset = 0
    while true {
      let count = block.withUnsafeMutableBytes { block in
        // Safe because `pread` writes at most `block.count` bytes into the block.
        pread(descriptor, block.baseAddress, block.count, off_t(offset))
      }
      if count < 0 && errno == EINTR { continue }
      guard count >= 0 else { return nil }
      if count == 0 { return hash }
      hash = block.withUnsafeBufferPointer { block in
        FNV1a.hash(UnsafeBufferPointer(rebasing: block[..<count]), continuing: hash)
      }
      offset += count
    }
  }
}

/// Reads the `NT_GNU_BUILD_ID` note of a 64-bit little-endian ELF file (the only kind this
/// program is built as) from its `PT_NOTE` segments. Every offset and size comes from the file
/// and is checked against what was read, so a truncated or crafted file gives nil, not a fault.
enum ELFNotes {
  /// The note's descriptor bytes, or nil when the file is not such an ELF file or has no
  /// build-id note.
  static func gnuBuildID(_ descriptor: Int32) -> [UInt8]? {
    // The ELF header: magic, class 2 (64-bit), data 1 (little-endian).
    guard let header = read(descriptor, at: 0, count: 64), header.count == 64,
      header[0] == 0x7F, header[1] == 0x45, header[2] == 0x4C, header[3] == 0x46,
      header[4] == 2, header[5] == 1
    else { return nil }
    let programHeaders = word(header, 32, 8)
    let entrySize = word(header, 54, 2)
    let entries = word(header, 56, 2)
    guard entrySize >= 56, entries > 0, programHeaders > 0,
      let table = read(descriptor, at: programHeaders, count: entrySize * entries),
      table.count == entrySize * entries
    else { return nil }
    for entry in 0..<entries {
      let base = entry * entrySize
      // p_type 4 is PT_NOTE; p_offset, p_filesz and p_align follow.
      guard word(table, base, 4) == 4 else { continue }
      let offset = word(table, base + 8, 8)
      let size = word(table, base + 32, 8)
      let alignment = word(table, base + 48, 8) == 8 ? 8 : 4
      // A build-id note is a few dozen bytes; a segment of notes past 64 KiB is not read.
      guard size <= 64 << 10, let notes = read(descriptor, at: offset, count: size) else {
        continue
      }
      if let id = buildIDNote(in: notes, alignment: alignment) { return id }
    }
    return nil
  }

  /// The descriptor of the first note named `GNU` of type 3 (`NT_GNU_BUILD_ID`) in `notes`.
  static func buildIDNote(in notes: [UInt8], alignment: Int) -> [UInt8]? {
    var cursor = 0
    while cursor + 12 <= notes.count {
      let nameSize = word(notes, cursor, 4)
      let descriptorSize = word(notes, cursor + 4, 4)
      let type = word(notes, cursor + 8, 4)
      let name = cursor + 12
      let descriptor = name + padded(nameSize, alignment)
      let next = descriptor + padded(descriptorSize, alignment)
      guard descriptor + descriptorSize <= notes.count, next > cursor else { return nil }
      // The name is `GNU` and its terminating zero.
      if type == 3 && nameSize == 4 && notes[name..<name + 4].elementsEqual([0x47, 0x4E, 0x55, 0])
        && descriptorSize > 0
      {
        return Array(notes[descriptor..<descriptor + descriptorSize])
      }
      cursor = next
    }
    return nil
  }

  /// `size` rounded up to a multiple of `alignment` (4 or 8).
  private static func padded(_ size: Int, _ alignment: Int) -> Int {
    (size + alignment - 1) & ~(alignment - 1)
  }

  /// The little-endian unsigned integer of `size` bytes at `offset` (the caller checks that they
  /// are inside `bytes`). Values past `Int32.max` saturate there, so the range checks after it fail
  /// instead of wrapping.
  private static func word(_ bytes: [UInt8], _ offset: Int, _ size: Int) -> Int {
    var value: UInt64 = 0
    for index in (0..<size).reversed() { value = value << 8 | UInt64(bytes[offset + index]) }
    return value > UInt64(Int32.max) ? Int(Int32.max) : Int(value)
  }

  /// Up to `count` bytes at `offset`; fewer at the end of the file, nil on a read error.
  private static func read(_ descriptor: Int32, at offset: Int, count: Int) -> [UInt8]? {
    guard count >= 0, offset >= 0 else { return nil }
    var bytes = [UInt8](repeating: 0, count: count)
    var filled = 0
    while filled < count {
      let got = bytes.withUnsafeMutableBytes { bytes in
        // Safe because `filled < count`: `pread` writes inside the array's remaining bytes.
        pread(descriptor, bytes.baseAddress! + filled, count - filled, off_t(offset + filled))
      }
      if got < 0 && errno == EINTR { continue }
      guard got >= 0 else { return nil }
      if got == 0 { break }
      filled += got
    }
    return Array(bytes[..<filled])
  }
}

extension String {
  func leftPadded(to width: Int) -> String {
    count >= width ? self : String(repeating: "0", count: width - count) + self
  }
}
