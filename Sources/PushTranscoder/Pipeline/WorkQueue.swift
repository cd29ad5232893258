import Dispatch

/// Hands the reader's work items to the workers without ever making the reader wait for one.
///
/// Items wait here in order; an idle worker, if there is one, is woken to take them, and a worker
/// that finishes an item takes the next before going idle. The reader is free to read and decode
/// the next chunk meanwhile: when it waited for a worker instead, a decompressing reader (the
/// slowest stage with gzip input) lost the time the workers spent on the last items of each
/// chunk. The in-flight window (`Pipeline`'s semaphore) bounds the items waiting here.
final class WorkQueue: @unchecked Sendable {
  // Safe because `idle` and `waiting` are only touched under `lock`.
  private let lock = Lock()
  private var idle: [Worker]
  /// Items no worker has taken yet, oldest first, with their sequence numbers.
  private var waiting: [(item: WorkItem, sequence: Int)] = []
  private let state: RunState

  init(_ workers: [Worker], state: RunState) {
    self.idle = workers
    self.state = state
  }

  /// Queues item `sequence` and wakes an idle worker, if there is one, to take it.
  func submit(_ item: WorkItem, sequence: Int) {
    lock.lock()
    waiting.append((item, sequence))
    guard let worker = idle.popLast() else {
      lock.unlock()
      return
    }
    lock.unlock()
    // The block captures no item: a worker that drains the queue for a long stretch must not
    // keep its first item's chunk alive meanwhile.
    worker.queue.async { self.drain(worker) }
  }

  /// Processes the waiting items on `worker`, oldest first, until none is left; the worker then
  /// goes back to the idle ones. A cancelled run (the writer stopped) drops the waiting items:
  /// nobody will take their outputs.
  private func drain(_ worker: Worker) {
    while true {
      let cancelled = state.isCancelled
      lock.lock()
      if cancelled { waiting.removeAll() }
      guard !waiting.isEmpty else {
        idle.append(worker)
        lock.unlock()
        return
      }
      let output: ChunkOutput
      do {
        // The item ends with this scope, before its output reaches the writer, whose taking it
        // frees the item's place in the window: the items alive never outnumber the window.
        let next = waiting.removeFirst()
        lock.unlock()
        output = worker.process(next.item, sequence: next.sequence)
      }
      state.deliver(output)
    }
  }
}
