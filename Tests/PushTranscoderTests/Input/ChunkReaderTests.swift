import Foundation
import Testing

@testable import PushTranscoder

@Suite struct ChunkReaderTests {
  @Test func plainFileYieldsLinesWithoutTerminators() throws {
    let dir = TemporaryDirectory()
    let path = dir.write("a.ndjson", "{\"a\":1}\r\n\n   \t\n{\"b\":\"x\ry\"}\n\r\r\nlast")
    let seen = collect(ChunkReader(paths: [path]))
    #expect(seen.error == nil)
    #expect(seen.texts == ["{\"a\":1}", "", "   \t", "{\"b\":\"x\ry\"}", "\r", "last"])
    #expect(seen.lines.first == .line(source: path, number: 1, bytes: Array("{\"a\":1}".utf8)))
    #expect(seen.chunks.count == 1)
    let chunk = try #require(seen.chunks.first)
    #expect(chunk.lineCount == 6 && chunk.firstLine == 1 && chunk.sourceOffset == 0)
    #expect(chunk.sequence == 0 && chunk.sourceIndex == 0 && chunk.maxLineBytes == 16 << 20)
  }

  @Test func finalCarriageReturnWithoutNewlineStaysInTheLine() {
    let dir = TemporaryDirectory()
    let path = dir.write("a", "a\nb\r")
    #expect(collect(ChunkReader(paths: [path])).texts == ["a", "b\r"])
  }

  @Test func byteOrderMarkIsSkippedAndCountsInTheOffset() throws {
    let dir = TemporaryDirectory()
    let path = dir.write("bom", [0xEF, 0xBB, 0xBF] + Array("{}\n{}\n".utf8))
    let seen = collect(ChunkReader(paths: [path]))
    #expect(seen.texts == ["{}", "{}"])
    #expect(try #require(seen.chunks.first).sourceOffset == 3)
    // Only at the very start: a BOM later in the file is line content.
    let later = dir.write("later", Array("{}\n".utf8) + [0xEF, 0xBB, 0xBF] + Array("x\n".utf8))
    #expect(collect(ChunkReader(paths: [later])).lines.count == 2)
    #expect(collect(ChunkReader(paths: [later])).lines[1].text == "\u{FEFF}x")
  }

  @Test func emptyFilesAndBareByteOrderMarkYieldNothing() {
    let dir = TemporaryDirectory()
    let empty = dir.write("empty", [])
    let bom = dir.write("bom", [0xEF, 0xBB, 0xBF])
    let seen = collect(ChunkReader(paths: [empty, bom]))
    #expect(seen.error == nil && seen.lines.isEmpty && seen.sequences.isEmpty)
  }

