// push-transcode-bench: MB/s of the project's workloads on a seeded generated corpus and on
// every `Corpus/*.ndjson` file, with Foundation's JSONSerialization as the in-run baseline
// (SPEC 8). Outputs are checked against each other before anything is timed.
//
//   swift run -c release push-transcode-bench [--size-mb 64] [--seed 1] [--rounds 5]
//     [--baseline-rounds 1] [--no-baseline] [--corpus-dir Corpus] [--file NDJSON]...
//     [--write-corpus FILE]
//
// `--file` adds an NDJSON file (e.g. one from ../shared/bench/gen_corpus.py); `--write-corpus`
// saves the generated corpus; `--size-mb 0` skips generating one.

import Foundation
import PushTranscoder

struct Options {
  var sizeMB = 64.0
  var seed: UInt64 = 1
  var rounds = 5
  var baselineRounds = 1
  var baseline = true
  var corpusDirectory = "Corpus"
  var writeCorpus: String? = nil
  var files: [String] = []

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
      case "--no-baseline": baseline = false
      case "--corpus-dir": corpusDirectory = value(argument)
      case "--write-corpus": writeCorpus = value(argument)
      case "--file": files.append(value(argument))
      case "-h", "--help":
        print(
          "usage: push-transcode-bench [--size-mb N] [--seed N] [--rounds N] "
            + "[--baseline-rounds N] [--no-baseline] [--corpus-dir DIR] [--file NDJSON]... "
            + "[--write-corpus FILE]")
        exit(0)
      default: fail("unknown argument \(argument)")
      }
    }
  }
}

func fail(_ message: String) -> Never {
  FileHandle.standardError.write(Data("push-transcode-bench: \(message)\n".utf8))
  exit(64)
}

func seconds(_ duration: Duration) -> Double {
  let (whole, attoseconds) = duration.components
  return Double(whole) + Double(attoseconds) * 1e-18
}

struct Row {
  var corpus: String
  var workload: Workload
  var megabytes: Double
  var lines: Int
  var best: Double
  var mbPerSecond: Double { megabytes / best }
}

let options = Options(CommandLine.arguments)
var workloads = Workload.all(rounds: options.rounds, baselineRounds: options.baselineRounds)
if !options.baseline { workloads.removeAll { $0.name == "JSONSerialization" } }

// The corpora: the generated one first, then every Corpus/*.ndjson.
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
let files =
  ((try? FileManager.default.contentsOfDirectory(atPath: options.corpusDirectory)) ?? [])
  .filter { $0.hasSuffix(".ndjson") }.sorted()
for path in files.map({ options.corpusDirectory + "/" + $0 }) + options.files {
  guard let corpus = LineCorpus.load(path: path) else { fail("cannot read \(path)") }
  corpora.append(corpus)
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

  var outcomes: [String: Outcome] = [:]
  for workload in workloads {
    let pass = workload.prepare()
    let outcome = pass(timed)  // the check pass, which also warms caches
    if let other = outcomes[workload.check], other != outcome {
      fail("\(corpus.name): \(workload.name) gave \(outcome), its check group gave \(other)")
    }
    outcomes[workload.check] = outcome
    var best = Double.infinity
    for _ in 0..<workload.rounds {
      let start = clock.now
      let again = pass(timed)
      best = min(best, seconds(clock.now - start))
      precondition(again == outcome, "\(workload.name) is not deterministic")
    }
    rows.append(
      Row(
        corpus: corpus.name, workload: workload, megabytes: Double(timed.lineBytes) / 1e6,
        lines: timed.lines.count, best: best))
  }
}

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
