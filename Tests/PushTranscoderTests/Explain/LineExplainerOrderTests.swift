import Foundation
import Testing

@testable import PushTranscoder

/// `LineExplainer` hands out explanations in the order the lines were asked for, from one read
/// of the input, each as soon as its turn comes (`ExplanationTurns`).
@Suite struct LineExplainerOrderTests {
  /// Three one-line messages, `text 1`..., as the file `messages.ndjson` in `dir`.
  static func messages(in dir: TemporaryDirectory) -> String {
    let lines = (1...3).map { index in
      #"{"From_Account":"u","To_Account":"r","MsgKey":"k\#(index)","MsgBody":[{"MsgType":"TIMTextElem","MsgContent":{"Text":"text \#(index)"}}]}"#
    }
    return dir.write("messages.ndjson", lines.joined(separator: "\n") + "\n")
  }

  /// Out of order and repeated: each in its turn, a repeat as often as asked.
  @Test func explanationsComeInTheOrderAsked() throws {
    let dir = TemporaryDirectory()
    let path = Self.messages(in: dir)
    var delivered: [Int] = []
    try LineExplainer.explain(
      input: path, lines: [3, 1, 3, 2, 2], options: TranscodeOptions(), directories: []
    ) { explanation in
      delivered.append(explanation.number)
      #expect(explanation.key == "k\(explanation.number)")
      return true
    }
    #expect(delivered == [3, 1, 3, 2, 2])
  }

  /// A line past the end is found missing once the input ends, after the lines before it in
  /// the list were delivered; the lines after it are not.
  @Test func aLinePastTheEndIsReportedAfterTheLinesBeforeIt() throws {
    let dir = TemporaryDirectory()
    let path = Self.messages(in: dir)
    var delivered: [Int] = []
    #expect {
      try LineExplainer.explain(
        input: path, lines: [1, 2, 9, 3], options: TranscodeOptions(), directories: []
      ) { explanation in
        delivered.append(explanation.number)
        return true
      }
    } throws: { error in
      (error as? ExplainError).map { $0.isUsage && $0.description.hasSuffix("has no line 9") }
        ?? false
    }
    #expect(delivered == [1, 2])
  }

  /// The caller stops the walk (a closed output): nothing more is delivered, and no line is
  /// reported missing.
  @Test func theCallerCanStop() throws {
    let dir = TemporaryDirectory()
    let path = Self.messages(in: dir)
    var delivered: [Int] = []
    try LineExplainer.explain(
      input: path, lines: [1, 2, 99], options: TranscodeOptions(), directories: []
    ) { explanation in
      delivered.append(explanation.number)
      return false
    }
    #expect(delivered == [1])
  }
}
