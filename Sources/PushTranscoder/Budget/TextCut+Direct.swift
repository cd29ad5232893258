import CByteScan

/// The direct path of the cuts (SPEC 5, 9): where a cut falls is found without walking the
/// text scalar by scalar, and grapheme segmentation, when the scalars on either side of the cut
/// could join, runs only from the last position before the cut that no UAX #29 rule reaches
/// across, instead of from the start of a text of several kilobytes.
///
/// Why a restart is safe: between two "simple" scalars (`TextCut.isSimple`: printable ASCII and
/// the CJK ranges, none of which is CR, LF, a control, Extend, ZWJ, SpacingMark, Prepend, a
/// regional indicator, Hangul, an Indic conjunct letter or Extended_Pictographic) only GB999
/// applies, so that position is a boundary; and every rule that looks further back (GB9c's
/// conjunct chains, GB11's emoji chains, GB12/13's regional-indicator runs) stops at a simple
/// scalar, so no boundary after that position depends on the text before it. Segmenting from
/// there gives the boundaries that segmenting from the start gives.
extension TextCut {
  /// What the limit of a cut counts.
  enum Unit {
    /// Unicode scalars (the caps of SPEC 5 step 1).
    case scalars
    /// Bytes once canonically escaped (the byte budgets of SPEC 5 step 2).
    case escapedBytes

    /// The cost of one grapheme cluster in this unit.
    var characterCost: (Character) -> Int {
      switch self {
      case .scalars:
        return { $0.unicodeScalars.count }
      case .escapedBytes:
        return { character in
          var length = 0
          for byte in character.utf8 { length += JSONEscapes.escapedLength(byte) }
          return length
        }
      }
    }

    /// The cost of one scalar (given as its UTF-8 bytes) in this unit.
    var scalarCost: (UnsafeBufferPointer<UInt8>) -> Int {
      switch self {
      case .scalars: return { _ in 1 }
      case .escapedBytes: return TextCut.escapedCost
      }
    }
  }

  /// The length of the longest prefix of `decoded` (valid UTF-8, longer than the cut) made of
  /// whole grapheme clusters whose cost in `unit` is at most `limit`: the direct path, else the
  /// simple walk, else full grapheme segmentation, each giving what the last gives.
  static func cutEnd(
    of decoded: UnsafeBufferPointer<UInt8>, limit: Int, unit: Unit, scan: EscapedScan? = nil
  ) -> Int {
    directPrefixEnd(of: decoded, limit: limit, unit: unit, scan: scan)
      ?? simplePrefixEnd(of: decoded, limit: limit, cost: unit.scalarCost)
      ?? graphemePrefixEnd(of: decoded, limit: limit, cost: unit.characterCost)
  }

  /// How many scalars before the cut are searched for a restart position; past that, the
  /// segmentation starts at the beginning of the text (as `graphemePrefixEnd` always does).
  static let restartSearchScalars = 64

  /// The length of the longest prefix of `bytes` (valid UTF-8) made of whole grapheme clusters
  /// whose cost in `unit` is at most `limit`: what `graphemePrefixEnd(of:limit:cost:)` gives,
  /// without its walk from the start. Nil when the whole of `bytes` fits (the callers cut only
  /// text that does not), for the caller to use the other paths.
  static func directPrefixEnd(
    of bytes: UnsafeBufferPointer<UInt8>, limit: Int, unit: Unit, scan: EscapedScan? = nil
  ) -> Int? {
    guard limit >= 0 else { return nil }
    // `end`: the end of the longest prefix of whole scalars whose cost fits.
    var end: Int
    switch unit {
    case .scalars:
      end = scalarPrefixEnd(bytes, scalars: limit)
    case .escapedBytes:
      // Each byte's escaped cost is its own (bytes of a multi-byte scalar cost one each): the
      // longest byte prefix that fits, backed up to the start of the scalar that crosses it.
      end = scan?.prefixEnd(bytes, limit: limit) ?? escapedPrefixEnd(bytes, limit: limit)
      while end < bytes.count && end > 0 && bytes[end] & 0xC0 == 0x80 { end -= 1 }
    }
    guard end < bytes.count else { return nil }
    // Safe because 0 <= end < bytes.count from here on, nextEnd <= bytes.count is checked, and
    // every range below runs between scalar starts found walking down from `end`.
    // The first scalar alone is over the limit, and so is the first cluster.
    if end == 0 { return 0 }
    let nextEnd = end + utf8Length(bytes[end])
    guard nextEnd <= bytes.count else { return nil }
    var start = scalarStart(bytes, before: end)
    if isSimple(range(bytes, start, end)) && isSimple(range(bytes, end, nextEnd)) {
      return end
    }
    // Look back for two simple scalars side by side: the boundary between them is a restart.
    var restart = 0
    var startEnd = end
    var searched = 0
    while start > 0 && searched < restartSearchScalars {
      let previous = scalarStart(bytes, before: start)
      if isSimple(range(bytes, previous, start)) && isSimple(range(bytes, start, startEnd)) {
        restart = start
        break
      }
      startEnd = start
      start = previous
      searched += 1
    }
    // Everything before the restart is whole clusters that fit; segment the rest, up to and
    // including the scalar that crosses the limit (a boundary depends only on the scalars
    // before it and the one after it).
    let used =
      unit == .scalars
      ? ScalarCount.ofUTF8(range(bytes, 0, restart))
      : JSONEscapes.escapedLength(range(bytes, 0, restart))
    let kept = graphemePrefixEnd(
      of: range(bytes, restart, nextEnd), limit: limit - used, cost: unit.characterCost)
    return restart + kept
  }

