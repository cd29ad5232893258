import Foundation
import Glibc
import PushTranscoder

/// Transcode workloads (SPEC 8): the library's `LineProcessor` on in-memory lines, without
/// output; and full runs through `Runner.run` from a corpus file to a batch directory.
extension Workload {
  /// Lines processed into one reused `ChunkOutput` before it is reset (memory stays flat).
  static let linesPerChunk = 1024

  /// Runs `processor` over every line, resetting one reused output per chunk of lines; returns
  /// the merged stats.
  static func transcodeStats(_ processor: inout LineProcessor, _ corpus: LineCorpus) -> RunStats {
    var total = RunStats()
    var output = ChunkOutput(sequence: 0, source: SourceName("bench"))
    var inChunk = 0
    corpus.forEachLine { index, line in
      processor.process(line: line, number: index + 1, into: &output)
      inChunk += 1
      if inChunk == linesPerChunk {
        total.merge(output.stats)
        output.stats = RunStats()
        output.main.truncate(to: 0)
        output.rejects.truncate(to: 0)
        output.refs.removeAll(keepingCapacity: true)
        inChunk = 0
      }
    }
    total.merge(output.stats)
    return total
  }

  /// Transcoding to `vendors` without output. Outcome: pushed (transcoded) lines vs. the rest.
  static func transcode(
    name: String, vendors: [VendorID], check: String, baseline: String?, rounds: Int
  ) -> Workload {
    Workload(name: name, check: check, baseline: baseline, threads: 1, rounds: rounds) {
      var options = TranscodeOptions()
      options.vendors = vendors
      var processor = LineProcessor(options: options, directory: NameDirectory())
      return { corpus in
        let stats = transcodeStats(&processor, corpus)
        guard stats.lines == corpus.lines.count else {
          fail("\(name): \(stats.lines) lines counted, \(corpus.lines.count) given")
        }
        return Outcome(accepted: stats.transcoded, rejected: stats.lines - stats.transcoded)
      }
    }
  }

  /// Foundation's `JSONSerialization` doing the push-text work of the APNs transcode
  /// (SPEC 3.1): parse, decide push or not, build the body. Outcome: pushed vs. the rest.
  static func jsonSerializationPush(rounds: Int) -> Workload {
    Workload(
      name: "JSONSerialization push text", check: "push", baseline: nil, threads: 1, rounds: rounds
    ) {
      { corpus in
        var outcome = Outcome()
        var bodyBytes = 0
        corpus.forEachLine { _, line in
          if let body = foundationPushBody(line) {
            outcome.accepted += 1
            // Safe because the sum only keeps the bodies alive: a wrap would change nothing.
            bodyBytes &+= body.utf8.count
          } else {
            outcome.rejected += 1
          }
        }
        if bodyBytes < 0 { print("") }  // keeps the bodies alive
        return outcome
      }
    }
  }

  /// A full run: `Runner.run` from the corpus file to a batch directory, all vendors. Each
  /// round replaces the previous round's directory with `--force`, as a nightly rerun (and
  /// `compare.sh`'s batch commands) do.
  /// Outcome: the run's stats JSON, which must be identical across compressions and threads.
  static func fullRun(compression: OutputCompression, threads: Int, rounds: Int) -> Workload {
    let label = compression == .gzip ? "gzip -1" : compression.rawValue
    return Workload(
      name: "full run, \(label)", check: "full", baseline: nil, threads: threads, rounds: rounds,
      timesCheckPass: true
    ) {
      { corpus in
        guard let file = corpus.file else { fail("full run needs a corpus file") }
        let root = FullRunScratch.root
        let output = root + "/out"
        let statsPath = root + "/stats.json"
        var configuration = RunConfiguration()
        configuration.inputs = [file]
        configuration.output = output
        configuration.force = true
        configuration.threads = threads
        configuration.compression = compression
        configuration.level = compression == .gzip ? 1 : nil
        configuration.progress = .never
        configuration.statsPath = statsPath
        let status = FullRunScratch.quietStderr { Runner.run(configuration) }
        guard status == ExitStatus.done else {
          fail(
            "full run (\(label), \(threads) threads) on \(corpus.name) exited \(status): "
              + FullRunScratch.lastLog())
        }
        guard let statsData = FileManager.default.contents(atPath: statsPath),
          let stats = String(data: statsData, encoding: .utf8)
        else { fail("full run wrote no stats") }
        let outputBytes = FullRunScratch.directorySize(output)
        guard outputBytes > 0 else { fail("full run (\(label)) wrote no output") }
        return Outcome(accepted: 0, rejected: 0, detail: stats)
      }
    }
  }
}

/// The scratch directory of the full runs, and their stderr (the run summary) kept aside so
/// that neither stdout nor stderr carries it.
enum FullRunScratch {
  // Safe because only its lazy initializer (run once, thread-safe) sets it; nothing writes it.
  nonisolated(unsafe) static var root: String = {
    let path = NSTemporaryDirectory() + "push-transcode-bench-\(getpid())"
    try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
  }()

  static var logPath: String { root + "/stderr.log" }

