import Dispatch
import Glibc
import Testing

@testable import PushTranscoder

/// A run whose output goes away (`| head`) stops with permits of its in-flight semaphore still
/// taken by the reader. libdispatch traps when a semaphore is freed with a value below the one
/// it was created with, which killed about one `| head -c 100` run in a hundred (seen as a
/// flaky `closedStdoutEndsTheRunQuietly`; 0 crashes in 400 runs after the fix). The pipeline's
/// semaphores are now made by `DispatchSemaphore.permits`: created at 0, then raised.
@Suite struct CancelledPipelineTests {
  @Test func aSemaphoreFreedWithItsPermitsTakenDoesNotTrap() {
    for _ in 0..<100 {
      let semaphore = DispatchSemaphore.permits(3)
      semaphore.wait()
      semaphore.wait()
      semaphore.wait()
      // Every permit is taken, as the reader leaves them when the writer stops early.
      #expect(semaphore.wait(timeout: .now()) == .timedOut)
      // `DispatchSemaphore(value: 3)` freed here would trap ("Semaphore object deallocated
      // while in use"), taking the test process down.
    }
  }

  @Test func permitsBoundTheWaiters() {
    let semaphore = DispatchSemaphore.permits(2)
    #expect(semaphore.wait(timeout: .now()) == .success)
    #expect(semaphore.wait(timeout: .now()) == .success)
    #expect(semaphore.wait(timeout: .now()) == .timedOut)
    semaphore.signal()
    #expect(semaphore.wait(timeout: .now()) == .success)
  }
}

/// Lines are hashed in bulk only when vivo will read the hashes: `validate` selects every vendor
/// by default but renders nothing, and hashing every line cost it a quarter of its time.
@Suite struct LineHashingTests {
  @Test func onlyTranscodingWithVivoHashesLines() {
    func wantsHashes(_ options: TranscodeOptions) -> Bool {
      LineProcessor(options: options, directory: NameDirectory()).wantsLineHashes
    }
    var options = TranscodeOptions()
    #expect(wantsHashes(options))
    options.validateOnly = true
    #expect(!wantsHashes(options))
    options.validateOnly = false
    options.vendors = [.apns, .fcm]
    #expect(!wantsHashes(options))
  }
}

/// `ChunkOutput.main` had a default value (`OutputBuffers.take()`), so the sized initializer the
/// workers use took a pooled buffer, dropped it for a second `take(minimumCapacity:)`, and so
/// freed the very buffer the writer had just recycled; and a buffer sized exactly for one chunk
/// was too small for the next chunk, a few bytes longer. Every chunk faulted in fresh, zeroed
/// huge pages (`clear_page_erms` was 11 % of a 9-vendor run). A recycled buffer must serve the
/// next chunk of about the same size.
@Suite struct OutputBufferReuseTests {
  @Test func aRecycledBufferServesTheNextChunkOfAboutTheSameSize() {
    // Sizes no other test asks for. The pool is shared by every test in the process, so another
    // test may take the buffer between `recycle` and the new output: look for the reuse over a
    // few attempts. Before the fixes it never happened.
    let firstChunk = (40 << 20) + 17
    let nextChunk = (40 << 20) + 4099
    var reused = 0
    for _ in 0..<5 {
      var first = ChunkOutput(sequence: 0, source: SourceName("t"), expectedBytes: firstChunk)
      first.main.raw(Array("{}\n".utf8))
      let address = first.main.buffer.baseAddress
      // The writer hands each chunk's buffer back once the sink has consumed it.
      first.recycle()
      let next = ChunkOutput(sequence: 1, source: SourceName("t"), expectedBytes: nextChunk)
      if next.main.buffer.baseAddress == address {
        reused += 1
        #expect(next.main.count == 0)
      }
      next.recycle()
    }
    #expect(reused > 0)
  }

