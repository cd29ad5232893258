import CByteScan
import Glibc

/// Canonical re-escaping of JSON string content, and the escape tables it shares with decoding
/// (SPEC 4); decoding itself is in `JSONEscapes+Decoding.swift`.
///
/// Canonical form: UTF-8 as is; only `"`, `\` and control characters are escaped; the controls
/// with a short form use it (`\b \f \n \r \t`), the others `\u00xx` with lower-case hex; `/` is
/// not escaped.
package enum JSONEscapes {
  /// The value of a hexadecimal digit, or nil.
  @inline(__always)
  package static func hexValue(_ byte: UInt8) -> UInt8? {
    switch byte {
    case ASCII.zero...ASCII.nine: return byte - ASCII.zero
    case ASCII.lowerA...ASCII.lowerF: return byte - ASCII.lowerA + 10
    case ASCII.upperA...ASCII.upperF: return byte - ASCII.upperA + 10
    default: return nil
    }
  }

  /// The length of `byte` once canonically escaped (1 for bytes written as is).
  @inline(__always)
  package static func escapedLength(_ byte: UInt8) -> Int {
    if byte >= ASCII.space {
      return byte == ASCII.quote || byte == ASCII.backslash ? 2 : 1
    }
    switch byte {
    case 0x08, 0x09, 0x0A, 0x0C, 0x0D: return 2
    default: return 6
    }
  }

  /// The canonically escaped length of decoded UTF-8 `bytes`.
  package static func escapedLength(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
    var total = 0
    // Safe because the total is at most 6 × bytes.count, far below Int.max.
    for byte in bytes { total &+= escapedLength(byte) }
    return total
  }

  /// Writes the canonical escape of `byte` (which needs one) at `out`; returns its length.
  /// `out` must have room for 6 bytes.
  @inline(__always)
  static func writeEscape(_ byte: UInt8, at out: UnsafeMutablePointer<UInt8>) -> Int {
    // Safe because `out` has room for 6 bytes (the callers' contract) and a nibble indexes the
    // 16 digits.
    out[0] = ASCII.backslash
    switch byte {
    case ASCII.quote, ASCII.backslash: out[1] = byte
    case 0x08: out[1] = ASCII.lowerB
    case 0x09: out[1] = ASCII.lowerT
    case 0x0A: out[1] = ASCII.lowerN
    case 0x0C: out[1] = ASCII.lowerF
    case 0x0D: out[1] = ASCII.lowerR
    default:
      let digits: StaticString = "0123456789abcdef"
      out[1] = ASCII.lowerU
      out[2] = ASCII.zero
      out[3] = ASCII.zero
      out[4] = digits.utf8Start[Int(byte >> 4)]
      out[5] = digits.utf8Start[Int(byte & 15)]
      return 6
    }
    return 2
  }

  /// Appends the canonical escape of `byte` (which needs one) to `output`.
  @inline(__always)
  static func appendEscape<Output: ByteOutput & ~Copyable>(_ byte: UInt8, to output: inout Output) {
    var scratch: (UInt64, UInt64) = (0, 0)
    withUnsafeMutableBytes(of: &scratch) { raw in
      // Safe because the 16-byte scratch has room for the 6-byte escape and is used only as
      // bytes inside this closure.
      let out = raw.baseAddress!.assumingMemoryBound(to: UInt8.self)
      let length = writeEscape(byte, at: out)
      output.appendBytes(UnsafeBufferPointer(start: out, count: length))
    }
  }

  /// True when one of the eight bytes of `word` needs an escape: below 0x20, `"` or `\`
  /// (SWAR; bytes from 0x80 up are written as they are).
  @inline(__always)
  static func needsEscape(_ word: UInt64) -> Bool {
    let ones: UInt64 = 0x0101_0101_0101_0101
    let high: UInt64 = 0x8080_8080_8080_8080
    // `x - 0x20` borrows into bit 7 of a byte below 0x20 (exact for bytes below 0x80; a byte
    // from 0x80 up has bit 7 set in `word` and is masked out by `~word`).
    let control = (word &- ones &* 0x20) & ~word & high
    return control | SWAR.matches(word, ASCII.quote) | SWAR.matches(word, ASCII.backslash) != 0
  }

  /// Writes decoded UTF-8 `bytes` canonically escaped at `out`; returns the length written.
  /// `out` must have room for `6 × bytes.count` bytes and must not overlap `bytes`.
  ///
  /// Blocks of 16 are copied whole and the cursors move to the block's first byte that needs an
  /// escape (`"`, `\`, a control byte), if any. Text with an escape every few bytes (the `\"` of
  /// JSON held in a string, as OPPO's `action_parameters` escape their canonical ext once more)
  /// costs a few instructions per escape, not a copy call per run.
  @inline(__always)
  static func writeEscaped(_ bytes: UnsafeBufferPointer<UInt8>, at out: UnsafeMutablePointer<UInt8>)
    -> Int
  {
    guard let source = bytes.baseAddress else { return 0 }
    let count = bytes.count
    var written = 0
    var index = 0
    // Safe because every block is read at index + 16 <= count, and written <= 6 * index always
    // (each byte read writes one to six), so a block stored at `out + written` ends at
    // written + 16 <= 6 * index + 16 <= 6 * count, inside `out`; a block's bytes past its first
    // escape are rewritten by what follows or lie past the result.
    while index &+ 16 <= count {
      let escaped = pt_copy16_escaped(source + index, out + written)
      if escaped == 0 {
        index &+= 16
        written &+= 16
        continue
      }
      let plain = escaped.trailingZeroBitCount
      index &+= plain
      written &+= plain
      written &+= writeEscape(source[index], at: out + written)
      index &+= 1
    }
    while index < count {
      let byte = source[index]
      if byte >= ASCII.space && byte != ASCII.quote && byte != ASCII.backslash {
        out[written] = byte
        written &+= 1
      } else {
        written &+= writeEscape(byte, at: out + written)
      }
      index &+= 1
    }
    return written
  }

  /// Appends decoded UTF-8 `bytes` canonically escaped (no quotes).
  package static func appendEscaped<Output: ByteOutput & ~Copyable>(
    _ bytes: UnsafeBufferPointer<UInt8>, to output: inout Output
  ) {
    var runStart = 0
    var index = 0
    let count = bytes.count
    while index < count {
      let byte = bytes[index]
      if byte >= ASCII.space && byte != ASCII.quote && byte != ASCII.backslash {
        index += 1
        continue
      }
      if runStart < index {
        output.appendBytes(UnsafeBufferPointer(rebasing: bytes[runStart..<index]))
      }
      appendEscape(byte, to: &output)
      index += 1
      runStart = index
    }
    if runStart < count {
      output.appendBytes(UnsafeBufferPointer(rebasing: bytes[runStart..<count]))
    }
  }

  /// Appends decoded UTF-8 `bytes` canonically escaped (no quotes), straight into the writer's
  /// buffer, 4 KiB of input at a time (so a long line never reserves 6× its size).
  package static func appendEscaped(
    _ bytes: UnsafeBufferPointer<UInt8>, to writer: inout JSONWriter
  ) {
    var offset = 0
    let count = bytes.count
    while offset < count {
      // Safe because the piece lies in `bytes`, and `reserve` gives the 6 bytes per input byte
      // that `writeEscaped` may write.
      let piece = UnsafeBufferPointer(rebasing: bytes[offset..<min(count, offset + 4096)])
      let out = writer.reserve(piece.count * 6)
      writer.advance(by: writeEscaped(piece, at: out))
      offset += piece.count
    }
  }

  /// Writes escaped JSON string content (validated by the tokenizer) in canonical form at `out`
  /// and returns the length written, which is at most `content.count` (an escape never grows:
  /// `\uXXXX` gives at most 6 bytes, a surrogate pair 4, `\/` 1). Runs between backslashes are
  /// already canonical (raw string content holds no `"`, `\` or control byte) and are copied;
  /// each escape is decoded and written again canonically.
  ///
  /// - Precondition: `out` holds `content.count` bytes and does not overlap `content` (runs are
  ///   copied 16 bytes at a time, so a block may be stored before the next one is read).
  /// - Precondition: `content` is string content the tokenizer validated: every backslash
  ///   starts a complete escape (`\u` with four hex digits). Content cut inside an escape
  ///   would be read and written past its end; debug builds check it (`isCompleteEscapes`).
  static func writeCanonical(
    _ content: UnsafeBufferPointer<UInt8>, at out: UnsafeMutablePointer<UInt8>
  ) -> Int {
    assert(isCompleteEscapes(content), "writeCanonical needs validated string content")
    guard let source = content.baseAddress else { return 0 }
    let count = content.count
    var written = 0
    var index = 0
    walk: while index < count {
      // Escaped text often has one escape right after another (`\u`-escaped CJK): look at the
      // next byte before copying a run.
      if source[index] != ASCII.backslash {
        // The run to the next escape that is rewritten. While 16 bytes remain, each block of 16
        // is copied whole and the cursors move to its first `\u` or `\/`, if any: a two-byte
        // escape other than `\/` (`\"`, `\n`...) is its own canonical form, copied with the
        // text around it, so an ext's `\"` escapes cost nothing more than its other bytes. A
        // block also stops at a backslash in its last byte (its letter is in the next block)
        // and at two backslashes side by side (the second may be the first one's letter: the
        // escape loop below settles which). The block starts at an escape's backslash or past
        // an escape, so before those stops every backslash starts an escape. Safe because
        // `index + 16 <= count` and `written <= index` (each escape writes at most the bytes it
        // takes), so the 16 bytes lie inside both `content` and `out`'s `count` bytes; a block
        // stored past the run is rewritten by what follows.
        while true {
          guard count &- index >= 16 else {
            // Fewer than 16 bytes left. Safe because `index <= count`: memchr reads only
            // `source[index..<count]`.
            guard index < count,
              let found = memchr(source + index, Int32(ASCII.backslash), count - index)
            else {
              break walk
            }
            // Safe because `found` lies in source[index..<count], and `written <= index`, so
            // the run fits in `out`'s `count` bytes.
            let slash = UnsafePointer<UInt8>(found.assumingMemoryBound(to: UInt8.self)) - source
            (out + written).update(from: source + index, count: slash - index)
            written += slash - index
            index = slash
            break
          }
          let stops = runStops(pt_copy16_backslashes_u_slash(source + index, out + written))
          let run = Int(truncatingIfNeeded: (stops | 0x1_0000).trailingZeroBitCount)
          index &+= run
          written &+= run
          if run < 16 { break }
        }
      }
      guard index + 1 < count else { break }
      // Two escapes of CJK text at once (JSON written as ASCII only). Safe because the twelve
      // bytes of the two escapes are rewritten as six, and `written <= index`: the eight-byte
      // store stays inside `out`'s `count` bytes.
      if let six = twoWideEscapes(source, index, count) {
        UnsafeMutableRawPointer(out + written).storeBytes(of: six.littleEndian, as: UInt64.self)
        written &+= 6
        index &+= 12
        continue
      }
      let kind = source[index + 1]
      index += 2
      // Safe because validated content has four hex digits after `\u`, so each escape writes
      // at most the bytes it takes (6 for `\uXXXX`, 4 for a 12-byte pair): `written <= index`.
      switch kind {
      case ASCII.lowerB: written += writeEscape(0x08, at: out + written)
      case ASCII.lowerF: written += writeEscape(0x0C, at: out + written)
      case ASCII.lowerN: written += writeEscape(0x0A, at: out + written)
      case ASCII.lowerR: written += writeEscape(0x0D, at: out + written)
      case ASCII.lowerT: written += writeEscape(0x09, at: out + written)
      case ASCII.quote, ASCII.backslash: written += writeEscape(kind, at: out + written)
      case ASCII.lowerU:
        let scalar = decodeUnicodeEscape(content, &index)
        if scalar < 0x20 || scalar == UInt32(ASCII.quote) || scalar == UInt32(ASCII.backslash) {
          written += writeEscape(UInt8(scalar), at: out + written)
        } else {
          written += writeUTF8(scalar, at: out + written)
        }
      default:  // `/`
        out[written] = kind
        written += 1
      }
    }
    // Safe because the canonical form is never longer than the content.
    (out + written).update(from: source + index, count: count - index)
    return written + count - index
  }

  /// True when every backslash of `content` starts a complete escape: a letter of `"\\/bfnrt`,
  /// or `u` and four hex digits (the precondition of `writeCanonical`, checked in debug
  /// builds).
  static func isCompleteEscapes(_ content: UnsafeBufferPointer<UInt8>) -> Bool {
    var index = 0
    while index < content.count {
      guard content[index] == ASCII.backslash else {
        index += 1
        continue
      }
      guard index + 1 < content.count else { return false }
      switch content[index + 1] {
      case ASCII.quote, ASCII.backslash, ASCII.slash, ASCII.lowerB, ASCII.lowerF, ASCII.lowerN,
        ASCII.lowerR, ASCII.lowerT:
        index += 2
      case ASCII.lowerU:
        guard index + 6 <= content.count else { return false }
        for digit in content[(index + 2)..<(index + 6)] where hexValue(digit) == nil {
          return false
        }
        index += 6
      default:
        return false
      }
    }
    return true
  }

  /// Where a 16-byte run of canonical content must stop, given the block's backslashes and its
  /// `u` and `/` letters (`pt_backslashes_u_slash16`): at a backslash before `u` or `/` (the
  /// escapes that are not their own canonical form), at two backslashes side by side (the second
  /// may be the first one's letter) and at a backslash in the last byte (its letter is in the
  /// next block). Before the first stop of a block that starts at an escape or past one, every
  /// backslash starts a two-byte escape that is already canonical.
  @inline(__always)
  static func runStops(_ classes: UInt32) -> UInt32 {
    let backslashes = classes & 0xFFFF
    // Bit i of `classes >> 17` is the letter test of byte i + 1.
    return backslashes & (classes &>> 17 | backslashes &>> 1 | 0x8000)
  }

  /// True when every escape of JSON string content (validated by the tokenizer) is already in
  /// its canonical form (`\"`, `\\`, `\b`, `\f`, `\n`, `\r`, `\t`), so that the content is its
  /// own canonical form: an ext such as `{\"id\":1}` needs no rewriting. Any `\u` or `\/`
  /// escape answers false (a `\u00XX` that is canonical takes the rewriting path, which gives
  /// the same bytes). Sixteen bytes at a time to the first escape that may be another (near the
  /// end, eight at a time to the next backslash: the lowest zero byte of the SWAR test is exact).
  static func hasOnlyCanonicalEscapes(_ content: UnsafeBufferPointer<UInt8>) -> Bool {
    guard let base = content.baseAddress else { return true }
    let count = content.count
    var index = 0
    while index < count {
      if index &+ 16 <= count {
        // Sixteen bytes at a time up to the first escape that may not be canonical, with the
        // stops of `writeCanonical`'s runs (a backslash before `u` or `/`, two side by side, one
        // in the last byte); the escape there is settled below. Safe because index + 16 <= count.
        let stops = runStops(pt_backslashes_u_slash16(base + index))
        if stops == 0 {
          index &+= 16
          continue
        }
        index &+= stops.trailingZeroBitCount
      } else if index &+ 8 <= count {
        // Safe because index + 8 <= count.
        let backslashes = SWAR.matches(
          UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self), ASCII.backslash)
        if backslashes == 0 {
          index &+= 8
          continue
        }
        // Safe because the lowest match is exact (`SWAR.matches`): the first backslash here.
        index &+= backslashes.trailingZeroBitCount &>> 3
      } else if base[index] != ASCII.backslash {
        // Safe because index < count.
        index &+= 1
        continue
      }
      // `base[index]` is a backslash; validated content has its escape letter after it.
      guard index &+ 1 < count else { return true }
      let letter = base[index &+ 1]
      if letter == ASCII.lowerU || letter == ASCII.slash { return false }
      index &+= 2
    }
    return true
  }

  /// Appends escaped JSON string content (validated by the tokenizer) in canonical form, in one
  /// pass without an intermediate buffer (see `writeCanonical`). Internal: content that did not
  /// come through the tokenizer (a `\u` escape cut short) could be written past the room
  /// reserved for it.
  static func appendCanonical(
    _ content: UnsafeBufferPointer<UInt8>, to writer: inout JSONWriter
  ) {
    let out = writer.reserve(content.count)
    writer.advance(by: writeCanonical(content, at: out))
  }

  /// `appendCanonical` into an array (tests and scratch buffers).
  static func appendCanonical(
    _ content: UnsafeBufferPointer<UInt8>, to output: inout [UInt8]
  ) {
    var writer = JSONWriter(capacity: content.count)
    appendCanonical(content, to: &writer)
    output.append(contentsOf: writer.buffer)
  }

  /// The length `appendCanonical` would append, without writing anything.
  package static func canonicalLength(_ content: UnsafeBufferPointer<UInt8>) -> Int {
    measure(content).canonical
  }

  /// The length of the decoded UTF-8 of JSON string content, without decoding it.
  package static func decodedLength(_ content: UnsafeBufferPointer<UInt8>) -> Int {
    measure(content).decoded
  }

  /// Both lengths of escaped JSON string content in one walk: decoded UTF-8, and canonical
  /// re-escaped form.
  static func measure(_ content: UnsafeBufferPointer<UInt8>) -> (decoded: Int, canonical: Int) {
    var index = 0
    var decoded = 0
    var canonical = 0
    let count = content.count
    while index < count {
      guard content[index] == ASCII.backslash, index + 1 < count else {
        decoded += 1
        canonical += 1
        index += 1
        continue
      }
      let kind = content[index + 1]
      index += 2
      switch kind {
      case ASCII.lowerU:
        let scalar = decodeUnicodeEscape(content, &index)
        let utf8 = scalar < 0x80 ? 1 : scalar < 0x800 ? 2 : scalar < 0x10000 ? 3 : 4
        decoded += utf8
        switch scalar {
        case 0..<0x20: canonical += escapedLength(UInt8(scalar))
        case UInt32(ASCII.quote), UInt32(ASCII.backslash): canonical += 2
        default: canonical += utf8
        }
      case ASCII.slash:
        decoded += 1
        canonical += 1
      default:  // \b \f \n \r \t \" \\ decode to one byte and stay two bytes
        decoded += 1
        canonical += 2
      }
    }
    return (decoded, canonical)
  }
}
