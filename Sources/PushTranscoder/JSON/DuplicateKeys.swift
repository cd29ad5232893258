import Glibc

/// The members of one object to write when some of its keys repeat (SPEC 9: a duplicate key
/// keeps its first position and its last value), found in one pass over the members.
///
/// Keys compare as decoded bytes (`"k\u0030"` and `"k0"` are the same key). A small object is
/// checked pair by pair (at most `pairwiseLimit²` compares, a constant); a larger one goes
/// through a hash table of its keys built once, so the work is linear in the object's members
/// plus the bytes of its keys. The table hashes with `Hasher`, seeded per process, so keys
/// chosen to collide under a fixed hash cannot make the probes quadratic again.
struct DuplicateKeys {
  /// Objects with at most this many members are checked pair by pair.
  static let pairwiseLimit = 16
  /// Per member, in order: the tape index of the value to write, or -1 for a repeat of an
  /// earlier key (not written).
  private var values: [Int]

  /// Nil when `object` has no repeated key (the common case: written as it is).
  init?(_ document: JSONDocument, object: Int) {
    var count = 0
    document.forEachMember(object) { _, _ in count += 1 }
    if count < 2 { return nil }
    if count <= Self.pairwiseLimit && !Self.hasRepeatedKey(document, object: object) {
      return nil
    }
    var keys: [Int] = []
    keys.reserveCapacity(count)
    document.forEachMember(object) { key, _ in keys.append(key) }
    values = keys.map { $0 + 1 }
    var found = false
    // Open addressing, at most two thirds full: a slot holds the member ordinal + 1 in its low
    // 32 bits (0 = empty; a line of at most 16 MiB has far fewer than 2^31 members) and the
    // high 32 bits of the key's hash above them, so a probe compares keys (a read of the line
    // far from the last one) only when their hashes agree: about once per repeated key. With
    // the tags a fuller table costs a few more slot reads in one cache line, and a smaller
    // table stays in cache for objects of many keys.
    var mask = 1
    while mask < keys.count + keys.count / 2 { mask <<= 1 }
    mask -= 1
    var slots = [UInt64](repeating: 0, count: mask + 1)
    // The keys' hashes first (a pass in member order); then, while a key is placed, the slot
    // of the key `lookahead` places on is read already, so that its cache miss overlaps the
    // work between (a table of many keys lies beyond the core's cache, and the probe of each
    // key otherwise waited for its own miss). The early reads are summed into `touched`,
    // stored, so they are not dropped.
    let hashes = keys.map { UInt64(truncatingIfNeeded: Self.hash(document, $0)) }
    let lookahead = 16
    var touched: UInt64 = 0
    for ordinal in keys.indices {
      if ordinal + lookahead < hashes.count {
        touched &+= slots[Int(truncatingIfNeeded: hashes[ordinal + lookahead]) & mask]
      }
      let hash = hashes[ordinal]
      let tag = hash & 0xFFFF_FFFF_0000_0000
      var bucket = Int(truncatingIfNeeded: hash) & mask
      while true {
        let entry = slots[bucket]
        if entry == 0 {
          // Safe because ordinal + 1 < 2^31 (see above), so it fits the low 32 bits.
          slots[bucket] = tag | UInt64(truncatingIfNeeded: ordinal + 1)
          break
        }
        let earlier = Int(truncatingIfNeeded: entry & 0xFFFF_FFFF) - 1
        if entry & 0xFFFF_FFFF_0000_0000 == tag
          && Self.sameKey(document, keys[earlier], keys[ordinal])
        {
          values[earlier] = keys[ordinal] + 1
          values[ordinal] = -1
          found = true
          break
        }
        bucket = (bucket + 1) & mask
      }
    }
    earlyReads = touched
    if !found { return nil }
  }

  /// The sum of the early slot reads (see `init`); read by nobody.
  private var earlyReads: UInt64 = 0

  /// Whether two members of a small object (at most `pairwiseLimit` members) share a key,
  /// checked pair by pair without allocating.
  private static func hasRepeatedKey(_ document: JSONDocument, object: Int) -> Bool {
    var found = false
    document.forEachMember(object) { key, _ in
      if found { return }
      document.forEachMember(object) { other, _ in
        if !found && other < key && sameKey(document, other, key) { found = true }
      }
    }
    return found
  }

  /// The value to write for the member at `ordinal` (0-based), or nil when an earlier member
  /// has its key.
  func value(ofMember ordinal: Int) -> Int? {
    let value = values[ordinal]
    return value < 0 ? nil : value
  }

  /// A hash of the key's decoded bytes.
  private static func hash(_ document: JSONDocument, _ key: Int) -> Int {
    let slice = document.string(key)
    var hasher = Hasher()
    if slice.hasEscapes {
      slice.decodedBytes().withUnsafeBytes { hasher.combine(bytes: $0) }
    } else {
      hasher.combine(bytes: UnsafeRawBufferPointer(slice.rawBytes))
    }
    return hasher.finalize()
  }

  private static func sameKey(_ document: JSONDocument, _ a: Int, _ b: Int) -> Bool {
    let left = document.string(a)
    let right = document.string(b)
    if !left.hasEscapes && !right.hasEscapes {
      // Safe because both slices hold `count` bytes of the line.
      return left.count == right.count && memcmp(left.pointer, right.pointer, left.count) == 0
    }
    return left.decodedBytes() == right.decodedBytes()
  }
}
