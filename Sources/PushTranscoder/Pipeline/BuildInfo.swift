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
  /// through the program headers in the file's first 64 KiB (linkers put the notes in its first
  /// page); for a file without one, the 64-bit FNV-1a hash of its bytes, read in blocks. Two
  /// executables get the same id when they are the same program. Nil when the file cannot be
  /// read.
  package static func buildID(ofExecutable path: String) -> String? {
    guard let input = try? FileInput(path: path),
      let head = try? input.peek(FileInput.peekBytes)
    else { return nil }
    if let note = ELFNotes.gnuBuildID(in: Array(head)) {
      return note.map { byte in String(byte, radix: 16).leftPadded(to: 2) }.joined()
    }
    // No note: FNV-1a of the whole file; `forEachBlock` hands out the peeked bytes first.
    var hash = FNV1a.offsetBasis
    guard input.forEachBlock({ hash = FNV1a.hash($0, continuing: hash) }) else { return nil }
    return String(hash, radix: 16).leftPadded(to: 16)
  }
}

/// Reads the `NT_GNU_BUILD_ID` note of a 64-bit little-endian ELF file (the only kind this
/// program is built as) from the `PT_NOTE` segments its first bytes hold. Every offset and size
/// comes from the file and is checked against the bytes given, so a truncated or crafted file
/// gives nil, not a fault.
enum ELFNotes {
  /// The note's descriptor bytes, or nil when `head` (the file's first bytes) is not such an
  /// ELF file or holds no build-id note.
  static func gnuBuildID(in head: [UInt8]) -> [UInt8]? {
    // The ELF header: magic, class 2 (64-bit), data 1 (little-endian).
    guard head.count >= 64, head[0] == 0x7F, head[1] == 0x45, head[2] == 0x4C,
      head[3] == 0x46, head[4] == 2, head[5] == 1
    else { return nil }
    let programHeaders = word(head, 32, 8)
    let entrySize = word(head, 54, 2)
    let entries = word(head, 56, 2)
    guard entrySize >= 56, programHeaders + entrySize * entries <= head.count else { return nil }
    for entry in 0..<entries {
      let base = programHeaders + entry * entrySize
      // p_type 4 is PT_NOTE; p_offset, p_filesz and p_align follow.
      guard word(head, base, 4) == 4 else { continue }
      let offset = word(head, base + 8, 8)
      let size = word(head, base + 32, 8)
      let alignment = word(head, base + 48, 8) == 8 ? 8 : 4
      guard offset + size <= head.count else { continue }
      if let id = buildIDNote(in: Array(head[offset..<offset + size]), alignment: alignment) {
        return id
      }
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
  /// are inside `bytes`). Values past `Int32.max` saturate there, so the range checks after it
  /// fail instead of wrapping.
  private static func word(_ bytes: [UInt8], _ offset: Int, _ size: Int) -> Int {
    var value: UInt64 = 0
    for index in (0..<size).reversed() { value = value << 8 | UInt64(bytes[offset + index]) }
    return value > UInt64(Int32.max) ? Int(Int32.max) : Int(value)
  }
}

extension String {
  func leftPadded(to width: Int) -> String {
    count >= width ? self : String(repeating: "0", count: width - count) + self
  }
}
