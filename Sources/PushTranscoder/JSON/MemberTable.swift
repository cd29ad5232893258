/// Byte equality for short strings (keys, element types) without a `memcmp` call: a few
/// overlapping unaligned loads.
package enum ShortBytes {
  /// True when `a[0..<count]` equals `b[0..<count]`. Both must hold `count` readable bytes.
  @inline(__always)
  package static func equal(_ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>, _ count: Int)
    -> Bool
  {
    let x = UnsafeRawPointer(a)
    let y = UnsafeRawPointer(b)
    // Safe because every load below reads inside [0, count) of both buffers: for count >= 8 the
    // words start at 0, 8, ... and the last one at count - 8; below 8 the two loads overlap.
    switch count {
    case 0:
      return true
    case 1:
      return a[0] == b[0]
    case 2...3:
      return x.loadUnaligned(as: UInt16.self) == y.loadUnaligned(as: UInt16.self)
        && x.loadUnaligned(fromByteOffset: count - 2, as: UInt16.self)
          == y.loadUnaligned(fromByteOffset: count - 2, as: UInt16.self)
    case 4...7:
      return x.loadUnaligned(as: UInt32.self) == y.loadUnaligned(as: UInt32.self)
        && x.loadUnaligned(fromByteOffset: count - 4, as: UInt32.self)
          == y.loadUnaligned(fromByteOffset: count - 4, as: UInt32.self)
    default:
      var offset = 0
      while offset < count - 8 {
        if x.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
          != y.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
        {
          return false
        }
        offset += 8
      }
      return x.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)
        == y.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)
    }
  }
}

/// A fixed set of key names, for finding several members of one object in a single pass over
/// its keys (`JSONDocument.collectMembers`) instead of one scan per field.
///
/// Lookup is open addressing on a 256-entry table hashed from the key's length and its first
/// and last bytes, so a key costs one probe (rarely more: at most 24 names in 256 buckets) and
/// one short compare, whatever the number of names. The table lives in memory of its own, read
/// through plain pointers: a lookup per key of every object read makes array bounds checks a
/// measurable part of reading a line.
package struct MemberTable: @unchecked Sendable {
  // Safe because the table's memory is written once, in `init`, and only read afterwards; every
  // name pointer points into the program image (a `StaticString` literal's UTF-8).

  /// The names, in the order their slots are numbered.
  package let names: [StaticString]
  /// Owns the memory the pointers below read.
  private let storage: Storage
  /// Bucket → slot + 1 (0 = empty): 256 entries.
  private let buckets: UnsafePointer<UInt8>
  /// Per slot: the name's bytes and length (no `StaticString` accessor on the hot path).
  private let starts: UnsafePointer<UnsafePointer<UInt8>>
  private let lengths: UnsafePointer<Int>

  /// The table's memory: 256 buckets, then a start and a length per name.
  private final class Storage {
    let buckets: UnsafeMutablePointer<UInt8>
    let starts: UnsafeMutablePointer<UnsafePointer<UInt8>>
    let lengths: UnsafeMutablePointer<Int>

    init(names: [StaticString]) {
      buckets = .allocate(capacity: 256)
      buckets.initialize(repeating: 0, count: 256)
      starts = .allocate(capacity: max(names.count, 1))
      lengths = .allocate(capacity: max(names.count, 1))
      for (slot, name) in names.enumerated() {
        // Safe because slot < names.count, the capacity of both.
        (starts + slot).initialize(to: name.utf8Start)
        (lengths + slot).initialize(to: name.utf8CodeUnitCount)
        var bucket = MemberTable.hash(name.utf8Start, name.utf8CodeUnitCount)
        // Safe because `bucket` is masked to 0...255; at most 24 names fill 256 buckets, so
        // an empty one is always found.
        while buckets[bucket] != 0 { bucket = (bucket + 1) & 255 }
        buckets[bucket] = UInt8(slot + 1)
      }
    }

    deinit {
      buckets.deallocate()
      starts.deallocate()
      lengths.deallocate()
    }
  }

  /// A table of `names` (at most `MemberSlots.capacity`); slot `i` is `names[i]`.
  package init(_ names: [StaticString]) {
    precondition(names.count <= MemberSlots.capacity, "too many names for MemberSlots")
    self.names = names
    storage = Storage(names: names)
    buckets = UnsafePointer(storage.buckets)
    starts = UnsafePointer(storage.starts)
    lengths = UnsafePointer(storage.lengths)
  }

  @inline(__always)
  static func hash(_ key: UnsafePointer<UInt8>, _ count: Int) -> Int {
    guard count > 0 else { return 0 }
    // Safe because count > 0 and `key` holds `count` bytes; with count < 2^32 (a line's length)
    // no term wraps, and the mask keeps the low 8 bits.
    return (count &* 31 &+ Int(key[0]) &* 7 &+ Int(key[count - 1])) & 255
  }

  /// The slot of the name equal to `key` (raw bytes without escapes), or nil.
  @inline(__always)
  func slot(of key: UnsafePointer<UInt8>, count: Int) -> Int? {
    var bucket = Self.hash(key, count)
    while true {
      // Safe because `bucket` is masked to 0...255, the buckets' count, and a non-zero entry is
      // a slot + 1 below `names.count`, the count of `starts` and `lengths`; the lengths match
      // before the compare, so both `key` and the name hold `count` bytes. The table is never
      // full, so the probe ends at an empty bucket.
      let entry = Int(buckets[bucket])
      if entry == 0 { return nil }
      let slot = entry &- 1
      if lengths[slot] == count && ShortBytes.equal(key, starts[slot], count) { return slot }
      bucket = (bucket &+ 1) & 255
    }
  }

  /// The slot of the name equal to the decoded content of `slice`, or nil.
  @inline(__always)
  func slot(of slice: StringSlice) -> Int? {
    slice.hasEscapes
      ? slot(ofDecoded: slice.decodedBytes()) : slot(of: slice.pointer, count: slice.count)
  }

  /// The slot of the name equal to a decoded key, or nil (the slow path for escaped keys).
  func slot(ofDecoded key: [UInt8]) -> Int? {
    key.withUnsafeBufferPointer { key in
      guard let base = key.baseAddress, key.count > 0 else {
        return names.firstIndex { $0.utf8CodeUnitCount == 0 }
      }
      return slot(of: base, count: key.count)
    }
  }
}

