import CLZ4
import Glibc

/// LZ4 frame input via liblz4's `LZ4F_decompress`.
///
/// Concatenated frames decode as one stream (the context resets itself after each frame) and
/// skippable frames are skipped by liblz4. Input that ends inside a frame (header, block or
/// checksum) is `truncated`; an error code from liblz4 (bad magic, bad block, content checksum
/// mismatch) is `corrupt`.
///
/// Each call hands liblz4 no more input than its hint asks for, less the next block's header
/// (one block, or the next header or checksum). On an error `LZ4F_decompress` returns without reporting what it wrote in that
/// call, so a call that decoded blocks and then met a bad content checksum lost those blocks,
/// and how many were lost depended on the size of the read (`--chunk-bytes`). One step per
/// call, and a call without input to flush what liblz4 still holds before the next step, lose
/// nothing: a frame's end (its content size, its checksum) is checked in a call that writes no
/// output, and every line decoded before it is delivered, as `lz4 -d` delivers them.
final class LZ4Decoder: ByteDecoder {
  private let file: FileInput
  private var context: OpaquePointer?
  private let input: UnsafeMutableRawPointer
  private let inputCapacity: Int
  private var inputStart = 0
  private var inputEnd = 0
  private var inputEnded = false
  private var insideFrame = false
  private var finished = false
  private var pendingFailure: DecodeFailure?
  /// The input liblz4 expects next (its return value); 4 (a frame's magic number) at the start
  /// of a frame.
  private var nextInputHint = 4
  /// The first bytes of the current frame, as far as they came (its magic number): liblz4
  /// checks the magic only once it holds 7 header bytes, so input that ends sooner is told
  /// apart here, as a frame cut short (`truncated`) or bytes that start no frame (`corrupt`).
  /// Little-endian: the first byte in the low 8 bits.
  private var frameMagic: UInt32 = 0
  private var frameMagicCount = 0
  /// True after a call that wrote output: liblz4 may hold more of the block it decoded (a block
  /// larger than the room given is decoded into its own buffer and handed out in pieces), and
  /// a call with input would hand out the rest and then check the next step, losing the rest
  /// if that check fails (a frame's wrong content size: the bytes delivered then depended on
  /// `--threads` and `--chunk-bytes`). So the next call gives no input until nothing is held.
  private var mayHoldOutput = false

  /// A decoder of `file`; `inputCapacity` is the compressed bytes read at a time (tests make it
  /// tiny, so that magic numbers and blocks straddle reads).
  init(file: FileInput, inputCapacity: Int = 256 << 10) {
    self.file = file
    self.inputCapacity = inputCapacity
    self.input = PageAlignedMemory.allocate(inputCapacity)
    let status = LZ4F_createDecompressionContext(&context, UInt32(LZ4F_VERSION))
    precondition(LZ4F_isError(status) == 0, "LZ4F_createDecompressionContext failed")
  }

  deinit {
    LZ4F_freeDecompressionContext(context)
    // Safe because `input` came from `posix_memalign` (`PageAlignedMemory`), which `free` takes.
    free(input)
  }

  var compressedBytesConsumed: UInt64 { file.bytesRead - UInt64(inputEnd - inputStart) }

  func read(into buffer: UnsafeMutableRawPointer, capacity: Int) throws(DecodeFailure) -> Int {
    if let failure = pendingFailure { throw failure }
    if finished { return 0 }
    var produced = 0
    while produced < capacity {
      if inputStart == inputEnd && !inputEnded {
        let n: Int
        do {
          n = try file.read(into: input, capacity: inputCapacity)
        } catch {
          // What this call decoded before the failed read goes out first.
          return try fail(error, produced)
        }
        inputStart = 0
        inputEnd = n
        if n == 0 { inputEnded = true }
      }
      var outputSize = capacity - produced
      // liblz4's hint for a block counts the next block's 4-byte header too: the block comes
      // alone, and the header after it (a frame's end mark, where the content size is checked)
      // in a call of its own, which writes nothing.
      let step = nextInputHint > 4 ? nextInputHint - 4 : nextInputHint
      var inputSize = mayHoldOutput ? 0 : min(inputEnd - inputStart, step)
      // Safe because output stays in buffer[produced..<capacity] and input in the unread bytes
      // input[inputStart..<inputEnd]; liblz4 reports how much of each it used.
      let hint = LZ4F_decompress(
        context, buffer + produced, &outputSize, input + inputStart, &inputSize, nil)
      if LZ4F_isError(hint) != 0 {
        let message = String(cString: LZ4F_getErrorName(hint))
        return try fail(DecodeFailure(reason: .corrupt, detail: message), produced)
      }
      var taken = 0
      while frameMagicCount < 4 && taken < inputSize {
        // Safe because the byte is among the `inputSize` that liblz4 just took from
        // `input[inputStart...]`.
        let byte = input.load(fromByteOffset: inputStart + taken, as: UInt8.self)
        frameMagic |= UInt32(byte) << (8 * frameMagicCount)
        frameMagicCount += 1
        taken += 1
      }
      inputStart += inputSize
      produced += outputSize
      if mayHoldOutput && outputSize == 0 {
        // Nothing was held: the next call takes input.
        mayHoldOutput = false
        continue
      }
      mayHoldOutput = outputSize > 0
      nextInputHint = hint == 0 ? 4 : hint
      if hint == 0 {
        insideFrame = false
        frameMagic = 0
        frameMagicCount = 0
      } else if inputSize > 0 || outputSize > 0 {
        insideFrame = true
      }
      if inputSize == 0 && outputSize == 0 && inputStart == inputEnd && inputEnded {
        if insideFrame && !startsAFrame() {
          // liblz4's name for the same bytes when 7 or more of them come.
          return try fail(
            DecodeFailure(reason: .corrupt, detail: "ERROR_frameType_unknown"), produced)
        }
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

  /// True when the current frame's first bytes, as far as they came, begin an LZ4 frame's
  /// magic number (`04 22 4D 18`) or a skippable frame's (`50`–`5F`, then `2A 4D 18`).
  private func startsAFrame() -> Bool {
    let seen: UInt32 = frameMagicCount >= 4 ? ~0 : (1 << (8 * frameMagicCount)) - 1
    let lz4: UInt32 = 0x184D_2204
    let skippable: UInt32 = 0x184D_2A50  // the low 4 bits are free
    return frameMagic & seen == lz4 & seen || frameMagic & seen & ~0xF == skippable & seen
  }

  /// Returns the bytes already produced and keeps the failure for the next call, or throws now.
  private func fail(_ failure: DecodeFailure, _ produced: Int) throws(DecodeFailure) -> Int {
    if produced == 0 { throw failure }
    pendingFailure = failure
    return produced
  }
}
