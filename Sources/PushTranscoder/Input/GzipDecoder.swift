import CZlib
import Glibc

/// gzip input via zlib's `inflate` (`windowBits 15+32`: gzip or zlib header, detected).
///
/// Multi-member files (`cat a.gz b.gz`) are one stream: after `Z_STREAM_END` with input left,
/// the stream is reset and decoding continues. Input that ends inside a member is `truncated`;
/// any other zlib fault (bad header, bad data, CRC or length mismatch, non-gzip bytes after a
/// member) is `corrupt`. Zero bytes after the last member are padding (tape and block devices
/// write them; GNU gzip ignores them too) and end the stream; anything after such padding is
/// `corrupt`.
final class GzipDecoder: ByteDecoder {
  private let file: FileInput
  private let stream: UnsafeMutablePointer<z_stream>
  private let input: UnsafeMutableRawPointer
  private let inputCapacity = 256 << 10
  private var inputEnded = false
  private var memberEnded = false
  /// Zero bytes of padding were skipped after a member: only more zeros may follow.
  private var inPadding = false
  private var finished = false
  private var pendingFailure: DecodeFailure?

  init(file: FileInput) {
    self.file = file
    self.input = PageAlignedMemory.allocate(inputCapacity)
    // Safe because `stream` is allocated and initialised once here and freed only in deinit.
    stream = .allocate(capacity: 1)
    stream.initialize(to: z_stream())
    let status = inflateInit2_(stream, 15 + 32, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size))
    precondition(status == Z_OK, "inflateInit2 failed (\(status))")
  }

  deinit {
    inflateEnd(stream)
    // Safe because nothing uses the stream after deinit, and `input` came from `posix_memalign`
    // (`PageAlignedMemory`), which `free` takes.
    stream.deinitialize(count: 1)
    stream.deallocate()
    free(input)
  }

  var compressedBytesConsumed: UInt64 { file.bytesRead - UInt64(stream.pointee.avail_in) }

  func read(into buffer: UnsafeMutableRawPointer, capacity: Int) throws(DecodeFailure) -> Int {
    if let failure = pendingFailure { throw failure }
    if finished { return 0 }
    var produced = 0
    while produced < capacity {
      if stream.pointee.avail_in == 0 && !inputEnded {
        let n = try file.read(into: input, capacity: inputCapacity)
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
        inflateReset(stream)
        memberEnded = false
      }
      let room = UInt32(min(capacity - produced, Int(UInt32.max)))
      let availableBefore = stream.pointee.avail_in
      // Safe because produced < capacity and room <= capacity - produced: zlib writes inside
      // the caller's buffer.
      stream.pointee.next_out = (buffer + produced).assumingMemoryBound(to: Bytef.self)
      stream.pointee.avail_out = room
      let status = inflate(stream, Z_NO_FLUSH)
      let written = Int(room - stream.pointee.avail_out)
      produced += written
      switch status {
      case Z_STREAM_END:
        memberEnded = true
      case Z_OK, Z_BUF_ERROR:
        let stalled = written == 0 && stream.pointee.avail_in == availableBefore
        if stalled && stream.pointee.avail_in == 0 && inputEnded {
          return try fail(
            DecodeFailure(reason: .truncated, detail: "unexpected end of gzip stream"), produced)
        }
      default:
        let message = stream.pointee.msg.map { String(cString: $0) } ?? "zlib error \(status)"
        return try fail(DecodeFailure(reason: .corrupt, detail: message), produced)
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
