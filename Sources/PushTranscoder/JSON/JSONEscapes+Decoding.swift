// JSONEscapes, decoding: `\u` escapes (surrogate pairs included) and whole string contents to
// UTF-8, hex digits, UTF-8 encoding of a scalar, and the textual count of unpaired surrogate
// escapes. Canonical re-escaping is in `JSONEscapes.swift`.

import CByteScan

extension JSONEscapes {
  /// Decodes the `\u` escape whose hex digits start at `index` (a surrogate pair included) and
  /// moves `index` past it. A lone surrogate decodes to U+FFFD. Small enough to inline into
  /// every decoding and re-escaping loop; surrogates, rare, are decoded out of line.
  @inline(__always)
  static func decodeUnicodeEscape(_ content: UnsafeBufferPointer<UInt8>, _ index: inout Int)
    -> UInt32
  {
    let scalar = hex4(content, index)
    index += 4
    if scalar & 0xF800 != 0xD800 { return scalar }
    return decodeSurrogate(scalar, content, &index)
  }

  /// The scalar of a surrogate escape `unit` whose four digits end at `index`: with the low
  /// surrogate escape that follows a high one, the pair (and `index` moves past it); alone,
  /// U+FFFD.
  @inline(never)
  private static func decodeSurrogate(
    _ unit: UInt32, _ content: UnsafeBufferPointer<UInt8>, _ index: inout Int
  ) -> UInt32 {
    if unit <= 0xDBFF && index + 6 <= content.count
      && content[index] == ASCII.backslash && content[index + 1] == ASCII.lowerU
    {
      let low = hex4(content, index + 2)
      if low >= 0xDC00 && low <= 0xDFFF {
        index += 6
        return 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)
      }
    }
    return 0xFFFD
  }

  /// Decodes JSON string content (validated by the tokenizer) into UTF-8. A lone surrogate
  /// escape (accepted only with `--unicode replace`) decodes to U+FFFD.
  package static func decode(_ content: UnsafeBufferPointer<UInt8>, into output: inout [UInt8]) {
    decode(content, into: &output, maxScalars: Int.max)
  }

  /// Decodes at most the first `maxScalars` scalars of JSON string content (cuts need only a
  /// prefix; long texts are not decoded whole).
  package static func decode(
    _ content: UnsafeBufferPointer<UInt8>, into output: inout [UInt8], maxScalars: Int
  ) {
    // The decoded form is never longer than the escaped one.
    let decoded = [UInt8].filled(capacity: content.count) { out in
      decode(content, at: out, maxScalars: maxScalars)
    }
    if output.isEmpty { output = decoded } else { output.append(contentsOf: decoded) }
  }

  /// Decodes at most `maxScalars` scalars of `content` at `out` (room for `content.count`
  /// bytes, not overlapping `content`); returns the length written. Sixteen bytes at a time, then
  /// eight: a block is copied whole, and the cursors move to its first backslash, if any (the
  /// scalars of the bytes before it counted from one mask), so text with an escape every few
  /// bytes (`\n`, `\uXXXX`) goes byte by byte only through its escapes.
  static func decode(
    _ content: UnsafeBufferPointer<UInt8>, at out: UnsafeMutablePointer<UInt8>, maxScalars: Int
  ) -> Int {
    guard let source = content.baseAddress else { return 0 }
    let count = content.count
    var index = 0
    var written = 0
    var scalars = 0
    let high: UInt64 = 0x8080_8080_8080_8080
    while index < count {
      if index &+ 16 <= count {
        // Safe because index + 16 <= count and `written <= index` (decoding never lengthens
        // validated content), so both 16-byte ranges lie in `content` and in the room for
        // `count` bytes at `out`; bytes stored past the copied run are overwritten by what
        // follows or lie past the result. The wrapping adds below stay within `count` and
        // `maxScalars`.
        let classes = pt_copy16_backslashes_continuations(source + index, out + written)
        let plain = Int(truncatingIfNeeded: (classes | 0x1_0000).trailingZeroBitCount)
        // Only the continuation bytes among the plain ones count (`plain` is at most 16).
        // ASCII runs have none: the population count (a long sequence on the baseline target,
        // which has no POPCNT) is skipped.
        let continuations = (classes &>> 16) & ((1 &<< UInt32(plain)) &- 1)
        let leads = continuations == 0 ? plain : plain &- continuations.nonzeroBitCount
        if scalars &+ leads <= maxScalars {
          written &+= plain
          index &+= plain
          scalars &+= leads
          if plain == 16 { continue }
        }
      } else if index &+ 8 <= count {
        // Safe because index + 8 <= count.
        let word = UnsafeRawPointer(source + index).loadUnaligned(as: UInt64.self)
        if SWAR.matches(word, ASCII.backslash) == 0 {
          // Continuation bytes are 10xxxxxx: bit 7 set, bit 6 clear.
          let continuation = word & high & ~(word << 1)
          let leads = 8 - SWAR.countHighBits(continuation)
          if scalars + leads <= maxScalars {
            // Safe because `written <= index`, so out[written..<written + 8] lies in the room
            // for `count` bytes.
            UnsafeMutableRawPointer(out + written).storeBytes(of: word, as: UInt64.self)
            written += 8
            index += 8
            scalars += leads
            continue
          }
        }
      }
      // Safe because index < count, and `written <= index`: validated content has four hex
      // digits after `\u`, so every escape decodes to fewer bytes than it takes.
      let byte = source[index]
      if byte & 0xC0 != 0x80 {
        // A lead byte or an escape starts the next scalar.
        if scalars == maxScalars { break }
        scalars += 1
      }
      guard byte == ASCII.backslash, index + 1 < count else {
        out[written] = byte
        written += 1
        index += 1
        continue
      }
      // Two escapes of CJK text at once, when the bound allows the second. Safe because the
      // twelve bytes of the two escapes decode to six, and `written <= index`: the eight-byte
      // store stays inside the room for `count` bytes.
      if scalars < maxScalars, let six = twoWideEscapes(source, index, count) {
        UnsafeMutableRawPointer(out + written).storeBytes(of: six.littleEndian, as: UInt64.self)
        written &+= 6
        index &+= 12
        scalars &+= 1
        continue
      }
      let kind = source[index + 1]
      index += 2
      switch kind {
      case ASCII.lowerB: out[written] = 0x08
      case ASCII.lowerF: out[written] = 0x0C
      case ASCII.lowerN: out[written] = 0x0A
      case ASCII.lowerR: out[written] = 0x0D
      case ASCII.lowerT: out[written] = 0x09
      case ASCII.lowerU:
        written += writeUTF8(decodeUnicodeEscape(content, &index), at: out + written) - 1
      default: out[written] = kind  // `"`, `\` and `/` stand for themselves
      }
      written += 1
    }
    return written
  }

  /// The value of the four hex digits at `at` (validated by the tokenizer; missing digits at
  /// the end of `content` count as 0).
  @inline(__always)
  static func hex4(_ content: UnsafeBufferPointer<UInt8>, _ at: Int) -> UInt32 {
    // Safe because every read is below `content.count`: checked per byte here, and by the guard
    // for the loop below.
    guard at + 4 <= content.count else {
      var value: UInt32 = 0
      var offset = at
      while offset < content.count {
        value = value << 4 | UInt32(hexValue(content[offset]) ?? 0)
        offset += 1
      }
      return value
    }
    // Safe because at + 4 <= count (the guard above).
    return hex4(content.baseAddress! + at)
  }

  /// The value of the four hex digits at `digits` (validated: four readable bytes, each a hex
  /// digit). Branch-free, all four at once: '0'–'9' is `b & 0xF`; 'a'–'f' and 'A'–'F' have bit
  /// 6 set and are `(b & 0xF) + 9`.
  @inline(__always)
  static func hex4(_ digits: UnsafePointer<UInt8>) -> UInt32 {
    // Safe because the caller guarantees four readable bytes. The first digit is the word's low
    // byte.
    let word = UInt32(littleEndian: UnsafeRawPointer(digits).loadUnaligned(as: UInt32.self))
    return hexValue(word)
  }

  /// The value of the four hex digits held in `word`, the first in its low byte (see `hex4`);
  /// for a 64-bit word, the values of the two groups held in its halves, the first group's in the
  /// low 16 bits and the second's from bit 32.
  @inline(__always)
  static func hexValue<Word: FixedWidthInteger & UnsignedInteger>(_ word: Word) -> Word {
    let ones = Word.max / 0xFF  // 0x01 in every byte
    // Safe because each byte's nibble is at most 15 + 9: no carry between bytes.
    let nibbles = (word & (ones &* 0x0F)) &+ ((word >> 6) & ones) &* 9
    // In each four-byte group, bytes 0 and 2 become (first << 4 | second) and
    // (third << 4 | fourth).
    let lowNibbles = ones / 0x0101 &* 0x0F  // 0x000F in every 16-bit lane
    let pairs = (nibbles & lowNibbles) << 4 | (nibbles >> 8) & lowNibbles
    let high = (ones / 0x0101_0101) &* 0xFF  // 0xFF in the low byte of every group
    return (pairs & high) << 8 | (pairs >> 16) & high
  }

  /// The three UTF-8 bytes of a scalar from U+0800 to U+FFFF, the first in the low byte.
  @inline(__always)
  static func threeByteUTF8(_ scalar: UInt32) -> UInt32 {
    (0xE0 | scalar >> 12) | (0x80 | scalar >> 6 & 0x3F) << 8 | (0x80 | scalar & 0x3F) << 16
  }

  /// The UTF-8 of the two escapes `\uXXXX\uXXXX` at `at` in validated content, when both are
  /// of scalars from U+0800 up outside the surrogates (CJK text in JSON written as ASCII only):
  /// six bytes in the low 48 bits, the first byte lowest. Nil otherwise, for the one-escape
  /// path. The eight hex digits are converted as one word (`hexValue`).
  @inline(__always)
  static func twoWideEscapes(_ source: UnsafePointer<UInt8>, _ at: Int, _ count: Int) -> UInt64? {
    // Safe because each byte is read after `at + 12 <= count`. Validated content has four hex
    // digits after every `\u`, and a backslash right after an escape starts the next one.
    guard at &+ 12 <= count, source[at &+ 1] == ASCII.lowerU,
      source[at &+ 6] == ASCII.backslash, source[at &+ 7] == ASCII.lowerU
    else { return nil }
    // The first digit of each group is its half's low byte.
    let first = UInt32(
      littleEndian: UnsafeRawPointer(source + (at &+ 2)).loadUnaligned(as: UInt32.self))
    let second = UInt32(
      littleEndian: UnsafeRawPointer(source + (at &+ 8)).loadUnaligned(as: UInt32.self))
    let units = hexValue(UInt64(first) | UInt64(second) << 32)
    let firstUnit = UInt32(truncatingIfNeeded: units)
    let secondUnit = UInt32(truncatingIfNeeded: units >> 32)
    guard firstUnit >= 0x800, secondUnit >= 0x800, firstUnit & 0xF800 != 0xD800,
      secondUnit & 0xF800 != 0xD800
    else { return nil }
    return UInt64(threeByteUTF8(firstUnit)) | UInt64(threeByteUTF8(secondUnit)) << 24
  }

  /// Writes the UTF-8 encoding of a Unicode scalar value at `out` (room for 4 bytes); returns
  /// its length.
  @inline(__always)
  static func writeUTF8(_ scalar: UInt32, at out: UnsafeMutablePointer<UInt8>) -> Int {
    // Safe because callers give `out` room for 4 bytes (their `\u` escape took 6 or 12).
    switch scalar {
    case 0..<0x80:
      out[0] = UInt8(scalar)
      return 1
    case 0x80..<0x800:
      out[0] = UInt8(0xC0 | scalar >> 6)
      out[1] = UInt8(0x80 | scalar & 0x3F)
      return 2
    case 0x800..<0x10000:
      // The common case of escaped text (CJK): three bytes with one four-byte store, the fourth
      // inside the room and rewritten next or past the length the caller keeps.
      UnsafeMutableRawPointer(out).storeBytes(
        of: threeByteUTF8(scalar).littleEndian, as: UInt32.self)
      return 3
    default:
      out[0] = UInt8(0xF0 | scalar >> 18)
      out[1] = UInt8(0x80 | scalar >> 12 & 0x3F)
      out[2] = UInt8(0x80 | scalar >> 6 & 0x3F)
      out[3] = UInt8(0x80 | scalar & 0x3F)
      return 4
    }
  }
}

