import Foundation
import PushTranscoder

/// What one pass of a workload over a corpus produced. Workloads of the same `check` group
/// must produce the same `accepted` count before any of them is timed (SPEC 8).
struct Outcome: Equatable {
  var accepted = 0
  var rejected = 0
  /// Anything else the group must agree on (records; a full run's stats JSON).
  var detail = ""
}

/// Which lines of a corpus a workload runs on.
enum Subset {
  /// The lines the tokenizer and JSONSerialization agree on.
  case agreed
  /// Of those, the Tencent lines (the push-text comparison; SPEC 3.1).
  case tencent
  /// The whole corpus file through `Runner.run`.
  case file
}

/// One measured task (tokenize, transcode or a full run), next to its baseline when it has one.
struct Workload {
  /// Shown in the table.
  var name: String
  /// Workloads whose outcomes must agree (e.g. a task and its Foundation baseline).
  var check: String
  /// The name of the workload this one is compared with (its ratio column), if any.
  var baseline: String?
  var threads: Int
  /// Timed rounds; the best one is reported (the least disturbed by other processes).
  var rounds: Int
  /// True when the check pass is also a timed round (full runs, too slow to repeat).
  var timesCheckPass = false
  var subset = Subset.agreed
  /// Builds the per-run state and returns the pass to time.
  var prepare: () -> (LineCorpus) -> Outcome
}

extension Workload {
  /// The tokenizer alone: UTF-8 validation, full JSON validation and the tape (SPEC 2.2).
  static func tokenize(rounds: Int) -> Workload {
    Workload(
      name: "tokenize", check: "json", baseline: "JSONSerialization", threads: 1,
      rounds: rounds
    ) {
      var tokenizer = JSONTokenizer()
      return { corpus in
        var outcome = Outcome()
        corpus.forEachLine { _, line in
          if tokenizer.parse(line) == nil { outcome.accepted += 1 } else { outcome.rejected += 1 }
        }
        return outcome
      }
    }
  }

  /// Foundation's `JSONSerialization` parsing the same lines: the baseline.
  static func jsonSerialization(rounds: Int) -> Workload {
    Workload(name: "JSONSerialization", check: "json", baseline: nil, threads: 1, rounds: rounds) {
      { corpus in
        var outcome = Outcome()
        corpus.forEachLine { _, line in
          if foundationAccepts(line) { outcome.accepted += 1 } else { outcome.rejected += 1 }
        }
        return outcome
      }
    }
  }

  static func all(rounds: Int, baselineRounds: Int, fullRounds: Int, allCores: Int) -> [Workload] {
    var list = [tokenize(rounds: rounds), jsonSerialization(rounds: baselineRounds)]
    var apns = transcode(
      name: "transcode apns", vendors: [.apns], check: "push",
      baseline: "JSONSerialization push text", rounds: rounds)
    apns.subset = .tencent
    var push = jsonSerializationPush(rounds: baselineRounds)
    push.subset = .tencent
    list += [
      apns, push,
      transcode(
        name: "transcode 9 vendors", vendors: VendorID.allCases, check: "all", baseline: nil,
        rounds: rounds),
    ]
    for threads in Array(Set([1, allCores])).sorted() {
      for compression in [OutputCompression.none, .lz4, .gzip] {
        var run = fullRun(compression: compression, threads: threads, rounds: fullRounds)
        run.subset = .file
        list.append(run)
      }
    }
    return list
  }
}

/// Whether `JSONSerialization` parses `line` (top-level scalars allowed, as for the tokenizer).
func foundationAccepts(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
  guard let base = line.baseAddress else { return false }
  // Safe because the Data does not outlive this call and never frees the borrowed bytes.
  let data = Data(
    bytesNoCopy: UnsafeMutableRawPointer(mutating: base), count: line.count, deallocator: .none)
  return (try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])) != nil
}
