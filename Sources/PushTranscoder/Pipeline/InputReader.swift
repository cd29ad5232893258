/// Adapts `ChunkReader` events to the pipeline's work items, naming each source once.
final class InputReader: @unchecked Sendable {
  // Safe because `next()` is only called from the pipeline's reader queue.
  private let reader: ChunkReader
  private var names: [Int: SourceName] = [:]
  /// The batches of the current chunk not handed out yet.
  private var pending: [WorkItem] = []
  private var pendingIndex = 0

  /// With one thread, a chunk's buffer (`--chunk-bytes`, 4 MiB by default) is read in pieces of
  /// about 256 KiB, and the whole lines of each piece are processed at once, on the same core,
  /// while the copy `read(2)` made is still in its L2, not after the whole chunk went through
  /// it. With more threads the reader runs on a core of its own, the lines reach a worker
  /// through the shared cache either way, and smaller work items only cost: the in-flight
  /// window (`threads + 2` items) would hold less work (docs/DECISIONS.md [6.7, 7]).
  static let pieceBytes = 256 << 10
  /// The most a work item covers otherwise: a chunk goes to the workers in batches of about
  /// 1 MiB cut at line boundaries, so that a batch and the records rendered from it stay near
  /// a core (all nine vendors write about three times the input), and the cores share the work
  /// in finer steps.
  static let workItemBytes = 1 << 20

  /// Reads `paths`; `inPieces` when the run has one thread.
  init(paths: [String], chunkBytes: Int, maxLineBytes: Int, inPieces: Bool) throws {
    reader = ChunkReader(paths: paths, chunkBytes: chunkBytes, maxLineBytes: maxLineBytes)
    if inPieces { reader.pieceBytes = Self.pieceBytes }
    reader.batchBytes = Self.workItemBytes
  }

  /// The input bytes read so far and, when every input is a regular file, their total (for the
  /// progress line's share and ETA).
  var progress: InputProgress { reader.progress }

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
      for batch in chunk.batches.dropFirst() {
        pending.append(.lines(ChunkLineBatch(chunk: chunk, batch: batch, source: source)))
      }
      pendingIndex = 0
      return .lines(ChunkLineBatch(chunk: chunk, batch: chunk.batches[0], source: source))
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

/// One batch of a `LineChunk` (which it keeps alive) with its pre-escaped source name.
struct ChunkLineBatch: LineBatch {
  let chunk: LineChunk
  let batch: LineChunk.Batch
  let source: SourceName

  func forEachLine(_ body: (UnsafeBufferPointer<UInt8>, Int) -> Void) {
    chunk.forEachLine(of: batch) { line, number in body(line, number) }
  }

  var byteCount: Int { batch.end - batch.start }
}