  /// A pool whose free buffers were all too small for a request kept them and made a larger
  /// one: each kept its written pages, and a nine-vendor batch run grew to 147 MB resident for
  /// 1 GB of input. The pool now drops one small buffer for every larger one it makes.
  @Test func aMissDropsASmallerBufferInsteadOfKeepingIt() {
    let pool = WriterPool(limit: 24, smallest: 1 << 16)
    for _ in 0..<3 { pool.recycle(pool.take(minimumCapacity: 1 << 16)) }
    #expect(pool.count == 1)
    pool.recycle(pool.take(minimumCapacity: 1 << 16))
    pool.recycle(JSONWriter(capacity: 1 << 16))
    pool.recycle(JSONWriter(capacity: 1 << 16))
    #expect(pool.count == 3)
    let large = pool.take(minimumCapacity: 1 << 20)
    #expect(large.capacity >= 1 << 20)
    #expect(pool.count == 2)
    pool.recycle(large)
    // The large buffer serves a small request; the small ones stay for the next.
    let reused = pool.take(minimumCapacity: 1 << 16)
    #expect(reused.capacity >= 1 << 16)
    #expect(pool.count == 2)
  }

  @Test func capacitiesRoundUpToAPowerOfTwoOfAtLeastOneMebibyte() {
    #expect(OutputBuffers.roundedCapacity(0) == 1 << 20)
    #expect(OutputBuffers.roundedCapacity(1 << 20) == 1 << 20)
    #expect(OutputBuffers.roundedCapacity((1 << 20) + 1) == 1 << 21)
    #expect(OutputBuffers.roundedCapacity(21_000_000) == 1 << 25)
  }
}

/// The pipeline indexes line batches on its reader thread (bounds, numbers and FNV-1a hashes,
/// `IndexedLineBatch`) when vivo needs the hashes; a worker given the same batch unindexed indexes
/// it itself. Both must render the same bytes as the line processor fed line by line with each
/// line's own hash.
@Suite struct IndexedLinesTests {
  /// Lines of one source, without a chunk reader, in memory that lives as long as the batch
  /// (as `LineBatch` requires).
  final class Lines: LineBatch, @unchecked Sendable {
    // Unchecked: `memory` is written only in `init` and freed in `deinit`.
    let source = SourceName("mem.ndjson")
    let storage: [[UInt8]]
    private let memory: UnsafeMutableBufferPointer<UInt8>
    private let bounds: [Range<Int>]

    init(storage: [[UInt8]]) {
      self.storage = storage
      memory = .allocate(capacity: max(1, storage.reduce(0) { $0 + $1.count }))
      var bounds: [Range<Int>] = []
      var offset = 0
      for line in storage {
        _ = memory[offset...].initialize(from: line)
        bounds.append(offset..<offset + line.count)
        offset += line.count
      }
      self.bounds = bounds
    }

    deinit { memory.deallocate() }

    func forEachLine(_ body: (UnsafeBufferPointer<UInt8>, Int) -> Void) {
      for (index, range) in bounds.enumerated() {
        body(UnsafeBufferPointer(rebasing: memory[range]), index + 1)
      }
    }

    var byteCount: Int { storage.reduce(0) { $0 + $1.count + 1 } }
  }

