// push-transcode-bench: MB/s of the project's workloads on a seeded generated corpus and on
// the bundled `Corpus/sample.ndjson` (`--corpus-file` names another), with Foundation's JSONSerialization as the in-run baseline
// (SPEC 8). Outputs are checked against each other before anything is timed.
//
//   swift run -c release push-transcode-bench [--size-mb 64] [--seed 1] [--rounds 3]
//     [--baseline-rounds 1] [--full-rounds 1] [--no-baseline] [--no-full]
//     [--corpus-file Corpus/sample.ndjson] [--file NDJSON]... [--write-corpus FILE]
//
// Workloads: tokenize only; transcode to apns only and to all nine vendors (LineProcessor, no
// output); full runs through Runner.run to a temporary batch directory with --compress none /
// lz4 / gzip (level 1) at 1 thread and at all cores; JSONSerialization baselines (parse only;
// the APNs push text of SPEC 3.1). Checks before timing: tokenizer vs. JSONSerialization line
// by line; apns transcode vs. the JSONSerialization push text line by line (pushed or not, and
// the alert's text: the push text, or a grapheme prefix of it with `…` where a budget cut it);
// every full run's stats identical across compressions and thread counts.
//
// `--hostile` times instead every hostile line shape (many keys, repeated keys, deep
// nesting, many recipients, elements and bodies, escape runs, combining marks, wide ignored
// arrays, directory entries) at two sizes, the larger 4x, to show growth at a glance;
// `--hostile-bytes` sets the smaller line's size, `--hostile-shape` picks shapes by name,
// `--write-hostile DIR` saves every line as a file.
//
// `--file` adds an NDJSON file (e.g. one from ../shared/bench/gen_corpus.py); `--write-corpus`
// saves the generated corpus; `--size-mb 0` skips generating one.

import CMalloc
import Foundation
import PushTranscoder

struct Options {
  var sizeMB = 64.0
  var seed: UInt64 = 1
  var rounds = 3
  var baselineRounds = 1
  var fullRounds = 1
  var baseline = true
  var full = true
  var corpusFiles = ["Corpus/sample.ndjson"]
  var writeCorpus: String? = nil
  var files: [String] = []
  var hostile = false
  var hostileBytes = 128_000
  var hostileFilter: String? = nil
  var writeHostile: String? = nil

  init(_ arguments: [String]) {
    var iterator = arguments.dropFirst().makeIterator()
    func value(_ flag: String) -> String {
      guard let value = iterator.next() else { fail("\(flag) needs a value") }
      return value
    }
    func number<T: LosslessStringConvertible>(_ flag: String) -> T {
      guard let number = T(value(flag)) else { fail("bad value for \(flag)") }
      return number
    }
    while let argument = iterator.next() {
      switch argument {
      case "--size-mb": sizeMB = number(argument)
      case "--seed": seed = number(argument)
      case "--rounds": rounds = max(1, number(argument))
      case "--baseline-rounds": baselineRounds = max(1, number(argument))
      case "--full-rounds": fullRounds = max(1, number(argument))
      case "--no-baseline": baseline = false
      case "--no-full": full = false
      case "--corpus-file": corpusFiles = [value(argument)]
      case "--write-corpus": writeCorpus = value(argument)
      case "--file": files.append(value(argument))
      case "--hostile": hostile = true
      case "--hostile-bytes": hostileBytes = max(1000, number(argument))
      case "--hostile-shape": hostileFilter = value(argument)
      case "--write-hostile": writeHostile = value(argument)
      case "-h", "--help":
        print(
          "usage: push-transcode-bench [--size-mb N] [--seed N] [--rounds N] "
            + "[--baseline-rounds N] [--full-rounds N] [--no-baseline] [--no-full] "
            + "[--corpus-file NDJSON] [--file NDJSON]... [--write-corpus FILE]\n"
            + "       push-transcode-bench --hostile [--hostile-bytes N] [--hostile-shape TEXT] "
            + "[--rounds N] [--write-hostile DIR]")
        exit(0)
      default: fail("unknown argument \(argument)")
      }
    }
  }
}

func fail(_ message: String) -> Never {
  FullRunScratch.cleanUp()
  FileHandle.standardError.write(Data("push-transcode-bench: \(message)\n".utf8))
  exit(64)
}

