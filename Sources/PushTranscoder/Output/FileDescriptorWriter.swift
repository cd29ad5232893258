import Glibc

/// `write(2)` loops (Glibc's `stdout` global is unavailable in Swift 6 mode).
package enum FileDescriptorWriter {
  /// Writes everything or returns the errno of the failure.
  @discardableResult
  package static func writeAll(_ fd: Int32, _ bytes: [UInt8]) -> Int32? {
    bytes.withUnsafeBufferPointer { writeAll(fd, $0) }
  }

  /// Writes everything or returns the errno of the failure.
  @discardableResult
  package static func writeAll(_ fd: Int32, _ buffer: UnsafeBufferPointer<UInt8>) -> Int32? {
    guard var pointer = buffer.baseAddress else { return nil }
    var left = buffer.count
    while left > 0 {
      let written = write(fd, pointer, left)
      if written < 0 {
        if errno == EINTR { continue }
        return errno
      }
      // Safe because 0 <= written <= left.
      pointer += written
      left -= written
    }
    return nil
  }
}