  @Test func indexedUnindexedAndLineByLineRenderTheSameBytes() {
    let batch = Lines(
      storage: [
        #"{"From_Account":"a","To_Account":"b","MsgBody":[{"MsgType":"TIMTextElem","MsgContent":{"Text":"hi"}}]}"#,
        "",
        #"{"From_Account":"a","GroupId":"g","MsgKey":"k1","MsgBody":[{"MsgType":"TIMFaceElem"}]}"#,
        "not json",
        #"{"from":"u1","to":"u2","chat_type":"chat","payload":{"bodies":[{"type":"txt","msg":"yo"}]}}"#,
        #"{"From_Account":"x","To_Account":["p","q"],"MsgBody":[{"MsgType":"TIMTextElem","MsgContent":{"Text":"\u00e9"}}]}"#,
      ].map { Array($0.utf8) })
    let options = TranscodeOptions()
    func worker() -> Worker {
      Worker(
        queue: DispatchQueue(label: "test"),
        processor: LineProcessor(options: options, directory: NameDirectory()))
    }
    #expect(worker().wantsLineHashes)
    let indexed = IndexedLineBatch(batch)
    #expect(indexed.numbers == Array(1...batch.storage.count))
    #expect(
      indexed.hashes == batch.storage.map { line in line.withUnsafeBufferPointer(FNV1a.hash) })
    let fromIndex = worker().process(.indexed(indexed), sequence: 0)
    let unindexed = worker().process(.lines(batch), sequence: 0)
    var processor = LineProcessor(options: options, directory: NameDirectory())
    var byLine = ChunkOutput(sequence: 0, source: batch.source)
    batch.forEachLine { line, number in
      processor.process(line: line, number: number, lineHash: FNV1a.hash(line), into: &byLine)
    }
    #expect(Array(fromIndex.main.bytes) == Array(byLine.main.bytes))
    #expect(Array(unindexed.main.bytes) == Array(byLine.main.bytes))
    #expect(fromIndex.stats == byLine.stats)
    #expect(fromIndex.inputBytes == batch.byteCount)
    #expect(byLine.stats.records[VendorID.vivo.rawValue] == 4)
  }

  /// A worker hashes a batch's lines a window at a time (`LineWindow`), not all of them first:
  /// full windows, a window ending on the batch's last line, and a partial last window render
  /// what line-by-line processing with each line's own hash renders.
  @Test(arguments: [LineWindow.capacity * 3, LineWindow.capacity * 3 + 5])
  func windowsOfLinesRenderLineByLineBytes(lineCount: Int) {
    let batch = Lines(
      storage: (0..<lineCount).map { index in
        let text = String(repeating: "w", count: index % 37)
        return Array(
          (index % 5 == 2
            ? ""
            : #"{"From_Account":"a","To_Account":"b\#(index)","MsgBody":[{"MsgType":"TIMTextElem","MsgContent":{"Text":"hi \#(text)"}}]}"#)
            .utf8)
      })
    let options = TranscodeOptions()
    let worker = Worker(
      queue: DispatchQueue(label: "test"),
      processor: LineProcessor(options: options, directory: NameDirectory()))
    let windowed = worker.process(.lines(batch), sequence: 0)
    var processor = LineProcessor(options: options, directory: NameDirectory())
    var byLine = ChunkOutput(sequence: 0, source: batch.source)
    batch.forEachLine { line, number in
      processor.process(line: line, number: number, lineHash: FNV1a.hash(line), into: &byLine)
    }
    #expect(Array(windowed.main.bytes) == Array(byLine.main.bytes))
    #expect(windowed.stats == byLine.stats)
    #expect(byLine.stats.blank == (0..<lineCount).filter { $0 % 5 == 2 }.count)
    // A second batch on the same worker starts from an empty window.
    let again = worker.process(.lines(batch), sequence: 1)
    #expect(Array(again.main.bytes) == Array(byLine.main.bytes))
  }

  /// Only keyless messages read their line's hash (vivo `requestId`), so a worker stops hashing
  /// lines ahead after a window of keyed ones and lets a keyless line's notice hash its line
  /// alone, then hashes ahead again after a window of keyless ones. Blocks of keyed and keyless
  /// lines, each longer than a window, with a few of the other kind inside, render what
  /// line-by-line processing with each line's own hash renders.
  @Test func keyedWindowsSkipTheHashAndRenderTheSameBytes() {
    let window = LineWindow.capacity
    let lineCount = window * 6 + 7
    let keyed = { (index: Int) -> Bool in
      let inKeyedBlock = (index / (window * 2)) % 2 == 0
      return index % 17 == 3 ? !inKeyedBlock : inKeyedBlock
    }
    let batch = Lines(
      storage: (0..<lineCount).map { index in
        let key = keyed(index) ? #""MsgKey":"k\#(index)","# : ""
        return Array(
          #"{\#(key)"From_Account":"a","To_Account":"b","MsgBody":[{"MsgType":"TIMTextElem","MsgContent":{"Text":"line \#(index)"}}]}"#
            .utf8)
      })
    let worker = Worker(
      queue: DispatchQueue(label: "test"),
      processor: LineProcessor(options: TranscodeOptions(), directory: NameDirectory()))
    #expect(worker.hashesLinesAhead)
    let windowed = worker.process(.lines(batch), sequence: 0)
    var processor = LineProcessor(options: TranscodeOptions(), directory: NameDirectory())
    var byLine = ChunkOutput(sequence: 0, source: batch.source)
    batch.forEachLine { line, number in
      processor.process(line: line, number: number, lineHash: FNV1a.hash(line), into: &byLine)
    }
    #expect(Array(windowed.main.bytes) == Array(byLine.main.bytes))
    #expect(windowed.stats == byLine.stats)
    #expect(byLine.stats.records[VendorID.vivo.rawValue] == lineCount)
    // The last window, nearly all keyless, came after a keyed one (so its notices hashed their
    // lines themselves): the next window is hashed ahead again.
    #expect(worker.hashesLinesAhead)
    // A keyed batch after it: the worker stops hashing ahead once a keyed window has passed.
    let keyedBatch = Lines(storage: Array(batch.storage[0..<(window * 2)]))
    _ = worker.process(.lines(keyedBatch), sequence: 1)
    #expect(!worker.hashesLinesAhead)
  }
}

