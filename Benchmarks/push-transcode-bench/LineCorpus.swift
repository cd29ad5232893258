import Glibc

/// An NDJSON corpus held in memory: its bytes and the byte range of each non-blank line
/// (terminator and one `\r` before it excluded, as the framing does; SPEC 2.1).
struct LineCorpus {
  var name: String
  var bytes: [UInt8]
  var lines: [Range<Int>]
  /// The corpus written to a file (for full runs), set by `main`.
  var file: String? = nil

  init(name: String, bytes: [UInt8]) {
    self.name = name
    self.bytes = bytes
    lines = []
    var start = 0
    // A leading byte-order mark is skipped, as the framing does at the start of a file.
    if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { start = 3 }
    bytes.withUnsafeBufferPointer { buffer in
      let count = buffer.count
      while start < count {
        // Safe because `start < count` (so `baseAddress` is set), memchr reads only the
        // `count - start` bytes left, and `start <= end <= count` bounds the reads below.
        let newline =
          memchr(buffer.baseAddress! + start, 0x0A, count - start).map {
            UnsafePointer($0.assumingMemoryBound(to: UInt8.self)) - buffer.baseAddress!
          } ?? count
        var end = newline
        if end > start && buffer[end - 1] == 0x0D { end -= 1 }
        let isBlank = buffer[start..<end].allSatisfy {
          $0 == 0x20 || $0 == 0x09 || $0 == 0x0D || $0 == 0x0A
        }
        if !isBlank { lines.append(start..<end) }
        start = newline + 1
      }
    }
  }

  /// The same bytes restricted to some of the lines.
  func keeping(_ keep: (Int) -> Bool) -> LineCorpus {
    var copy = self
    copy.lines = lines.indices.filter(keep).map { lines[$0] }
    return copy
  }

  /// Bytes the lines cover, counting one terminator each (the MB/s numerator).
  var lineBytes: Int { lines.reduce(0) { $0 + $1.count + 1 } }

  /// Calls `body` with each line's bytes.
  @inline(__always)
  func forEachLine(_ body: (Int, UnsafeBufferPointer<UInt8>) -> Void) {
    bytes.withUnsafeBufferPointer { buffer in
      for (index, range) in lines.enumerated() {
        // Safe because every range was found in `bytes` by `init`, and `bytes` never changes.
        body(index, UnsafeBufferPointer(rebasing: buffer[range]))
      }
    }
  }

  static func load(path: String) -> LineCorpus? {
    guard let file = fopen(path, "rb") else { return nil }
    defer { fclose(file) }
    var bytes: [UInt8] = []
    var block = [UInt8](repeating: 0, count: 1 << 20)
    while true {
      // Safe because fread writes at most `count` bytes into the block.
      let read = block.withUnsafeMutableBytes { fread($0.baseAddress, 1, $0.count, file) }
      if read == 0 { break }
      bytes.append(contentsOf: block[0..<read])
    }
    return LineCorpus(name: path, bytes: bytes)
  }
}
