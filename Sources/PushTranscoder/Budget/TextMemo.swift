/// What several vendors ask about the same texts of one line, answered once (SPEC 5).
///
/// The capped vendors count the scalars of the same title, body and ext (xiaomi, oppo, vivo and
/// meizu each), and every vendor that cuts a long body decodes the same prefix of it. A memo
/// lives in a `LineProcessor` (one per worker) and is reset for every line; texts are keyed by
/// the address and length of the bytes they borrow from the line, which stay put while the line
/// is rendered. Owned `.decoded` texts are not memoised.
package final class TextMemo {
  struct Key: Hashable {
    var address: UInt
    var count: Int
    var isPieces: Bool
  }

  struct Entry {
    var key: Key
    var scalars: Int?
    /// A lower bound on the scalars, left by a bounded count that stopped early.
    var scalarsAtLeast = 0
    /// The decoded UTF-8 of the first `prefixScalars` scalars (all of them when complete),
    /// when `hasPrefix`. The array outlives the line: a later line's text decodes into its
    /// storage instead of a new allocation.
    var prefix: [UInt8] = []
    var hasPrefix = false
    var prefixScalars = 0
    var prefixComplete = false
    /// The last scalar cap applied to the text and its result (decoded UTF-8, `…` included):
    /// in `cutBytes` when `cutIsBorrowable` (a plain text cut for a borrower), else in `cut`.
    var cutCap = -1
    var cut: [UInt8] = []
    var cutIsBorrowable = false
    /// Storage with a stable address for the cuts handed out as slices (`cutText`), allocated
    /// on the first such cut and kept from line to line.
    var cutBytes: CutBytes? = nil
    /// The byte-budget cuts' resumable scan of the decoded prefix.
    var escapedScan: EscapedScan?
    /// `PushText.isBlank`, once asked.
    var blank: Bool?
    /// The last byte-budget cut of the text (`TextCut.fittingEscaped`) and the room it was
    /// made for (-1: none this line).
    var byteCutRoom = -1
    var byteCut: [UInt8] = []

    init(key: Key) { self.key = key }

    /// Makes a slot of an earlier line describe `key`, knowing nothing yet; the arrays keep
    /// their storage.
    mutating func reuse(for key: Key) {
      self.key = key
      scalars = nil
      scalarsAtLeast = 0
      hasPrefix = false
      prefixScalars = 0
      prefixComplete = false
      cutCap = -1
      if escapedScan != nil { escapedScan = nil }
      blank = nil
      byteCutRoom = -1
    }
  }

  // Safe because a memo belongs to one worker's line processor and none of its methods
  // re-enters another (no overlapping access is possible), so the dynamic exclusivity checks
  // per lookup buy nothing.
  @exclusivity(unchecked) private var entries: [Entry] = []
  /// The entries of the current line: `entries[..<liveCount]`. The others are slots of earlier
  /// lines, kept rather than destroyed (a destroyed entry would release three references, and a
  /// new one would be appended through the generic array path).
  private var liveCount = 0
  /// The slot of each live key, kept once a line has more than `linearLimit` texts (a group
  /// send's title per group): lookups stay one probe, not a search of a growing list.
  @exclusivity(unchecked) private var slotsByKey: [Key: Int] = [:]
  /// Up to this many live texts, a lookup searches them in order (the common line has a few).
  private static let linearLimit = 8

  /// An empty memo (one per `LineProcessor`).
  package init() {}

  /// The line's ext as the vendors write it (`Notice.extText`), when `hasExt`: nine vendors
  /// ask for it, and a JSON ext is serialised once per line instead of once per vendor.
  private var ext: PushText? = nil
  private var hasExt = false

  /// The canonical form of one JSON value of the line (apns `e`, Live Activity
  /// `content-state`), by its tape index, when `valueIndex` is set: a message to many
  /// recipients writes it in every record, and re-writing it for each one (duplicate keys
  /// resolved each time) cost records × value.
  private var valueIndex = -1
  /// Holds that canonical form; its storage serves line after line.
  private var valueWriter = JSONWriter(capacity: 256)
  /// How many values were put in canonical form since the memo was made (tests read it).
  package private(set) var canonicalValuesWritten = 0
  /// How many texts that start blank were walked for `isBlank`, and how many byte-budget cuts
  /// were made, since the memo was made (tests read them).
  package private(set) var blankTextsWalked = 0
  package private(set) var byteCutsMade = 0

  /// Forgets everything (the next line's texts live elsewhere).
  package func reset() {
    liveCount = 0
    if !slotsByKey.isEmpty { slotsByKey.removeAll(keepingCapacity: slotsByKey.count <= 64) }
    hasExt = false
    valueIndex = -1
  }

  /// Writes the value at tape index `index` of the line's `document` in canonical form: put in
  /// that form the first time it is asked for after `reset`, then copied.
  func writeCanonicalValue(
    _ document: JSONDocument, _ index: Int, into writer: inout JSONWriter
  ) {
    if valueIndex != index {
      valueWriter.removeAll()
      valueWriter.value(document, index)
      valueIndex = index
      canonicalValuesWritten += 1
    }
    writer.raw(valueWriter.buffer)
  }

  /// The line's ext text: `make()` the first time it is asked for after `reset`, then the
  /// same value.
  @inline(__always)
  func extText(_ make: () -> PushText?) -> PushText? {
    if hasExt { return ext }
    ext = make()
    hasExt = true
    return ext
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
    if liveCount > Self.linearLimit {
      if let slot = slotsByKey[key] { return slot }
    } else {
      var slot = 0
      while slot < liveCount {
        if entries[slot].key == key { return slot }
        slot += 1
      }
    }
    let slot = liveCount
    if slot < entries.count {
      entries[slot].reuse(for: key)
    } else {
      entries.append(Entry(key: key))
    }
    liveCount += 1
    if liveCount > Self.linearLimit {
      if slotsByKey.isEmpty {
        for live in 0..<liveCount { slotsByKey[entries[live].key] = live }
      } else {
        slotsByKey[key] = slot
      }
    }
    return slot
  }

  /// `text.scalarCount`, counted once per line.
  package func scalarCount(_ text: PushText) -> Int {
    guard let key = Self.key(text) else { return text.scalarCount }
    let slot = index(key)
    if let known = entries[slot].scalars { return known }
    let counted = text.scalarCount
    entries[slot].scalars = counted
    return counted
  }

  /// `text.isBlank`, walked once per line. The usual text is settled by its first byte; one
  /// that starts with blank scalars is read to its first other scalar, and a message split
  /// into many records (a send to thousands of groups) asks that of the same text in every
  /// record of every vendor that requires a body or a title.
  package func isBlank(_ text: PushText) -> Bool {
    if text.startsNonBlank { return false }
    guard let key = Self.key(text) else { return text.isBlank }
    let slot = index(key)
    if let known = entries[slot].blank { return known }
    blankTextsWalked += 1
    let blank = text.isBlank
    entries[slot].blank = blank
    return blank
  }

  /// True when `text` has more than `cap` scalars: counts at most a little past `cap`, once per
  /// line for the largest cap asked (the first capped vendor asks about 127, the others less).
  package func hasMoreScalars(_ text: PushText, than cap: Int) -> Bool {
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

  /// The byte-budget cut of `text` for `room` bytes: `make()` the first time it is asked for
  /// after `reset`, then the same bytes while the room stays the same. The records of a split
  /// message cut the same body to the same room one after the other (each would walk its
  /// graphemes again).
  func byteCut(of text: PushText, room: Int, _ make: () -> [UInt8]) -> [UInt8] {
    guard let key = Self.key(text) else { return make() }
    let slot = index(key)
    if entries[slot].byteCutRoom == room { return entries[slot].byteCut }
    byteCutsMade += 1
    let cut = make()
    entries[slot].byteCut = cut
    entries[slot].byteCutRoom = room
    return cut
  }

  /// The escaped size of the first `count` bytes of `text`'s decoded prefix, when a byte-budget
  /// cut of it has just been scanned (nil otherwise).
  func escapedSize(of text: PushText, decodedBytes count: Int) -> Int? {
    guard let key = Self.key(text) else { return nil }
    let slot = index(key)
    guard let scan = entries[slot].escapedScan, entries[slot].hasPrefix,
      count <= entries[slot].prefix.count
    else { return nil }
    return entries[slot].prefix.withUnsafeBufferPointer { scan.escapedSize($0, upTo: count) }
  }

  /// The cut of `text` to `cap` scalars remembered by `remember(cutOf:...)`, if the last cap
  /// applied to the text was `cap` (see `remember` for `borrowing`).
  func cut(of text: PushText, scalars cap: Int, borrowing: Bool) -> PushText? {
    guard let key = Self.key(text) else { return nil }
    let slot = index(key)
    guard entries[slot].cutCap == cap else { return nil }
    return cutText(slot, borrowingPlain: borrowing && text.isPlain)
  }

  /// Remembers, and returns, the cut of `text` to `cap` scalars made of `prefix[..<end]` and
  /// `…`, written into the entry's own storage: a cut of an earlier line is no longer shared
  /// by then, so its bytes are overwritten instead of allocating new ones. `prefix` must be
  /// `decodedPrefix(text, ...)`'s result or any decoded text with at least `end` bytes.
  ///
  /// With `borrowing` (`TextCut.cappedForWriting`), the cut of plain text (slices without
  /// escapes, so no byte of the cut needs escaping) is a slice of that storage, valid until the
  /// memo cuts the same text again or is reset; otherwise it is the array itself.
  func remember(
    cutOf text: PushText, scalars cap: Int, prefix: [UInt8], _ end: Int, borrowing: Bool
  ) -> PushText {
    guard let key = Self.key(text) else {
      var bytes = Array(prefix[..<end])
      TextCut.appendEllipsis(to: &bytes)
      return .decoded(bytes)
    }
    precondition(end >= 0 && end <= prefix.count, "a cut ends within its prefix")
    let slot = index(key)
    entries[slot].cutCap = cap
    let borrowingPlain = borrowing && text.isPlain
    entries[slot].cutIsBorrowable = borrowingPlain
    prefix.withUnsafeBufferPointer {
      // Safe because `end` is at most the prefix's length (checked above).
      let kept = UnsafeBufferPointer(rebasing: $0[..<end])
      if borrowingPlain {
        let bytes = entries[slot].cutBytes ?? CutBytes()
        entries[slot].cutBytes = bytes
        bytes.replace(with: kept)
      } else {
        entries[slot].cut.removeAll(keepingCapacity: true)
        entries[slot].cut.reserveCapacity(end + TextCut.ellipsisBytes)
        entries[slot].cut.append(contentsOf: kept)
        TextCut.appendEllipsis(to: &entries[slot].cut)
      }
    }
    return cutText(slot, borrowingPlain: borrowingPlain)
  }

  /// The entry's cut: a slice of its `cutBytes` when `borrowingPlain` (the caller borrows, and
  /// the text is plain), else an array.
  private func cutText(_ slot: Int, borrowingPlain: Bool) -> PushText {
    if entries[slot].cutIsBorrowable, let bytes = entries[slot].cutBytes {
      // Plain text decodes to bytes that need no escape, and so does `…`.
      return borrowingPlain ? .slice(bytes.slice) : .decoded(bytes.array)
    }
    // The cut is in the array; a borrower of a plain text takes it as a decoded text (the
    // same bytes), which asks nothing of the memo's storage.
    return .decoded(entries[slot].cut)
  }

  /// The decoded UTF-8 of at least the first `limit` scalars of `text` (all of it when the
  /// text is shorter), decoding the text once per line for the longest prefix any vendor asked
  /// for. It can be longer than `limit` scalars: it is the memo's own copy, shared rather than
  /// trimmed (trimming would copy it once per vendor). The cuts use only what they need:
  /// a cut depends on the scalars up to the one after it.
  package func decodedPrefix(_ text: PushText, scalars limit: Int) -> [UInt8] {
    guard let key = Self.key(text) else { return text.decodedPrefix(scalars: limit) }
    let slot = index(key)
    if entries[slot].hasPrefix
      && (entries[slot].prefixComplete || entries[slot].prefixScalars >= limit)
    {
      return entries[slot].prefix
    }
    let scalars = text.decodePrefix(scalars: limit, into: &entries[slot].prefix)
    entries[slot].hasPrefix = true
    entries[slot].prefixScalars = scalars
    entries[slot].prefixComplete = scalars < limit
    return entries[slot].prefix
  }
}

/// The bytes of a memoised cut handed out as a `StringSlice` (`TextCut.cappedForWriting`):
/// memory this object allocates and frees itself, so the slice's pointer is legitimately stable
/// (an array lends its storage's address only inside `withUnsafeBufferPointer`). The slice is
/// valid until the next `replace` or the end of the object, which the memo keeps past the
/// borrower's use (the borrower writes the slice before asking the memo for anything else).
final class CutBytes {
  private var storage: UnsafeMutableBufferPointer<UInt8>
  private var count = 0

  init() {
    // Room for a cut of the common caps (127 scalars of up to 4 bytes, `…` included).
    storage = .allocate(capacity: 512)
  }

  deinit { storage.deallocate() }

  /// Holds `prefix` followed by `…`, growing (and moving) only when it does not fit.
  func replace(with prefix: UnsafeBufferPointer<UInt8>) {
    let needed = prefix.count + TextCut.ellipsisBytes
    if needed > storage.count {
      storage.deallocate()
      storage = .allocate(capacity: max(needed, storage.count * 2))
    }
    // Safe because `storage` holds at least `needed` bytes (grown above); UInt8 is trivial, so
    // initialising over earlier bytes needs no deinitialisation.
    let base = storage.baseAddress!
    if let source = prefix.baseAddress, prefix.count > 0 {
      base.initialize(from: source, count: prefix.count)
    }
    (base + prefix.count).initialize(from: TextCut.ellipsis, count: TextCut.ellipsisBytes)
    count = needed
  }

  /// The cut as a slice of this object's memory: no escapes (a cut of plain text and `…`).
  var slice: StringSlice {
    // Safe because `storage` is allocated (never empty: a cut always holds `…`) and stays put
    // until the next `replace` or `deinit`, as the type's contract says.
    StringSlice(pointer: UnsafePointer(storage.baseAddress!), count: count, hasEscapes: false)
  }

  /// The cut as an array (a copy).
  var array: [UInt8] { Array(UnsafeBufferPointer(rebasing: storage[..<count])) }
}
