import CZlib
import Glibc

/// gzip input via zlib's `inflate` (`windowBits 15+16`: gzip members only).
///
/// Multi-member files (`cat a.gz b.gz`) are one stream: after `Z_STREAM_END` with input left,
/// the stream is reset and decoding continues. Input that ends inside a member is `truncated`;
/// any other zlib fault (bad header, bad data, CRC or length mismatch, non-gzip bytes after a
/// member, a zlib stream among them) is `corrupt`. A byte after a member that cannot start one
/// is `corrupt` at once, as zlib says of two such bytes, not `truncated` at the end of input.
/// Zero bytes after the last member are padding (tape and block devices write them; GNU gzip
/// ignores them too) and end the stream; anything after such padding is `corrupt`.
///
/// The members' check values are computed here, not by zlib: on gzip input the reader is the
/// slowest stage, and libdeflate's CRC-32 (`CRC32`, folding with PCLMULQDQ) costs less than half
/// of zlib's (docs/DECISIONS.md [2.1, issue 25]). zlib is told not to
/// compute them (`inflateValidate`); each member's output goes through `CRC32`, and at the
/// member's end the trailer's values, the last bytes inflate consumed, are compared with them:
/// a mismatch is `corrupt`, with zlib's words.
/// The optional CRC-16 of a gzip header (`FHCRC`, which gzip itself never writes) goes unchecked
/// with them; the data's CRC-32 still covers every byte decoded.
final class GzipDecoder: ByteDecoder {
  private let file: FileInput
  private let stream: UnsafeMutablePointer<z_stream>
  private let input: UnsafeMutableRawPointer
  private let inputCapacity: Int
  private var inputEnded = false
  private var memberEnded = false
  /// Zero bytes of padding were skipped after a member: only more zeros may follow.
  private var inPadding = false
  private var finished = false
  private var pendingFailure: DecodeFailure?
  /// The current member's CRC-32 so far (its length is zlib's `total_out`, which
  /// `inflateReset` zeroes for each member).
  private var crc = CRC32()
  /// The last 8 bytes inflate consumed, the latest in the low byte: at a member's end, its
  /// trailer (CRC-32 and length, little-endian).
  private var lastConsumed: UInt64 = 0
  /// The compressed offset of the current member's first byte: a member that fails before any
  /// output fails there (`DecodeFailure.at`).
  private var memberStart: UInt64 = 0

