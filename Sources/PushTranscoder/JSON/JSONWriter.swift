import Glibc

/// An append-only byte buffer that writes canonical JSON (SPEC 4): no spaces between tokens,
/// strings escaped minimally (see `JSONEscapes`), numbers as their input lexeme.
///
/// The bytes live in a heap buffer the writer manages itself: an append is a capacity check and
/// a `memcpy`, with no uniqueness check and no generic `Array` machinery on the hot path.
///
/// Invariants: bytes only grow between `truncate(to:)` calls, so a renderer can remember
/// `count`, write a candidate payload, measure it, and roll back to try a cut body.
///
/// Ownership: a writer owns its buffer and cannot be copied (`~Copyable`), so two writers never
/// share one buffer; it is moved or lent (`inout`, `borrowing`), and frees the buffer when it
/// ends. A buffer outlives its writer only through `releaseBuffer()`, which hands it to a pool
/// (`WriterPool`) as a `WriterBuffer` that `init(adopting:)` turns into a writer again. Where a
/// writer must sit in a copyable container (an array, an escaping closure), it lives in a
/// `WriterBox`, a class that is its one owner.
package struct JSONWriter: ~Copyable, @unchecked Sendable {
  // Safe because a writer is never copied: the one value that owns the buffer is the only one
  // that reads or writes it, on one thread at a time.

  @usableFromInline var base: UnsafeMutablePointer<UInt8>
  @usableFromInline var capacity: Int
  /// The number of bytes written so far.
  package private(set) var count: Int
  /// Set by a budgeted vendor's envelope around its payload: a body (`PushText.writeBody`) whose
  /// escaped content is known to be longer is written only up to this many bytes, since the
  /// budget cut keeps fewer. `Int.max`: bodies are written whole.
  package var bodyLimit = Int.max
  /// True once `writeBody` wrote a body short (the envelope clears it before the payload).
  package var bodyWrittenShort = false
  /// The content bytes of strings left out by `boundedString` (the envelope clears it before
  /// the payload): each was longer than `bodyLimit`, so the payload is over its budget.
  package var unwrittenBytes = 0

  /// An empty writer with room for `capacity` bytes (at least 64) before it grows.
  package init(capacity: Int = 1 << 16) {
    let buffer = WriterBuffer.allocate(capacity)
    base = buffer.base
    self.capacity = buffer.capacity
    count = 0
  }

  /// An empty writer that owns `buffer` (one `releaseBuffer()` gave back, or a new one).
  init(adopting buffer: WriterBuffer) {
    base = buffer.base
    capacity = buffer.capacity
    count = 0
  }

  /// Ends the writer without freeing its buffer, and returns the buffer (for a pool). Its bytes
  /// are forgotten.
  consuming func releaseBuffer() -> WriterBuffer {
    let buffer = WriterBuffer(base: base, capacity: capacity)
    discard self
    return buffer
  }

  // Safe because the writer owns `base`, which nobody else frees or uses.
  deinit { WriterBuffer(base: base, capacity: capacity).free() }

  /// True when nothing has been written.
  @inlinable
  package var isEmpty: Bool { count == 0 }

  /// The bytes written so far, valid until the next write. Safe because `base ..< base + count`
  /// is initialised and owned by this writer.
  @inlinable
  package var buffer: UnsafeBufferPointer<UInt8> {
    UnsafeBufferPointer(start: base, count: count)
  }

  /// A copy of the bytes written so far (allocates: for slow paths and tests).
  package var bytes: [UInt8] { Array(buffer) }

  /// Makes room for `extra` more bytes and returns where they go; commit them with
  /// `advance(by:)`.
  @inline(__always)
  package mutating func reserve(_ extra: Int) -> UnsafeMutablePointer<UInt8> {
    // Safe because count <= capacity always, so `&-` cannot wrap.
    if capacity &- count < extra { grow(extra) }
    // Safe because `count + extra <= capacity` now.
    return base + count
  }

  /// Commits `written` bytes written at the pointer `reserve` returned.
  ///
  /// - Precondition: `0 <= written <=` the bytes last reserved (checked in debug builds).
  @inline(__always)
  package mutating func advance(by written: Int) {
    assert(written >= 0 && written <= capacity &- count, "advance beyond the reserved bytes")
    // Safe because callers commit at most the bytes they reserved: count stays <= capacity.
    count &+= written
  }

  /// Moves the bytes to a larger buffer with room for `extra` more.
  @usableFromInline
  mutating func grow(_ extra: Int) {
    // Safe because `capacity` is the size of a live allocation, far below Int.max / 2.
    let larger = WriterBuffer.allocate(Swift.max(capacity &* 2, count + extra))
    // Safe because both buffers hold at least `count` bytes, and the old one is freed once.
    larger.base.update(from: base, count: count)
    WriterBuffer(base: base, capacity: capacity).free()
    base = larger.base
    capacity = larger.capacity
  }

  /// Drops everything after the first `count` bytes.
  @inline(__always)
  package mutating func truncate(to count: Int) {
    precondition(count >= 0 && count <= self.count, "truncate beyond the written bytes")
    self.count = count
  }

  /// Forgets every byte but keeps the buffer (a recycled writer).
  @inline(__always)
  package mutating func removeAll() {
    count = 0
  }

  /// Replaces the bytes in `range` (within the written bytes) by `replacement`.
  package mutating func replace(_ range: Range<Int>, with replacement: UnsafeBufferPointer<UInt8>) {
    precondition(range.lowerBound >= 0 && range.upperBound <= count, "range beyond the bytes")
    let tail = count - range.upperBound
    let delta = replacement.count - range.count
    if delta > 0 { _ = reserve(delta) }
    // Safe because the buffer holds `count + max(delta, 0)` bytes; memmove handles the overlap.
    memmove(base + range.lowerBound + replacement.count, base + range.upperBound, tail)
    if let source = replacement.baseAddress {
      (base + range.lowerBound).update(from: source, count: replacement.count)
    }
    count += delta
  }

  /// Appends literal JSON text (punctuation, keys with their quotes, `true`...).
  @inline(__always)
  package mutating func raw(_ text: StaticString) {
    // Safe because a StaticString's UTF-8 lives in the program image for the whole run.
    raw(UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
  }

  /// Appends one byte.
  @inline(__always)
  package mutating func byte(_ value: UInt8) {
    // Safe because `reserve(1)` leaves room at `out`, so count + 1 <= capacity.
    let out = reserve(1)
    // The new count is taken before the byte is stored: a store through a pointer may alias
    // `self` as far as the optimizer knows, so `count` would otherwise be reloaded from memory
    // after it, and every append would wait for the previous one's store (see `raw`).
    let end = count &+ 1
    out.pointee = value
    count = end
  }

  /// Appends bytes as they are (a number lexeme, an already-canonical record).
  @inline(__always)
  package mutating func raw(_ buffer: UnsafeBufferPointer<UInt8>) {
    let n = buffer.count
    guard n > 0 else { return }
    // Safe because `reserve` made room for `n` bytes and `buffer` holds `n` bytes.
    let out = UnsafeMutableRawPointer(reserve(n))
    // Computed before the stores below, which may alias `self` for all the optimizer knows:
    // `count` is then stored once and never reloaded, so the next append reads it from a
    // register instead of waiting on a store-to-load round trip through memory.
    let end = count &+ n
    Self.copy(UnsafeRawPointer(buffer.baseAddress!), n, to: out)
    count = end
  }

  /// Appends `"` + `content` + `"` with one capacity check for the three (`string(_:)` and
  /// `PushText.write` for canonical text: several times in every record).
  @inline(__always)
  mutating func quoted(_ content: UnsafeBufferPointer<UInt8>) {
    let n = content.count
    // Safe because `reserve` made room for the `n + 2` bytes stored below, and `content` holds
    // `n` bytes (read only when n > 0, where its base address exists).
    let out = UnsafeMutableRawPointer(reserve(n &+ 2))
    let end = count &+ n &+ 2
    out.storeBytes(of: ASCII.quote, as: UInt8.self)
    if n > 0 { Self.copy(UnsafeRawPointer(content.baseAddress!), n, to: out + 1) }
    out.storeBytes(of: ASCII.quote, toByteOffset: n &+ 1, as: UInt8.self)
    count = end
  }

  /// Copies `n > 0` bytes from `source` to `out` (which do not overlap). Short copies (keys,
  /// names, numbers) go without a call to memcpy: two overlapping loads and stores that stay
  /// inside both ranges.
  @inline(__always)
  private static func copy(_ source: UnsafeRawPointer, _ n: Int, to out: UnsafeMutableRawPointer) {
    // Safe because the caller guarantees `n` readable bytes at `source` and `n` writable at
    // `out`; every load and store below lies inside the first `n` bytes of each.
    switch n {
    case 1...3:
      out.storeBytes(of: source.load(as: UInt8.self), as: UInt8.self)
      out.storeBytes(
        of: source.load(fromByteOffset: n / 2, as: UInt8.self), toByteOffset: n / 2,
        as: UInt8.self)
      out.storeBytes(
        of: source.load(fromByteOffset: n - 1, as: UInt8.self), toByteOffset: n - 1,
        as: UInt8.self)
    case 4...7:
      let head = source.loadUnaligned(as: UInt32.self)
      let tail = source.loadUnaligned(fromByteOffset: n - 4, as: UInt32.self)
      out.storeBytes(of: head, as: UInt32.self)
      out.storeBytes(of: tail, toByteOffset: n - 4, as: UInt32.self)
    case 8...16:
      let head = source.loadUnaligned(as: UInt64.self)
      let tail = source.loadUnaligned(fromByteOffset: n - 8, as: UInt64.self)
      out.storeBytes(of: head, as: UInt64.self)
      out.storeBytes(of: tail, toByteOffset: n - 8, as: UInt64.self)
    default:
      out.copyMemory(from: source, byteCount: n)
    }
  }

  /// `raw(_:)` for the parts of record heads (some 30 to 120 bytes each, twice per record: the
  /// prefix holds the source's path): up to 128 bytes with 16-byte moves instead of a call to
  /// memcpy. Kept apart from `raw`, whose every call site would otherwise grow and stop being
  /// inlined.
  @inline(__always)
  mutating func rawHeadPart(_ buffer: UnsafeBufferPointer<UInt8>) {
    let n = buffer.count
    guard n > 16 && n <= 128 else { return raw(buffer) }
    // Safe because `reserve` made room for `n` bytes and `buffer` holds `n` (17 to 128) bytes:
    // every move below stays inside both ranges.
    let out = UnsafeMutableRawPointer(reserve(n))
    let end = count &+ n
    let source = UnsafeRawPointer(buffer.baseAddress!)
    if n > 64 {
      // The first 64 bytes and the last 64; they overlap when n < 128. Safe because
      // 64 < n <= 128: both runs lie inside both ranges.
      Self.move64(from: source, to: out)
      Self.move64(from: source + (n - 64), to: out + (n - 64))
      count = end
      return
    }
    let first = source.loadUnaligned(as: SIMD16<UInt8>.self)
    let last = source.loadUnaligned(fromByteOffset: n - 16, as: SIMD16<UInt8>.self)
    if n > 32 {
      let second = source.loadUnaligned(fromByteOffset: 16, as: SIMD16<UInt8>.self)
      let third = source.loadUnaligned(fromByteOffset: n - 32, as: SIMD16<UInt8>.self)
      out.storeBytes(of: second, toByteOffset: 16, as: SIMD16<UInt8>.self)
      out.storeBytes(of: third, toByteOffset: n - 32, as: SIMD16<UInt8>.self)
    }
    out.storeBytes(of: first, as: SIMD16<UInt8>.self)
    out.storeBytes(of: last, toByteOffset: n - 16, as: SIMD16<UInt8>.self)
    count = end
  }

  /// Copies 64 bytes in four 16-byte moves, all loads before the stores.
  @inline(__always)
  private static func move64(from source: UnsafeRawPointer, to out: UnsafeMutableRawPointer) {
    // Safe because the caller guarantees 64 readable bytes at `source` and 64 writable at
    // `out`.
    let a = source.loadUnaligned(as: SIMD16<UInt8>.self)
    let b = source.loadUnaligned(fromByteOffset: 16, as: SIMD16<UInt8>.self)
    let c = source.loadUnaligned(fromByteOffset: 32, as: SIMD16<UInt8>.self)
    let d = source.loadUnaligned(fromByteOffset: 48, as: SIMD16<UInt8>.self)
    out.storeBytes(of: a, as: SIMD16<UInt8>.self)
    out.storeBytes(of: b, toByteOffset: 16, as: SIMD16<UInt8>.self)
    out.storeBytes(of: c, toByteOffset: 32, as: SIMD16<UInt8>.self)
    out.storeBytes(of: d, toByteOffset: 48, as: SIMD16<UInt8>.self)
  }

  /// Appends pre-rendered bytes.
  @inline(__always)
  package mutating func raw(_ bytes: [UInt8]) {
    bytes.withUnsafeBufferPointer { raw($0) }
  }

  /// Appends the UTF-8 of `text` as it is (names that need no escaping).
  @inline(__always)
  package mutating func raw(utf8 text: String) {
    var text = text
    text.withUTF8 { raw($0) }
  }

  /// Appends a decimal integer.
  package mutating func integer(_ value: Int) {
    if value >= 0 && value < 100_000_000 { return eightDigitsOrFewer(UInt64(value)) }
    // The magnitude as unsigned: `-Int.min` does not fit in an Int. 20 digits and a sign.
    var magnitude = value.magnitude
    var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)
    var start = 24
    // Safe because the 24-byte scratch holds at most 20 digits and a sign, read only as bytes,
    // and written from its end; a digit is at most 9, so `&+` cannot wrap.
    withUnsafeMutableBytes(of: &digits) { scratch in
      // Two digits per division (line numbers have five or six): the tens of a pair below 100
      // are `pair * 103 >> 10` (exact for 0...99), without a second division.
      while magnitude >= 100 {
        let pair = UInt8(truncatingIfNeeded: magnitude % 100)
        magnitude /= 100
        let tens = UInt8(truncatingIfNeeded: (UInt16(pair) &* 103) &>> 10)
        start -= 2
        scratch[start] = ASCII.zero &+ tens
        scratch[start + 1] = ASCII.zero &+ (pair &- tens &* 10)
      }
      let last = UInt8(truncatingIfNeeded: magnitude)
      if last >= 10 {
        let tens = UInt8(truncatingIfNeeded: (UInt16(last) &* 103) &>> 10)
        start -= 2
        scratch[start] = ASCII.zero &+ tens
        scratch[start + 1] = ASCII.zero &+ (last &- tens &* 10)
      } else {
        start -= 1
        scratch[start] = ASCII.zero &+ last
      }
      if value < 0 {
        start -= 1
        scratch[start] = ASCII.minus
      }
      raw(UnsafeBufferPointer(rebasing: scratch.bindMemory(to: UInt8.self)[start...]))
    }
  }

  /// `integer` for `0 ..< 100_000_000` (line numbers, lengths, badges): the eight decimal digits
  /// computed side by side in one 64-bit word, a digit a byte, the most significant first in
  /// memory, then stored in one unaligned store and committed without the leading zeros.
  ///
  /// Each step splits every lane of the word in two: two 32-bit lanes (`value / 10_000` and
  /// `value % 10_000`), four 16-bit lanes (÷ 100), eight bytes (÷ 10). A lane's quotient is a
  /// multiply and a shift (`x * 5243 >> 19` is `x / 100` for `x < 10_000`, `x * 103 >> 10` is
  /// `x / 10` for `x < 100`); no product leaves its lane (under 2^27 in 32 bits, under 2^14 in
  /// 16), and the mask after each shift drops the bits the next lane's product shifted in.
  @inline(__always)
  mutating func eightDigitsOrFewer(_ value: UInt64) {
    // Safe because value < 10^8: every product below stays inside its lane as stated above,
    // and a remainder `x - q * d` is at least 0 (q = x / d), so the wrapping operations never
    // wrap.
    var word = value / 10_000 | (value % 10_000) << 32
    let hundreds = (word &* 5243) >> 19 & 0x0000_007F_0000_007F
    word = hundreds | (word &- hundreds &* 100) << 16
    let tens = (word &* 103) >> 10 & 0x000F_000F_000F_000F
    word = tens | (word &- tens &* 10) << 8
    // The leading zero digits are the low zero bytes; zero itself keeps its one digit.
    let leadingZeros = Swift.min(word.trailingZeroBitCount >> 3, 7)
    let digits = (word | 0x3030_3030_3030_3030) >> UInt64(leadingZeros << 3)
    // Safe because `reserve(8)` makes room for the 8 bytes stored; only the `8 - leadingZeros`
    // digits are committed, and the bytes past them are overwritten by the next append.
    let out = UnsafeMutableRawPointer(reserve(8))
    let end = count &+ (8 &- leadingZeros)
    out.storeBytes(of: digits.littleEndian, as: UInt64.self)
    count = end
  }

  /// Appends `"content"` in canonical form.
  @inline(__always)
  package mutating func string(_ slice: StringSlice) {
    guard slice.isCanonical else {
      byte(ASCII.quote)
      stringContent(slice)
      byte(ASCII.quote)
      return
    }
    quoted(slice.rawBytes)
  }

  /// `string(_:)` for a text outside the body of a budgeted payload that can be longer than
  /// the whole budget and is not cut (harmony's title, which can be a directory name used by
  /// every message of its sender): a canonical slice longer than `bodyLimit` is written as
  /// `""` and its length added to `unwrittenBytes`, for the over-budget refusal's sizes. The
  /// payload is refused whatever the body, so writing the text whole, message after message,
  /// would be work for nothing.
  @inline(__always)
  package mutating func boundedString(_ slice: StringSlice) {
    guard slice.isCanonical, slice.count > bodyLimit else { return string(slice) }
    raw("\"\"")
    unwrittenBytes += slice.count
  }

  /// Appends a slice's content in canonical form, without quotes: copied as is when it has no
  /// escapes (the fast path), otherwise decoded and re-escaped.
  @inline(__always)
  package mutating func stringContent(_ slice: StringSlice) {
    if slice.isCanonical {
      raw(slice.rawBytes)
    } else {
      appendReescaped(slice.rawBytes)
    }
  }

  /// Appends decoded UTF-8 as canonical string content (no quotes).
  package mutating func escapedContent(_ decoded: UnsafeBufferPointer<UInt8>) {
    JSONEscapes.appendEscaped(decoded, to: &self)
  }

  /// Appends decoded UTF-8 as a canonical JSON string, quotes included.
  package mutating func string(decoded: [UInt8]) {
    byte(ASCII.quote)
    decoded.withUnsafeBufferPointer { JSONEscapes.appendEscaped($0, to: &self) }
    byte(ASCII.quote)
  }

  /// The slow path: escaped content written canonically (one pass, no temporary buffer).
  private mutating func appendReescaped(_ content: UnsafeBufferPointer<UInt8>) {
    JSONEscapes.appendCanonical(content, to: &self)
  }

  /// The canonical byte length of a slice's content (what `stringContent` would append).
  package static func canonicalLength(_ slice: StringSlice) -> Int {
    !slice.isCanonical
      ? JSONEscapes.canonicalLength(slice.rawBytes) : slice.count
  }

  /// Re-writes any JSON value of a parsed document in canonical form: no whitespace, strings
  /// re-escaped, numbers and literals as their lexemes, duplicate keys kept at their first
  /// position with their last value (SPEC 9).
  ///
  /// Linear in the value's bytes: every token is written once, and an object's duplicate keys
  /// are found in one pass over its members (`DuplicateKeys`), so no object is scanned once
  /// per member. Recursion is bounded by the tokenizer's depth limit (512).
  package mutating func value(_ document: JSONDocument, _ index: Int) {
    switch document.kind(index) {
    case .string:
      string(document.string(index))
    case .number, .true, .false, .null:
      raw(document.lexeme(index))
    case .array:
      byte(ASCII.openBracket)
      var first = true
      document.forEachElement(index) { element in
        if !first { byte(ASCII.comma) }
        first = false
        value(document, element)
      }
      byte(ASCII.closeBracket)
    case .object:
      byte(ASCII.openBrace)
      var first = true
      if let duplicates = DuplicateKeys(document, object: index) {
        // A duplicate key is written once, where it first appears, with its last value.
        var ordinal = 0
        document.forEachMember(index) { key, _ in
          defer { ordinal += 1 }
          guard let member = duplicates.value(ofMember: ordinal) else { return }
          if !first { byte(ASCII.comma) }
          first = false
          string(document.string(key))
          byte(ASCII.colon)
          value(document, member)
        }
      } else {
        document.forEachMember(index) { key, member in
          if !first { byte(ASCII.comma) }
          first = false
          string(document.string(key))
          byte(ASCII.colon)
          value(document, member)
        }
      }
      byte(ASCII.closeBrace)
    }
  }
}

