import CByteScan

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
  /// latency (about 4 cycles a byte). Where the CPU has AVX-512 (`wideAvailable`), the C kernel
  /// `pt_fnv1a_wide` (`Sources/CByteScan/fnv_wide.h`) hashes the lines 32 side by side, and the
  /// four scalar lanes below finish the few it leaves (those still in its lanes when too few
  /// lines are left to keep them busy). `wide: false` skips the kernel (tests compare the two).
  package static func hashes(
    _ lines: UnsafeBufferPointer<UnsafeBufferPointer<UInt8>>,
    into hashes: UnsafeMutablePointer<UInt64>, wide: Bool = true
  ) {
    guard wide && wideAvailable && lines.count >= wideMinimumLines else {
      return inFourLanes(lines, continuing: false, into: hashes)
    }
    withUnsafeTemporaryAllocation(of: Int.self, capacity: 2 * lines.count) { scratch in
      // Safe because the scratch holds `2 * lines.count` values: the kernel's list of the lines
      // it did not finish, then how far it got in each, at most `lines.count` of each.
      let unfinished = scratch.baseAddress!
      let consumed = unfinished + lines.count
      // Safe because `UnsafeBufferPointer<UInt8>` is laid out as `pt_line` (a start pointer,
      // then an `Int` count: both 8 bytes, checked in `FNV1aTests`), the kernel writes
      // `lines.count` states into `hashes` and at most as many entries into the two lists, and
      // reads only the lines' bytes.
      let views = UnsafeRawPointer(lines.baseAddress!).assumingMemoryBound(to: pt_line.self)
      let left = pt_fnv1a_wide(views, lines.count, hashes, unfinished, consumed)
      guard left > 0 else { return }
      // The rest of each line the kernel left, from its state, four side by side.
      withUnsafeTemporaryAllocation(of: UnsafeBufferPointer<UInt8>.self, capacity: left) { rests in
        withUnsafeTemporaryAllocation(of: UInt64.self, capacity: left) { states in
          // Safe because the kernel's entries are below `left`, each naming a line below
          // `lines.count` and an offset at most that line's count.
          for entry in 0..<left {
            let line = lines[unfinished[entry]]
            let done = consumed[entry]
            rests[entry] = UnsafeBufferPointer(
              start: line.baseAddress.map { $0 + done }, count: line.count - done)
            states[entry] = hashes[unfinished[entry]]
          }
          inFourLanes(UnsafeBufferPointer(rests), continuing: true, into: states.baseAddress!)
          for entry in 0..<left { hashes[unfinished[entry]] = states[entry] }
        }
      }
    }
  }

  /// True when `pt_fnv1a_wide` may run: the CPU has AVX-512F, BW and DQ and BMI2, and the OS
  /// saves the 512-bit registers (checked once, by CPUID).
  package static let wideAvailable = pt_fnv1a_wide_available() != 0

  /// Below this many lines the kernel's 32 lanes would mostly idle: the scalar lanes take them.
  static let wideMinimumLines = 32

  /// The scalar part of `hashes`: `hashes[i]` becomes the hash of `lines[i]` continuing from
  /// the state already in `hashes[i]` (`continuing`), or from the FNV-1a basis.
  ///
  /// Four lines hashed side by side are four independent chains the core overlaps: the loop
  /// steps four lanes a byte each for as long as the shortest lane lasts, then refills the
  /// lanes that ended with the next lines. The lanes are four plain values, not an array: their
  /// bookkeeping runs once per line.
  private static func inFourLanes(
    _ lines: UnsafeBufferPointer<UnsafeBufferPointer<UInt8>>, continuing: Bool,
    into hashes: UnsafeMutablePointer<UInt64>
  ) {
    var next = 0
    /// Stores the hash of the lane's line (if any), then gives the lane the next line that has
    /// bytes (a line without has its hash at once: the basis, or the state it came with). False
    /// when no line is left.
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
        lane = Lane(
          line: next, cursor: line.baseAddress, left: line.count,
          hash: continuing ? hashes[next] : offsetBasis)
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
    // The lines are all taken: the lanes still holding one (each has bytes left) go on side by
    // side until the last ends, not one by one (a single chain runs at a quarter of the speed).
    // A lane without a line steps over a live lane's bytes, and its result is dropped.
    while a.line >= 0 || b.line >= 0 || c.line >= 0 || d.line >= 0 {
      let steps = min(min(a.steps, b.steps), min(c.steps, d.steps))
      assert(steps > 0, "a live lane has bytes left")
      // Safe because a live lane has at least `steps` bytes at its cursor, and so has `spare`,
      // the cursor of one of them.
      let spare = (a.line >= 0 ? a : b.line >= 0 ? b : c.line >= 0 ? c : d).cursor!
      let stepped = fourLanes(
        a.line >= 0 ? a.cursor! : spare, b.line >= 0 ? b.cursor! : spare,
        c.line >= 0 ? c.cursor! : spare, d.line >= 0 ? d.cursor! : spare, steps: steps,
        (a.hash, b.hash, c.hash, d.hash))
      a.step(steps, stepped.0, into: hashes)
      b.step(steps, stepped.1, into: hashes)
      c.step(steps, stepped.2, into: hashes)
      d.step(steps, stepped.3, into: hashes)
    }
  }

  /// One lane of `hashes`: the line it hashes (-1 for none), where it is in it, the bytes left
  /// and the hash so far.
  private struct Lane {
    var line = -1
    var cursor: UnsafePointer<UInt8>? = nil
    var left = 0
    var hash = offsetBasis

    /// The bytes left while the lane holds a line, else no limit (for the final loop's `min`).
    var steps: Int { line >= 0 ? left : Int.max }

    /// The final loop's step of a live lane: `steps` bytes on, `hash` the state after them, and
    /// the hash stored when the line ends. A lane without a line is left as it is.
    mutating func step(_ steps: Int, _ hash: UInt64, into hashes: UnsafeMutablePointer<UInt64>) {
      guard line >= 0 else { return }
      self.hash = hash
      advance(steps)
      // Safe because the lane's line is below the count of the caller's slots.
      if left == 0 {
        hashes[line] = hash
        line = -1
      }
    }

    mutating func advance(_ steps: Int) {
      // Safe because `steps` is at most `left`, so the cursor stays inside the line.
      cursor = cursor.map { $0 + steps }
      left -= steps
    }
  }
}
