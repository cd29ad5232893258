import Glibc

extension String {
  /// `printf`-style formatting through the C library's `vsnprintf` (`"%.1f"`, `"%08x"`), for
  /// the few numbers the summary, progress line and manifest print: the same digits and
  /// rounding as Foundation's `String(format:)`, without linking Foundation.
  init(cFormat format: String, _ arguments: CVarArg...) {
    var capacity = 128
    while true {
      var buffer = [CChar](repeating: 0, count: capacity)
      let written = withVaList(arguments) { list in
        buffer.withUnsafeMutableBufferPointer {
          // Safe because vsnprintf writes at most `count` bytes, the terminator included.
          Int(vsnprintf($0.baseAddress, $0.count, format, list))
        }
      }
      precondition(written >= 0, "invalid format \(format)")
      if written < capacity {
        // Safe because `written < capacity`, the buffer's count.
        self = buffer.withUnsafeBytes {
          String(decoding: UnsafeRawBufferPointer(rebasing: $0[..<written]), as: UTF8.self)
        }
        return
      }
      // Longer than the buffer: format again into one that fits.
      capacity = written + 1
    }
  }
}
