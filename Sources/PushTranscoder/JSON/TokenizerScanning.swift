import CByteScan

/// Byte-level scanners for the tokenizer's fast path (`JSONTokenizer.parseFast`).
///
/// Each answers "where does this lexeme end" for a line already known to hold it, or `bail`
/// when the bytes are anything but the common, valid case. The fast path then gives the line to
/// the reference tokenizer, which reports the exact fault; the scanners never build an error.
enum TokenizerScan {
  /// Returned instead of an offset: let the reference tokenizer decide this line.
  static let bail = -1

  /// The first offset at or after `start` of a quote, backslash, control or non-ASCII byte, or
  /// of one of the last 15 bytes of the line: one 16-byte block, then `stringEnd` takes over.
  /// Most keys and many values end within the block, so this part is inlined.
  @inline(__always)
  static func plainEnd(_ base: UnsafePointer<UInt8>, _ start: Int, _ count: Int) -> Int {
    guard start &+ 16 <= count else { return start }
    // Safe because start + 16 <= count: the unaligned 16-byte load stays inside the line.
    // Bit 16 stands for "none of the 16": the offset is then start + 16.
    return start &+ (specialMask(base + start) | 0x1_0000).trailingZeroBitCount
  }

  /// Bit i set when byte i of the 16 at `at` is a quote, backslash, control byte (0x00...0x1F) or
  /// non-ASCII byte. The C shim's SSE2 `pmovmskb` gives the mask in one instruction; Swift's
  /// SIMD types have no bitmask extraction on baseline x86-64 (docs/DECISIONS.md [issue 25,
  /// tokenizer]). The caller guarantees 16 readable bytes.
  @inline(__always)
  static func specialMask(_ at: UnsafePointer<UInt8>) -> UInt32 {
    pt_string_specials16(at)
  }

  /// Bit i set when byte i of the 16 at `at` is not an ASCII digit (`0`...`9`), from the C shim's
  /// SSE2 `pmovmskb` like `specialMask`. The caller guarantees 16 readable bytes.
  @inline(__always)
  static func nonDigitMask(_ at: UnsafePointer<UInt8>) -> UInt32 {
    pt_nondigits16(at)
  }

  /// The closing quote of the string whose content continues at `start` (where `plainEnd`
  /// stopped), or `bail`: its offset shifted left by one, the low bit set when the content from
  /// `start` holds a backslash (the string's `hasEscapes` flag). One plain word, so the caller
  /// keeps no flag in memory.
  ///
  /// Checks what the reference tokenizer checks (no unescaped control byte, well-formed
  /// escapes, `\u` surrogates paired) and, in the same pass, that every non-ASCII byte belongs to
  /// a well-formed UTF-8 sequence: outside strings a non-ASCII byte is a syntax error, so a line
  /// the fast path accepts is then valid UTF-8 as a whole. A lone surrogate escape bails (the
  /// reference tokenizer rejects it or, in replace mode, counts it). Out of line: the caller
  /// inlines `plainEnd` for the common short string and calls this for the rest.
  ///
  /// While 16 bytes remain it reads windows of 16, each starting at a character boundary, and
  /// checks a window by masks: text by one UTF-8 mask (`pt_utf8_faults16`), escapes by
  /// `windowReach`. Escaped JSON and CJK text then cost a few vector operations per 16 bytes
  /// instead of a branch per escape or character. `\u` escapes and `\\` go through
  /// `escapeEnd`, and the last 15 bytes of the line through `tailEnd`.
  @inline(never)
  static func stringEnd(_ base: UnsafePointer<UInt8>, _ start: Int, _ count: Int) -> Int {
    var escaped = 0
    var cursor = start
    while cursor &+ 16 <= count {
      // Safe because cursor + 16 <= count: every 16-byte load below stays inside the line.
      let window = base + cursor
      let specials = specialMask(window)
      if specials == 0 {
        cursor &+= 16
        continue
      }
      // Safe because the lowest set bit marks one of the window's 16 bytes.
      let first = window[specials.trailingZeroBitCount]
      // The common end: a closing quote before any other special byte.
      if first == ASCII.quote { return (cursor &+ specials.trailingZeroBitCount) << 1 | escaped }
      if first >= 0x80 {
        // Text: UTF-8 up to the first quote, backslash or control byte (the next window starts
        // there) or to a sequence that runs past the window (the next window starts at its lead).
        // A sequence cut short shows at the byte that cuts it, so that byte is checked too.
        // Safe because the window starts at a character boundary and holds 16 readable bytes.
        let faults = pt_utf8_faults16(window)
        let stops = specials & ~pt_non_ascii16(window)
        let end = Swift.min(
          (stops | 0x1_0000).trailingZeroBitCount, (faults &>> 16 | 0x1_0000).trailingZeroBitCount)
        if faults & 0xFFFF & lowBits(end &+ 1) != 0 { return bail }
        // end > 0: every stop lies after the first special byte, which is non-ASCII, and open
        // leads are at 13 or later.
        cursor &+= end
        continue
      }
      // An unescaped control byte makes the string invalid; a backslash starts escapes.
      guard first == ASCII.backslash else { return bail }
      let reach = windowReach(window)
      if reach.offset < 0 { return bail }
      if reach.endsString { return (cursor &+ reach.offset) << 1 | escaped | reach.escaped }
      escaped = 1
      cursor &+= reach.offset
      // Safe because reach.offset < 16 is checked first.
      if reach.offset < 16 && window[reach.offset] == ASCII.backslash {
        // Escapes the window left unsettled come in runs (`\uD83D\uDE00`, or text escaped as
        // ASCII-only JSON writes it): the whole run here, two plain `\u` escapes at a time when
        // one mask can check them.
        repeat {
          // Safe because cursor + 16 <= count is checked first. The `u` is tested alone first:
          // most runs of other escapes (`\"` at the end of a window) would fail the mask.
          if cursor &+ 16 <= count && base[cursor &+ 1] == ASCII.lowerU
            && pt_two_unicode_escapes16(base + cursor) != 0
          {
            cursor &+= 12
          } else {
            cursor = escapeEnd(base, cursor, count)
            if cursor < 0 { return bail }
          }
        } while cursor < count && base[cursor] == ASCII.backslash  // Safe because cursor < count.
      }
    }
    return tailEnd(base, cursor, count, escaped: escaped)
  }

