import Glibc

/// A small free list shared by threads, behind a `pthread`-based `Lock`: thread
/// sanitizers understand it, where they cannot see the futex inside `Synchronization.Mutex` on
/// Linux and report its users as races.
final class BufferPool<Element>: @unchecked Sendable {
  // Safe because `free` is only touched while `lock` is held.
  private let lock = Lock()
  private var free: [Element] = []
  private let limit: Int

  /// Keeps at most `limit` elements; more are dropped by `put`.
  init(limit: Int) {
    self.limit = limit
  }

  /// The number of elements kept.
  var count: Int {
    lock.lock()
    defer { lock.unlock() }
    return free.count
  }

  /// The last element put back that `matches`, removed from the pool, or nil.
  func take(where matches: (Element) -> Bool = { _ in true }) -> Element? {
    lock.lock()
    defer { lock.unlock() }
    guard let index = free.lastIndex(where: matches) else { return nil }
    return free.remove(at: index)
  }

  /// Keeps `element` for a later `take`. A full pool drops its oldest element to make room and
  /// returns it, for the caller to release: the newest buffers are the likeliest to be asked
  /// for again, and a pool that refused them once full of sizes nobody asks for any more would
  /// never recycle again.
  @discardableResult
  func put(_ element: Element) -> Element? {
    lock.lock()
    defer { lock.unlock() }
    let evicted = free.count < limit ? nil : free.removeFirst()
    free.append(element)
    return evicted
  }
}
