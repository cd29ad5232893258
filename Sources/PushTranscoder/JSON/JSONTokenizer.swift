import CByteScan

// JSONTokenizer: the type, its tape storage, the public entry points and the fast path
// (`parseFast`). The reference tokenizer is in `JSONTokenizer+Reference.swift`.

/// A validating, non-recursive JSON tokenizer that writes a tape of byte ranges (RFC 8259,
/// strict; SPEC 2.2 and 9).
///
/// One pass over the line, no allocation per token: the tape and the container stack keep their
/// capacity from line to line. They live in raw storage that the tokenizer owns (`TapeStorage`)
/// and are written through pointers held in the struct (an `Array.append` per token would cost a
/// uniqueness check and a capacity check through the array header on the hottest path).
/// Strings are recorded as ranges plus a has-escapes flag; escapes are checked here (including
/// `\u` surrogate pairing) but decoded only when a reader needs the value.
///
/// Two tokenizers share the tape. The fast path (`parseFast`) takes every line first: one pass
/// that also checks UTF-8 inside strings (outside them any non-ASCII byte is a syntax error),
/// with strings scanned 16 bytes at a time (`TokenizerScan`). It builds no errors: on anything
/// unusual it gives the line to the reference tokenizer (`parseReference`, after the whole-line
/// UTF-8 check in `parse`), which decides it, faults and offsets included. For
/// lines both accept they build the same tape (`TokenizerFastPathTests` checks this).
///
/// Fault precedence (SPEC 9): invalid UTF-8 anywhere in the line wins (offset of its first bad
/// byte); otherwise the first fault from the left decides: `syntax`, a lone surrogate escape
/// (`invalid-unicode`), or nesting deeper than `maxDepth` (`too-deep`).
package struct JSONTokenizer {
  /// The tape of the last parsed line (a copy; `withDocument` reads it in place). Safe because
  /// `tape[0..<tapeCount]` is initialised (the invariant below).
  package var tokens: [JSONToken] { Array(UnsafeBufferPointer(start: tape, count: tapeCount)) }

  /// Owns `tape` and `stack`; replaced (not shared) when a copied tokenizer parses.
  private var storage: TapeStorage
  // Invariants: tape[0..<tapeCount] are the tokens of the current line, tapeCount <=
  // tapeCapacity; stack[0..<stackCount] the tape indexes of the open containers.
  // Internal, not private, so that the reference tokenizer (JSONTokenizer+Reference.swift)
  // can write them; nothing outside the two tokenizer files touches them.
  var tape: UnsafeMutablePointer<JSONToken>
  var tapeCount = 0
  var tapeCapacity: Int
  var stack: UnsafeMutablePointer<UInt32>
  var stackCount = 0
  var stackCapacity: Int
  /// The deepest nesting accepted; the outermost container is depth 1.
  package var maxDepth: Int
  /// `--unicode replace`: lone surrogate escapes are accepted (decoded as U+FFFD) and counted.
  package var replaceLoneSurrogates: Bool
  /// Lone surrogate escapes accepted in the last parsed line (replace mode only).
  package internal(set) var loneSurrogates: Int = 0

  /// A tokenizer that accepts nesting up to `maxDepth` and, with `replaceLoneSurrogates`, lone
  /// surrogate escapes (`--unicode replace`).
  package init(maxDepth: Int = 512, replaceLoneSurrogates: Bool = false) {
    self.maxDepth = maxDepth
    self.replaceLoneSurrogates = replaceLoneSurrogates
    storage = TapeStorage(tapeCapacity: 256, stackCapacity: 64)
    tape = storage.tape
    tapeCapacity = storage.tapeCapacity
    stack = storage.stack
    stackCapacity = storage.stackCapacity
  }

  /// Validates `bytes` as UTF-8 and as one JSON text, filling `tokens`.
  package mutating func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> JSONError? {
    if let base = bytes.baseAddress, bytes.count <= Self.fastPathLimit {
      claimStorage()
      if parseFast(base, bytes.count) { return nil }
    }
    if let bad = UTF8Validation.firstInvalidOffset(bytes) {
      return JSONError(.invalidUnicode, at: bad, "invalid UTF-8 byte sequence")
    }
    return parseReference(bytes)
  }

  /// Parses a line already known to be valid UTF-8.
  package mutating func parseValidatedUTF8(_ bytes: UnsafeBufferPointer<UInt8>) -> JSONError? {
    if let base = bytes.baseAddress, bytes.count <= Self.fastPathLimit {
      claimStorage()
      if parseFast(base, bytes.count) { return nil }
    }
    return parseReference(bytes)
  }

  /// Lines longer than this go straight to the reference tokenizer: the fast path reserves a tape
  /// entry per byte of the line.
  static let fastPathLimit = 1 << 18

  /// Gives a copied tokenizer storage of its own instead of writing the other's.
  @inline(__always)
  mutating func claimStorage() {
    if !isKnownUniquelyReferenced(&storage) {
      storage = TapeStorage(tapeCapacity: tapeCapacity, stackCapacity: stackCapacity)
      tape = storage.tape
      stack = storage.stack
    }
  }

  /// The fast path: one pass over a line of at most `fastPathLimit` bytes that checks UTF-8
  /// inside strings as it goes (see `TokenizerScan.stringEnd`), true with the tape filled when
  /// the line is valid UTF-8 and one JSON text.
  ///
  /// False when anything is unusual: a fault of any kind, a lone surrogate escape, nesting
  /// deeper than `maxDepth`. The caller then runs the reference tokenizer, which decides the
  /// line (and builds the error); for accepted lines both build the same tape.
  /// Room for the whole tape and stack is reserved up front (every token starts at a byte of
  /// its own, every open container at a bracket), so appends check no capacity.
  private mutating func parseFast(_ base: UnsafePointer<UInt8>, _ count: Int) -> Bool {
    if tapeCapacity < count { reserveTape(count) }
    let deepest = Swift.min(maxDepth, count)
    if stackCapacity < deepest { reserveStack(deepest) }
    let tape = self.tape
    let stack = self.stack
    let maxDepth = self.maxDepth
    tapeCount = 0
    stackCount = 0
    loneSurrogates = 0
    var tapeCount = 0
    // Open containers: `depth` of them, each as (tape index << 1 | is-object) on the stack.
    var depth = 0
    // The innermost open container's closing bracket (0 at the top level).
    var closer: UInt8 = 0
    // Safe because count <= fastPathLimit (2^18): no `&+` on an offset, depth or tape index
    // below can wrap, and `UInt32(truncatingIfNeeded:)` never truncates them.
    var index = 0

    /// The byte at `offset`, or 0 (never valid between tokens) past the end.
    @inline(__always) func peek(_ offset: Int) -> UInt8 {
      // Safe because offset < count is checked first.
      offset < count ? base[offset] : 0
    }
    /// The first offset at or after `offset` that is not JSON whitespace.
    @inline(__always) func skipWhitespace(_ offset: Int) -> Int {
      var offset = offset
      // Safe because offset < count is checked before each read.
      while offset < count && ASCII.isWhitespace(base[offset]) { offset &+= 1 }
      return offset
    }
    var byte = peek(0)
    if byte <= ASCII.space {
      index = skipWhitespace(index)
      byte = peek(index)
    }
    while true {
      // A value starts at `index` (`byte`).
      switch byte {
      case ASCII.quote:
        index = Self.recordString(base, count, at: index, tape + tapeCount, tapeCount)
        guard index >= 0 else { return false }
        tapeCount &+= 1

      case ASCII.openBrace, ASCII.openBracket:
        guard depth < maxDepth else { return false }
        let isObject = byte == ASCII.openBrace
        // Safe because depth < min(maxDepth, count) <= stackCapacity: each open container
        // has a bracket of its own.
        (stack + depth).initialize(
          to: UInt32(truncatingIfNeeded: tapeCount) << 1 | (isObject ? 1 : 0))
        depth &+= 1
        // Safe because tapeCount < count <= tapeCapacity.
        (tape + tapeCount).initialize(
          to: JSONToken(
            kind: isObject ? .object : .array, flags: 0,
            start: UInt32(truncatingIfNeeded: index), end: 0, next: 0))
        tapeCount &+= 1
        // `]` and `}` are `[` and `{` plus 2.
        closer = byte &+ 2
        index &+= 1
        byte = peek(index)
        if byte <= ASCII.space {
          index = skipWhitespace(index)
          byte = peek(index)
        }
        if byte != closer {
          if isObject {
            // The first key: keys are read where an object says one comes, so the value loop
            // never asks whether a string is a key. The steps are written out here and after
            // `,`: as one function they compiled to more work per key (docs/DECISIONS.md
            // [issue 25, tokenizer]).
            guard byte == ASCII.quote else { return false }
            // A short member from one window (`recordShortMember`); written out here and after
            // `,` like the key's steps below.
            if index &+ 32 <= count {
              // Safe because index + 32 <= count: the 32 bytes read lie inside the line, and
              // the tape has room for a token per byte of the line.
              let member = Self.recordShortMember(
                base + index, at: index, tape + tapeCount, tapeCount)
              tapeCount &+= member.tokens
              index &+= member.next
              // Two tokens: the value is read, on to what follows it (below the switch). One:
              // the value starts at `index`, inside the window.
              if member.tokens == 2 { break }
              if member.tokens == 1 {
                byte = base[index]
                continue
              }
            }
            index = Self.recordString(base, count, at: index, tape + tapeCount, tapeCount)
            guard index >= 0 else { return false }
            tapeCount &+= 1
            byte = peek(index)
            if byte <= ASCII.space {
              index = skipWhitespace(index)
              byte = peek(index)
            }
            guard byte == ASCII.colon else { return false }
            index &+= 1
            byte = peek(index)
            if byte <= ASCII.space {
              index = skipWhitespace(index)
              byte = peek(index)
            }
          }
          continue
        }
      // An empty container: closed below, like any other.

      case ASCII.minus, ASCII.zero...ASCII.nine:
        var cursor = index
        if byte == ASCII.minus { cursor &+= 1 }
        let first = peek(cursor)
        // Safe because the wrap is intended: a byte below `0` wraps above 9 and fails too.
        guard first &- ASCII.zero < 10 else { return false }
        cursor &+= 1
        if first != ASCII.zero { cursor = TokenizerScan.digitsEnd(base, cursor, count) }
        var flags = JSONToken.isInteger
        var next = peek(cursor)
        if next == ASCII.period {
          flags = 0
          cursor &+= 1
          guard peek(cursor) &- ASCII.zero < 10 else { return false }
          cursor = TokenizerScan.digitsEnd(base, cursor &+ 1, count)
          next = peek(cursor)
        }
        if next | 0x20 == ASCII.lowerE {
          flags = 0
          cursor &+= 1
          next = peek(cursor)
          if next == ASCII.plus || next == ASCII.minus { cursor &+= 1 }
          guard peek(cursor) &- ASCII.zero < 10 else { return false }
          cursor = TokenizerScan.digitsEnd(base, cursor &+ 1, count)
        }
        // Safe because tapeCount < count <= tapeCapacity.
        (tape + tapeCount).initialize(
          to: JSONToken(
            kind: .number, flags: flags, start: UInt32(truncatingIfNeeded: index),
            end: UInt32(truncatingIfNeeded: cursor),
            next: UInt32(truncatingIfNeeded: tapeCount &+ 1)))
        tapeCount &+= 1
        index = cursor

      case ASCII.lowerT, ASCII.lowerN, ASCII.lowerF:
        let kind: JSONKind
        let length: Int
        // Safe because each `word32` runs after its guard puts the 4 bytes read inside the line.
        if byte == ASCII.lowerF {
          guard index &+ 5 <= count,
            TokenizerScan.word32(base, index &+ 1) == TokenizerScan.alseWord
          else { return false }
          kind = .false
          length = 5
        } else {
          guard index &+ 4 <= count else { return false }
          let word = TokenizerScan.word32(base, index)
          if word == TokenizerScan.trueWord {
            kind = .true
          } else if word == TokenizerScan.nullWord {
            kind = .null
          } else {
            return false
          }
          length = 4
        }
        // Safe because tapeCount < count <= tapeCapacity.
        (tape + tapeCount).initialize(
          to: JSONToken(
            kind: kind, flags: 0, start: UInt32(truncatingIfNeeded: index),
            end: UInt32(truncatingIfNeeded: index &+ length),
            next: UInt32(truncatingIfNeeded: tapeCount &+ 1)))
        tapeCount &+= 1
        index &+= length

      default:
        return false
      }

      // After a value: `,` (another member or element), the closing bracket, or the end, tested
      // in that order (the order of their frequency). `closer` is 0 only at the top level.
      while true {
        byte = peek(index)
        if byte <= ASCII.space {
          index = skipWhitespace(index)
          byte = peek(index)
        }
        if byte == ASCII.comma && closer != 0 {
          index &+= 1
          byte = peek(index)
          if byte <= ASCII.space {
            index = skipWhitespace(index)
            byte = peek(index)
          }
          if closer == ASCII.closeBrace {
            // The next member's key, and the colon after it.
            guard byte == ASCII.quote else { return false }
            if index &+ 32 <= count {
              // Safe because index + 32 <= count: the 32 bytes read lie inside the line, and the
              // tape has room for a token per byte of the line.
              let member = Self.recordShortMember(
                base + index, at: index, tape + tapeCount, tapeCount)
              tapeCount &+= member.tokens
              index &+= member.next
              if member.tokens == 2 { continue }
              if member.tokens == 1 {
                byte = base[index]
                break
              }
            }
            index = Self.recordString(base, count, at: index, tape + tapeCount, tapeCount)
            guard index >= 0 else { return false }
            tapeCount &+= 1
            byte = peek(index)
            if byte <= ASCII.space {
              index = skipWhitespace(index)
              byte = peek(index)
            }
            guard byte == ASCII.colon else { return false }
            index &+= 1
            byte = peek(index)
            if byte <= ASCII.space {
              index = skipWhitespace(index)
              byte = peek(index)
            }
          }
          break
        }
        if byte == closer && depth > 0 {
          // Safe because depth > 0 and the stack holds indexes of tokens already on the tape.
          depth &-= 1
          let open = Int(truncatingIfNeeded: stack[depth] >> 1)
          tape[open].end = UInt32(truncatingIfNeeded: index &+ 1)
          tape[open].next = UInt32(truncatingIfNeeded: tapeCount)
          // Safe because depth - 1 indexes an open container when depth > 0.
          closer =
            depth == 0 ? 0 : (stack[depth &- 1] & 1 != 0 ? ASCII.closeBrace : ASCII.closeBracket)
          index &+= 1
          continue
        }
        guard depth == 0, index == count else { return false }
        self.tapeCount = tapeCount
        return true
      }
    }
  }

  /// A member whose key, and perhaps its string value, lie in the 32 bytes at `window` (the key's
  /// opening quote, at offset `at` in the line), read from one pair of masks: both strings'
  /// ends come from the same two loads, so the value's scan does not wait for the key's end.
  /// Only strings of plain ASCII without escapes, and a colon right after the key, are taken.
  ///
  /// - `tokens` 2: the key and its string value are on the tape at `slot` and `slot + 1`, and
  ///   `next` (from `at`) is just past the value's closing quote.
  /// - `tokens` 1: the key is on the tape and `next` is just past its colon, where the value
  ///   starts (no whitespace); the value is read as usual.
  /// - `tokens` 0: nothing was recorded; the member is read as usual.
  @inline(__always)
  private static func recordShortMember(
    _ window: UnsafePointer<UInt8>, at: Int, _ slot: UnsafeMutablePointer<JSONToken>,
    _ number: Int
  ) -> (tokens: Int, next: Int) {
    // Safe because the caller guarantees 32 readable bytes at `window`; bit 0 is the key's
    // opening quote.
    let masks = pt_quotes_specials32(window)
    let quotes = UInt32(truncatingIfNeeded: masks)
    let specials = UInt32(truncatingIfNeeded: masks &>> 32)
    // The key ends at its first special byte, which must be a quote followed by the colon.
    let keyEnd = (specials & ~1).trailingZeroBitCount
    // Safe because keyEnd < 30 keeps keyEnd + 2 inside the window.
    // Whitespace after the colon is left to the usual steps too.
    guard keyEnd < 30, quotes &>> UInt32(keyEnd) & 1 != 0, window[keyEnd &+ 1] == ASCII.colon,
      window[keyEnd &+ 2] > ASCII.space
    else { return (0, 0) }
    // Safe because the caller's slots are below the tape's capacity (one token per byte), and
    // offsets and tape indexes stay below 2^18 (`fastPathLimit`).
    slot.initialize(
      to: JSONToken(
        kind: .string, flags: 0, start: UInt32(truncatingIfNeeded: at &+ 1),
        end: UInt32(truncatingIfNeeded: at &+ keyEnd),
        next: UInt32(truncatingIfNeeded: number &+ 1)))
    let valueStart = keyEnd &+ 2
    // Safe because valueStart <= 31, a byte of the window.
    guard window[valueStart] == ASCII.quote else { return (1, valueStart) }
    let valueEnd = (specials & ~TokenizerScan.lowBits(valueStart &+ 1)).trailingZeroBitCount
    guard valueEnd < 32, quotes &>> UInt32(valueEnd) & 1 != 0 else { return (1, valueStart) }
    // Safe as above: the value's slot follows the key's.
    (slot + 1).initialize(
      to: JSONToken(
        kind: .string, flags: 0, start: UInt32(truncatingIfNeeded: at &+ valueStart &+ 1),
        end: UInt32(truncatingIfNeeded: at &+ valueEnd),
        next: UInt32(truncatingIfNeeded: number &+ 2)))
    return (2, valueEnd &+ 1)
  }

  /// Records the string token whose opening quote is at `at` in `slot` (tape index `number`)
  /// and returns the offset past its closing quote, or `TokenizerScan.bail` when the string is
  /// anything but valid (the reference tokenizer then decides the line). Values in, a value
  /// out: the fast path's loop keeps its state in registers.
  @inline(__always)
  private static func recordString(
    _ base: UnsafePointer<UInt8>, _ count: Int, at: Int, _ slot: UnsafeMutablePointer<JSONToken>,
    _ number: Int
  ) -> Int {
    var flags: UInt8 = 0
    var end = TokenizerScan.plainEnd(base, at &+ 1, count)
    // Safe because end < count is checked first.
    if end >= count || base[end] != ASCII.quote {
      let scanned = TokenizerScan.stringEnd(base, end, count)
      guard scanned >= 0 else { return TokenizerScan.bail }
      end = scanned &>> 1
      flags = UInt8(truncatingIfNeeded: scanned & 1) * JSONToken.hasEscapes
    }
    // Safe because the caller's slot is below the tape's capacity (one token per byte at most),
    // and offsets and tape indexes stay below 2^18 (`fastPathLimit`).
    slot.initialize(
      to: JSONToken(
        kind: .string, flags: flags, start: UInt32(truncatingIfNeeded: at &+ 1),
        end: UInt32(truncatingIfNeeded: end), next: UInt32(truncatingIfNeeded: number &+ 1)))
    return end &+ 1
  }

  @inline(never)
  private mutating func reserveTape(_ capacity: Int) {
    tapeCapacity = Swift.max(capacity, tapeCapacity * 2)
    tape = storage.growTape(to: tapeCapacity, keeping: 0)
  }

  @inline(never)
  private mutating func reserveStack(_ capacity: Int) {
    stackCapacity = Swift.max(capacity, stackCapacity * 2)
    stack = storage.growStack(to: stackCapacity, keeping: 0)
  }

  /// Doubles the tape's capacity, keeping its tokens (the reference tokenizer's `append`).
  @inline(never)
  mutating func growTape() {
    tapeCapacity *= 2
    tape = storage.growTape(to: tapeCapacity, keeping: tapeCount)
  }

  /// Doubles the stack's capacity, keeping its entries (the reference tokenizer's
  /// `pushContainer`).
  @inline(never)
  mutating func growStack() {
    stackCapacity *= 2
    stack = storage.growStack(to: stackCapacity, keeping: stackCount)
  }

  /// The document of the line parsed last (`bytes` is that line): valid until the next parse,
  /// which rewrites the tape.
  @inline(__always)
  func document(of bytes: UnsafeBufferPointer<UInt8>) -> JSONDocument {
    // Safe because the tape's memory lives as long as the tokenizer's storage, and its first
    // `tapeCount` tokens describe the line parsed last.
    JSONDocument(bytes: bytes, tokens: UnsafeBufferPointer(start: tape, count: tapeCount))
  }

  /// The parsed line as a document (valid until the next `parse`).
  package func withDocument<R>(
    _ bytes: UnsafeBufferPointer<UInt8>, _ body: (JSONDocument) throws -> R
  ) rethrows -> R {
    // `storage` (held by self for the whole call) keeps the tape alive.
    try body(document(of: bytes))
  }
}