/// The value index found for each name of a `MemberTable` (nil when absent).
package struct MemberSlots {
  /// The most names a `MemberTable` may have.
  package static let capacity = 24
  private var values: InlineArray<24, Int32>

  /// Slots with no value found.
  package init() { values = InlineArray(repeating: -1) }

  /// The tape index of the value for the name at `slot`, or nil.
  @inline(__always)
  package subscript(slot: Int) -> Int? {
    let value = values[slot]
    return value < 0 ? nil : Int(value)
  }

  /// The tape index of the value for `member`, or nil: `Member`'s cases name the table's slots
  /// in order, so a reader says which member it reads, not which position.
  @inline(__always)
  package subscript<Member: RawRepresentable>(member: Member) -> Int?
  where Member.RawValue == Int {
    self[member.rawValue]
  }

  /// Records `value`, a tape index (below 2^31: a line is shorter), for the name at `slot`, a
  /// slot of the table that found it (below `capacity`).
  @inline(__always)
  mutating func set(_ slot: Int, _ value: Int) {
    // Safe because `MemberTable` hands out slots below its name count, at most `capacity`, and
    // tape indexes fit 32 bits (the tokenizer stores them as `UInt32`).
    values[unchecked: slot] = Int32(truncatingIfNeeded: value)
  }
}

extension JSONDocument {
  /// Finds the members of `object` named in `table`, in one pass; the last duplicate wins
  /// (SPEC 9). Returns empty slots when `object` is not an object.
  @inline(__always)
  package func collectMembers(_ object: Int, _ table: MemberTable) -> MemberSlots {
    var slots = MemberSlots()
    let container = tokens[object]
    guard container.kind == .object else { return slots }
    var index = object + 1
    let end = Int(container.next)
    // Safe because every key token's range lies inside `bytes`.
    let base = bytes.baseAddress!
    while index < end {
      let key = tokens[index]
      // Safe because the object's `next` bounds its keys, each followed by its value, and the
      // tokenizer records start <= end, so `&-` cannot wrap.
      let slot =
        key.flags & JSONToken.hasEscapes == 0
        ? table.slot(of: base + Int(key.start), count: Int(key.end &- key.start))
        : escapedKeySlot(index, table)
      if let slot { slots.set(slot, index + 1) }
      index = Int(tokens[index + 1].next)
    }
    return slots
  }

  /// The slot of the escaped key at `index` (`MemberTable.slot(of:)` decodes it). Out of line:
  /// the decoding's array and calls, inlined into `collectMembers`, made its loop keep its
  /// variables on the stack for every key, escaped or not.
  @inline(never)
  private func escapedKeySlot(_ index: Int, _ table: MemberTable) -> Int? {
    table.slot(of: string(index))
  }
}
