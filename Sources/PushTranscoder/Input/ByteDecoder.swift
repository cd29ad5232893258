/// A source of decoded (decompressed) bytes for one input.
///
/// `read` fills as much of the destination as it can and returns the count; 0 means the input
/// ended cleanly. A decoder that meets a fault after producing bytes returns those bytes first
/// and throws on the next call, so everything before a fault is delivered.
protocol ByteDecoder: AnyObject {
  /// Reads decoded bytes into `buffer[0..<capacity]`; 0 means end of input.
  func read(into buffer: UnsafeMutableRawPointer, capacity: Int) throws(DecodeFailure) -> Int
  /// Compressed bytes consumed so far (for plain input, bytes read).
  var compressedBytesConsumed: UInt64 { get }
}

/// Plain text: bytes go straight from `read(2)` into the caller's (page-aligned) buffer.
final class PlainDecoder: ByteDecoder {
  private let file: FileInput

  init(file: FileInput) { self.file = file }

  func read(into buffer: UnsafeMutableRawPointer, capacity: Int) throws(DecodeFailure) -> Int {
    try file.read(into: buffer, capacity: capacity)
  }

  var compressedBytesConsumed: UInt64 { file.bytesRead }
}
