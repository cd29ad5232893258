/// Grapheme-safe truncation (SPEC 5, 9), the one place that segments text.
///
/// Both cuts keep the longest prefix that ends on an extended grapheme cluster boundary
/// (UAX #29, as Swift's `Character` does) and append `…` (U+2026, one scalar, 3 UTF-8 bytes,
/// never escaped). Segmentation runs only here, and only once a cheap count has shown that a
/// cut is needed, so the common case never builds a `String`.
public enum TextCut {
  /// `…` in UTF-8.
  public static let ellipsis: [UInt8] = [0xE2, 0x80, 0xA6]
  /// The canonical size of `…`: bytes and scalars.
  public static let ellipsisBytes = 3
  public static let ellipsisScalars = 1

  /// Applies a scalar cap (SPEC 5 step 1): nil when `text` has at most `cap` scalars (it is
  /// used unchanged), else the longest grapheme prefix of at most `cap − 1` scalars plus `…`
  /// (just `…` when the first grapheme alone is too long).
  public static func capped(_ text: PushText, scalars cap: Int) -> PushText? {
    // Every scalar takes at least one stored byte (an escape takes two or more).
    if text.storedByteCount <= cap { return nil }
    if text.scalarCount <= cap { return nil }
    // Only the first cap + 1 scalars can matter: at most cap − 1 are kept, and the boundary
    // after the last kept one looks one scalar ahead.
    let prefix = text.decodedPrefix(scalars: cap + 1)
    var bytes = graphemePrefix(of: prefix, limit: cap - ellipsisScalars) { character in
      character.unicodeScalars.count
    }
    bytes.append(contentsOf: ellipsis)
    return .decoded(bytes)
  }

  /// The byte-budget cut (SPEC 5 step 2): the longest grapheme prefix of `text` whose canonical
  /// escaped bytes plus the 3 bytes of `…` fit in `room`, followed by `…`, as decoded UTF-8.
  /// - Precondition: `room >= 3` (the caller refuses the payload otherwise).
  public static func fittingEscaped(_ text: PushText, room: Int) -> [UInt8] {
    // Every scalar costs at least one byte, so at most room − 3 scalars fit (plus one to see
    // the last boundary).
    let prefix = text.decodedPrefix(scalars: max(0, room - ellipsisBytes) + 1)
    var bytes = graphemePrefix(of: prefix, limit: room - ellipsisBytes) {
      character in
      var length = 0
      for byte in character.utf8 { length += JSONEscapes.escapedLength(byte) }
      return length
    }
    bytes.append(contentsOf: ellipsis)
    return bytes
  }

  /// The longest prefix of `decoded` made of whole grapheme clusters whose summed `cost` is at
  /// most `limit`.
  static func graphemePrefix(
    of decoded: [UInt8], limit: Int, cost: (Character) -> Int
  ) -> [UInt8] {
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
    return Array(decoded[..<end])
  }

  /// The longest prefix of decoded UTF-8 that has at most `maxBytes` bytes and ends on a scalar
  /// boundary (vivo `requestId`, SPEC 9: no `…`).
  public static func scalarPrefixLength(_ bytes: UnsafeBufferPointer<UInt8>, maxBytes: Int) -> Int {
    if bytes.count <= maxBytes { return bytes.count }
    var end = max(maxBytes, 0)
    // Back up over continuation bytes so the cut never splits a UTF-8 sequence.
    while end > 0 && bytes[end] & 0xC0 == 0x80 { end -= 1 }
    return end
  }
}
