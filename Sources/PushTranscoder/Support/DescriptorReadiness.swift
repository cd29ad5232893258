import Glibc

/// Waiting on a non-blocking descriptor until it is ready, for the loops that treat such a
/// descriptor as a blocking one.
enum DescriptorReadiness {
  /// Waits until `fd` is ready for `events` (or has an error or hang-up for the next call to
  /// report); returns the errno of a failed `poll(2)`, nil when the caller may try again.
  static func wait(_ fd: Int32, for events: Int16) -> Int32? {
    var descriptor = pollfd(fd: fd, events: events, revents: 0)
    while poll(&descriptor, 1, -1) < 0 {
      let code = errno
      if code != EINTR { return code }
    }
    return nil
  }
}