/// A writer's buffer between two writers: the memory and its size, owned by whoever holds it
/// (a pool), with no bytes that count. Made by `JSONWriter.releaseBuffer()` or `allocate`,
/// ended by `JSONWriter(adopting:)` or `free()`.
struct WriterBuffer: @unchecked Sendable {
  // Safe because a buffer has one holder at a time: the pool hands it out once.
  let base: UnsafeMutablePointer<UInt8>
  let capacity: Int

  /// Large buffers (chunk records, batches) are mappings of their own, on 4 KiB pages: only
  /// the pages written are resident, and freeing one gives them back to the system at once.
  /// From the malloc heap, batch-sized page-aligned blocks freed on other threads fragmented
  /// it, and resident memory grew with the run. Small buffers (scratch, one text) come from
  /// malloc.
  static let mappedBytes = 1 << 16

  /// A new buffer of at least `capacity` bytes (at least 64); traps when memory is out.
  static func allocate(_ capacity: Int) -> WriterBuffer {
    let size = Swift.max(capacity, 64)
    let raw: UnsafeMutableRawPointer
    if size >= mappedBytes {
      raw = PageAlignedMemory.map(size)
    } else {
      guard let pointer = malloc(size) else {
        fatalError("push-transcode: out of memory allocating \(size) bytes")
      }
      raw = pointer
    }
    // Safe because `raw` is a fresh allocation of `size` bytes, used only as UInt8.
    return WriterBuffer(base: raw.bindMemory(to: UInt8.self, capacity: size), capacity: size)
  }

  /// Returns the memory to the system (`capacity` tells how it was allocated).
  func free() {
    // Safe because the holder owns `base` and stops using it here.
    if capacity >= Self.mappedBytes {
      PageAlignedMemory.unmap(UnsafeMutableRawPointer(base), capacity)
    } else {
      Glibc.free(base)
    }
  }
}

/// The one owner of a writer that must live where only copyable values can (an array, a
/// dictionary, an escaping closure). Copies of the box share the one writer: they never hold
/// two writers over one buffer.
final class WriterBox: @unchecked Sendable {
  // Safe because the box is handed from thread to thread, never used by two at once (the
  // pipeline passes a chunk's output, and a batch's content, to one stage at a time).
  @exclusivity(unchecked) var writer: JSONWriter

  init(_ writer: consuming JSONWriter) { self.writer = writer }

  /// Takes the writer out, leaving an empty one of no capacity behind.
  func take() -> JSONWriter {
    var taken = JSONWriter(capacity: 0)
    swap(&taken, &writer)
    return taken
  }
}