extension JSONEscapes {
  /// The number of unpaired surrogate escapes in a line, found as a textual pass before any
  /// parsing would find them (SPEC 9 [2.2]: with `--unicode replace` each one becomes U+FFFD
  /// before parsing): `\\` and other two-byte escapes are stepped over, a high surrogate escape
  /// directly followed by a low one is a pair, and any other `\uD800`–`\uDFFF` counts once,
  /// inside a string or not.
  ///
  /// On a line the tokenizer accepts this equals its own count; a rejected line uses this one,
  /// so that escapes after the fault count too.
  package static func unpairedSurrogateEscapes(in line: UnsafeBufferPointer<UInt8>) -> Int {
    var unpaired = 0
    var index = 0
    let count = line.count
    /// The value of the `\uXXXX` escape at `at`, or nil.
    func escape(at: Int) -> UInt32? {
      // Safe because the guard checks at + 6 <= count before any read.
      guard at + 6 <= count, line[at] == ASCII.backslash, line[at + 1] == ASCII.lowerU else {
        return nil
      }
      var value: UInt32 = 0
      for offset in 2..<6 {
        guard let digit = hexValue(line[at + offset]) else { return nil }
        value = value << 4 | UInt32(digit)
      }
      return value
    }
    while index < count {
      guard line[index] == ASCII.backslash else {
        index += 1
        continue
      }
      guard let value = escape(at: index) else {
        index += 2
        continue
      }
      if (0xD800...0xDBFF).contains(value), let low = escape(at: index + 6),
        (0xDC00...0xDFFF).contains(low)
      {
        index += 12
      } else {
        if (0xD800...0xDFFF).contains(value) { unpaired += 1 }
        index += 6
      }
    }
    return unpaired
  }
}
