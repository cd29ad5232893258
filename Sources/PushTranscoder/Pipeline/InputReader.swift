/// Adapts `ChunkReader` events to the pipeline's work items, naming each source once.
final class InputReader: @unchecked Sendable {
  // Safe because `next()` is only called from the pipeline's reader queue.
  private let reader: ChunkReader
  private var names: [Int: SourceName] = [:]

  init(paths: [String], chunkBytes: Int, maxLineBytes: Int) throws {
    reader = ChunkReader(paths: paths, chunkBytes: chunkBytes, maxLineBytes: maxLineBytes)
  }

  /// The total input size when every input is a regular file (for the ETA).
  var totalBytes: Int? { reader.progress.totalBytes.map { Int($0) } }

  func next() throws -> WorkItem? {
    guard let event = try reader.next() else { return nil }
    switch event {
    case .chunk(let chunk):
      return .lines(ChunkBatch(chunk: chunk, source: name(chunk.sourceIndex, chunk.source)))
    case .overlongLine(let line):
      return .oversized(
        source: name(line.sourceIndex, line.source), line: line.lineNumber, prefix: line.prefix,
        totalLength: line.length)
    }
  }

  private func name(_ index: Int, _ path: String) -> SourceName {
    if let name = names[index] { return name }
    let name = SourceName(path)
    names[index] = name
    return name
  }
}

/// A `LineChunk` with its pre-escaped source name.
struct ChunkBatch: LineBatch {
  let chunk: LineChunk
  let source: SourceName

  func forEachLine(_ body: (UnsafeBufferPointer<UInt8>, Int) -> Void) {
    chunk.forEachLine { line, number in body(line, number) }
  }

  var byteCount: Int { chunk.byteCount }
}
