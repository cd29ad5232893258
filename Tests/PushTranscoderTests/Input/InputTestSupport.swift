import Foundation
import Testing

@testable import PushTranscoder

/// A temporary directory removed when the value is deinitialised.
final class TemporaryDirectory {
  let url: URL

  init() {
    url = FileManager.default.temporaryDirectory.appendingPathComponent(
      "push-transcode-tests-\(UUID().uuidString)")
    try! FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  }

  deinit { try? FileManager.default.removeItem(at: url) }

  /// Writes `bytes` to `name` and returns the path.
  @discardableResult
  func write(_ name: String, _ bytes: [UInt8]) -> String {
    let path = url.appendingPathComponent(name).path
    _ = FileManager.default.createFile(atPath: path, contents: Data(bytes))
    return path
  }

  func write(_ name: String, _ text: String) -> String { write(name, Array(text.utf8)) }

  func path(_ name: String) -> String { url.appendingPathComponent(name).path }
}

/// One line as the consumer sees it, whichever path (chunk or over-long event) it took.
enum SeenLine: Equatable, CustomStringConvertible {
  case line(source: String, number: Int, bytes: [UInt8])
  case tooLong(source: String, number: Int, prefix: [UInt8], length: Int)

  var description: String {
    switch self {
    case .line(let source, let number, let bytes):
      "\(source):\(number) \(String(decoding: bytes.prefix(40), as: UTF8.self))"
    case .tooLong(let source, let number, let prefix, let length):
      "\(source):\(number) too long (\(length), prefix \(prefix.count))"
    }
  }

  var text: String? {
    if case .line(_, _, let bytes) = self { return String(decoding: bytes, as: UTF8.self) }
    return nil
  }
}

/// Everything a reader yields, until the end or its fatal error.
struct Collected {
  var lines: [SeenLine] = []
  var chunks: [LineChunk] = []
  var overlong: [OverlongLine] = []
  var sequences: [Int] = []
  var error: InputError?

  var texts: [String] { lines.compactMap(\.text) }
}

func collect(_ reader: ChunkReader, keepChunks: Bool = true) -> Collected {
  var result = Collected()
  do {
    while let event = try reader.next() {
      result.sequences.append(event.sequence)
      switch event {
      case .chunk(let chunk):
        if keepChunks { result.chunks.append(chunk) }
      case .overlongLine(let long):
        result.overlong.append(long)
      }
      result.lines += seenLines(of: event)
    }
  } catch {
    result.error = error
  }
  return result
}

/// The lines an event holds, as `collect` records them: a chunk's lines (those over the limit
/// as too long), or the over-long line.
func seenLines(of event: InputEvent) -> [SeenLine] {
  switch event {
  case .chunk(let chunk):
    var lines: [SeenLine] = []
    var iterator = chunk.makeLineIterator()
    while let line = iterator.next() {
      if let long = chunk.overlongLine(line) {
        lines.append(
          .tooLong(
            source: long.source, number: long.lineNumber, prefix: long.prefix,
            length: long.length))
      } else {
        lines.append(.line(source: chunk.source, number: line.number, bytes: Array(line.bytes)))
      }
    }
    return lines
  case .overlongLine(let long):
    return [
      .tooLong(
        source: long.source, number: long.lineNumber, prefix: long.prefix, length: long.length)
    ]
  }
}

/// Deterministic NDJSON-ish lines of varying length.
func sampleLines(_ count: Int, seed: UInt64 = 1) -> [String] {
  var state = seed
  var lines: [String] = []
  lines.reserveCapacity(count)
  for index in 0..<count {
    state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
    let padding = Int((state >> 33) % 300)
    lines.append(
      "{\"n\":\(index),\"text\":\"\(String(repeating: "x", count: padding))\",\"zh\":\"你好\"}")
  }
  return lines
}

/// Runs a command-line tool and returns its exit status (stdout and stderr discarded).
@discardableResult
func run(_ tool: String, _ arguments: [String], stdin: String? = nil, stdout: String? = nil)
  throws -> Int32
{
  let process = Process()
  process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
  process.arguments = [tool] + arguments
  if let stdin { process.standardInput = FileHandle(forReadingAtPath: stdin) }
  if let stdout {
    _ = FileManager.default.createFile(atPath: stdout, contents: nil)
    process.standardOutput = FileHandle(forWritingAtPath: stdout)
  } else {
    process.standardOutput = FileHandle.nullDevice
  }
  process.standardError = FileHandle.nullDevice
  try process.run()
  process.waitUntilExit()
  return process.terminationStatus
}

func readBytes(_ path: String) -> [UInt8] {
  Array(FileManager.default.contents(atPath: path) ?? Data())
}
