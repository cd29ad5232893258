import Foundation

/// Finds an executable's GNU build-id note by scanning its first 64 KiB for the note's fixed
/// header (name size 4, type 3, name `GNU`), independently of how the program finds it through
/// the program headers; the CLI tests compare `--version` with it.
enum ELFNotesProbe {
  static func buildIDNote(of path: String) -> String? {
    guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
    defer { try? handle.close() }
    let bytes = [UInt8](handle.readData(ofLength: 64 << 10))
    let name: [UInt8] = [0x47, 0x4E, 0x55, 0]
    var offset = 0
    while offset + 16 <= bytes.count {
      defer { offset += 4 }
      guard bytes[offset..<offset + 4].elementsEqual([4, 0, 0, 0]),
        bytes[offset + 8..<offset + 12].elementsEqual([3, 0, 0, 0]),
        bytes[offset + 12..<offset + 16].elementsEqual(name)
      else { continue }
      let size = Int(bytes[offset + 4]) | Int(bytes[offset + 5]) << 8
      guard size > 0, offset + 16 + size <= bytes.count else { return nil }
      return bytes[offset + 16..<offset + 16 + size].map { String(format: "%02x", $0) }.joined()
    }
    return nil
  }
}
