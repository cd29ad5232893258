/// Byte equality for short strings (keys, element types) without a `memcmp` call: a few
/// overlapping unaligned loads.
public enum ShortBytes {
  /// True when `a[0..<count]` equals `b[0..<count]`. Both must hold `count` readable bytes.
  @inline(__always)
  public static func equal(_ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>, _ count: Int)
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
/// Names are grouped by byte length, so a key is compared only with the names of its length.
public struct MemberTable: Sendable {
  /// The names, in the order their slots are numbered.
  public let names: [StaticString]
  /// For each length `L`, the range of `order` holding the names of length `L`.
  private let byLength: [Range<Int>]
  /// Name indexes sorted by length.
  private let order: [Int]

  public init(_ names: [StaticString]) {
    precondition(names.count <= MemberSlots.capacity, "too many names for MemberSlots")
    self.names = names
    let longest = names.map(\.utf8CodeUnitCount).max() ?? 0
    let sorted = names.indices.sorted {
      (names[$0].utf8CodeUnitCount, $0) < (names[$1].utf8CodeUnitCount, $1)
    }
    var ranges: [Range<Int>] = []
    var position = 0
    for length in 0...longest {
      let start = position
      while position < sorted.count && names[sorted[position]].utf8CodeUnitCount == length {
        position += 1
      }
      ranges.append(start..<position)
    }
    self.byLength = ranges
    self.order = sorted
  }

  /// The slot of the name equal to `key` (raw bytes without escapes), or nil.
  @inline(__always)
  func slot(of key: UnsafePointer<UInt8>, count: Int) -> Int? {
    guard count < byLength.count else { return nil }
    for position in byLength[count] {
      let index = order[position]
      if ShortBytes.equal(key, names[index].utf8Start, count) { return index }
    }
    return nil
  }

  /// The slot of the name equal to a decoded key, or nil (the slow path for escaped keys).
  func slot(ofDecoded key: [UInt8]) -> Int? {
    key.withUnsafeBufferPointer { key in
      guard let base = key.baseAddress else {
        return names.firstIndex { $0.utf8CodeUnitCount == 0 }
      }
      return slot(of: base, count: key.count)
    }
  }
}

/// The value index found for each name of a `MemberTable` (nil when absent).
public struct MemberSlots {
  public static let capacity = 24
  private var values: InlineArray<24, Int32>

  public init() { values = InlineArray(repeating: -1) }

  /// The tape index of the value for the name at `slot`, or nil.
  @inline(__always)
  public subscript(slot: Int) -> Int? {
    let value = values[slot]
    return value < 0 ? nil : Int(value)
  }

  @inline(__always)
  mutating func set(_ slot: Int, _ value: Int) { values[slot] = Int32(value) }
}

extension JSONDocument {
  /// Finds the members of `object` named in `table`, in one pass; the last duplicate wins
  /// (SPEC 9). Returns empty slots when `object` is not an object.
  @inline(__always)
  public func collectMembers(_ object: Int, _ table: MemberTable) -> MemberSlots {
    var slots = MemberSlots()
    let container = tokens[object]
    guard container.kind == .object else { return slots }
    var index = object + 1
    let end = Int(container.next)
    // Safe because every key token's range lies inside `bytes`.
    let base = bytes.baseAddress!
    while index < end {
      let key = tokens[index]
      let slot =
        key.flags & JSONToken.hasEscapes == 0
        ? table.slot(of: base + Int(key.start), count: Int(key.end &- key.start))
        : table.slot(ofDecoded: string(index).decodedBytes())
      if let slot { slots.set(slot, index + 1) }
      index = Int(tokens[index + 1].next)
    }
    return slots
  }
}
