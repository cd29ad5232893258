import Foundation
import Testing

@testable import PushTranscoder

/// The manifest's batch entries go to files as batches are written (`ManifestEntries`): memory
/// holds only those that came before an earlier batch of their vendor. They used to be held
/// until the run ended, about 700 bytes a batch (161,000 batches: 170 MB instead of 59 MB).
@Suite struct ManifestEntriesTests {
  /// Entries that come out of order (jobs finish in any order, a few at a time) are written by
  /// vendor, then by index; only the early ones wait in memory, and no file is left behind.
  @Test func entriesComeOutInManifestOrderAndFewWait() throws {
    let root = NSTemporaryDirectory() + "/manifest-entries-" + UUID().uuidString
    try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: root) }
    let entries = ManifestEntries(root: try DirectoryHandle(opening: root))
    let vendors: [VendorID] = [.meizu, .apns, .vivo]
    let perVendor = 3000
    // Each vendor's batches in windows of four, the last of each window first, vendors
    // interleaved: a job finishing before the three started just before it.
    var order: [(VendorID, Int)] = []
    for window in stride(from: 1, through: perVendor, by: 4) {
      for vendor in vendors {
        let indexes = Array(window..<min(window + 4, perVendor + 1))
        for index in indexes.reversed() { order.append((vendor, index)) }
      }
    }
    for (vendor, index) in order {
      try entries.add(
        vendor: vendor, index: index, json: Array(#"{"v":"\#(vendor.name)","i":\#(index)}"#.utf8))
    }
    #expect(entries.mostWaiting <= 3)
    #expect(try FileManager.default.contentsOfDirectory(atPath: root).isEmpty)

    let path = root + "/batches.json"
    let file = try BufferedFile(creating: path)
    try file.write(Array("[".utf8))
    try entries.writeBatches(to: file)
    try file.write(Array("]".utf8))
    try file.close()
    let written = try JSONSerialization.jsonObject(
      with: Data(contentsOf: URL(fileURLWithPath: path)))
    let list = try #require(written as? [[String: Any]])
    let expected = VendorID.allCases.filter(vendors.contains).flatMap { vendor in
      (1...perVendor).map { "\(vendor.name) \($0)" }
    }
    #expect(list.map { "\($0["v"] as? String ?? "?") \($0["i"] as? Int ?? -1)" } == expected)
  }

  /// No batch written: no entry, nothing between the brackets.
  @Test func noBatchWritesNothing() throws {
    let root = NSTemporaryDirectory() + "/manifest-entries-" + UUID().uuidString
    try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: root) }
    let entries = ManifestEntries(root: try DirectoryHandle(opening: root))
    let path = root + "/batches.json"
    let file = try BufferedFile(creating: path)
    try entries.writeBatches(to: file)
    try file.close()
    #expect(try Data(contentsOf: URL(fileURLWithPath: path)).isEmpty)
  }
}
