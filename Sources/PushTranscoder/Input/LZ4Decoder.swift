import CLZ4
import Glibc

/// LZ4 frame input via liblz4's `LZ4F_decompress`.
///
/// Concatenated frames decode as one stream (the context resets itself after each frame) and
/// skippable frames are skipped by liblz4. Input that ends inside a frame (header, block or
/// checksum) is `truncated`; an error code from liblz4 (bad magic, bad block, content checksum
/// mismatch) is `corrupt`.
///
/// On an error `LZ4F_decompress` returns without reporting what it wrote in that call. So no
/// call that can fail at a frame's end (its declared content size, its checksum) may also
/// write output: each call hands liblz4 less input than its hint asks for, by 8 bytes (at
/// least 1), which keeps the block header after a block (the end mark among them) out of the
/// call that completes the block; and after a call that wrote output, calls without input
/// empty what liblz4 still holds before the next input. A frame's end is then checked in a
/// call that writes nothing, and every line decoded before it is delivered, as `lz4 -d`
/// delivers them, whatever the reads (`--chunk-bytes`). The 8: liblz4's hint counts the next
/// block's 4-byte header and, for a block that arrives in pieces with block checksums on,
/// the block's checksum twice (liblz4 1.9.4). Holding bytes back only splits a step into more
/// calls. A corrupt block itself can still be delivered in part: liblz4 hands out an
/// uncompressed block's bytes before it checks the block's checksum.
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
  /// The compressed offset of the current frame's first byte, and whether the frame has written
  /// output: a frame that fails before any fails there (`DecodeFailure.at`).
  private var frameStart: UInt64 = 0
  private var frameWrote = false
  /// True after a call that wrote output: liblz4 may hold more of the block it decoded (a block
  /// larger than the room given is decoded into its own buffer and handed out in pieces), and
  /// a call with input would hand out the rest and then check the next step, losing the rest
  /// if that check fails. So the next call gives no input until nothing is held.
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
      // 8 bytes short of the hint (see the type's comment): the header after a block comes in
      // calls of its own, which write nothing.
      let step = max(1, nextInputHint - 8)
      var inputSize = mayHoldOutput ? 0 : min(inputEnd - inputStart, step)
      // Safe because output stays in buffer[produced..<capacity] and input in the unread bytes
      // input[inputStart..<inputEnd]; liblz4 reports how much of each it used.
      let hint = LZ4F_decompress(
        context, buffer + produced, &outputSize, input + inputStart, &inputSize, nil)
      if LZ4F_isError(hint) != 0 {
        let message = String(cString: LZ4F_getErrorName(hint))
        return try fail(
          DecodeFailure(reason: .corrupt, detail: message, at: frameWrote ? nil : frameStart),
          produced)
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
      if outputSize > 0 { frameWrote = true }
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
        frameStart = compressedBytesConsumed
        frameWrote = false
      } else if inputSize > 0 || outputSize > 0 {
        insideFrame = true
      }
      if inputSize == 0 && outputSize == 0 && inputStart == inputEnd && inputEnded {
        if insideFrame && !startsAFrame() {
          // liblz4's name for the same bytes when 7 or more of them come.
          return try fail(
            DecodeFailure(reason: .corrupt, detail: "ERROR_frameType_unknown", at: frameStart),
            produced)
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
