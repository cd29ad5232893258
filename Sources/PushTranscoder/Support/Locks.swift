import Glibc

/// A mutual-exclusion lock over a heap-allocated `pthread_mutex_t`.
///
/// The library does not link Foundation (its `NSLock` would bring Foundation and ICU into every
/// run's start-up). A `pthread` mutex, not `Synchronization.Mutex`, because ThreadSanitizer
/// (`make tsan`) understands it: on Linux `Mutex` hands contended locks over through a futex
/// that TSan cannot see, so it reports the data a `Mutex` guards, even its own value, as raced
/// (docs/DECISIONS.md). `Synchronization.Atomic` has no such problem and is used for counters.
final class Lock: @unchecked Sendable {
  // Safe because the mutex lives at a fixed heap address for the lock's lifetime (a
  // `pthread_mutex_t` must not move) and is only used through the pthread functions.
  fileprivate let mutex: UnsafeMutablePointer<pthread_mutex_t>

  init() {
    mutex = PThreadObject.make(pthread_mutex_t(), "pthread_mutex_init") {
      pthread_mutex_init($0, nil)
    }
  }

  deinit { PThreadObject.free(mutex, pthread_mutex_destroy) }

  /// Waits until the lock is free and takes it.
  func lock() {
    let status = pthread_mutex_lock(mutex)
    precondition(status == 0, "pthread_mutex_lock failed: \(status)")
  }

  /// Releases the lock, which the calling thread holds.
  func unlock() {
    let status = pthread_mutex_unlock(mutex)
    precondition(status == 0, "pthread_mutex_unlock failed: \(status)")
  }
}

/// A lock with a condition variable: `wait` releases the lock until `broadcast`.
///
/// `Synchronization` has no condition variable; a pthread one pairs with `Lock`'s mutex and is
/// understood by ThreadSanitizer. One waiter (the writer) waits for a predicate over shared
/// state, which a counting semaphore would not express without a lock beside it.
final class Condition: @unchecked Sendable {
  // Safe because the condition variable lives at a fixed heap address for the object's
  // lifetime and is only used with `mutex`, through the pthread functions.
  private let mutex = Lock()
  private let condition: UnsafeMutablePointer<pthread_cond_t>

  init() {
    condition = PThreadObject.make(pthread_cond_t(), "pthread_cond_init") {
      pthread_cond_init($0, nil)
    }
  }

  deinit { PThreadObject.free(condition, pthread_cond_destroy) }

  /// Takes the lock.
  func lock() { mutex.lock() }

  /// Releases the lock.
  func unlock() { mutex.unlock() }

  /// Releases the lock, sleeps until a `broadcast` (or a spurious wake-up: callers re-check
  /// their predicate in a loop), and takes the lock again.
  func wait() {
    let status = pthread_cond_wait(condition, mutex.mutex)
    precondition(status == 0, "pthread_cond_wait failed: \(status)")
  }

  /// Wakes every waiter. Call with the lock held.
  func broadcast() {
    pthread_cond_broadcast(condition)
  }
}

/// Heap storage for pthread objects, which must not move once initialized.
private enum PThreadObject {
  static func make<Object>(
    _ zero: Object, _ name: String, _ initialize: (UnsafeMutablePointer<Object>) -> Int32
  ) -> UnsafeMutablePointer<Object> {
    // Safe because the owner (`Lock`, `Condition`) keeps the pointer for its lifetime and
    // frees it once, with `free`, in its `deinit`.
    let object = UnsafeMutablePointer<Object>.allocate(capacity: 1)
    object.initialize(to: zero)
    let status = initialize(object)
    precondition(status == 0, "\(name) failed: \(status)")
    return object
  }

  static func free<Object>(
    _ object: UnsafeMutablePointer<Object>, _ destroy: (UnsafeMutablePointer<Object>) -> Int32
  ) {
    _ = destroy(object)
    // Safe because `object` came from `make`, and its owner, being deinitialized, frees it once.
    object.deinitialize(count: 1)
    object.deallocate()
  }
}
