/// A push text as a vendor writes it (title, body, ext-as-string): slices of the line on the fast
/// path, or owned decoded bytes once a cut (or a re-serialisation) made new text.
///
/// Invariant: every case denotes valid UTF-8 once decoded. `.slice` / `.pieces` borrow the
/// line's bytes (valid only while the line is rendered); `.decoded` owns its bytes, so a cut
/// result stays alive for as long as the vendor that made it holds the value.
///
/// ```
///   .pieces([ "Nickname:" | "hello" | "world" ])   concatenated, no separator (SPEC 3.1)
///   .decoded([UTF-8 of "Nickname:hel…"])            after a cut, escaped only when written
/// ```
package enum PushText {
  /// One slice of JSON string content.
  case slice(StringSlice)
  /// Slices concatenated with no separator (the push text, the display prefix).
  case pieces([StringSlice])
  /// Decoded UTF-8, written canonically escaped.
  case decoded([UInt8])

  /// Appends the canonical JSON string content (no quotes).
  @inline(__always)
  package func writeContent(into writer: inout JSONWriter) {
    switch self {
    case .slice(let slice):
      writer.stringContent(slice)
    case .pieces(let pieces):
      for piece in pieces { writer.stringContent(piece) }
    case .decoded(let bytes):
      bytes.withUnsafeBufferPointer { writer.escapedContent($0) }
    }
  }

  /// Appends the text as a canonical JSON string and returns the byte range of its content in
  /// `writer` (what a budget cut replaces).
  @discardableResult @inline(__always)
  package func write(into writer: inout JSONWriter) -> Range<Int> {
    // The common case inline (a slice copied as it is): the vendors write some twenty texts
    // per message, and a call for each cost more than the copy.
    if case .slice(let slice) = self, slice.isCanonical {
      let start = writer.count &+ 1
      writer.quoted(slice.rawBytes)
      return start..<(writer.count &- 1)
    }
    return writeAnyCase(into: &writer)
  }

  /// `write(into:)` for the body of a payload with a byte budget: when the text's first slices,
  /// each its own canonical form (copied as it is), already hold more than `writer.bodyLimit`
  /// bytes, only that many bytes are written and `writer.bodyWrittenShort` is set: the budget
  /// cut keeps fewer. A message split into many records then writes at most a budget's worth of
  /// its body in each, not the whole body each time.
  @inline(__always)
  package func writeBody(into writer: inout JSONWriter) -> Range<Int> {
    let limit = writer.bodyLimit
    guard limit != Int.max, canonicalPrefixExceeds(limit) else { return write(into: &writer) }
    writer.bodyWrittenShort = true
    return writePrefix(bytes: limit, into: &writer)
  }

  /// True when the text's first slices, canonical each, hold more than `limit` bytes (their raw
  /// bytes are then the start of its escaped content). Looks at those slices only, so at most
  /// about `limit` bytes' worth of pieces, however many the text has.
  private func canonicalPrefixExceeds(_ limit: Int) -> Bool {
    switch self {
    case .slice(let slice):
      return slice.isCanonical && slice.count > limit
    case .pieces(let pieces):
      var length = 0
      for piece in pieces {
        guard piece.isCanonical else { return false }
        length += piece.count
        if length > limit { return true }
      }
      return false
    case .decoded:
      return false
    }
  }

  /// The first `limit` bytes of the content of a text whose first slices are canonical (see
  /// `canonicalPrefixExceeds`), quoted.
  @inline(never)
  private func writePrefix(bytes limit: Int, into writer: inout JSONWriter) -> Range<Int> {
    writer.byte(ASCII.quote)
    let start = writer.count
    var left = limit
    func copy(_ slice: StringSlice) {
      let raw = slice.rawBytes
      let taken = Swift.min(left, raw.count)
      // Safe because taken <= raw.count: the rebased buffer lies within the slice's bytes.
      writer.raw(UnsafeBufferPointer(rebasing: raw[..<taken]))
      left -= taken
    }
    switch self {
    case .slice(let slice):
      copy(slice)
    case .pieces(let pieces):
      for piece in pieces {
        if left == 0 { break }
        copy(piece)
      }
    case .decoded:
      preconditionFailure("a decoded text is written whole")
    }
    let end = writer.count
    writer.byte(ASCII.quote)
    return start..<end
  }

  /// `write(into:)` for every case.
  @inline(never)
  func writeAnyCase(into writer: inout JSONWriter) -> Range<Int> {
    writer.byte(ASCII.quote)
    let start = writer.count
    writeContent(into: &writer)
    let end = writer.count
    writer.byte(ASCII.quote)
    return start..<end
  }

  /// True when the text is slices without escapes: raw JSON string content holds no byte
  /// that needs an escape, so the decoded text needs none either.
  var isPlain: Bool {
    switch self {
    case .slice(let slice): !slice.hasEscapes
    case .pieces(let pieces): pieces.allSatisfy { !$0.hasEscapes }
    case .decoded: false
    }
  }

  /// True when the text decodes to nothing.
  package var isEmpty: Bool {
    switch self {
    case .slice(let slice): slice.isEmpty
    case .pieces(let pieces): pieces.allSatisfy(\.isEmpty)
    case .decoded(let bytes): bytes.isEmpty
    }
  }

  /// The number of bytes as stored (escapes not decoded). Every scalar takes at least one stored
  /// byte, so this bounds `scalarCount` from above for free.
  package var storedByteCount: Int {
    switch self {
    case .slice(let slice): slice.count
    case .pieces(let pieces): pieces.reduce(0) { $0 + $1.count }
    case .decoded(let bytes): bytes.count
    }
  }

  /// The number of Unicode scalars, counted without decoding unescaped text.
  package var scalarCount: Int { scalarCount(stoppingAbove: .max) }

  /// The number of Unicode scalars when it is at most `limit`; otherwise some number above
  /// `limit`, found without counting to the end. A cap check needs no more: a 6 KB body is not
  /// walked to its end to learn that it is longer than 50 scalars.
  package func scalarCount(stoppingAbove limit: Int) -> Int {
    switch self {
    case .slice(let slice):
      return ScalarCount.of(slice, stoppingAbove: limit)
    case .pieces(let pieces):
      var total = 0
      for piece in pieces {
        total += ScalarCount.of(piece, stoppingAbove: limit - total)
        if total > limit { break }
      }
      return total
    case .decoded(let bytes):
      return bytes.withUnsafeBufferPointer { ScalarCount.ofUTF8($0, stoppingAbove: limit) }
    }
  }

  /// The decoded UTF-8 (allocates: for cuts and the slow paths).
  package func decodedBytes() -> [UInt8] {
    switch self {
    case .slice(let slice):
      return slice.decodedBytes()
    case .pieces(let pieces):
      var out: [UInt8] = []
      out.reserveCapacity(storedByteCount)
      for piece in pieces { out.append(contentsOf: piece.decodedBytes()) }
      return out
    case .decoded(let bytes):
      return bytes
    }
  }

  /// The decoded UTF-8 of at most the first `limit` scalars (a cut needs only a prefix: a
  /// grapheme boundary depends on the scalars before it and the one after it, UAX #29).
  package func decodedPrefix(scalars limit: Int) -> [UInt8] {
    switch self {
    case .slice(let slice):
      return Self.decodedPrefix(of: CollectionOfOne(slice), capacity: slice.count, scalars: limit)
    case .pieces(let pieces):
      let capacity = pieces.reduce(0) { $0 + $1.count }
      return Self.decodedPrefix(of: pieces, capacity: capacity, scalars: limit)
    case .decoded(let bytes):
      // Safe because `scalarPrefixEnd` returns at most the buffer's count.
      return bytes.withUnsafeBufferPointer {
        Array($0[..<TextCut.scalarPrefixEnd($0, scalars: limit)])
      }
    }
  }

  /// `decodedPrefix(scalars:)` written over the contents of `bytes`, reusing its storage;
  /// returns the number of scalars it holds (`limit`, or fewer when the text is shorter).
  @discardableResult
  func decodePrefix(scalars limit: Int, into bytes: inout [UInt8]) -> Int {
    switch self {
    case .slice(let slice):
      return Self.refill(
        &bytes, from: CollectionOfOne(slice), capacity: slice.count, scalars: limit)
    case .pieces(let pieces):
      let capacity = pieces.reduce(0) { $0 + $1.count }
      return Self.refill(&bytes, from: pieces, capacity: capacity, scalars: limit)
    case .decoded(let decoded):
      // One walk finds the prefix's end and counts its scalars; the prefix is then copied over
      // `bytes`, keeping its storage like the other cases.
      let prefix = decoded.withUnsafeBufferPointer { TextCut.scalarPrefix($0, scalars: limit) }
      bytes.removeAll(keepingCapacity: true)
      bytes.append(contentsOf: decoded[..<prefix.end])
      return prefix.scalars
    }
  }

  /// Writes the pieces' first `limit` scalars over `bytes` (room for `capacity`, their stored
  /// length) and returns how many scalars that is.
  private static func refill<Pieces: Sequence<StringSlice>>(
    _ bytes: inout [UInt8], from pieces: Pieces, capacity: Int, scalars limit: Int
  ) -> Int {
    var scalars = 0
    [UInt8].refill(&bytes, capacity: capacity) {
      let written = decodePrefix(of: pieces, scalars: limit, at: $0)
      scalars = written.scalars
      return written.bytes
    }
    return scalars
  }

  /// Decodes (or copies) the pieces' first `limit` scalars straight into one array of
  /// `capacity` bytes, their stored length: decoding never lengthens a text.
  private static func decodedPrefix<Pieces: Sequence<StringSlice>>(
    of pieces: Pieces, capacity: Int, scalars limit: Int
  ) -> [UInt8] {
    [UInt8].filled(capacity: capacity) { decodePrefix(of: pieces, scalars: limit, at: $0).bytes }
  }

  /// Decodes (or copies) the pieces' first `limit` scalars to `out`, which has room for their
  /// stored bytes (decoding never lengthens a text), and returns the bytes written and the
  /// scalars they hold.
  private static func decodePrefix<Pieces: Sequence<StringSlice>>(
    of pieces: Pieces, scalars limit: Int, at out: UnsafeMutablePointer<UInt8>
  ) -> (bytes: Int, scalars: Int) {
    // Safe because the buffer has room for every piece's stored bytes, and a decoded or
    // copied piece never takes more room than it is stored in.
    var written = 0
    var remaining = limit
    for piece in pieces where remaining > 0 {
      if piece.hasEscapes {
        let start = written
        written += JSONEscapes.decode(piece.rawBytes, at: out + written, maxScalars: remaining)
        remaining -= ScalarCount.ofUTF8(
          UnsafeBufferPointer(start: out + start, count: written - start))
      } else {
        // Raw content without escapes is its decoded UTF-8: one walk finds the end and counts.
        let prefix = TextCut.scalarPrefix(piece.rawBytes, scalars: remaining)
        (out + written).initialize(from: piece.pointer, count: prefix.end)
        written += prefix.end
        remaining -= prefix.scalars
      }
    }
    return (written, limit - remaining)
  }

  /// The number of decoded UTF-8 bytes.
  package var decodedByteCount: Int {
    // Measured without decoding (xiaomi checks its ext's decoded size for every message).
    func length(_ slice: StringSlice) -> Int {
      slice.hasEscapes ? JSONEscapes.decodedLength(slice.rawBytes) : slice.count
    }
    switch self {
    case .slice(let slice): return length(slice)
    case .pieces(let pieces): return pieces.reduce(0) { $0 + length($1) }
    case .decoded(let bytes): return bytes.count
    }
  }

  /// The length of the canonical string content (what `writeContent` appends).
  package var escapedByteCount: Int {
    switch self {
    case .slice(let slice): JSONWriter.canonicalLength(slice)
    case .pieces(let pieces): pieces.reduce(0) { $0 + JSONWriter.canonicalLength($1) }
    case .decoded(let bytes): bytes.withUnsafeBufferPointer { JSONEscapes.escapedLength($0) }
    }
  }
}

