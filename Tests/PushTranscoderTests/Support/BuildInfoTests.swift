import Foundation
import Testing

@testable import PushTranscoder

@Suite struct BuildInfoTests {
  /// A minimal 64-bit little-endian ELF file: the header, one program header per entry of
  /// `segments` (type, and the bytes it covers, placed after the table), each segment's bytes.
  static func elf(_ segments: [(type: UInt32, align: UInt64, bytes: [UInt8])]) -> [UInt8] {
    func little(_ value: UInt64, _ size: Int) -> [UInt8] {
      (0..<size).map { UInt8(truncatingIfNeeded: value >> (8 * UInt64($0))) }
    }
    var header = [UInt8](repeating: 0, count: 64)
    header.replaceSubrange(0..<6, with: [0x7F, 0x45, 0x4C, 0x46, 2, 1])
    header.replaceSubrange(32..<40, with: little(64, 8))  // e_phoff
    header.replaceSubrange(54..<56, with: little(56, 2))  // e_phentsize
    header.replaceSubrange(56..<58, with: little(UInt64(segments.count), 2))  // e_phnum
    var table: [UInt8] = []
    var body: [UInt8] = []
    let bodyStart = 64 + 56 * segments.count
    for segment in segments {
      var entry = [UInt8](repeating: 0, count: 56)
      entry.replaceSubrange(0..<4, with: little(UInt64(segment.type), 4))
      entry.replaceSubrange(8..<16, with: little(UInt64(bodyStart + body.count), 8))
      entry.replaceSubrange(32..<40, with: little(UInt64(segment.bytes.count), 8))
      entry.replaceSubrange(48..<56, with: little(segment.align, 8))
      table += entry
      body += segment.bytes
    }
    return header + table + body
  }

  /// One note: name (with its zero), type and descriptor, each part padded to 4 bytes.
  static func note(name: String, type: UInt32, descriptor: [UInt8]) -> [UInt8] {
    func little(_ value: Int) -> [UInt8] {
      (0..<4).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
    }
    func padded(_ bytes: [UInt8]) -> [UInt8] {
      bytes + [UInt8](repeating: 0, count: (4 - bytes.count % 4) % 4)
    }
    let nameBytes = Array(name.utf8) + [0]
    return little(nameBytes.count) + little(descriptor.count) + little(Int(type))
      + padded(nameBytes) + padded(descriptor)
  }

  /// The id is the GNU build-id note, found after other notes and segments, not a hash of the
  /// file (before, `--version` read and hashed the whole executable: 36 MB and 0.1 s).
  @Test func theIDIsTheGNUBuildIDNote() {
    let dir = TemporaryDirectory()
    let id: [UInt8] = [0xba, 0xb4, 0x3b, 0x33, 0x00, 0x0f, 0xff, 0x10, 0x01, 0x20]
    let notes =
      Self.note(name: "GNU", type: 5, descriptor: [1, 2, 3, 4, 5, 6, 7, 8])
      + Self.note(name: "Go", type: 3, descriptor: [9, 9, 9, 9])
      + Self.note(name: "GNU", type: 3, descriptor: id)
    let path = dir.write(
      "program",
      Self.elf([(1, 8, [UInt8](repeating: 0xCC, count: 100)), (4, 4, notes), (4, 4, [])]))
    #expect(BuildInfo.buildID(ofExecutable: path) == "bab43b33000fff100120")
  }

  /// A file that is not a 64-bit ELF file, or has no build-id note, or whose tables run past its
  /// end, is identified by the FNV-1a hash of its bytes.
  @Test func otherFilesAreIdentifiedByTheirHash() {
    let dir = TemporaryDirectory()
    func hashID(_ bytes: [UInt8]) -> String {
      let hash = bytes.withUnsafeBufferPointer { FNV1a.hash($0) }
      return String(hash, radix: 16).leftPadded(to: 16)
    }
    let script = Array("#!/bin/sh\necho hi\n".utf8)
    let withoutNote = Self.elf([(4, 4, Self.note(name: "GNU", type: 1, descriptor: [0, 0, 0, 0]))])
    var truncated = Self.elf([(4, 4, Self.note(name: "GNU", type: 3, descriptor: [1, 2, 3, 4]))])
    truncated.removeLast(3)
    // A note whose descriptor size points past the segment.
    let overlong = Self.elf([
      (4, 4, Array(Self.note(name: "GNU", type: 3, descriptor: [1, 2, 3, 4]).dropLast(4)))
    ])
    let large = (0..<200_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
    for (name, bytes) in [
      ("script", script), ("without-note", withoutNote), ("truncated", truncated),
      ("overlong", overlong), ("large", large), ("empty", []),
    ] {
      let path = dir.write(name, bytes)
      #expect(BuildInfo.buildID(ofExecutable: path) == hashID(bytes), "\(name)")
    }
    #expect(BuildInfo.buildID(ofExecutable: dir.path("missing")) == nil)
  }

  /// The test runner is linked with a build-id note, as the program is: its id is the note's.
  @Test func theRunningExecutableIsIdentifiedByItsNote() throws {
    let handle = try #require(FileHandle(forReadingAtPath: "/proc/self/exe"))
    defer { try? handle.close() }
    let head = [UInt8](handle.readData(ofLength: 64 << 10))
    let note = try #require(ELFNotes.gnuBuildID(in: head))
    #expect(note.count >= 8)
    #expect(BuildInfo.buildID == note.map { String(format: "%02x", $0) }.joined())
  }
}
