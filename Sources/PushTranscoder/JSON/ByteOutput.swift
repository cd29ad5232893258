/// Something bytes are appended to: a `JSONWriter` (records), or a `[UInt8]` (scratch buffers
/// and tests). Lets one escaping routine serve both without a copy.
package protocol ByteOutput: ~Copyable {
  /// Appends one byte.
  mutating func appendByte(_ byte: UInt8)
  /// Appends `bytes` as they are.
  mutating func appendBytes(_ bytes: UnsafeBufferPointer<UInt8>)
}

extension Array where Element == UInt8 {
  /// The bytes `fill` writes at a pointer with room for `capacity` of them; `fill` returns how
  /// many it wrote. They are written into temporary storage (on the stack when small) and
  /// copied out: `init(unsafeUninitializedCapacity:)` and `init(repeating:count:)` reach an
  /// unspecialized allocation in the standard library that looks the storage type up at run
  /// time on every call, which costs more than the copy.
  @inline(__always)
  static func filled(capacity: Int, _ fill: (UnsafeMutablePointer<UInt8>) -> Int) -> [UInt8] {
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: Swift.max(capacity, 1)) { scratch in
      // Safe because `fill` writes at most `capacity` bytes and reports how many.
      let count = fill(scratch.baseAddress!)
      return Array(UnsafeBufferPointer(rebasing: scratch[..<count]))
    }
  }

  /// Replaces the contents of `array` by the bytes `fill` writes, as `filled` does, but in the
  /// array's own storage when it is unshared and large enough: no allocation.
  @inline(__always)
  static func refill(
    _ array: inout [UInt8], capacity: Int, _ fill: (UnsafeMutablePointer<UInt8>) -> Int
  ) {
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: Swift.max(capacity, 1)) { scratch in
      // Safe because `fill` writes at most `capacity` bytes and reports how many.
      let count = fill(scratch.baseAddress!)
      array.removeAll(keepingCapacity: true)
      array.append(contentsOf: UnsafeBufferPointer(rebasing: scratch[..<count]))
    }
  }
}

extension Array: ByteOutput where Element == UInt8 {
  /// Appends one byte to the array.
  @inline(__always)
  package mutating func appendByte(_ byte: UInt8) { append(byte) }

  /// Appends `bytes` to the array as they are.
  @inline(__always)
  package mutating func appendBytes(_ bytes: UnsafeBufferPointer<UInt8>) {
    append(contentsOf: bytes)
  }
}

extension JSONWriter: ByteOutput {
  /// Appends one byte to the writer (`byte(_:)`).
  @inline(__always)
  package mutating func appendByte(_ byte: UInt8) { self.byte(byte) }

  /// Appends `bytes` to the writer as they are (`raw(_:)`).
  @inline(__always)
  package mutating func appendBytes(_ bytes: UnsafeBufferPointer<UInt8>) { raw(bytes) }
}