  /// `bytes[from ..< to]`.
  @inline(__always)
  static func range(_ bytes: UnsafeBufferPointer<UInt8>, _ from: Int, _ to: Int)
    -> UnsafeBufferPointer<UInt8>
  {
    // Safe because `directPrefixEnd`, the only caller, passes 0 <= from <= to <= bytes.count.
    UnsafeBufferPointer(rebasing: bytes[from..<to])
  }

  /// The start of the scalar that ends at `position` (> 0) in valid UTF-8.
  @inline(__always)
  static func scalarStart(_ bytes: UnsafeBufferPointer<UInt8>, before position: Int) -> Int {
    var start = position - 1
    // Safe because 0 < start < position <= bytes.count while `bytes[start]` is read.
    while start > 0 && bytes[start] & 0xC0 == 0x80 { start -= 1 }
    return start
  }

  /// The length of the longest prefix of `bytes` whose canonically escaped size is at most
  /// `limit`: sixteen bytes at a time, each block up to its first byte that needs an escape
  /// (`"`, `\`, a control byte below 0x20), byte by byte through those; eight at a time near
  /// the end.
  static func escapedPrefixEnd(_ bytes: UnsafeBufferPointer<UInt8>, limit: Int) -> Int {
    escapedPrefixScan(bytes, from: 0, used: 0, limit: limit).end
  }

  /// `escapedPrefixEnd`, resumed at `start` where the escaped size of `bytes[..<start]` is
  /// `used` (at most `limit`); also returns the escaped size of the prefix it found.
  static func escapedPrefixScan(
    _ bytes: UnsafeBufferPointer<UInt8>, from start: Int, used startUsed: Int, limit: Int
  ) -> (end: Int, used: Int) {
    guard let base = bytes.baseAddress else { return (0, 0) }
    let count = bytes.count
    var used = startUsed
    var index = start
    while index < count {
      if index &+ 16 <= count && used &+ 16 <= limit {
        // The bytes before the first one that needs an escape cost one each. Safe because
        // index + 16 <= count (the block is readable) and used + 16 <= limit (the wrapping adds
        // stay below both).
        let escaped = pt_escaped16(base + index) | 0x1_0000
        let plain = Int(truncatingIfNeeded: escaped.trailingZeroBitCount)
        used &+= plain
        index &+= plain
        if plain == 16 { continue }
      } else if index + 8 <= count && used + 8 <= limit {
        // Safe because index + 8 <= count.
        let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
        if !JSONEscapes.needsEscape(word) {
          used += 8
          index += 8
          continue
        }
      }
      // Safe because index < count.
      let cost = JSONEscapes.escapedLength(base[index])
      if used + cost > limit { return (index, used) }
      used += cost
      index += 1
    }
    return (index, used)
  }
}

/// Where the last byte-budget cut of one text fell: the budgeted vendors cut the same long
/// body to rooms a few bytes apart, so each resumes the previous scan (forwards for a larger
/// room, backwards for a smaller one) instead of walking some four kilobytes again. Prefix
/// sums of escaped sizes only grow, so either walk finds what a scan from the start finds.
final class EscapedScan {
  private var end = 0
  private var used = 0

  /// `TextCut.escapedPrefixEnd(bytes, limit: limit)`, for successive calls on the same bytes
  /// (or on longer bytes that start with them).
  func prefixEnd(_ bytes: UnsafeBufferPointer<UInt8>, limit: Int) -> Int {
    if end > bytes.count { (end, used) = (0, 0) }
    if used <= limit {
      (end, used) = TextCut.escapedPrefixScan(bytes, from: end, used: used, limit: limit)
    } else {
      // Safe because end <= bytes.count and the bytes before `end` were counted into `used`.
      while used > limit {
        end -= 1
        used -= JSONEscapes.escapedLength(bytes[end])
      }
    }
    return end
  }

  /// The escaped size of `bytes[..<position]`, walked from the last scan's position (the cut
  /// that a budget keeps lies a few bytes before it).
  func escapedSize(_ bytes: UnsafeBufferPointer<UInt8>, upTo position: Int) -> Int {
    if end > bytes.count { (end, used) = (0, 0) }
    // Safe because both walks stay inside 0 ..< bytes.count.
    while end < position {
      used += JSONEscapes.escapedLength(bytes[end])
      end += 1
    }
    while end > position {
      end -= 1
      used -= JSONEscapes.escapedLength(bytes[end])
    }
    return used
  }
}
