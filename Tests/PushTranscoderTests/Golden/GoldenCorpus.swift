import Foundation

@testable import PushTranscoder

/// Renders `Corpus/messages/*.ndjson` the way a run does (directory loaded, every line through
/// `LineProcessor`) and splits the output per vendor, for the golden tests and the properties.
///
/// Records are those of `push-transcode Corpus/messages/*.ndjson --directory
/// Corpus/messages/directory.ndjson --rejects R --stats S` (files sorted by name), so `source`
/// is the path relative to the package root.
enum GoldenCorpus {
  /// The package root (this file is `Tests/PushTranscoderTests/Golden/GoldenCorpus.swift`).
  static let root: URL = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

  static let messagesDirectory = root.appendingPathComponent("Corpus/messages")
  static let goldenDirectory = root.appendingPathComponent("Corpus/golden")
  static let directoryFile = "directory.ndjson"

  /// The message files, sorted by name (the directory file excluded).
  static func messageFiles() throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: messagesDirectory.path)
      .filter { $0.hasSuffix(".ndjson") && $0 != directoryFile }
      .sorted()
  }

  /// One set of options the corpus is rendered with; `name` is its folder in `Corpus/golden/`.
  struct OptionSet: Sendable, CustomStringConvertible {
    var name: String
    var options: TranscodeOptions
    /// The message files this set renders (nil: all). The non-default sets keep to the files
    /// their option changes, so the golden files stay small.
    var files: [String]? = nil
    var description: String { name }

    static let all: [OptionSet] = {
      var sets: [OptionSet] = []
      sets.append(OptionSet(name: "default", options: TranscodeOptions()))
      var zh = TranscodeOptions()
      zh.locale = .zh
      sets.append(
        OptionSet(
          name: "locale-zh", options: zh,
          files: [
            "easemob-export.ndjson", "easemob-rest.ndjson", "tencent-display.ndjson",
            "tencent-elements.ndjson",
          ]))
      var banner = TranscodeOptions()
      banner.display = .banner
      sets.append(
        OptionSet(
          name: "display-banner", options: banner,
          files: ["easemob-export.ndjson", "easemob-rest.ndjson", "tencent-display.ndjson"]))
      var title = TranscodeOptions()
      title.defaultTitle = "通知 \"Inbox\""
      sets.append(
        OptionSet(
          name: "default-title", options: title,
          files: [
            "easemob-export.ndjson", "easemob-rest.ndjson", "tencent-display.ndjson",
            "tencent-elements.ndjson", "caps-scalars.ndjson",
          ]))
      // One vendor selected: its refusals (missing-timestamp, over-budget) reject whole lines.
      var apns = TranscodeOptions()
      apns.vendors = [.apns]
      sets.append(
        OptionSet(
          name: "vendors-apns", options: apns,
          files: [
            "tencent-apns-voip-liveactivity.ndjson", "budgets-bytes.ndjson",
            "tencent-overrides.ndjson",
          ]))
      return sets
    }()
  }

  /// A rendered corpus: records per vendor (NDJSON), reject records, the stats JSON.
  struct Rendering {
    var records: [VendorID: [UInt8]] = [:]
    /// Every record in output order, with its vendor.
    var ordered: [(vendor: VendorID, record: [UInt8])] = []
    var rejects: [UInt8] = []
    var stats = RunStats()

    var statsJSON: [UInt8] {
      var writer = JSONWriter()
      stats.writeJSON(into: &writer)
      writer.byte(ASCII.newline)
      return writer.bytes
    }
  }

  static func render(_ set: OptionSet, files: [String]? = nil) throws -> Rendering {
    var options = set.options
    options.rejectsInline = false
    options.collectRecordRefs = true
    var directory = NameDirectory()
    var directoryOutput = ChunkOutput(sequence: -1, source: SourceName("-"))
    try DirectoryLoader.load(
      paths: [messagesDirectory.appendingPathComponent(directoryFile).path], into: &directory,
      options: options, chunkBytes: ChunkReader.minimumChunkBytes, output: &directoryOutput)
    var rendering = Rendering()
    rendering.stats.merge(directoryOutput.stats)
    rendering.rejects.append(contentsOf: directoryOutput.rejects.bytes)
    var processor = LineProcessor(options: options, directory: directory)
    for name in try files ?? set.files ?? messageFiles() {
      let source = SourceName("Corpus/messages/" + name)
      let reader = ChunkReader(
        paths: [messagesDirectory.appendingPathComponent(name).path],
        chunkBytes: ChunkReader.minimumChunkBytes, maxLineBytes: options.maxLineBytes)
      while let event = try reader.next() {
        guard case .chunk(let chunk) = event else {
          throw CorpusError.unexpected("an overlong line in \(name)")
        }
        var output = ChunkOutput(sequence: 0, source: source)
        chunk.forEachLine { line, number in
          processor.process(line: line, number: number, into: &output)
        }
        var start = 0
        let bytes = output.main.bytes
        for ref in output.refs {
          let end = Int(ref.end)
          guard let vendor = VendorID(rawValue: Int(ref.vendor)) else {
            throw CorpusError.unexpected("a reject in the record stream")
          }
          let record = Array(bytes[start..<end])
          rendering.records[vendor, default: []].append(contentsOf: record)
          rendering.ordered.append((vendor, record))
          start = end
        }
        rendering.rejects.append(contentsOf: output.rejects.bytes)
        rendering.stats.merge(output.stats)
      }
    }
    return rendering
  }

  enum CorpusError: Error, CustomStringConvertible {
    case unexpected(String)
    var description: String {
      switch self {
      case .unexpected(let what): "unexpected: \(what)"
      }
    }
  }
}
