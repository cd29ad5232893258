import Foundation
import Testing

@testable import PushTranscoder

/// Parses `bytes` with a fresh tokenizer and returns its verdict (nil when accepted).
func tokenize(_ bytes: [UInt8], replaceLoneSurrogates: Bool = false) -> JSONError? {
  var tokenizer = JSONTokenizer(replaceLoneSurrogates: replaceLoneSurrogates)
  return bytes.withUnsafeBufferPointer { tokenizer.parse($0) }
}

/// Parses a UTF-8 string literal.
func tokenize(_ text: String) -> JSONError? {
  tokenize(Array(text.utf8))
}

/// Parses `bytes` and returns the tape, or records an issue and returns [] on a fault.
func tape(_ bytes: [UInt8], sourceLocation: SourceLocation = #_sourceLocation) -> [JSONToken] {
  var tokenizer = JSONTokenizer()
  let error = bytes.withUnsafeBufferPointer { tokenizer.parse($0) }
  #expect(error == nil, "unexpected \(String(describing: error))", sourceLocation: sourceLocation)
  return error == nil ? tokenizer.tokens : []
}

/// Parses `text` and rewrites its root value canonically with `JSONWriter.value`.
func canonical(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) -> String? {
  canonical(Array(text.utf8), sourceLocation: sourceLocation)
}

func canonical(_ bytes: [UInt8], sourceLocation: SourceLocation = #_sourceLocation) -> String? {
  var tokenizer = JSONTokenizer()
  return bytes.withUnsafeBufferPointer { buffer -> String? in
    if let error = tokenizer.parse(buffer) {
      Issue.record("unexpected \(error)", sourceLocation: sourceLocation)
      return nil
    }
    var writer = JSONWriter()
    tokenizer.withDocument(buffer) { writer.value($0, $0.root) }
    return String(decoding: writer.bytes, as: UTF8.self)
  }
}

/// `../shared/conformance/JSONTestSuite/test_parsing` next to the package root, found from this
/// file's path (Tests/PushTranscoderTests/JSON/ is three levels below the root).
enum JSONTestSuiteFiles {
  static let directory: URL = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent()  // JSON
    .deletingLastPathComponent()  // PushTranscoderTests
    .deletingLastPathComponent()  // Tests
    .deletingLastPathComponent()  // package root
    .appendingPathComponent("../shared/conformance/JSONTestSuite/test_parsing")
    .standardizedFileURL

  static var isAvailable: Bool {
    var isDirectory: ObjCBool = false
    return FileManager.default.fileExists(atPath: directory.path, isDirectory: &isDirectory)
      && isDirectory.boolValue
  }

  /// The names of the files starting with `prefix` (`y_`, `n_`, `i_`), sorted.
  static func names(_ prefix: String) -> [String] {
    let all = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
    return all.filter { $0.hasPrefix(prefix) && $0.hasSuffix(".json") }.sorted()
  }

  static func contents(_ name: String) throws -> [UInt8] {
    Array(try Data(contentsOf: directory.appendingPathComponent(name)))
  }
}
