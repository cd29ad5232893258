import Foundation
import Glibc
import Testing

@testable import PushTranscoder

/// A descriptor in non-blocking mode is read and written as a blocking one: the mode belongs to
/// the open pipe or terminal, shared with whoever set it (a parent that made its pipes
/// non-blocking, another program on the same terminal), so `EAGAIN` means "not yet", not a
/// failed input or output.
@Suite struct NonBlockingDescriptorTests {
  /// A pipe whose end `nonBlocking` (0 read, 1 write) has `O_NONBLOCK` set.
  static func pipe(nonBlocking end: Int) throws -> (read: Int32, write: Int32) {
    var ends: [Int32] = [0, 0]
    try #require(Glibc.pipe(&ends) == 0)
    try #require(fcntl(ends[end], F_SETFL, fcntl(ends[end], F_GETFL) | O_NONBLOCK) == 0)
    return (ends[0], ends[1])
  }

  /// The input is read before its writer has written anything, and between two writes: each
  /// read waits for bytes. Each read failed with EAGAIN ("Resource temporarily unavailable").
  @Test func aNonBlockingInputWithNothingYetWaitsForBytes() throws {
    let ends = try Self.pipe(nonBlocking: 0)
    let writer = DispatchGroup()
    DispatchQueue.global().async(group: writer) {
      for piece in ["abc\n", "def\n"] {
        usleep(50_000)
        _ = Array(piece.utf8).withUnsafeBytes { write(ends.write, $0.baseAddress, $0.count) }
      }
      close(ends.write)
    }
    defer { close(ends.read) }
    let input = FileInput(descriptor: ends.read)
    var received: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    var failure: (any Error)?
    while failure == nil {
      do {
        let count = try buffer.withUnsafeMutableBytes {
          try input.read(into: $0.baseAddress!, capacity: $0.count)
        }
        if count == 0 { break }
        received += buffer[..<count]
      } catch {
        failure = error
      }
    }
    writer.wait()
    #expect(failure == nil, "\(String(describing: failure))")
    #expect(String(decoding: received, as: UTF8.self) == "abc\ndef\n")
  }

  /// 1 MiB into a pipe of 64 KiB whose reader starts late: the write waits for room. It returned
  /// EAGAIN once the pipe was full.
  @Test func aNonBlockingOutputWithAFullPipeWaitsForRoom() throws {
    let ends = try Self.pipe(nonBlocking: 1)
    let payload = (0..<(1 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 31) }
    let reader = DispatchGroup()
    nonisolated(unsafe) var received: [UInt8] = []
    DispatchQueue.global().async(group: reader) {
      usleep(50_000)
      var buffer = [UInt8](repeating: 0, count: 1 << 16)
      while true {
        let count = buffer.withUnsafeMutableBytes { read(ends.read, $0.baseAddress, $0.count) }
        if count <= 0 { break }
        received += buffer[..<count]
      }
      close(ends.read)
    }
    let failure = FileDescriptorWriter.writeAll(ends.write, payload)
    close(ends.write)
    reader.wait()
    #expect(failure == nil, "\(String(cString: strerror(failure ?? 0)))")
    let same = received == payload
    #expect(same, "\(received.count) bytes of \(payload.count)")
  }
}