  @Test func manyFilesAreNumberedIndependentlyAndNeverShareAChunk() {
    let dir = TemporaryDirectory()
    let paths = (0..<5).map { dir.write("f\($0)", "a\($0)\nb\($0)\n") }
    let seen = collect(ChunkReader(paths: paths))
    #expect(seen.lines.count == 10)
    for (index, path) in paths.enumerated() {
      #expect(
        seen.lines[2 * index] == .line(source: path, number: 1, bytes: Array("a\(index)".utf8)))
      #expect(
        seen.lines[2 * index + 1] == .line(source: path, number: 2, bytes: Array("b\(index)".utf8)))
      #expect(seen.chunks[index].sourceIndex == index && seen.chunks[index].source == path)
    }
    #expect(seen.sequences == [0, 1, 2, 3, 4])
  }

  @Test func missingFileIsAFatalErrorNamingIt() {
    let dir = TemporaryDirectory()
    let good = dir.write("good", "x\n")
    let seen = collect(ChunkReader(paths: [good, dir.path("missing")]))
    #expect(seen.texts == ["x"])
    #expect(seen.error?.reason == .cannotOpen)
    #expect(seen.error?.source == dir.path("missing"))
    #expect(seen.error?.sourceIndex == 1)
  }

  /// A path that opens but cannot be read (a directory): a fatal error after the inputs before
  /// it, worded for a plain input (bytes and lines, no "compressed" count).
  @Test func unreadableInputIsAFatalErrorWithPlainCounts() throws {
    let dir = TemporaryDirectory()
    let good = dir.write("good", "x\ny\n")
    let seen = collect(ChunkReader(paths: [good, dir.path("")]))
    #expect(seen.texts == ["x", "y"])
    let error = try #require(seen.error)
    #expect(error.reason == .readFailed && error.format == .plain && error.sourceIndex == 1)
    #expect(
      error.description == "\(dir.path("")): read failed after 0 bytes (0 complete lines): "
        + error.detail)
    #expect(!error.detail.isEmpty)
  }

  /// A file truncated in place while it is read (`logrotate`'s `copytruncate`) is a fatal
  /// `truncated` error once the reader meets its new end, not a short file read to its end:
  /// the complete lines read before are delivered, the partial one is not (as after a truncated
  /// compressed stream, SPEC 9 [2.1]), and the inputs after it are not read.
  @Test func aFileThatShrinksWhileItIsReadIsTruncated() throws {
    let dir = TemporaryDirectory()
    let lines = (0..<4000).map {
      "{\"line\":\($0),\"pad\":\"\(String(repeating: "p", count: 40))\"}"
    }
    let path = dir.write("rotated.ndjson", lines.joined(separator: "\n") + "\n")
    let after = dir.write("after.ndjson", "later\n")
    let reader = ChunkReader(paths: [path, after], chunkBytes: 64 << 10)
    var seen: [SeenLine] = []
    let first = try #require(try reader.next())
    seen += seenLines(of: first)
    // The reader has read a chunk or two of the 220 KB file; what is left of it is cut away.
    #expect(truncate(path, 1000) == 0)
    var failure: InputError? = nil
    do {
      while let event = try reader.next() { seen += seenLines(of: event) }
    } catch {
      failure = error
    }
    let error = try #require(failure)
    #expect(error.reason == .truncated && error.format == .plain && error.sourceIndex == 0)
    #expect(error.detail.contains("shrank while it was read"))
    let size = lines.reduce(0) { $0 + $1.utf8.count + 1 }
    #expect(error.detail.contains("(\(size) bytes when opened)"))
    let texts = seen.compactMap(\.text)
    #expect(!texts.isEmpty && texts.count < lines.count)
    #expect(texts == Array(lines.prefix(texts.count)))
    #expect(error.completeLines == texts.count)
    #expect(error.description.hasPrefix("\(path): truncated file after "))
    #expect(!texts.contains("later"))
  }

  /// A file that grows while it is read (a log still being written) is read to its new end,
  /// without an error.
  @Test func aFileThatGrowsWhileItIsReadIsReadToItsNewEnd() throws {
    let dir = TemporaryDirectory()
    let lines = (0..<4000).map { "line \($0) " + String(repeating: "g", count: 40) }
    let path = dir.write("growing.ndjson", lines.joined(separator: "\n") + "\n")
    let reader = ChunkReader(paths: [path], chunkBytes: 64 << 10)
    var seen = seenLines(of: try #require(try reader.next()))
    let handle = try #require(FileHandle(forWritingAtPath: path))
    handle.seekToEndOfFile()
    handle.write(Data("appended\n".utf8))
    try handle.close()
    while let event = try reader.next() { seen += seenLines(of: event) }
    #expect(seen.compactMap(\.text) == lines + ["appended"])
  }

  @Test func chunksCutAtLineBoundariesWithConsistentMetadata() throws {
    let dir = TemporaryDirectory()
    let lines = sampleLines(5000)
    let text = lines.joined(separator: "\n") + "\n"
    let path = dir.write("big", text)
    let seen = collect(ChunkReader(paths: [path], chunkBytes: 64 << 10))
    #expect(seen.texts == lines)
    #expect(seen.chunks.count > 5)
    var nextLine = 1
    var offset: UInt64 = 0
    for (index, chunk) in seen.chunks.enumerated() {
      #expect(chunk.sequence == index)
      #expect(chunk.firstLine == nextLine)
      #expect(chunk.sourceOffset == offset)
      chunk.withBytes { bytes in #expect(bytes.last == ASCII.newline) }
      nextLine += chunk.lineCount
      offset += UInt64(chunk.byteCount)
    }
    #expect(nextLine == lines.count + 1)
    #expect(offset == UInt64(text.utf8.count))
  }

  @Test func chunkSizesGiveTheSameLineSequence() {
    let dir = TemporaryDirectory()
    var lines = sampleLines(3000, seed: 7)
    // Lines over the 100 KiB limit: some fit in a chunk, some are far larger than 64 KiB.
    lines[10] = String(repeating: "a", count: 120_000)
    lines[500] = String(repeating: "b", count: 700_000)
    lines[501] = String(repeating: "c", count: 100 << 10)
    lines[502] = String(repeating: "d", count: (100 << 10) + 1)
    lines[2999] = String(repeating: "e", count: 300_000)
    let text = lines.joined(separator: "\r\n")
    let path = dir.write("mixed", text)
    let reference = collect(
      ChunkReader(paths: [path], chunkBytes: 4 << 20, maxLineBytes: 100 << 10))
    #expect(reference.error == nil)
    #expect(reference.lines.count == lines.count)
    guard case .tooLong(_, 11, let prefix, 120_000) = reference.lines[10] else {
      Issue.record("line 11 should be too long: \(reference.lines[10])")
      return
    }
    #expect(prefix.count == 100 << 10)
    #expect(reference.lines[501].text?.utf8.count == 100 << 10)
    for chunkBytes in [64 << 10, 100 << 10, 256 << 10, 1 << 20] {
      let seen = collect(
        ChunkReader(paths: [path], chunkBytes: chunkBytes, maxLineBytes: 100 << 10))
      #expect(seen.error == nil)
      #expect(seen.lines == reference.lines, "chunkBytes \(chunkBytes)")
      #expect(seen.sequences == Array(0..<seen.sequences.count))
    }
    let small = collect(ChunkReader(paths: [path], chunkBytes: 64 << 10, maxLineBytes: 100 << 10))
    // Lines far larger than the chunk take the event path; the others are flagged by length.
    #expect(small.overlong.map(\.lineNumber) == [501, 3000])
  }

  /// Pieces (`pieceBytes`) cut the staging buffer into chunks that share it while the reader
  /// goes on filling it: every chunk is held until the end and read only then, so a read into
  /// bytes a chunk covers (the over-long path's scratch, a carry, a grown buffer) would show as
  /// changed lines. Long lines span many pieces, and some are over the limit.
  @Test(arguments: [1, 4096, 65_536, Int.max])
  func piecesGiveTheSameLinesAndKeepTheirBytes(pieceBytes: Int) throws {
    let dir = TemporaryDirectory()
    var lines = sampleLines(3000, seed: 11)
    lines[0] = "\u{FEFF}" + lines[0]
    lines[10] = String(repeating: "a", count: 120_000)
    // Over the limit near the start of a fresh buffer, after pieces of it went out: the rest of
    // the line is read into scratch memory, which must not be that buffer.
    lines[20] = String(repeating: "g", count: 400_000)
    lines[500] = String(repeating: "b", count: 700_000)
    lines[501] = String(repeating: "c", count: 100 << 10)
    lines[502] = String(repeating: "d", count: (100 << 10) + 1)
    lines[1500] = String(repeating: "f", count: 90_000)
    lines[2999] = String(repeating: "e", count: 300_000)
    let path = dir.write("mixed", lines.joined(separator: "\r\n"))
    let reference = collect(
      ChunkReader(paths: [path], chunkBytes: 4 << 20, maxLineBytes: 100 << 10))
    for chunkBytes in [64 << 10, 256 << 10] {
      let reader = ChunkReader(paths: [path], chunkBytes: chunkBytes, maxLineBytes: 100 << 10)
      reader.pieceBytes = pieceBytes
      var events: [InputEvent] = []
      while let event = try reader.next() { events.append(event) }
      // Every chunk is read only now, after the reader has read everything.
      var seen: [SeenLine] = []
      var offset: UInt64 = 3
      for event in events {
        switch event {
        case .chunk(let chunk):
          #expect(chunk.sourceOffset == offset, "chunk \(chunk.sequence)")
          offset = chunk.sourceOffset + UInt64(chunk.byteCount)
        case .overlongLine(let long):
          offset = long.sourceOffset + UInt64(long.length) + 2
        }
        seen += seenLines(of: event)
      }
      #expect(seen.count == reference.lines.count, "chunkBytes \(chunkBytes)")
      let pairs = zip(seen, reference.lines).enumerated()
      let differing = pairs.first { $0.element.0 != $0.element.1 }?.offset
      #expect(differing == nil, "chunkBytes \(chunkBytes): line \(differing.map { $0 + 1 } ?? 0)")
      #expect(events.map(\.sequence) == Array(0..<events.count))
      if pieceBytes < chunkBytes / 2 {
        // The pieces did cut the buffers: more chunks than buffers' worth of input.
        #expect(events.count > reference.sequences.count)
      }
    }
  }

  /// A consumer that lets go of each chunk before asking for the next (one worker) gets every
  /// chunk from one buffer: the carry of a full buffer moves to its front instead of into a
  /// second buffer, so a run touches one chunk buffer's fresh pages, not two. The lines are
  /// those of a reader whose chunks are all held (which must use a fresh buffer each time).
  @Test func chunksLetGoOfAreReadIntoTheSameBufferAgain() throws {
    let dir = TemporaryDirectory()
    let lines = sampleLines(20_000, seed: 5)
    let path = dir.write("many", lines.joined(separator: "\n"))
    let chunkBytes = 64 << 10
    let held = collect(ChunkReader(paths: [path], chunkBytes: chunkBytes))
    #expect(held.chunks.count > 4)
    let reader = ChunkReader(paths: [path], chunkBytes: chunkBytes)
    var seen: [SeenLine] = []
    var starts: [UInt] = []
    while let event = try reader.next() {
      seen += seenLines(of: event)
      if case .chunk(let chunk) = event {
        chunk.withBytes { starts.append(UInt(bitPattern: $0.baseAddress)) }
      }
    }
    #expect(seen == held.lines)
    #expect(starts.count == held.chunks.count)
    // Each chunk starts in the buffer's carry room, before its read area (64 KiB).
    let spread = (starts.max() ?? 0) - (starts.min() ?? 0)
    #expect(spread < UInt(ChunkReader.standardHeadroom), "chunks in more than one buffer")
  }

  /// Chunks let go of in any order (workers finish out of order), some at once and some after
  /// later chunks came, keep their bytes until then: a buffer's carry moves into the buffer
  /// itself only once no chunk holds it. Each chunk's lines are read when it is let go of and
  /// compared with those of a reader whose chunks are read as they come. Two long lines make
  /// carries larger than a buffer's carry room and a buffer that grows.
  @Test(arguments: [1, 2, 3] as [UInt64])
  func chunksLetGoOfInAnyOrderKeepTheirBytes(seed: UInt64) throws {
    let dir = TemporaryDirectory()
    var lines = sampleLines(6000, seed: seed)
    lines[100] = String(repeating: "a", count: 90_000)
    lines[3000] = String(repeating: "b", count: 200_000)
    let path = dir.write("mixed", lines.joined(separator: "\n"))
    let reference = collect(
      ChunkReader(paths: [path], chunkBytes: 64 << 10, maxLineBytes: 1 << 20), keepChunks: false)
    var generator = SplitMix64(seed: seed)
    for pieceBytes in [4096, Int.max] {
      let reader = ChunkReader(paths: [path], chunkBytes: 64 << 10, maxLineBytes: 1 << 20)
      reader.pieceBytes = pieceBytes
      var held: [InputEvent] = []
      var seen: [Int: [SeenLine]] = [:]
      while let event = try reader.next() {
        held.append(event)
        held.removeAll { event in
          guard Bool.random(using: &generator) else { return false }
          seen[event.sequence] = seenLines(of: event)
          return true
        }
      }
      for event in held { seen[event.sequence] = seenLines(of: event) }
      let all = seen.keys.sorted().flatMap { seen[$0]! }
      #expect(all.count == reference.lines.count, "pieces of \(pieceBytes)")
      let differing = zip(all, reference.lines).enumerated().first { $0.element.0 != $0.element.1 }
      #expect(
        differing == nil, "pieces of \(pieceBytes): line \(differing.map { $0.offset + 1 } ?? 0)")
    }
  }

  @Test func lineExactlyAtTheLimitPassesAndOneOverIsTooLong() {
    let dir = TemporaryDirectory()
    let limit = 1000
    let exact = String(repeating: "x", count: limit)
    let over = String(repeating: "y", count: limit + 1)
    let path = dir.write("limit", "\(exact)\r\n\(over)\n\(exact)")
    let seen = collect(ChunkReader(paths: [path], maxLineBytes: limit))
    #expect(seen.lines.count == 3)
    #expect(seen.lines[0].text == exact)
    #expect(
      seen.lines[1]
        == .tooLong(
          source: path, number: 2, prefix: Array(over.utf8.prefix(limit)), length: limit + 1))
    #expect(seen.lines[2].text == exact)
  }

  @Test func lineAtTheLimitLongerThanTheChunkPassesOnTheLongPath() {
    // Limit 200 KiB > 64 KiB chunks: the line grows the buffer and passes whole.
    let dir = TemporaryDirectory()
    let limit = 200 << 10
    let exact = String(repeating: "x", count: limit)
    let over = String(repeating: "y", count: limit + 1)
    let path = dir.write("limit", "a\n\(exact)\r\n\(over)\r\n\(exact)\r")
    let seen = collect(ChunkReader(paths: [path], chunkBytes: 64 << 10, maxLineBytes: limit))
    #expect(seen.error == nil)
    #expect(seen.lines.count == 4)
    #expect(seen.lines[1].text == exact)
    #expect(
      seen.lines[2]
        == .tooLong(
          source: path, number: 3, prefix: Array(over.utf8.prefix(limit)), length: limit + 1))
    // A final line without `\n` keeps its `\r`: limit + 1 bytes, too long.
    #expect(
      seen.lines[3]
        == .tooLong(source: path, number: 4, prefix: Array(exact.utf8), length: limit + 1))
  }

  @Test(arguments: [65_533, 65_534, 65_535, 65_536, 65_537, 131_071])
  func limitBoundaryAtTheEndOfTheReadArea(limit: Int) {
    // Lines of limit-1 ... limit+2 bytes with LF and CRLF endings, the first one starting at
    // offset 0, so the `\r` of a line of exactly the limit lands on the buffer's last byte.
    let dir = TemporaryDirectory()
    var expected: [SeenLine] = []
    var bytes: [UInt8] = []
    var number = 1
    let path = dir.path("boundary")
    for ending in ["\r\n", "\n"] {
      for length in [limit, limit + 1, limit - 1, limit + 2] {
        let line = [UInt8](repeating: UInt8(ascii: "a") + UInt8(number % 20), count: length)
        bytes += line + Array(ending.utf8)
        expected.append(
          length > limit
            ? .tooLong(
              source: path, number: number, prefix: Array(line.prefix(limit)), length: length)
            : .line(source: path, number: number, bytes: line))
        number += 1
      }
    }
    dir.write("boundary", bytes)
    for chunkBytes in [64 << 10, 128 << 10] {
      let seen = collect(ChunkReader(paths: [path], chunkBytes: chunkBytes, maxLineBytes: limit))
      #expect(seen.error == nil)
      #expect(seen.lines == expected, "limit \(limit), chunk \(chunkBytes)")
    }
  }

  @Test func hugeLineIsNotBufferedWhole() throws {
    let dir = TemporaryDirectory()
    let path = dir.path("huge")
    _ = FileManager.default.createFile(atPath: path, contents: nil)
    let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
    handle.write(Data("first\n".utf8))
    let block = Data(repeating: UInt8(ascii: "z"), count: 1 << 20)
    for _ in 0..<64 { handle.write(block) }
    handle.write(Data("\r\nafter\n".utf8))
    try handle.close()

    let reader = ChunkReader(paths: [path], chunkBytes: 64 << 10, maxLineBytes: 1 << 20)
    let seen = collect(reader)
    #expect(seen.error == nil)
    #expect(seen.texts == ["first", "after"])
    let long = try #require(seen.overlong.first)
    #expect(long.lineNumber == 2 && long.length == 64 << 20)
    #expect(long.prefix.count == 1 << 20 && long.prefix.allSatisfy { $0 == UInt8(ascii: "z") })
    #expect(long.sourceOffset == 6)
    #expect(seen.lines.last == .line(source: path, number: 3, bytes: Array("after".utf8)))
    #expect(seen.chunks.last?.sourceOffset == UInt64(6 + (64 << 20) + 2))
    #expect(reader.peakStagingBytes <= (1 << 20) + (64 << 10) + 3 * PageAlignedMemory.pageSize)
  }

  @Test func overlongLineAtEndOfFileWithoutNewline() throws {
    let dir = TemporaryDirectory()
    let path = dir.write("tail", "a\n" + String(repeating: "q", count: 300_000))
    let seen = collect(ChunkReader(paths: [path], chunkBytes: 64 << 10, maxLineBytes: 1000))
    #expect(seen.error == nil)
    #expect(seen.lines.count == 2)
    #expect(seen.overlong.first?.length == 300_000 && seen.overlong.first?.lineNumber == 2)
  }

  @Test func progressCountsBytesAndKnowsTheTotal() {
    let dir = TemporaryDirectory()
    let a = dir.write("a", "x\n")
    let b = dir.write("b", "yy\n")
    let reader = ChunkReader(paths: [a, b])
    #expect(reader.progress.totalBytes == 5)
    _ = collect(reader)
    #expect(reader.progress.bytesRead == 5)
    #expect(ChunkReader(paths: ["-"]).progress.totalBytes == nil)
  }

  @Test func chunkMovesToAnotherThread() async throws {
    let dir = TemporaryDirectory()
    let path = dir.write("a", "one\ntwo\n")
    let reader = ChunkReader(paths: [path])
    guard case .chunk(let chunk) = try reader.next() else {
      Issue.record("expected a chunk")
      return
    }
    let count = await Task.detached {
      var count = 0
      chunk.forEachLine { _, _ in count += 1 }
      return count
    }.value
    #expect(count == 2)
  }
}

