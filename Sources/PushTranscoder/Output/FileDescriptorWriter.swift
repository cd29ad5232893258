import Glibc

/// `write(2)` loops (Glibc's `stdout` global is unavailable in Swift 6 mode).
package enum FileDescriptorWriter {
  /// Writes everything or returns the errno of the failure.
  @discardableResult
  package static func writeAll(_ fd: Int32, _ bytes: [UInt8]) -> Int32? {
    bytes.withUnsafeBufferPointer { writeAll(fd, $0) }
  }

  /// Writes everything or returns the errno of the failure.
  ///
  /// A descriptor in non-blocking mode that has no room (`EAGAIN`) is waited for, as a blocking
  /// one would be: the mode belongs to the open pipe or terminal, which the process shares with
  /// whoever set it (a parent that made its pipes non-blocking, another program on the same
  /// terminal), and a full pipe is not a failure of the output.
  @discardableResult
  package static func writeAll(_ fd: Int32, _ buffer: UnsafeBufferPointer<UInt8>) -> Int32? {
    guard var pointer = buffer.baseAddress else { return nil }
    var left = buffer.count
    while left > 0 {
      let written = write(fd, pointer, left)
      if written < 0 {
        let code = errno
        if code == EINTR { continue }
        if code == EAGAIN || code == EWOULDBLOCK {
          if let failure = DescriptorReadiness.wait(fd, for: Int16(POLLOUT)) { return failure }
          continue
        }
        return code
      }
      // Safe because 0 <= written <= left.
      pointer += written
      left -= written
    }
    return nil
  }
}