/// The raw memory behind a tokenizer's tape and container stack; frees it when the last
/// tokenizer holding it goes away. A class so that copies of a tokenizer share it safely: a copy
/// that parses first replaces it (`isKnownUniquelyReferenced`), never writes through it.
private final class TapeStorage {
  private(set) var tape: UnsafeMutablePointer<JSONToken>
  private(set) var tapeCapacity: Int
  private(set) var stack: UnsafeMutablePointer<UInt32>
  private(set) var stackCapacity: Int

  init(tapeCapacity: Int, stackCapacity: Int) {
    self.tapeCapacity = tapeCapacity
    self.stackCapacity = stackCapacity
    // Safe because the tokenizers initialise an entry before they read it (trivial types).
    tape = .allocate(capacity: tapeCapacity)
    stack = .allocate(capacity: stackCapacity)
  }

  deinit {
    // Safe because this storage is the only owner, and no tokenizer is left to use it.
    tape.deallocate()
    stack.deallocate()
  }

  func growTape(to capacity: Int, keeping count: Int) -> UnsafeMutablePointer<JSONToken> {
    // Safe because the `count` tokens kept are initialised and capacity >= count; the one
    // tokenizer holding this storage (see `claimStorage`) takes the result as its `tape`.
    let bigger = UnsafeMutablePointer<JSONToken>.allocate(capacity: capacity)
    bigger.moveInitialize(from: tape, count: count)
    tape.deallocate()
    tape = bigger
    tapeCapacity = capacity
    return bigger
  }

  func growStack(to capacity: Int, keeping count: Int) -> UnsafeMutablePointer<UInt32> {
    // Safe because the `count` entries kept are initialised and capacity >= count; the one
    // tokenizer holding this storage (see `claimStorage`) takes the result as its `stack`.
    let bigger = UnsafeMutablePointer<UInt32>.allocate(capacity: capacity)
    bigger.moveInitialize(from: stack, count: count)
    stack.deallocate()
    stack = bigger
    stackCapacity = capacity
    return bigger
  }
}