/// The pipeline hands a chunk to the workers in batches (`ChunkReader.batchBytes`): they must
/// tile the chunk, end on line boundaries, number their lines as the whole chunk does, and
/// together yield exactly the chunk's lines.
@Suite struct ChunkBatchTests {
  @Test func batchesTileTheChunkAtLineBoundariesWithTheChunksLineNumbers() throws {
    let dir = TemporaryDirectory()
    // Lines of every length from 0 to 40 bytes, CRLF endings here and there, a final line
    // without a newline.
    var text = ""
    for length in 0...40 {
      text += String(repeating: "x", count: length) + (length % 3 == 0 ? "\r\n" : "\n")
    }
    text += "last"
    let path = dir.write("lines", text)
    let whole = collect(ChunkReader(paths: [path]))
    #expect(whole.chunks.count == 1)
    for batchBytes in [1, 2, 7, 16, 64, 100, 1 << 20] {
      let reader = ChunkReader(paths: [path])
      reader.batchBytes = batchBytes
      let chunk = try #require(collect(reader).chunks.first)
      var lines: [String] = []
      var numbers: [Int] = []
      var expectedStart = 0
      for batch in chunk.batches {
        #expect(batch.start == expectedStart && batch.end > batch.start)
        // Every batch but the last ends just after a newline.
        if batch.end < chunk.byteCount {
          chunk.withBytes { #expect($0[batch.end - 1] == ASCII.newline) }
        }
        var first = true
        chunk.forEachLine(of: batch) { line, number in
          if first { #expect(number == batch.firstLine) }
          first = false
          lines.append(String(decoding: line, as: UTF8.self))
          numbers.append(number)
        }
        expectedStart = batch.end
      }
      #expect(expectedStart == chunk.byteCount)
      #expect(lines == whole.texts, "batchBytes \(batchBytes)")
      #expect(numbers == Array(1...whole.texts.count), "batchBytes \(batchBytes)")
      if batchBytes >= chunk.byteCount { #expect(chunk.batches.count == 1) }
    }
  }
}
