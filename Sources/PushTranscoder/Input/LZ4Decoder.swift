import CLZ4

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// LZ4 frame input via liblz4's `LZ4F_decompress`.
///
/// Concatenated frames decode as one stream (the context resets itself after each frame) and
/// skippable frames are skipped by liblz4. Input that ends inside a frame (header, block or
/// checksum) is `truncated`; an error code from liblz4 (bad magic, bad block, content checksum
/// mismatch) is `corrupt`.
final class LZ4Decoder: ByteDecoder {
  private let file: FileInput
  private var context: OpaquePointer?
  private let input: UnsafeMutableRawPointer
  private let inputCapacity = 256 << 10
  private var inputStart = 0
  private var inputEnd = 0
  private var inputEnded = false
  private var insideFrame = false
  private var finished = false
  private var pendingFailure: DecodeFailure?

  init(file: FileInput) {
    self.file = file
    self.input = PageAlignedMemory.allocate(inputCapacity)
    let status = LZ4F_createDecompressionContext(&context, UInt32(LZ4F_VERSION))
    precondition(LZ4F_isError(status) == 0, "LZ4F_createDecompressionContext failed")
  }

  deinit {
    LZ4F_freeDecompressionContext(context)
    free(input)
  }

  var compressedBytesConsumed: UInt64 { file.bytesRead - UInt64(inputEnd - inputStart) }

  func read(into buffer: UnsafeMutableRawPointer, capacity: Int) throws(DecodeFailure) -> Int {
    if let failure = pendingFailure { throw failure }
    if finished { return 0 }
    var produced = 0
    while produced < capacity {
      if inputStart == inputEnd && !inputEnded {
        let n = try file.read(into: input, capacity: inputCapacity)
        inputStart = 0
        inputEnd = n
        if n == 0 { inputEnded = true }
      }
      var outputSize = capacity - produced
      var inputSize = inputEnd - inputStart
      let hint = LZ4F_decompress(
        context, buffer + produced, &outputSize, input + inputStart, &inputSize, nil)
      if LZ4F_isError(hint) != 0 {
        let message = String(cString: LZ4F_getErrorName(hint))
        return try fail(DecodeFailure(reason: .corrupt, detail: message), produced)
      }
      inputStart += inputSize
      produced += outputSize
      if hint == 0 {
        insideFrame = false
      } else if inputSize > 0 || outputSize > 0 {
        insideFrame = true
      }
      if inputSize == 0 && outputSize == 0 && inputStart == inputEnd && inputEnded {
        if insideFrame {
          return try fail(
            DecodeFailure(reason: .truncated, detail: "unexpected end of LZ4 frame"), produced)
        }
        finished = true
        break
      }
    }
    return produced
  }

  /// Returns the bytes already produced and keeps the failure for the next call, or throws now.
  private func fail(_ failure: DecodeFailure, _ produced: Int) throws(DecodeFailure) -> Int {
    if produced == 0 { throw failure }
    pendingFailure = failure
    return produced
  }
}
