/// The 64-bit FNV-1a hash (SPEC 9, vivo `requestId`).
package enum FNV1a {
  static let offsetBasis: UInt64 = 0xcbf2_9ce4_8422_2325
  static let prime: UInt64 = 0x0000_0100_0000_01B3

  /// The hash of `bytes`.
  package static func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
    var hash = offsetBasis
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
  /// shortest lane lasts, then refills the lanes that ended with the next lines.
  package static func hashes(
    _ lines: UnsafeBufferPointer<UnsafeBufferPointer<UInt8>>,
    into hashes: UnsafeMutablePointer<UInt64>
  ) {
    let lanes = 4
    var next = 0
    // Per lane: the line index (-1 when idle), the cursor, the bytes left and the hash.
    var line = InlineArray<4, Int>(repeating: -1)
    var cursor = InlineArray<4, UnsafePointer<UInt8>?>(repeating: nil)
    var left = InlineArray<4, Int>(repeating: 0)
    var state = InlineArray<4, UInt64>(repeating: offsetBasis)
    while true {
      var active = 0
      for lane in 0..<lanes {
        while line[lane] < 0 || left[lane] == 0 {
          if line[lane] >= 0 {
            // Safe because `line[lane] < lines.count` and the caller gives room for that many.
            hashes[line[lane]] = state[lane]
            line[lane] = -1
          }
          guard next < lines.count else { break }
          line[lane] = next
          // Safe because the guard above keeps `next` below `lines.count`.
          cursor[lane] = lines[next].baseAddress
          left[lane] = lines[next].count
          state[lane] = offsetBasis
          next += 1
        }
        if line[lane] >= 0 { active += 1 }
      }
      guard active > 0 else { return }
      if active < lanes {
        // The last lines: finish them one by one.
        for lane in 0..<lanes where line[lane] >= 0 {
          var hash = state[lane]
          // Safe because `left[lane]` bytes remain at `cursor[lane]` of line `line[lane]`, whose
          // hash slot the caller provides; the multiply is FNV-1a's, modulo 2^64.
          for byte in UnsafeBufferPointer(start: cursor[lane], count: left[lane]) {
            hash = (hash ^ UInt64(byte)) &* prime
          }
          hashes[line[lane]] = hash
          line[lane] = -1
        }
        return
      }
      let steps = min(min(left[0], left[1]), min(left[2], left[3]))
      // Safe because each lane has at least `steps` bytes left at its cursor.
      (state[0], state[1], state[2], state[3]) = fourLanes(
        cursor[0]!, cursor[1]!, cursor[2]!, cursor[3]!, steps: steps,
        (state[0], state[1], state[2], state[3]))
      // Safe because `steps` is the smallest `left`, so no cursor passes the end of its line.
      for lane in 0..<lanes {
        cursor[lane] = cursor[lane]! + steps
        left[lane] -= steps
      }
    }
  }
}