/// The run's time counts the sink's finish (a batch run's last flushes and its manifest): a
/// summary that stopped at the last chunk told a user that a run waiting seconds on its disk had
/// been fast.
@Suite struct RunTimeTests {
  final class SlowFinishSink: RecordSink {
    func consume(_ output: borrowing ChunkOutput) throws {}
    func finish(
      stats: RunStats, elapsed: () -> Double, inputBytes: Int, beforeCommit: () throws -> Void
    ) throws {
      try beforeCommit()
      usleep(300_000)
    }
  }

  /// Ten one-recipient text messages.
  static func tenMessages() -> IndexedLinesTests.Lines {
    IndexedLinesTests.Lines(
      storage: (0..<10).map { index in
        Array(
          #"{"From_Account":"a","To_Account":"b\#(index)","MsgBody":[{"MsgType":"TIMTextElem","MsgContent":{"Text":"hi"}}]}"#
            .utf8)
      })
  }

  @Test(arguments: [1, 2])
  func theRunsSecondsIncludeTheSinksFinish(threads: Int) {
    let lines = Self.tenMessages()
    let next = OneThreadPipelineTests.Counter()
    let result = Pipeline(threads: threads, cores: 2).run(
      options: TranscodeOptions(), directory: NameDirectory(), sink: SlowFinishSink()
    ) { next.increment() == 0 ? .lines(lines) : nil }
    #expect(result.fatal == nil && result.stats.lines == 10)
    // A lower bound only: the sleep guarantees it, whatever the machine's speed.
    #expect(result.seconds >= 0.3)
  }

  /// The manifest's `timing`, and the result the run files (`--report`'s time) are written
  /// from, count what comes before them: the run files' writing here (a 0.3 s hook), in a real
  /// run the last flushes too. Both stopped at the last chunk, so a run's manifest claimed it
  /// was fast while its disk was still busy.
  @Test func theManifestsTimeIncludesTheFinishBeforeIt() throws {
    let directory = "/tmp/push-transcode-runtime-\(getpid())"
    defer { _ = try? FileSystem.removeTree(directory) }
    let sink = try BatchSink(
      directory: directory, force: false, compression: .none, level: nil, batchRecords: 1000,
      threads: 1, optionsJSON: Array("{}".utf8), sync: false)
    let lines = Self.tenMessages()
    let next = OneThreadPipelineTests.Counter()
    var hookSeconds = 0.0
    let result = Pipeline(threads: 1, cores: 2).run(
      options: TranscodeOptions(), directory: NameDirectory(), sink: sink,
      beforeCommit: { complete in
        usleep(300_000)
        hookSeconds = complete.seconds
      },
      nextItem: { next.increment() == 0 ? .lines(lines) : nil })
    #expect(result.fatal == nil && result.stats.lines == 10)
    let manifest = String(decoding: readBytes(directory + "/manifest.json"), as: UTF8.self)
    let seconds = try #require(Self.timingSeconds(manifest))
    #expect(seconds >= 0.3)
    // The manifest writes its time rounded to the millisecond (`%.3f`), so it may lie up to
    // half a millisecond on either side of the exact times read before and after it.
    let rounding = 0.0005
    #expect(hookSeconds <= seconds + rounding && seconds <= result.seconds + rounding)
  }