  /// A decoder of `file`; `inputCapacity` is the compressed bytes read at a time (tests make it
  /// tiny, so that trailers straddle reads).
  init(file: FileInput, inputCapacity: Int = 256 << 10) {
    self.file = file
    self.inputCapacity = inputCapacity
    self.input = PageAlignedMemory.allocate(inputCapacity)
    // Safe because `stream` and `header` are allocated and initialised once here and freed only
    // in deinit.
    stream = .allocate(capacity: 1)
    stream.initialize(to: z_stream())
    let status = inflateInit2_(stream, 15 + 16, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size))
    precondition(status == Z_OK, "inflateInit2 failed (\(status))")
    startMember()
  }

  deinit {
    inflateEnd(stream)
    // Safe because nothing uses the stream after deinit, and `input` came from `posix_memalign`
    // (`PageAlignedMemory`), which `free` takes.
    stream.deinitialize(count: 1)
    stream.deallocate()
    free(input)
  }

  /// Prepares the stream (new or reset) for a member: its CRC-32 is computed here.
  private func startMember() {
    inflateValidate(stream, 0)
    crc = CRC32()
  }

  /// Adds `count` bytes inflate wrote at `start` to the member's CRC-32.
  private func check(_ start: UnsafeRawPointer, _ count: Int) {
    guard count > 0 else { return }
    // Safe because inflate has just written `count` bytes at `start`, inside the caller's buffer.
    crc.update(UnsafeRawBufferPointer(start: start, count: count))
  }

  /// Remembers the last of the `count` bytes before `end` that inflate consumed.
  private func remember(consumed count: Int, before end: UnsafePointer<Bytef>) {
    if count >= 8 {
      // Safe because the 8 bytes before `end` are input inflate just consumed.
      lastConsumed = UInt64(bigEndian: UnsafeRawPointer(end - 8).loadUnaligned(as: UInt64.self))
      return
    }
    for offset in stride(from: count, to: 0, by: -1) {
      // Safe because offset <= count: `end - offset` is a byte inflate just consumed.
      lastConsumed = lastConsumed << 8 | UInt64(end[-offset])
    }
  }

  /// The trailer of the member that just ended matches what it decoded, or the fault.
  private func trailerFault() -> DecodeFailure? {
    // CRC-32 then ISIZE, each little-endian, the last 8 bytes.
    let stored = UInt32(truncatingIfNeeded: lastConsumed >> 32).byteSwapped
    let size = UInt32(truncatingIfNeeded: lastConsumed).byteSwapped
    if stored != crc.value {
      return DecodeFailure(reason: .corrupt, detail: "incorrect data check")
    }
    // ISIZE is the length modulo 2^32.
    if size != UInt32(truncatingIfNeeded: stream.pointee.total_out) {
      return DecodeFailure(reason: .corrupt, detail: "incorrect length check")
    }
    return nil
  }

  var compressedBytesConsumed: UInt64 { file.bytesRead - UInt64(stream.pointee.avail_in) }

  func read(into buffer: UnsafeMutableRawPointer, capacity: Int) throws(DecodeFailure) -> Int {
    if let failure = pendingFailure { throw failure }
    if finished { return 0 }
    var produced = 0
    while produced < capacity {
      if stream.pointee.avail_in == 0 && !inputEnded {
        let n: Int
        do {
          n = try file.read(into: input, capacity: inputCapacity)
        } catch {
          // What this call decoded before the failed read goes out first.
          return try fail(error, produced)
        }
        if n == 0 {
          inputEnded = true
        } else {
          // Safe because `input` is only ever accessed as bytes and holds `n` bytes just read.
          stream.pointee.next_in = input.assumingMemoryBound(to: Bytef.self)
          stream.pointee.avail_in = UInt32(n)
        }
      }
      if memberEnded {
        // Safe because `next_in` points at `avail_in` readable bytes.
        while stream.pointee.avail_in > 0 && stream.pointee.next_in[0] == 0 {
          stream.pointee.next_in += 1
          stream.pointee.avail_in -= 1
          inPadding = true
        }
        if stream.pointee.avail_in == 0 {
          if inputEnded {
            finished = true
            break
          }
          continue
        }
        if inPadding {
          return try fail(
            DecodeFailure(reason: .corrupt, detail: "data after the zero padding of a gzip stream"),
            produced)
        }
        // Safe because avail_in > 0 (checked above).
        if stream.pointee.next_in[0] != 0x1F {
          // What zlib says once it holds two header bytes; one byte alone, at the end of the
          // input, would read as a member cut short.
          return try fail(
            DecodeFailure(reason: .corrupt, detail: "incorrect header check"), produced)
        }
        memberStart = compressedBytesConsumed
        inflateReset(stream)
        startMember()
        memberEnded = false
      }
      let room = UInt32(min(capacity - produced, Int(UInt32.max)))
      let availableBefore = stream.pointee.avail_in
      let start = buffer + produced
      // Safe because produced < capacity and room <= capacity - produced: zlib writes inside
      // the caller's buffer.
      stream.pointee.next_out = start.assumingMemoryBound(to: Bytef.self)
      stream.pointee.avail_out = room
      let status = inflate(stream, Z_NO_FLUSH)
      let written = Int(room - stream.pointee.avail_out)
      produced += written
      check(start, written)
      if stream.pointee.avail_in != availableBefore {
        remember(
          consumed: Int(availableBefore - stream.pointee.avail_in), before: stream.pointee.next_in)
      }
      switch status {
      case Z_STREAM_END:
        if let fault = trailerFault() { return try fail(fault, produced) }
        memberEnded = true
      case Z_OK, Z_BUF_ERROR:
        let stalled = written == 0 && stream.pointee.avail_in == availableBefore
        if stalled && stream.pointee.avail_in == 0 && inputEnded {
          return try fail(
            DecodeFailure(reason: .truncated, detail: "unexpected end of gzip stream"), produced)
        }
      default:
        let message = stream.pointee.msg.map { String(cString: $0) } ?? "zlib error \(status)"
        let at = stream.pointee.total_out == 0 ? memberStart : nil
        return try fail(DecodeFailure(reason: .corrupt, detail: message, at: at), produced)
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
