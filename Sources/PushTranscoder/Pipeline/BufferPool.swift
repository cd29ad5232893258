import Foundation

/// A small free list shared by threads, behind a `pthread`-based lock (`NSLock`): thread
/// sanitizers understand it, where they cannot see the futex inside `Synchronization.Mutex` on
/// Linux and report its users as races.
final class BufferPool<Element>: @unchecked Sendable {
  // Safe because `free` is only touched while `lock` is held.
  private let lock = NSLock()
  private var free: [Element] = []
  private let limit: Int

  /// Keeps at most `limit` elements; more are dropped by `put`.
  init(limit: Int) {
    self.limit = limit
  }

  /// The last element put back that `matches`, removed from the pool, or nil.
  func take(where matches: (Element) -> Bool = { _ in true }) -> Element? {
    lock.lock()
    defer { lock.unlock() }
    guard let index = free.lastIndex(where: matches) else { return nil }
    return free.remove(at: index)
  }

  /// Keeps `element` for a later `take`; returns false (and keeps nothing) when full.
  @discardableResult
  func put(_ element: Element) -> Bool {
    lock.lock()
    defer { lock.unlock() }
    guard free.count < limit else { return false }
    free.append(element)
    return true
  }
}
