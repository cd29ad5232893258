/// Grapheme-safe truncation (SPEC 5, 9), the one place that segments text.
///
/// Both cuts keep the longest prefix that ends on an extended grapheme cluster boundary
/// (UAX #29, as Swift's `Character` does) and append `…` (U+2026, one scalar, 3 UTF-8 bytes,
/// never escaped). Segmentation runs only here, and only once a cheap count has shown that a
/// cut is needed, so the common case never builds a `String`.
package enum TextCut {
  /// `…` in UTF-8.
  package static let ellipsis: [UInt8] = [0xE2, 0x80, 0xA6]
  /// The canonical size of `…`: bytes and scalars.
  package static let ellipsisBytes = 3
  /// The scalar count of `…`: one.
  package static let ellipsisScalars = 1

  /// Applies a scalar cap (SPEC 5 step 1): nil when `text` has at most `cap` scalars (it is
  /// used unchanged), else the longest grapheme prefix of at most `cap − 1` scalars plus `…`
  /// (just `…` when the first grapheme alone is too long).
  package static func capped(_ text: PushText, scalars cap: Int, memo: TextMemo? = nil)
    -> PushText?
  {
    capped(text, scalars: cap, memo: memo, borrowing: false)
  }

  /// `capped(_:scalars:memo:)` for a renderer that writes the result before it asks `memo` for
  /// anything else: the cut of a text made of slices without escapes (most texts, once the
  /// canonicalizer has run) comes back as a slice of the memo's storage, which needs no
  /// escaping when written and holds no array. The slice is valid until `memo` cuts the same
  /// text again or is reset.
  static func cappedForWriting(_ text: PushText, scalars cap: Int, memo: TextMemo) -> PushText? {
    capped(text, scalars: cap, memo: memo, borrowing: true)
  }

  @inline(__always)
  private static func capped(
    _ text: PushText, scalars cap: Int, memo: TextMemo?, borrowing: Bool
  ) -> PushText? {
    // Every scalar takes at least one stored byte (an escape takes two or more).
    if text.storedByteCount <= cap { return nil }
    let longer =
      memo?.hasMoreScalars(text, than: cap) ?? (text.scalarCount(stoppingAbove: cap) > cap)
    if !longer { return nil }
    // vivo and meizu both cap bodies at 100 scalars: the second asks for the same cut.
    if let cut = memo?.cut(of: text, scalars: cap, borrowing: borrowing) { return cut }
    // Only the first cap + 1 scalars can matter: at most cap − 1 are kept, and the boundary
    // after the last kept one looks one scalar ahead.
    let prefix =
      memo?.decodedPrefix(text, scalars: cap + 1) ?? text.decodedPrefix(scalars: cap + 1)
    let end = prefix.withUnsafeBufferPointer {
      cutEnd(of: $0, limit: cap - ellipsisScalars, unit: .scalars)
    }
    // The memo writes the cut into storage it keeps from line to line.
    if let memo {
      return memo.remember(cutOf: text, scalars: cap, prefix: prefix, end, borrowing: borrowing)
    }
    var bytes = prefix.withUnsafeBufferPointer {
      prefixCopy($0, upTo: end, extraCapacity: ellipsisBytes)
    }
    appendEllipsis(to: &bytes)
    return .decoded(bytes)
  }

  /// Appends `…` (without touching the global `ellipsis` array).
  @inline(__always)
  static func appendEllipsis(to bytes: inout [UInt8]) {
    bytes.append(0xE2)
    bytes.append(0x80)
    bytes.append(0xA6)
  }

  /// The byte-budget cut (SPEC 5 step 2): the longest grapheme prefix of `text` whose canonical
  /// escaped bytes plus the 3 bytes of `…` fit in `room`, followed by `…`, as decoded UTF-8.
  /// - Precondition: `room >= 3` (the caller refuses the payload otherwise).
  package static func fittingEscaped(_ text: PushText, room: Int, memo: TextMemo? = nil)
    -> [UInt8]
  {
    assert(room >= ellipsisBytes, "no room for a cut: the caller refuses the payload")
    guard let memo else { return fittingEscapedOnce(text, room: room, memo: nil) }
    return memo.byteCut(of: text, room: room) { fittingEscapedOnce(text, room: room, memo: memo) }
  }

  /// `fittingEscaped`, made anew.
  private static func fittingEscapedOnce(_ text: PushText, room: Int, memo: TextMemo?)
    -> [UInt8]
  {
    // Every scalar costs at least one byte, so at most room − 3 scalars fit (plus one to see
    // the last boundary).
    let wanted = max(0, room - ellipsisBytes) + 1
    let prefix =
      memo?.decodedPrefix(text, scalars: wanted) ?? text.decodedPrefix(scalars: wanted)
    let scan = memo?.escapedScan(text)
    var bytes = prefix.withUnsafeBufferPointer {
      prefixCopy(
        $0, upTo: cutEnd(of: $0, limit: room - ellipsisBytes, unit: .escapedBytes, scan: scan),
        extraCapacity: ellipsisBytes)
    }
    appendEllipsis(to: &bytes)
    return bytes
  }

  /// The canonical escaped size of one scalar given as its UTF-8 bytes.
  @inline(__always)
  static func escapedCost(_ scalar: UnsafeBufferPointer<UInt8>) -> Int {
    // Safe because `scalar[0]` is read only when the scalar has one byte.
    scalar.count == 1 ? JSONEscapes.escapedLength(scalar[0]) : scalar.count
  }

  /// The fast path of both cuts: walks scalars while their summed `cost` fits `limit`; when the
  /// scalars on both sides of the cut are "simple", the cut is a grapheme boundary (UAX #29
  /// GB999: neither is CR, LF, a control, Extend, ZWJ, SpacingMark, Prepend, a regional
  /// indicator, a Hangul jamo or syllable, or an Indic consonant, so no rule joins them) and
  /// every scalar before it ends a cluster only if its successor starts one — which, for the
  /// longest prefix, is all that matters. Returns the cut's length, or nil (use
  /// `graphemePrefixEnd`) otherwise, or when the whole text fits (the caller only cuts text that
  /// does not).
  static func simplePrefixEnd(
    of bytes: UnsafeBufferPointer<UInt8>, limit: Int, cost: (UnsafeBufferPointer<UInt8>) -> Int
  ) -> Int? {
    var used = 0
    var index = 0
    var previousSimple = true
    let base = bytes.baseAddress
    while index < bytes.count {
      // Eight printable ASCII bytes other than `"` and `\` are eight simple scalars that cost
      // one each in both units: skip them while they fit.
      // Safe because index + 8 <= bytes.count, so `base` is non-nil and the load is in bounds.
      if index + 8 <= bytes.count && used + 8 <= limit,
        isPlainASCII(UnsafeRawPointer(base! + index).loadUnaligned(as: UInt64.self))
      {
        used += 8
        index += 8
        previousSimple = true
        continue
      }
      // Safe because index < bytes.count, and the guard keeps the scalar inside the buffer.
      let length = utf8Length(bytes[index])
      guard index + length <= bytes.count else { return nil }
      let scalar = UnsafeBufferPointer(rebasing: bytes[index..<index + length])
      let simple = isSimple(scalar)
      let next = used + cost(scalar)
      if next > limit {
        // Cutting before this scalar: a boundary when it and its predecessor are simple.
        return simple && previousSimple ? index : nil
      }
      used = next
      previousSimple = simple
      index += length
    }
    return nil
  }

  /// `bytes[..<end]` as an array with room for `extraCapacity` more bytes (the `…` a cut
  /// appends, without growing the array a second time).
  static func prefixCopy(_ bytes: UnsafeBufferPointer<UInt8>, upTo end: Int, extraCapacity: Int)
    -> [UInt8]
  {
    // (Not `init(unsafeUninitializedCapacity:)`, for the reason given at `Array.filled`.)
    var copy: [UInt8] = []
    copy.reserveCapacity(end + extraCapacity)
    // Safe because callers pass an `end` at most `bytes.count`.
    copy.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[..<end]))
    return copy
  }

  /// True when all eight bytes are printable ASCII other than `"` and `\` (SWAR: a byte is
  /// below 0x20 or 0x7F and above, or equals one of the two).
  @inline(__always)
  static func isPlainASCII(_ word: UInt64) -> Bool {
    let ones: UInt64 = 0x0101_0101_0101_0101
    let high: UInt64 = 0x8080_8080_8080_8080
    // Safe because both sums count only when every byte is below 0x80 (the `word & high` test),
    // where no byte carries into the next.
    // Bytes below 0x20: adding 0x60 leaves bit 7 clear only for them (no carries: < 0x80).
    let belowSpace = ~(word &+ ones &* 0x60) & high
    // 0x7F and above: bit 7 set, or adding 1 sets it.
    let delOrHigh = (word | (word &+ ones)) & high
    return word & high == 0 && belowSpace == 0 && delOrHigh == 0
      && SWAR.matches(word, ASCII.quote) | SWAR.matches(word, ASCII.backslash) == 0
  }

  /// The byte length of the first `scalars` scalars of decoded UTF-8 (all of it when shorter).
  @inline(__always)
  static func scalarPrefixEnd(_ bytes: UnsafeBufferPointer<UInt8>, scalars: Int) -> Int {
    scalarPrefix(bytes, scalars: scalars).end
  }

  /// The byte length of the first `scalars` scalars of decoded UTF-8 (all of it when shorter),
  /// and how many scalars that is: `scalars`, or fewer when the text is shorter. Counted on the
  /// way, so a caller that needs both walks the bytes once.
  static func scalarPrefix(_ bytes: UnsafeBufferPointer<UInt8>, scalars: Int) -> (
    end: Int, scalars: Int
  ) {
    var seen = 0
    var index = 0
    // Whole words while they cannot hold the lead byte of scalar `scalars + 1`.
    while index + 8 <= bytes.count {
      // Safe because index + 8 <= bytes.count.
      let word = UnsafeRawPointer(bytes.baseAddress! + index).loadUnaligned(as: UInt64.self)
      let leads = 8 - SWAR.countHighBits(word & ~(word << 1) & 0x8080_8080_8080_8080)
      if seen + leads > scalars { break }
      seen += leads
      index += 8
    }
    // Safe because index < bytes.count.
    while index < bytes.count {
      if bytes[index] & 0xC0 != 0x80 {
        if seen == scalars { return (index, seen) }
        seen += 1
      }
      index += 1
    }
    return (index, seen)
  }

  @inline(__always)
  static func utf8Length(_ lead: UInt8) -> Int {
    lead < 0x80 ? 1 : lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4
  }

  /// Scalars that never take part in a grapheme rule other than GB999: printable ASCII, CJK
  /// Unified Ideographs (U+4E00–9FFF), CJK punctuation U+3001–3011, fullwidth forms
  /// U+FF01–FF5E. (Kana are left out: U+3099/309A are Extend.)
  @inline(__always)
  static func isSimple(_ scalar: UnsafeBufferPointer<UInt8>) -> Bool {
    // Safe because each case reads only indexes below `scalar.count`.
    switch scalar.count {
    case 1:
      return scalar[0] >= 0x20 && scalar[0] < 0x7F
    case 3:
      let value =
        UInt32(scalar[0] & 0x0F) << 12 | UInt32(scalar[1] & 0x3F) << 6
        | UInt32(scalar[2] & 0x3F)
      return (0x4E00...0x9FFF).contains(value) || (0x3001...0x3011).contains(value)
        || (0xFF01...0xFF5E).contains(value)
    default:
      return false
    }
  }

  /// The length of the longest prefix of `decoded` made of whole grapheme clusters whose summed
  /// `cost` is at most `limit`.
  static func graphemePrefixEnd(
    of decoded: UnsafeBufferPointer<UInt8>, limit: Int, cost: (Character) -> Int
  ) -> Int {
    // The bytes are valid UTF-8 (the tokenizer validated them; decoding makes only valid
    // scalars), so the String holds exactly these bytes and UTF-8 offsets carry over.
    let text = String(decoding: decoded, as: UTF8.self)
    var used = 0
    var end = 0
    for character in text {
      let next = used + cost(character)
      if next > limit { break }
      used = next
      end += character.utf8.count
    }
    return end
  }

  /// The longest prefix of decoded UTF-8 that has at most `maxBytes` bytes and ends on a scalar
  /// boundary (vivo `requestId`, SPEC 9: no `…`).
  package static func scalarPrefixLength(_ bytes: UnsafeBufferPointer<UInt8>, maxBytes: Int) -> Int
  {
    if bytes.count <= maxBytes { return bytes.count }
    var end = max(maxBytes, 0)
    // Safe because `bytes[end]` is read only while 0 < end <= maxBytes < bytes.count.
    // Back up over continuation bytes so the cut never splits a UTF-8 sequence.
    while end > 0 && bytes[end] & 0xC0 == 0x80 { end -= 1 }
    return end
  }
}