  static func quietStderr<T>(_ body: () -> T) -> T {
    fflush(nil)
    let saved = dup(2)
    let log = open(logPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    if log >= 0 {
      dup2(log, 2)
      close(log)
    }
    defer {
      fflush(nil)
      dup2(saved, 2)
      close(saved)
    }
    return body()
  }

  static func lastLog() -> String {
    (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "(no log)"
  }

  static func directorySize(_ path: String) -> Int {
    guard let walker = FileManager.default.enumerator(atPath: path) else { return 0 }
    var total = 0
    for case let name as String in walker {
      let attributes = try? FileManager.default.attributesOfItem(atPath: path + "/" + name)
      total += (attributes?[.size] as? Int) ?? 0
    }
    return total
  }

  static func cleanUp() { try? FileManager.default.removeItem(atPath: root) }
}

/// Whether JSONSerialization sees a Tencent line (an object with a top-level `MsgBody`).
func foundationIsTencent(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
  guard let base = line.baseAddress else { return false }
  // Safe because the Data does not outlive this call, never frees the borrowed bytes, and
  // JSONSerialization only reads them.
  let data = Data(
    bytesNoCopy: UnsafeMutableRawPointer(mutating: base), count: line.count, deallocator: .none)
  guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else {
    return false
  }
  return object["MsgBody"] != nil
}

/// The APNs body of a Tencent line by SPEC 3.1 with Foundation, or nil when the line is not
/// pushed (not JSON, not a well-typed message, or skipped by steps 1, 4, 5).
func foundationPushBody(_ line: UnsafeBufferPointer<UInt8>) -> String? {
  guard let base = line.baseAddress else { return nil }
  // Safe because the Data does not outlive this call, never frees the borrowed bytes, and
  // JSONSerialization only reads them.
  let data = Data(
    bytesNoCopy: UnsafeMutableRawPointer(mutating: base), count: line.count, deallocator: .none)
  guard let root = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any],
    let body = root["MsgBody"] as? [Any]
  else { return nil }
  /// A string field: nil when absent or empty; `.none` marks a wrong type (the line is rejected).
  func string(_ object: [String: Any], _ key: String) -> String?? {
    guard let value = object[key] else { return .some(nil) }
    guard let text = value as? String else { return .none }
    return .some(text.isEmpty ? nil : text)
  }
  var pieces: [String] = []
  var onlyCustom = false
  var customDesc: String? = nil
  for (position, item) in body.enumerated() {
    guard let element = item as? [String: Any], let typeField = string(element, "MsgType"),
      let type = typeField
    else { return nil }
    let content = element["MsgContent"]
    if content != nil && !(content is [String: Any]) { return nil }
    let fields = content as? [String: Any]
    var isCustom = false
    switch type {
    case "TIMTextElem":
      guard let fields, let text = string(fields, "Text"), let text else { return nil }
      pieces.append(text)
    case "TIMCustomElem":
      guard let fields, let descField = string(fields, "Desc") else { return nil }
      isCustom = true
      if let desc = descField { pieces.append(desc) }
      if position == 0 { customDesc = descField }
    case "TIMImageElem": pieces.append("[Image]")
    case "TIMFaceElem": pieces.append("[Face]")
    case "TIMSoundElem": pieces.append("[Voice]")
    case "TIMLocationElem": pieces.append("[Location]")
    case "TIMFileElem": pieces.append("[File]")
    case "TIMVideoFileElem": pieces.append("[Video]")
    case "TIMRelayElem": pieces.append("[Chat History]")
    default: break
    }
    if position == 0 { onlyCustom = isCustom }
  }
  // Recipients: a non-empty GroupId, else a non-empty To_Account.
  guard let group = string(root, "GroupId") else { return nil }
  var hasRecipient = group != nil
  if !hasRecipient {
    if let to = root["To_Account"] as? String {
      hasRecipient = !to.isEmpty
    } else if let to = root["To_Account"] as? [Any] {
      hasRecipient = to.contains { ($0 as? String).map { !$0.isEmpty } ?? false }
    }
  }
  guard hasRecipient else { return nil }
  var desc: String? = nil
  var title: String? = nil
  if let infoValue = root["OfflinePushInfo"] {
    guard let info = infoValue as? [String: Any] else { return nil }
    // 1. PushFlag == 1.
    if let flag = info["PushFlag"] as? NSNumber, flag.intValue == 1 { return nil }
    guard let descField = string(info, "Desc"), let titleField = string(info, "Title") else {
      return nil
    }
    desc = descField
    title = titleField
  }
  // 4. Exactly one TIMCustomElem without Desc and without OfflinePushInfo.Desc.
  if body.count == 1 && onlyCustom && customDesc == nil && desc == nil { return nil }
  // 3. Desc replaces the element text; 5. empty text and no title.
  if let desc { return desc }
  if pieces.isEmpty && title == nil { return nil }
  return pieces.joined()
}

/// The APNs alert body of the first record in `records` (NDJSON): `aps.alert` when it is a
/// string, else `aps.alert.body`.
func apnsAlertBody(firstRecordOf records: UnsafeBufferPointer<UInt8>) -> String? {
  guard let newline = records.firstIndex(of: 0x0A) else { return nil }
  let data = Data(records[..<newline])
  guard let record = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any],
    let payload = record["payload"] as? [String: Any],
    let aps = payload["aps"] as? [String: Any]
  else { return nil }
  if let alert = aps["alert"] as? String { return alert }
  return (aps["alert"] as? [String: Any])?["body"] as? String
}

/// True when `alert` is `text`, or a prefix of it on a grapheme boundary followed by `…` (a
/// budget cut).
func isPushText(_ alert: String, of text: String) -> Bool {
  if alert == text { return true }
  guard alert.hasSuffix("…") else { return false }
  return text.hasPrefix(alert.dropLast())
}
