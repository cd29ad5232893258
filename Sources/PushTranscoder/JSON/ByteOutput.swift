/// Something bytes are appended to: a `JSONWriter` (records), or a `[UInt8]` (scratch buffers
/// and tests). Lets one escaping routine serve both without a copy.
public protocol ByteOutput {
  /// Appends one byte.
  mutating func appendByte(_ byte: UInt8)
  /// Appends `bytes` as they are.
  mutating func appendBytes(_ bytes: UnsafeBufferPointer<UInt8>)
}

extension Array: ByteOutput where Element == UInt8 {
  @inline(__always)
  public mutating func appendByte(_ byte: UInt8) { append(byte) }

  @inline(__always)
  public mutating func appendBytes(_ bytes: UnsafeBufferPointer<UInt8>) {
    append(contentsOf: bytes)
  }
}

extension JSONWriter: ByteOutput {
  @inline(__always)
  public mutating func appendByte(_ byte: UInt8) { self.byte(byte) }

  @inline(__always)
  public mutating func appendBytes(_ bytes: UnsafeBufferPointer<UInt8>) { raw(bytes) }
}