  /// What one 16-byte window of string content (starting at a character boundary) holds, up to
  /// the first byte the masks cannot settle.
  ///
  /// - `endsString`: the closing quote is at `offset`, and the bytes before it are valid content.
  /// - otherwise, when `offset` is not negative, the bytes before `offset` are valid content and
  ///   the scan continues at `offset`: 16 (the whole window), a backslash for `escapeEnd` (one
  ///   escaped itself, one before `u` or before a byte no escape takes, or one at byte 15), or
  ///   the lead byte of a UTF-8 sequence that runs past the window.
  /// - a negative `offset` (`bail`): an unescaped control byte or ill-formed UTF-8 before the
  ///   first byte the masks cannot settle.
  ///
  /// `escaped` is 1 when the bytes before `offset` hold a backslash.
  @inline(__always)
  static func windowReach(_ window: UnsafePointer<UInt8>) -> (
    offset: Int, endsString: Bool, escaped: Int
  ) {
    // Safe because the caller guarantees 16 readable bytes at `window`.
    let classes = pt_string_classes16(window)
    let quotes = UInt32(truncatingIfNeeded: classes) & 0xFFFF
    let backslashes = UInt32(truncatingIfNeeded: classes &>> 16) & 0xFFFF
    let controls = UInt32(truncatingIfNeeded: classes &>> 32) & 0xFFFF
    let nonASCII = UInt32(truncatingIfNeeded: classes &>> 48)
    // `reach`: the first byte the masks leave to the scalar code (16: none).
    var reach = 16
    // The bytes escaped by a backslash, valid for the bytes below `reach`: up to the first
    // backslash that is escaped itself, every backslash starts a two-byte escape.
    var escapedBytes: UInt32 = 0
    if backslashes != 0 {
      escapedBytes = (backslashes &<< 1) & 0xFFFF
      // Safe because the caller guarantees 16 readable bytes at `window`.
      let letters = pt_escape_letters16(window)
      // Bit i - 1 for an escaped byte i that is a backslash or no two-byte escape's letter (the
      // escape at i - 1 is `\\`, `\u...` or invalid), and bit 15 for a backslash at byte 15.
      let unsettled =
        ((backslashes & escapedBytes) | (escapedBytes & ~letters)) &>> 1 | backslashes & 0x8000
      if unsettled != 0 { reach = unsettled.trailingZeroBitCount }
    }
    // The first unescaped quote or control byte (bit 16: none).
    let stop = ((quotes & ~escapedBytes) | controls | 0x1_0000).trailingZeroBitCount
    var end = Swift.min(stop, reach)
    // UTF-8 up to and including byte `end`: a sequence cut short shows at the byte that cuts it.
    if nonASCII & lowBits(end) != 0 {
      // Safe because the window starts at a character boundary and holds 16 readable bytes.
      let faults = pt_utf8_faults16(window)
      let open = faults &>> 16
      if open != 0 {
        reach = Swift.min(reach, open.trailingZeroBitCount)
        end = Swift.min(end, reach)
      }
      if faults & 0xFFFF & lowBits(end &+ 1) != 0 {
        return (bail, false, 0)
      }
    }
    let escaped = backslashes & lowBits(end) != 0 ? 1 : 0
    if end < reach {
      // Safe because end < reach <= 16: a byte of the window.
      return window[end] == ASCII.quote ? (end, true, escaped) : (bail, false, 0)
    }
    return (end, false, escaped)
  }