  /// `timing.seconds` of a manifest's text.
  static func timingSeconds(_ manifest: String) -> Double? {
    guard let range = manifest.range(of: #""timing":{"seconds":"#) else { return nil }
    return Double(manifest[range.upperBound...].prefix { $0 == "." || $0.isNumber })
  }
}

/// `--threads 1` runs on the calling thread: the reader (`nextItem`) and the sink are called on
/// it, and no second thread hashes or renders ahead (docs/DECISIONS.md [7]). Two threads write
/// the same bytes.
@Suite struct OneThreadPipelineTests {
  /// Records what it is given and the threads it is called on.
  final class RecordingSink: RecordSink, @unchecked Sendable {
    // Unchecked: the pipeline calls a sink from its writer only, one call at a time.
    var bytes: [UInt8] = []
    var threads: Set<UInt> = []
    var finished = false

    func consume(_ output: borrowing ChunkOutput) throws {
      threads.insert(UInt(bitPattern: Int(bitPattern: pthread_self())))
      bytes += output.main.bytes
    }

    func finish(
      stats: RunStats, elapsed: () -> Double, inputBytes: Int, beforeCommit: () throws -> Void
    ) throws {
      try beforeCommit()
      threads.insert(UInt(bitPattern: Int(bitPattern: pthread_self())))
      finished = true
    }
  }

  /// Thread ids seen by the reader closure (called from the pipeline's threads).
  final class ThreadLog: @unchecked Sendable {
    // Unchecked: guarded by `lock`.
    private let lock = Lock()
    private var seen: Set<UInt> = []
    func note() {
      lock.lock()
      seen.insert(UInt(bitPattern: Int(bitPattern: pthread_self())))
      lock.unlock()
    }
    var threads: Set<UInt> {
      lock.lock()
      defer { lock.unlock() }
      return seen
    }
  }

  func run(threads: Int, lines lineCount: Int = 300, on pipeline: Pipeline? = nil) -> (
    sink: RecordingSink, readerThreads: Set<UInt>, result: RunResult
  ) {
    let lines = (0..<lineCount).map { index in
      Array(
        #"{"From_Account":"a\#(index)","To_Account":"b","MsgBody":[{"MsgType":"TIMTextElem","MsgContent":{"Text":"hello \#(index)"}}]}"#
          .utf8)
    }
    // Batches of 50 lines: six work items.
    let batches = stride(from: 0, to: lines.count, by: 50).map {
      IndexedLinesTests.Lines(storage: Array(lines[$0..<$0 + 50]))
    }
    let sink = RecordingSink()
    let log = ThreadLog()
    let next = Counter()
    let result = (pipeline ?? Pipeline(threads: threads, cores: 2)).run(
      options: TranscodeOptions(), directory: NameDirectory(), sink: sink
    ) {
      log.note()
      let index = next.increment()
      return index < batches.count ? .lines(batches[index]) : nil
    }
    return (sink, log.threads, result)
  }

  @Test func oneThreadReadsRendersAndWritesOnTheCallingThread() {
    let caller = UInt(bitPattern: Int(bitPattern: pthread_self()))
    let one = run(threads: 1)
    #expect(one.result.fatal == nil && one.sink.finished)
    #expect(one.readerThreads == [caller])
    #expect(one.sink.threads == [caller])
    #expect(one.result.stats.lines == 300)
    let two = run(threads: 2)
    #expect(two.readerThreads != [caller])
    #expect(two.sink.bytes == one.sink.bytes)
    #expect(two.result.stats == one.result.stats)
  }

