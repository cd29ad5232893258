import Dispatch

/// The progress line on stderr (SPEC 6.4): bytes, lines, MB/s, and an ETA when the input size is
/// known. Redrawn at most a few times a second by the writer thread; cleared at the end.
///
/// The bytes and the rate count input processed (decoded, for compressed input); the share and
/// the ETA count the input files read, in their own bytes (compressed, for compressed input),
/// the unit of the only total known before the end.
package final class Progress: @unchecked Sendable {
  // Safe because only the pipeline's writer thread calls `update` and `finish`; `input` is
  // made of atomics.
  private let input: InputProgress
  private let start = DispatchTime.now()
  private var lastDraw: UInt64 = 0
  private var drawn = false

  /// A progress line for the reader whose counters are `input`.
  init(input: InputProgress) {
    self.input = input
  }

  func update(bytes: Int, lines: Int) {
    let now = DispatchTime.now().uptimeNanoseconds
    guard now - lastDraw > 250_000_000 else { return }
    lastDraw = now
    let seconds = Double(now - start.uptimeNanoseconds) / 1e9
    let text = Self.line(
      bytes: bytes, lines: lines, seconds: seconds, totalBytes: input.totalBytes.map(Int.init),
      readBytes: Int(input.bytesRead))
    FileDescriptorWriter.writeAll(2, Array(text.utf8))
    drawn = true
  }

  /// The progress line after `seconds`: `\r`, the counts, the rate, the share of the input
  /// files read and the ETA when their total is known, and an erase to the end of the line.
  static func line(bytes: Int, lines: Int, seconds: Double, totalBytes: Int?, readBytes: Int)
    -> String
  {
    let rate = seconds > 0 ? Double(bytes) / 1e6 / seconds : 0
    var text = String(cFormat: "\r%.1f MB, %ld lines, %.0f MB/s", Double(bytes) / 1e6, lines, rate)
    if let totalBytes, totalBytes > 0, readBytes > 0, seconds > 0 {
      let share = min(1, Double(readBytes) / Double(totalBytes))
      // The rest at the pace so far.
      let left = seconds * (1 - share) / share
      text += String(cFormat: ", %.0f%%, ETA %.0f s", 100 * share, left)
    }
    return text + "\u{1B}[K"
  }

  func finish() {
    if drawn { FileDescriptorWriter.writeAll(2, Array("\r\u{1B}[K".utf8)) }
  }
}