  /// The mask of the `count` lowest bits (`count` from 0 to 17): a window's bytes below `count`,
  /// in the masks that give bit i to byte i.
  @inline(__always)
  static func lowBits(_ count: Int) -> UInt32 {
    ~(UInt32.max &<< UInt32(truncatingIfNeeded: count))
  }

  /// The end of `stringEnd` for a string that continues in the last 15 bytes of its line
  /// (`start + 16 > count`). Most lines end with a short string value and a bracket or two: when
  /// a line's last 16 bytes put the closing quote before any other special byte, one mask finds
  /// it; anything else goes byte by byte (`scalarEnd`).
  @inline(__always)
  static func tailEnd(
    _ base: UnsafePointer<UInt8>, _ start: Int, _ count: Int, escaped: Int
  ) -> Int {
    if count >= 16 && start < count && start &+ 16 > count {
      // Safe because count >= 16: the line's last 16 bytes are readable. `skip` (1...15) drops
      // the bytes before `start`.
      let window = base + (count &- 16)
      let skip = start &- (count &- 16)
      let specials = specialMask(window) &>> UInt32(skip)
      // Safe because the lowest set bit marks a byte of the window at or after `skip`.
      if specials != 0 && window[skip &+ specials.trailingZeroBitCount] == ASCII.quote {
        return (start &+ specials.trailingZeroBitCount) << 1 | escaped
      }
    }
    return scalarEnd(base, start, count, escaped: escaped)
  }

  /// The end of a string from `start`, byte by byte, each multi-byte sequence checked whole: the
  /// scanner's last resort, and the reference its windows are tested against.
  static func scalarEnd(
    _ base: UnsafePointer<UInt8>, _ start: Int, _ count: Int, escaped: Int
  ) -> Int {
    var escaped = escaped
    var cursor = start
    while true {
      guard cursor < count else { return bail }
      // Safe because cursor < count.
      let byte = base[cursor]
      if byte == ASCII.quote { return cursor << 1 | escaped }
      if byte == ASCII.backslash {
        escaped = 1
        cursor = escapeEnd(base, cursor, count)
        if cursor < 0 { return bail }
      } else if byte >= 0x80 {
        // Safe because cursor < count: the check reads at most count - cursor bytes.
        let length = UTF8Validation.validSequenceLength(base + cursor, count &- cursor)
        if length == 0 { return bail }
        cursor &+= length
      } else if byte < ASCII.space {
        return bail
      } else {
        cursor &+= 1
      }
    }
  }

  /// The offset just past the escape whose backslash is at `cursor`, or `bail`. A high surrogate
  /// escape must be followed by an escaped low surrogate; a lone half bails.
  @inline(__always)
  static func escapeEnd(_ base: UnsafePointer<UInt8>, _ cursor: Int, _ count: Int) -> Int {
    guard cursor &+ 1 < count else { return bail }
    // Safe because cursor + 1 < count.
    let letter = base[cursor &+ 1]
    if letter != ASCII.lowerU {
      return isSimpleEscape(letter) ? cursor &+ 2 : bail
    }
    guard let unit = hex4(base, cursor &+ 2, count) else { return bail }
    if unit & 0xF800 != 0xD800 { return cursor &+ 6 }
    // A surrogate: only a high half followed by an escaped low half is accepted here.
    guard unit < 0xDC00, cursor &+ 12 <= count,
      // Safe because cursor + 12 <= count.
      base[cursor &+ 6] == ASCII.backslash, base[cursor &+ 7] == ASCII.lowerU,
      let low = hex4(base, cursor &+ 8, count), low & 0xFC00 == 0xDC00
    else { return bail }
    return cursor &+ 12
  }