  /// A pipeline runs again from nothing: a second, longer run on the same instance writes
  /// every item, as a fresh pipeline does (it once stopped at the first run's item count).
  @Test(arguments: [1, 2])
  func aPipelineRunsAgainFromTheStart(threads: Int) {
    let pipeline = Pipeline(threads: threads, cores: 2)
    let first = run(threads: threads, lines: 100, on: pipeline)
    #expect(first.result.stats.lines == 100 && first.sink.finished)
    let second = run(threads: threads, lines: 300, on: pipeline)
    let fresh = run(threads: threads, lines: 300)
    #expect(second.result.fatal == nil && second.sink.finished)
    #expect(second.result.stats.lines == 300)
    let sameBytes = second.sink.bytes == fresh.sink.bytes
    #expect(sameBytes)
    #expect(second.result.stats == fresh.result.stats)
  }

  /// A counter shared with the reader closure.
  final class Counter: @unchecked Sendable {
    // Unchecked: guarded by `lock`.
    private let lock = Lock()
    private var value = 0
    func increment() -> Int {
      lock.lock()
      defer {
        value += 1
        lock.unlock()
      }
      return value
    }
  }
}

/// A worker keeps only the item it is processing. The first work queue captured each worker's
/// first item in the block that then drained the queue for as long as the reader kept it full,
/// so each worker held a stale chunk (4 MiB by default) for most of a run: peak memory rose by
/// 12 MB on the apns stream and by half a 16 MiB chunk per worker with `--chunk-bytes 16M`.
@Suite struct WorkQueueMemoryTests {
  /// Counts the batches alive and the most alive at once.
  final class LiveBatches: @unchecked Sendable {
    // Unchecked: guarded by `lock`.
    private let lock = Lock()
    private var live = 0
    private var peak = 0
    func add() {
      lock.lock()
      live += 1
      peak = max(peak, live)
      lock.unlock()
    }
    func remove() {
      lock.lock()
      live -= 1
      lock.unlock()
    }
    var mostAtOnce: Int {
      lock.lock()
      defer { lock.unlock() }
      return peak
    }
  }

  /// Lines that report their lifetime to `LiveBatches`.
  final class TrackedLines: LineBatch, @unchecked Sendable {
    // Unchecked: every property is written only in `init`.
    let lines: IndexedLinesTests.Lines
    let counter: LiveBatches
    init(_ lines: IndexedLinesTests.Lines, _ counter: LiveBatches) {
      self.lines = lines
      self.counter = counter
      counter.add()
    }
    deinit { counter.remove() }
    var source: SourceName { lines.source }
    var byteCount: Int { lines.byteCount }
    func forEachLine(_ body: (UnsafeBufferPointer<UInt8>, Int) -> Void) {
      lines.forEachLine(body)
    }
  }

  @Test func theBatchesAliveStayWithinTheWindow() {
    let line = Array(
      #"{"From_Account":"a","To_Account":"b","MsgBody":[{"MsgType":"TIMTextElem","MsgContent":{"Text":"hello"}}]}"#
        .utf8)
    let counter = LiveBatches()
    let next = OneThreadPipelineTests.Counter()
    let threads = 2
    let result = Pipeline(threads: threads, cores: 2).run(
      options: TranscodeOptions(), directory: NameDirectory(),
      sink: OneThreadPipelineTests.RecordingSink()
    ) {
      // A reader far faster than the workers keeps the queue full: each worker drains it.
      let index = next.increment()
      guard index < 300 else { return nil }
      return .lines(
        TrackedLines(
          IndexedLinesTests.Lines(storage: [[UInt8]](repeating: line, count: 200)), counter))
    }
    #expect(result.fatal == nil && result.stats.lines == 60_000)
    // The window's items (threads + 2) and the one the reader made before waiting for room.
    #expect(counter.mostAtOnce <= threads + 3)
  }
}
