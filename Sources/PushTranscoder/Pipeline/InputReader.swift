/// Adapts `ChunkReader` events to the pipeline's work items, naming each source once.
final class InputReader: @unchecked Sendable {
  // Safe because `next()` is only called from the pipeline's reader queue.
  private let reader: ChunkReader
  private var names: [Int: SourceName] = [:]
  /// The pieces of the current chunk not handed out yet.
  private var pending: [WorkItem] = []
  private var pendingIndex = 0

  /// The most a work item covers: a chunk (`--chunk-bytes`, 4 MiB by default, read with few
  /// system calls) goes to the workers in pieces of about 1 MiB cut at line boundaries, so that
  /// a piece and the records rendered from it stay in a core's cache (all nine vendors write
  /// about three times the input), and the two cores share the work in finer steps.
  static let workItemBytes = 1 << 20

  init(paths: [String], chunkBytes: Int, maxLineBytes: Int) throws {
    reader = ChunkReader(paths: paths, chunkBytes: chunkBytes, maxLineBytes: maxLineBytes)
    reader.pieceBytes = Self.workItemBytes
  }

  /// The total input size when every input is a regular file (for the ETA).
  var totalBytes: Int? { reader.progress.totalBytes.map { Int($0) } }

  func next() throws -> WorkItem? {
    if pendingIndex < pending.count {
      defer { pendingIndex += 1 }
      return pending[pendingIndex]
    }
    guard let event = try reader.next() else { return nil }
    switch event {
    case .chunk(let chunk):
      let source = name(chunk.sourceIndex, chunk.source)
      pending.removeAll(keepingCapacity: true)
      for piece in chunk.pieces.dropFirst() {
        pending.append(.lines(ChunkBatch(chunk: chunk, piece: piece, source: source)))
      }
      pendingIndex = 0
      return .lines(ChunkBatch(chunk: chunk, piece: chunk.pieces[0], source: source))
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

/// One piece of a `LineChunk` (which it keeps alive) with its pre-escaped source name.
struct ChunkBatch: LineBatch {
  let chunk: LineChunk
  let piece: LineChunk.Piece
  let source: SourceName

  func forEachLine(_ body: (UnsafeBufferPointer<UInt8>, Int) -> Void) {
    chunk.forEachLine(of: piece) { line, number in body(line, number) }
  }

  var byteCount: Int { piece.end - piece.start }
}
