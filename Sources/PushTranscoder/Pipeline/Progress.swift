import Dispatch
import Glibc

/// The progress line on stderr (SPEC 6.4): bytes, lines, MB/s, and an ETA when the input size is
/// known. Redrawn at most a few times a second by the writer thread; cleared at the end.
package final class Progress: @unchecked Sendable {
  // Safe because only the pipeline's writer thread calls `update` and `finish`.
  private let totalBytes: Int?
  private let start = DispatchTime.now()
  private var lastDraw: UInt64 = 0
  private var drawn = false

  /// A progress line for an input of `totalBytes` (nil when unknown: no ETA).
  package init(totalBytes: Int?) {
    self.totalBytes = totalBytes
  }

  func update(bytes: Int, lines: Int) {
    let now = DispatchTime.now().uptimeNanoseconds
    guard now - lastDraw > 250_000_000 else { return }
    lastDraw = now
    let seconds = Double(now - start.uptimeNanoseconds) / 1e9
    let text = Self.line(bytes: bytes, lines: lines, seconds: seconds, totalBytes: totalBytes)
    FileDescriptorWriter.writeAll(2, Array(text.utf8))
    drawn = true
  }

  /// The progress line after `seconds`: `\r`, the counts, the rate, the ETA when the total is
  /// known, and an erase to the end of the line.
  static func line(bytes: Int, lines: Int, seconds: Double, totalBytes: Int?) -> String {
    let rate = seconds > 0 ? Double(bytes) / 1e6 / seconds : 0
    var text = String(cFormat: "\r%.1f MB, %ld lines, %.0f MB/s", Double(bytes) / 1e6, lines, rate)
    if let totalBytes, totalBytes > 0, rate > 0 {
      let left = max(0, Double(totalBytes - bytes) / 1e6 / rate)
      text += String(
        cFormat: ", %.0f%%, ETA %.0f s", min(100, 100 * Double(bytes) / Double(totalBytes)), left)
    }
    return text + "\u{1B}[K"
  }

  func finish() {
    if drawn { FileDescriptorWriter.writeAll(2, Array("\r\u{1B}[K".utf8)) }
  }
}

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
