/// What several vendors ask about the same texts of one line, answered once (SPEC 5).
///
/// The capped vendors count the scalars of the same title, body and ext (xiaomi, oppo, vivo and
/// meizu each), and every vendor that cuts a long body decodes the same prefix of it. A memo
/// lives in a `LineProcessor` (one per worker) and is reset for every line; texts are keyed by
/// the address and length of the bytes they borrow from the line, which stay put while the line
/// is rendered. Owned `.decoded` texts are not memoised.
public final class TextMemo {
  struct Key: Equatable {
    var address: UInt
    var count: Int
    var isPieces: Bool
  }

  struct Entry {
    var key: Key
    var scalars: Int?
    /// A lower bound on the scalars, left by a bounded count that stopped early.
    var scalarsAtLeast = 0
    /// The decoded UTF-8 of the first `prefixScalars` scalars (all of them when complete).
    var prefix: [UInt8]?
    var prefixScalars = 0
    var prefixComplete = false
    /// The last scalar cap applied to the text and its result (decoded UTF-8, `…` included).
    var cutCap = -1
    var cut: [UInt8] = []
    /// The byte-budget cuts' resumable scan of the decoded prefix.
    var escapedScan: EscapedScan?
  }

  // Safe because a memo belongs to one worker's line processor and none of its methods
  // re-enters another (no overlapping access is possible), so the dynamic exclusivity checks
  // per lookup buy nothing.
  @exclusivity(unchecked) private var entries: [Entry] = []

  /// An empty memo (one per `LineProcessor`).
  public init() {}

  /// Forgets everything (the next line's texts live elsewhere).
  public func reset() {
    entries.removeAll(keepingCapacity: true)
  }

  static func key(_ text: PushText) -> Key? {
    switch text {
    case .slice(let slice):
      return Key(address: UInt(bitPattern: slice.pointer), count: slice.count, isPieces: false)
    case .pieces(let pieces):
      guard !pieces.isEmpty else { return nil }
      return pieces.withUnsafeBufferPointer {
        Key(
          address: UInt(bitPattern: $0.baseAddress), count: pieces.count, isPieces: true)
      }
    case .decoded:
      return nil
    }
  }

  private func index(_ key: Key) -> Int {
    if let found = entries.firstIndex(where: { $0.key == key }) { return found }
    entries.append(Entry(key: key))
    return entries.count - 1
  }

  /// `text.scalarCount`, counted once per line.
  public func scalarCount(_ text: PushText) -> Int {
    guard let key = Self.key(text) else { return text.scalarCount }
    let slot = index(key)
    if let known = entries[slot].scalars { return known }
    let counted = text.scalarCount
    entries[slot].scalars = counted
    return counted
  }

  /// True when `text` has more than `cap` scalars: counts at most a little past `cap`, once per
  /// line for the largest cap asked (the first capped vendor asks about 127, the others less).
  public func hasMoreScalars(_ text: PushText, than cap: Int) -> Bool {
    guard let key = Self.key(text) else { return text.scalarCount(stoppingAbove: cap) > cap }
    let slot = index(key)
    if let known = entries[slot].scalars { return known > cap }
    if entries[slot].scalarsAtLeast > cap { return true }
    let counted = text.scalarCount(stoppingAbove: cap)
    if counted <= cap {
      // The count reached the end: exact.
      entries[slot].scalars = counted
      return false
    }
    entries[slot].scalarsAtLeast = counted
    return true
  }

  /// The resumable escaped-size scan for the byte-budget cuts of `text` (nil for owned texts).
  func escapedScan(_ text: PushText) -> EscapedScan? {
    guard let key = Self.key(text) else { return nil }
    let slot = index(key)
    if let scan = entries[slot].escapedScan { return scan }
    let scan = EscapedScan()
    entries[slot].escapedScan = scan
    return scan
  }

  /// The escaped size of the first `count` bytes of `text`'s decoded prefix, when a byte-budget
  /// cut of it has just been scanned (nil otherwise).
  func escapedSize(of text: PushText, decodedBytes count: Int) -> Int? {
    guard let key = Self.key(text) else { return nil }
    let slot = index(key)
    guard let scan = entries[slot].escapedScan, let prefix = entries[slot].prefix,
      count <= prefix.count
    else { return nil }
    return prefix.withUnsafeBufferPointer { scan.escapedSize($0, upTo: count) }
  }

  /// The cut of `text` to `cap` scalars remembered by `remember(cut:of:scalars:)`, if the last
  /// cap applied to the text was `cap`.
  public func cut(of text: PushText, scalars cap: Int) -> [UInt8]? {
    guard let key = Self.key(text) else { return nil }
    let slot = index(key)
    return entries[slot].cutCap == cap ? entries[slot].cut : nil
  }

  /// Remembers the cut of `text` to `cap` scalars (shared, not copied: an array is a value).
  public func remember(cut: [UInt8], of text: PushText, scalars cap: Int) {
    guard let key = Self.key(text) else { return }
    let slot = index(key)
    entries[slot].cutCap = cap
    entries[slot].cut = cut
  }

  /// The decoded UTF-8 of at least the first `limit` scalars of `text` (all of it when the
  /// text is shorter), decoding the text once per line for the longest prefix any vendor asked
  /// for. It can be longer than `limit` scalars: it is the memo's own copy, shared rather than
  /// trimmed (a copy per vendor cost 2 % of a 9-vendor run). The cuts use only what they need:
  /// a cut depends on the scalars up to the one after it.
  public func decodedPrefix(_ text: PushText, scalars limit: Int) -> [UInt8] {
    guard let key = Self.key(text) else { return text.decodedPrefix(scalars: limit) }
    let slot = index(key)
    let entry = entries[slot]
    if let prefix = entry.prefix, entry.prefixComplete || entry.prefixScalars >= limit {
      return prefix
    }
    let decoded = text.decodedPrefix(scalars: limit)
    let scalars = decoded.withUnsafeBufferPointer { ScalarCount.ofUTF8($0) }
    entries[slot].prefix = decoded
    entries[slot].prefixScalars = scalars
    entries[slot].prefixComplete = scalars < limit
    return decoded
  }
}
