import Glibc
import Testing

/// A loopback TCP connection whose receiving end holds `bytes` and then the peer's reset: reads
/// return those bytes, then fail with `ECONNRESET`. A real input that fails after delivering
/// data (a network stream cut short), for the read-failure paths.
final class ResetConnection {
  /// The receiving end; closed with the connection.
  let descriptor: Int32

  init(holding bytes: [UInt8]) throws {
    let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    try #require(listener >= 0)
    defer { close(listener) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    // Safe because `address` is a `sockaddr_in` of `length` bytes, viewed as the generic
    // `sockaddr` the socket calls take.
    let bound = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(listener, $0, length) == 0 && listen(listener, 1) == 0
          && getsockname(listener, $0, &length) == 0
      }
    }
    try #require(bound, "bind: \(String(cString: strerror(errno)))")
    let sender = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    try #require(sender >= 0)
    // Safe as above.
    let connected = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(sender, $0, length) == 0 }
    }
    try #require(connected, "connect: \(String(cString: strerror(errno)))")
    descriptor = accept(listener, nil, nil)
    try #require(descriptor >= 0)
    let written = bytes.withUnsafeBytes { write(sender, $0.baseAddress, $0.count) }
    try #require(written == bytes.count)
    // Every byte in the receiver's queue before the reset, which discards what is still unsent.
    var queued: Int32 = 0
    for _ in 0..<500 {
      _ = ioctl(descriptor, UInt(FIONREAD), &queued)
      if queued == Int32(bytes.count) { break }
      usleep(10_000)
    }
    try #require(queued == Int32(bytes.count))
    // A zero linger time makes `close` send a reset instead of the end of the stream.
    var linger = Glibc.linger(l_onoff: 1, l_linger: 0)
    try #require(
      setsockopt(
        sender, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<Glibc.linger>.size)) == 0)
    close(sender)
    // The reset has arrived once the receiver reports an error or hang-up beside its data.
    var ready = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
    for _ in 0..<500 {
      _ = poll(&ready, 1, 10)
      if ready.revents & Int16(POLLERR | POLLHUP) != 0 { break }
    }
    try #require(ready.revents & Int16(POLLERR | POLLHUP) != 0)
  }

  deinit { close(descriptor) }
}
