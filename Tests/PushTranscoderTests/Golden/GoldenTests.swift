import Foundation
import Testing

@testable import PushTranscoder

/// Every registered vendor over every `Corpus/messages/*.ndjson` file, for each option set,
/// compared with `Corpus/golden/<option set>/<vendor>.ndjson` (plus `rejects.ndjson` and
/// `stats.json`). `UPDATE_GOLDEN=1 swift test --filter Golden` rewrites the files; review the
/// diff against SPEC.md before committing it. A vendor without golden files fails.
@Suite("Golden corpus")
struct GoldenTests {
  static var updating: Bool { ProcessInfo.processInfo.environment["UPDATE_GOLDEN"] == "1" }

  @Test(arguments: GoldenCorpus.OptionSet.all)
  func corpusMatchesGoldenFiles(_ set: GoldenCorpus.OptionSet) throws {
    let rendering = try GoldenCorpus.render(set)
    let folder = GoldenCorpus.goldenDirectory.appendingPathComponent(set.name)
    var expected: [(String, [UInt8])] = []
    for vendor in VendorRegistry.all where set.options.vendors.contains(vendor.id) {
      expected.append((vendor.id.name + ".ndjson", rendering.records[vendor.id] ?? []))
    }
    expected.append(("rejects.ndjson", rendering.rejects))
    expected.append(("stats.json", rendering.statsJSON))

    if Self.updating {
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      for (name, bytes) in expected {
        try Data(bytes).write(to: folder.appendingPathComponent(name))
      }
      return
    }
    for (name, bytes) in expected {
      let url = folder.appendingPathComponent(name)
      guard let golden = FileManager.default.contents(atPath: url.path) else {
        Issue.record("missing golden file Corpus/golden/\(set.name)/\(name)")
        continue
      }
      Self.compare(Array(golden), bytes, name: "\(set.name)/\(name)")
    }
  }

  /// Every vendor has a golden file in the default option set and in every option set that
  /// selects it (a new vendor must add them: `UPDATE_GOLDEN=1`, then review).
  @Test func everyRegisteredVendorHasGoldenFiles() {
    for vendor in VendorRegistry.all {
      let path = GoldenCorpus.goldenDirectory
        .appendingPathComponent("default/\(vendor.id.name).ndjson").path
      #expect(FileManager.default.fileExists(atPath: path), "no golden file for \(vendor.id.name)")
      for set in GoldenCorpus.OptionSet.all where set.options.vendors.contains(vendor.id) {
        let path = GoldenCorpus.goldenDirectory
          .appendingPathComponent("\(set.name)/\(vendor.id.name).ndjson").path
        #expect(
          FileManager.default.fileExists(atPath: path),
          "no golden file \(set.name)/\(vendor.id.name).ndjson")
      }
    }
  }

  /// Reports the first differing line of a golden file.
  static func compare(_ golden: [UInt8], _ actual: [UInt8], name: String) {
    guard golden != actual else { return }
    let goldenLines = golden.split(separator: ASCII.newline, omittingEmptySubsequences: false)
    let actualLines = actual.split(separator: ASCII.newline, omittingEmptySubsequences: false)
    for index in 0..<max(goldenLines.count, actualLines.count) {
      let want =
        index < goldenLines.count ? String(decoding: goldenLines[index], as: UTF8.self) : "<none>"
      let got =
        index < actualLines.count ? String(decoding: actualLines[index], as: UTF8.self) : "<none>"
      if want != got {
        Issue.record(
          "\(name) differs at line \(index + 1) (UPDATE_GOLDEN=1 rewrites):\n  golden: \(want.prefix(600))\n  actual: \(got.prefix(600))"
        )
        return
      }
    }
  }
}