/// Counting Unicode scalars of JSON string content without decoding it.
package enum ScalarCount {
  /// Scalars of decoded UTF-8: every byte that is not a continuation byte starts one. Eight
  /// bytes at a time: continuation bytes (10xxxxxx) are those with bit 7 set and bit 6 clear.
  @inline(__always)
  package static func ofUTF8(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
    ofUTF8(bytes, stoppingAbove: .max)
  }

  /// `ofUTF8(bytes)` when it is at most `limit`, else some number above `limit` (the count
  /// stops at the first 64-byte block that passes it).
  @inline(__always)
  package static func ofUTF8(_ bytes: UnsafeBufferPointer<UInt8>, stoppingAbove limit: Int) -> Int {
    guard let base = bytes.baseAddress else { return 0 }
    let count = bytes.count
    // Safe because `index` and `continuations` never exceed `count`, so `&+`/`&-` cannot wrap.
    var continuations = 0
    var index = 0
    while index + 8 <= count {
      // Safe because index + 8 <= count.
      let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
      continuations &+= SWAR.countHighBits(word & ~(word << 1) & 0x8080_8080_8080_8080)
      index &+= 8
      // Scalars so far: the bytes walked less their continuation bytes.
      if index & 63 == 0 && index &- continuations > limit { return index &- continuations }
    }
    while index < count {
      // Safe because index < count.
      if base[index] & 0xC0 == 0x80 { continuations &+= 1 }
      index &+= 1
    }
    return count - continuations
  }

  /// Scalars of a slice: lead bytes of raw text; an escape is one scalar, a `\u` surrogate pair
  /// is one scalar, a lone surrogate escape decodes to one U+FFFD (as `JSONEscapes.decode`).
  package static func of(_ slice: StringSlice) -> Int {
    of(slice, stoppingAbove: .max)
  }

  /// `of(slice)` when it is at most `limit`, else some number above `limit` (the count stops
  /// soon after passing it).
  package static func of(_ slice: StringSlice, stoppingAbove limit: Int) -> Int {
    let bytes = slice.rawBytes
    if !slice.hasEscapes { return ofUTF8(bytes, stoppingAbove: limit) }
    var count = 0
    var index = 0
    let end = bytes.count
    // Safe because `rawBytes` starts at the slice's non-optional `pointer`. `count` never passes
    // `index` (at most `end`), so its `&+` cannot wrap.
    let base = bytes.baseAddress!
    let high: UInt64 = 0x8080_8080_8080_8080
    while index < end {
      if count > limit { return count }
      if index + 8 <= end {
        // Safe because index + 8 <= end. A word without a backslash counts like plain UTF-8.
        let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
        if SWAR.matches(word, ASCII.backslash) == 0 {
          count &+= 8 - SWAR.countHighBits(word & ~(word << 1) & high)
          index &+= 8
          continue
        }
      }
      // Safe because index < end, and index + 1 < end before `bytes[index + 1]`; `hex4` checks
      // its own bounds, and the pair test checks index + 6 <= end.
      let byte = bytes[index]
      if byte != ASCII.backslash || index + 1 >= end {
        if byte & 0xC0 != 0x80 { count &+= 1 }
        index += 1
        continue
      }
      count &+= 1
      guard bytes[index + 1] == ASCII.lowerU else {
        index += 2
        continue
      }
      let unit = JSONEscapes.hex4(bytes, index + 2)
      index += 6
      // A high surrogate followed by an escaped low surrogate is one scalar (12 bytes).
      if unit >= 0xD800 && unit <= 0xDBFF && index + 6 <= end && bytes[index] == ASCII.backslash
        && bytes[index + 1] == ASCII.lowerU
      {
        let low = JSONEscapes.hex4(bytes, index + 2)
        if low >= 0xDC00 && low <= 0xDFFF { index += 6 }
      }
    }
    return count
  }
}