  /// Whether `\` followed by `letter` is one of JSON's two-byte escapes (`\" \\ \/ \b \f \n \r
  /// \t`).
  @inline(__always)
  static func isSimpleEscape(_ letter: UInt8) -> Bool {
    // One bit per escape letter, indexed by the letter's value minus 0x20 (all lie in
    // 0x22...0x74).
    let low: UInt64 = 1 << (0x22 - 0x20) | 1 << (0x2F - 0x20) | 1 << (0x5C - 0x20)
    let high: UInt64 =
      1 << (0x62 - 0x60) | 1 << (0x66 - 0x60) | 1 << (0x6E - 0x60)
      | 1 << (0x72 - 0x60) | 1 << (0x74 - 0x60)
    // Safe because the wrap is intended: a letter below 0x20 wraps above 0x60 and fails too.
    let index = letter &- 0x20
    guard index < 0x60 else { return false }
    let set = index < 0x40 ? low : high
    return (set >> UInt64(index & 0x3F)) & 1 != 0
  }

  /// The value of the four hex digits at `at`, or nil if there are not four.
  @inline(__always)
  static func hex4(_ base: UnsafePointer<UInt8>, _ at: Int, _ count: Int) -> UInt32? {
    guard at &+ 4 <= count else { return nil }
    // All four digits at once, branch-free (escaped text mixes digits and letters
    // unpredictably). The first digit is the word's low byte.
    let word = word32(base, at)
    // Letters to lower case; digits (0x30...0x39) already have bit 5 set.
    let lower = word | 0x2020_2020
    // Per byte, on the low seven bits (no carries between bytes): the high bit of
    // `x + (0x80 - a)` is set when x >= a.
    let low = word & 0x7F7F_7F7F
    let lowerLow = lower & 0x7F7F_7F7F
    let digits = (low &+ 0x5050_5050) & ~(low &+ 0x4646_4646)  // 0x30...0x39
    let letters = (lowerLow &+ 0x1F1F_1F1F) & ~(lowerLow &+ 0x1919_1919)  // 0x61...0x66
    guard (digits | letters) & ~word & 0x8080_8080 == 0x8080_8080 else { return nil }
    // Safe because at + 4 <= count (checked above) and the four bytes are hex digits.
    return JSONEscapes.hex4(base + at)
  }

  /// The offset of the first byte at or after `start` that is not an ASCII digit (or `count`):
  /// 16 bytes a step while the line has them (the C shim's SSE2 mask, as for strings).
  @inline(__always)
  static func digitsEnd(_ base: UnsafePointer<UInt8>, _ start: Int, _ count: Int) -> Int {
    var cursor = start
    while cursor &+ 16 <= count {
      // Safe because cursor + 16 <= count: the unaligned 16-byte load stays inside the line.
      let mask = nonDigitMask(base + cursor)
      if mask != 0 { return cursor &+ mask.trailingZeroBitCount }
      cursor &+= 16
    }
    // Fewer than 16 bytes left: eight as one word, then byte by byte.
    if cursor &+ 8 <= count {
      // Safe because cursor + 8 <= count.
      let word = UInt64(
        littleEndian: UnsafeRawPointer(base + cursor).loadUnaligned(as: UInt64.self))
      // Per byte, without carries between bytes: the high bit of `low + 0x46` is set when the
      // low seven bits are >= 0x3A, that of `low + 0x50` when they are >= 0x30.
      let low = word & 0x7F7F_7F7F_7F7F_7F7F
      let aboveNine = low &+ 0x4646_4646_4646_4646
      let atLeastZero = low &+ 0x5050_5050_5050_5050
      let nonDigits = (aboveNine | ~atLeastZero | word) & UTF8Validation.highBits
      if nonDigits != 0 { return cursor &+ nonDigits.trailingZeroBitCount &>> 3 }
      cursor &+= 8
    }
    // Safe because cursor < count is checked before each read.
    while cursor < count && base[cursor] &- ASCII.zero < 10 { cursor &+= 1 }
    return cursor
  }

  /// The four bytes at `at` as a little-endian word (`at + 4 <= count` is the caller's check).
  @inline(__always)
  static func word32(_ base: UnsafePointer<UInt8>, _ at: Int) -> UInt32 {
    // Safe because the caller checked at + 4 <= count.
    UInt32(littleEndian: UnsafeRawPointer(base + at).loadUnaligned(as: UInt32.self))
  }

  /// `true`, `null` and `alse` (of `false`) as little-endian words.
  static let trueWord: UInt32 = 0x6575_7274
  static let nullWord: UInt32 = 0x6C6C_756E
  static let alseWord: UInt32 = 0x6573_6C61
}
