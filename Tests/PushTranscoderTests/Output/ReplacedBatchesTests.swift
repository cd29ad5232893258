import Foundation
import Testing

@testable import PushTranscoder

/// The old batches a `--force` run moves aside (`ReplacedBatches`).
@Suite struct ReplacedBatchesTests {
  /// Writes `text` to `root/path`, creating its folders.
  private func put(_ path: String, _ text: String, in root: String) throws {
    let url = URL(fileURLWithPath: root + "/" + path)
    try FileManager.default.createDirectory(
      at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    try Data(text.utf8).write(to: url)
  }

  /// Every file under `root`, as paths relative to it, sorted.
  private func files(under root: String) -> [String] {
    let manager = FileManager.default
    guard let walk = manager.enumerator(atPath: root) else { return [] }
    var found: [String] = []
    while let path = walk.nextObject() as? String {
      var isDirectory: ObjCBool = false
      if manager.fileExists(atPath: root + "/" + path, isDirectory: &isDirectory),
        !isDirectory.boolValue
      {
        found.append(path)
      }
    }
    return found.sorted()
  }

  /// What a `--force` run cannot reuse is gone before it writes anything: the `.replaced/` a
  /// stopped run left, and every file of the moved folders that the previous manifest does not
  /// list (a run that failed on a full disk leaves its batches with no manifest). They used to
  /// stay until the run's end, so a rerun on a full disk failed again for want of the space they
  /// held. What is listed stays, for its inode, until a new batch takes it or the run ends.
  @Test func whatCannotBeReusedIsDeletedBeforeTheRunWrites() throws {
    let root = NSTemporaryDirectory() + "/replaced-tests-" + UUID().uuidString
    defer { try? FileManager.default.removeItem(atPath: root) }
    try put("apns/batch-000001.ndjson", "listed\n", in: root)
    try put("apns/batch-000002.ndjson", "not listed\n", in: root)
    try put("apns/.batch-000003.ndjson.tmp", "a stopped run's temporary\n", in: root)
    try put("fcm/batch-000001.ndjson", "a failed run's batch\n", in: root)
    try put(".replaced/apns/batch-000001.ndjson", "a stopped run's leftover\n", in: root)
    try put(".replaced/vivo.1/batch-000001.ndjson", "an older leftover\n", in: root)
    try put("notes.txt", "not ours\n", in: root)

    let replaced = try ReplacedBatches(
      root: DirectoryHandle(opening: root), moving: ["apns", "fcm", "vivo"],
      listed: ["apns/batch-000001.ndjson", "apns/batch-000002.ndjson.missing"])
    #expect(files(under: root) == [".replaced/apns/batch-000001.ndjson", "notes.txt"])
    #expect(
      try String(contentsOfFile: root + "/.replaced/apns/batch-000001.ndjson", encoding: .utf8)
        == "listed\n")

    // The listed file is the one a new batch takes; then none is left.
    let taken = try #require(replaced.take(vendor: "apns", name: "batch-000001.ndjson"))
    #expect(taken.name == "batch-000001.ndjson")
    try taken.file.close()
    #expect(replaced.take(vendor: "fcm", name: "batch-000001.ndjson") == nil)
    try replaced.removeRest()
    #expect(files(under: root) == ["notes.txt"])
  }
}