func seconds(_ duration: Duration) -> Double {
  let (whole, attoseconds) = duration.components
  return Double(whole) + Double(attoseconds) * 1e-18
}

func note(_ message: String) {
  FileHandle.standardError.write(Data((message + "\n").utf8))
}

struct Row {
  var corpus: String
  var workload: Workload
  var megabytes: Double
  var lines: Int
  var best: Double
  var mbPerSecond: Double { megabytes / best }
}

// The full runs measure the command's process: the allocator tuned as `push-transcode` tunes it
// (`ProcessSettings` in the CLI; the library leaves the process's settings alone).
_ = mallopt(M_MMAP_THRESHOLD, 1 << 20)
let options = Options(CommandLine.arguments)
if options.hostile {
  HostileBench.run(
    smallBytes: options.hostileBytes, rounds: options.rounds, filter: options.hostileFilter,
    writeDirectory: options.writeHostile)
  exit(0)
}
var workloads = Workload.all(
  rounds: options.rounds, baselineRounds: options.baselineRounds, fullRounds: options.fullRounds,
  allCores: RunConfiguration.defaultThreads)
if !options.baseline { workloads.removeAll { $0.name.hasPrefix("JSONSerialization") } }
if !options.full { workloads.removeAll { $0.subset == .file } }

// The corpora: the generated one first, then the bundled sample (`--corpus-file`), then `--file`s.
var corpora: [LineCorpus] = []
let clock = ContinuousClock()
let generationStart = clock.now
var generator = CorpusGenerator(seed: options.seed)
let generated = generator.generate(bytes: Int(options.sizeMB * 1_000_000))
let generationTime = seconds(clock.now - generationStart)
if let path = options.writeCorpus {
  guard FileManager.default.createFile(atPath: path, contents: Data(generated)) else {
    fail("cannot write \(path)")
  }
}
if !generated.isEmpty {
  corpora.append(
    LineCorpus(name: "generated (seed \(options.seed), \(options.sizeMB) MB)", bytes: generated))
  FileHandle.standardError.write(
    Data("generated \(generated.count) bytes in \(String(format: "%.2f", generationTime)) s\n".utf8)
  )
}
for path in options.corpusFiles + options.files {
  guard let corpus = LineCorpus.load(path: path) else { fail("cannot read \(path)") }
  corpora.append(corpus)
}
// Every corpus also as a file in the scratch directory, the input of the full runs.
if options.full {
  for index in corpora.indices {
    let path = FullRunScratch.root + "/corpus-\(index).ndjson"
    guard FileManager.default.createFile(atPath: path, contents: Data(corpora[index].bytes)) else {
      fail("cannot write \(path)")
    }
    corpora[index].file = path
  }
}

