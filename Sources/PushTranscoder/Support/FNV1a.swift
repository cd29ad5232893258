/// The 64-bit FNV-1a hash (SPEC 9, vivo `requestId`).
package enum FNV1a {
  static let offsetBasis: UInt64 = 0xcbf2_9ce4_8422_2325
  static let prime: UInt64 = 0x0000_0100_0000_01B3

  /// The hash of `bytes`.
  package static func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
    hash(bytes, continuing: offsetBasis)
  }

  /// The hash of bytes that begin with those hashed to `state` and go on with `bytes`.
  static func hash(_ bytes: UnsafeBufferPointer<UInt8>, continuing state: UInt64) -> UInt64 {
    var hash = state
    for byte in bytes {
      hash ^= UInt64(byte)
      // Safe because FNV-1a is defined modulo 2^64: the wrapping multiply is the definition.
      hash = hash &* prime
    }
    return hash
  }

  /// Steps four hashes over `steps` bytes of their own lines. A function of its own so that the
  /// loop keeps its four pointers, four hashes and counter in registers (inlined into
  /// `hashes`, the lane bookkeeping around it pushed them onto the stack).
  @inline(never)
  static func fourLanes(
    _ p0: UnsafePointer<UInt8>, _ p1: UnsafePointer<UInt8>, _ p2: UnsafePointer<UInt8>,
    _ p3: UnsafePointer<UInt8>, steps: Int, _ state: (UInt64, UInt64, UInt64, UInt64)
  ) -> (UInt64, UInt64, UInt64, UInt64) {
    var (a, b, c, d) = state
    var offset = 0
    // Safe because the caller guarantees `steps` readable bytes at each pointer, `offset < steps`
    // cannot wrap, and FNV-1a's multiplies are defined modulo 2^64.
    while offset < steps {
      a = (a ^ UInt64(p0[offset])) &* prime
      b = (b ^ UInt64(p1[offset])) &* prime
      c = (c ^ UInt64(p2[offset])) &* prime
      d = (d ^ UInt64(p3[offset])) &* prime
      offset &+= 1
    }
    return (a, b, c, d)
  }

  /// The hashes of many lines at once: `hashes[i] = hash(lines[i])`.
  ///
  /// FNV-1a is one dependent multiply per byte, so a single line runs at the multiplier's
  /// latency (about 4 cycles a byte). Four lines hashed side by side are four independent
  /// chains the core overlaps: the loop steps four lanes a byte each for as long as the
  /// shortest lane lasts, then refills the lanes that ended with the next lines. The lanes are
  /// four plain values, not an array: their bookkeeping runs once per line.
  package static func hashes(
    _ lines: UnsafeBufferPointer<UnsafeBufferPointer<UInt8>>,
    into hashes: UnsafeMutablePointer<UInt64>
  ) {
    var next = 0
    /// Stores the hash of the lane's line (if any), then gives the lane the next line that has
    /// bytes (an empty line's hash is the basis, stored at once). False when no line is left.
    func refill(_ lane: inout Lane) -> Bool {
      while true {
        // Safe because a lane's line is below `lines.count`, and the caller gives that many
        // slots.
        if lane.line >= 0 { hashes[lane.line] = lane.hash }
        guard next < lines.count else {
          lane.line = -1
          return false
        }
        let line = lines[next]
        lane = Lane(line: next, cursor: line.baseAddress, left: line.count, hash: offsetBasis)
        next += 1
        if lane.left > 0 { return true }
      }
    }
    var a = Lane()
    var b = Lane()
    var c = Lane()
    var d = Lane()
    var full = refill(&a) && refill(&b) && refill(&c) && refill(&d)
    while full {
      let steps = min(min(a.left, b.left), min(c.left, d.left))
      // Safe because each lane has at least `steps` bytes left at its cursor (all four hold a
      // line with bytes while `full`).
      (a.hash, b.hash, c.hash, d.hash) = fourLanes(
        a.cursor!, b.cursor!, c.cursor!, d.cursor!, steps: steps, (a.hash, b.hash, c.hash, d.hash))
      a.advance(steps)
      b.advance(steps)
      c.advance(steps)
      d.advance(steps)
      if a.left == 0 && !refill(&a) { full = false }
      if b.left == 0 && !refill(&b) { full = false }
      if c.left == 0 && !refill(&c) { full = false }
      if d.left == 0 && !refill(&d) { full = false }
    }
    // The lines are all taken: finish those still in a lane, one by one.
    func finish(_ lane: Lane) {
      guard lane.line >= 0 else { return }
      // Safe because `left` bytes remain at the lane's cursor, and the line's slot is below
      // `lines.count`.
      hashes[lane.line] = hash(
        UnsafeBufferPointer(start: lane.cursor, count: lane.left), continuing: lane.hash)
    }
    finish(a)
    finish(b)
    finish(c)
    finish(d)
  }

  /// One lane of `hashes`: the line it hashes (-1 for none), where it is in it, the bytes left
  /// and the hash so far.
  private struct Lane {
    var line = -1
    var cursor: UnsafePointer<UInt8>? = nil
    var left = 0
    var hash = offsetBasis

    mutating func advance(_ steps: Int) {
      // Safe because `steps` is at most `left`, so the cursor stays inside the line.
      cursor = cursor.map { $0 + steps }
      left -= steps
    }
  }
}