var rows: [Row] = []
for corpus in corpora {
  // Check before timing: the tokenizer and JSONSerialization must agree line by line. Lines
  // where they differ (JSONSerialization is laxer in places) are reported and left out of both
  // timings, so that both time the same work.
  var timed = corpus
  if options.baseline {
    var tokenizer = JSONTokenizer()
    var disagreements: [Int] = []
    corpus.forEachLine { index, line in
      if (tokenizer.parse(line) == nil) != foundationAccepts(line) { disagreements.append(index) }
    }
    if !disagreements.isEmpty {
      let excluded = Set(disagreements)
      FileHandle.standardError.write(
        Data(
          ("\(corpus.name): \(disagreements.count) line(s) where the tokenizer and "
            + "JSONSerialization disagree are excluded (first: line index \(disagreements[0]))\n")
            .utf8))
      timed = corpus.keeping { !excluded.contains($0) }
    }
  }
  guard !timed.lines.isEmpty else { continue }

  // The push-text comparison runs on the Tencent lines (SPEC 3.1; the sample's Easemob lines
  // are left out of it). Check line by line that the apns transcode pushes exactly the lines
  // JSONSerialization computes a body for.
  var tencent = timed
  if options.baseline {
    var tencentIndices = Set<Int>()
    timed.forEachLine { index, line in if foundationIsTencent(line) { tencentIndices.insert(index) }
    }
    if tencentIndices.count < timed.lines.count {
      note(
        "\(corpus.name): \(timed.lines.count - tencentIndices.count) non-Tencent line(s) left out "
          + "of the push-text comparison")
      tencent = timed.keeping { tencentIndices.contains($0) }
    }
    var apnsOptions = TranscodeOptions()
    apnsOptions.vendors = [.apns]
    var processor = LineProcessor(options: apnsOptions, directory: NameDirectory())
    var output = ChunkOutput(sequence: 0, source: SourceName("bench"))
    var mismatches: [(Int, String)] = []
    tencent.forEachLine { index, line in
      let before = output.stats.transcoded
      processor.process(line: line, number: index + 1, into: &output)
      let pushed = output.stats.transcoded > before
      let expected = foundationPushBody(line)
      if pushed != (expected != nil) {
        mismatches.append((index, "transcode \(pushed ? "pushes" : "does not push") it"))
      } else if let expected {
        // The text as well: the alert's body is the push text, or a grapheme prefix of it
        // with `…` when the 4 KB budget cut it (SPEC 5).
        let alert = apnsAlertBody(firstRecordOf: output.main.buffer)
        if !(alert.map { isPushText($0, of: expected) } ?? false) {
          mismatches.append((index, "alert body \(alert.map { String($0.prefix(80)) } ?? "none")"))
        }
      }
      output.main.truncate(to: 0)
      output.rejects.truncate(to: 0)
    }
    if let (index, what) = mismatches.first {
      let range = tencent.lines[index]
      let text = String(decoding: tencent.bytes[range].prefix(300), as: UTF8.self)
      fail(
        "\(corpus.name): the apns transcode and the JSONSerialization push text disagree on "
          + "\(mismatches.count) line(s); first (\(what)): \(text)")
    }
  }

  var outcomes: [String: Outcome] = [:]
  for workload in workloads {
    let input: LineCorpus
    switch workload.subset {
    case .agreed: input = timed
    case .tencent: input = tencent
    case .file: input = corpus
    }
    guard !input.lines.isEmpty else { continue }
    let pass = workload.prepare()
    let start = clock.now
    let outcome = pass(input)  // the check pass, which also warms caches
    var best = workload.timesCheckPass ? seconds(clock.now - start) : Double.infinity
    if let other = outcomes[workload.check], other != outcome {
      fail(
        "\(corpus.name): \(workload.name) (\(workload.threads) threads) gave \(outcome), "
          + "its check group \"\(workload.check)\" gave \(other)")
    }
    outcomes[workload.check] = outcome
    for _ in 0..<(workload.timesCheckPass ? workload.rounds - 1 : workload.rounds) {
      let start = clock.now
      let again = pass(input)
      best = min(best, seconds(clock.now - start))
      if again != outcome { fail("\(workload.name) is not deterministic") }
    }
    let megabytes =
      workload.subset == .file ? Double(input.bytes.count) / 1e6 : Double(input.lineBytes) / 1e6
    rows.append(
      Row(
        corpus: corpus.name, workload: workload, megabytes: megabytes,
        lines: input.lines.count, best: best))
    note(
      String(
        format: "%@: %@ (%d threads): %.3f s", corpus.name, workload.name, workload.threads, best))
  }
  if let full = outcomes["full"], let all = outcomes["all"], corpus.lines.count == timed.lines.count
  {
    // The full runs' stats against the in-memory all-vendor transcode of the same lines.
    let transcoded = "\"transcoded\":\(all.accepted),"
    if !full.detail.contains(transcoded) {
      fail(
        "\(corpus.name): full runs and the 9-vendor transcode disagree: \(full.detail) vs \(all)")
    }
  }
}
FullRunScratch.cleanUp()

print("| corpus | workload | threads | MB | lines | best s | MB/s | msgs/s | vs baseline |")
print("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
for row in rows {
  var ratio = ""
  if let baseline = row.workload.baseline,
    let other = rows.first(where: { $0.corpus == row.corpus && $0.workload.name == baseline })
  {
    ratio = String(format: "%.1f× %@", row.mbPerSecond / other.mbPerSecond, baseline)
  }
  print(
    String(
      format: "| %@ | %@ | %d | %.1f | %d | %.3f | %.1f | %.0f | %@ |", row.corpus,
      row.workload.name, row.workload.threads, row.megabytes, row.lines, row.best,
      row.mbPerSecond, Double(row.lines) / row.best, ratio))
}
