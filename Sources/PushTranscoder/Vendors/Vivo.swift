/// vivo Push (SPEC 4, 9):
/// `{"title","content","notifyType","classification"?,"category"?,"skipType":1,
/// "clientCustomMap"?:{"ext":ext},"requestId"}`.
///
/// Title (required: `Title`, else the fallback title) and content are capped at 40 / 100
/// scalars; `clientCustomMap` may count at most 1024 scalars, key `ext` (3) included, and is
/// never cut. `notifyType` defaults to 4. Values vivo refuses are left out (SPEC 9 [4, 6.8]).
struct Vivo: CappedVendor {
  static var id: VendorID { .vivo }
  static var name: StaticString { "vivo" }
  static var limits: VendorLimits {
    VendorLimits(
      titleScalars: 40, bodyScalars: 100,
      extField: FieldBudget(field: "clientCustomMap", unit: .keyAndExtScalars, limit: 1024),
      requestIDBytes: 64, recipientsPerRecord: 1000)
  }
  /// `requestId` without a key is made from the line's hash.
  static var hashesLines: Bool { true }

  /// Each of several records suffixes `requestId` with its part (SPEC 9 [4]).
  func partPayloads(_ notice: Notice) -> PartPayloads { .differ }

  func writePayload(
    _ notice: Notice, _ texts: CappedTexts, ext: PushText?, _ context: RenderContext,
    part: Int, parts: Int, into writer: inout JSONWriter, effects: inout RenderEffects
  ) {
    let android = notice.android
    writer.raw("{\"title\":")
    texts.title.write(into: &writer)
    writer.raw(",\"content\":")
    texts.body.write(into: &writer)
    // notifyType ← `VIVONotifyType` when 1...4, else the default 4 (SPEC 9 [4, 6.8]).
    writer.raw(",\"notifyType\":")
    if let notifyType = android.vivoNotifyType, AcceptedValues.integer(notifyType, in: 1...4) {
      writer.raw(notifyType)
    } else {
      if android.vivoNotifyType != nil { effects.drop(.notifyType) }
      writer.byte(ASCII.zero + 4)
    }
    // classification ← `VIVOClassification` when 0 or 1.
    var classification: Int? = nil
    if let lexeme = android.vivoClassification {
      if let value = AcceptedValues.integer(lexeme), value == 0 || value == 1 {
        classification = value
        writer.raw(",\"classification\":")
        writer.raw(lexeme)
      } else {
        effects.drop(.classification)
      }
    }
    // category ← `VIVOCategory` when vivo lists it, and only when it matches a written
    // classification (system categories 1, operational ones 0).
    if let category = Notice.present(android.vivoCategory) {
      let system = AcceptedValues.contains(AcceptedValues.vivoSystemCategory, category)
      let operational =
        !system && AcceptedValues.contains(AcceptedValues.vivoOperationalCategory, category)
      if (system && classification != 0) || (operational && classification != 1) {
        writer.raw(",\"category\":")
        writer.string(category)
      } else {
        effects.drop(.category)
      }
    }
    writer.raw(",\"skipType\":1")
    if let ext {
      writer.raw(",\"clientCustomMap\":{\"ext\":")
      ext.write(into: &writer)
      writer.byte(ASCII.closeBrace)
    }
    writer.raw(",\"requestId\":")
    Vivo.writeRequestID(
      notice, part: part, parts: parts, maxBytes: Self.limits.requestIDBytes!, into: &writer)
    writer.byte(ASCII.closeBrace)
  }

  /// The 8 lower-case hex digits of `value`, most significant first, as the bytes of a
  /// little-endian UInt64 (SWAR: each nibble spread into its own byte, then turned into its
  /// digit, `a`–`f` being 39 past `9` + 1).
  @inline(__always)
  static func hexDigits(_ value: UInt32) -> UInt64 {
    var x = UInt64(value)
    x = (x | x << 16) & 0x0000_FFFF_0000_FFFF
    x = (x | x << 8) & 0x00FF_00FF_00FF_00FF
    x = (x | x << 4) & 0x0F0F_0F0F_0F0F_0F0F
    // Bytes from least significant: nibbles 0, 1, ... of `value`'s low byte first; reversed
    // below so the most significant nibble comes first in memory.
    let letters = ((x &+ 0x0606_0606_0606_0606) >> 4) & 0x0101_0101_0101_0101
    let digits = x &+ 0x3030_3030_3030_3030 &+ letters &* 39
    return digits.byteSwapped.littleEndian
  }

  /// `requestId` ← the key, else `h` + 16 lower-case hex digits of the line's FNV-1a hash
  /// (SPEC 9). With several vivo records, `-<part>` follows a base cut at a scalar boundary
  /// (no `…`) so that the whole fits in `maxBytes`; a single record's base is cut the same way.
  ///
  /// Bytes are those of the decoded UTF-8 value (what vivo stores), not of its JSON escapes.
  static func writeRequestID(
    _ notice: Notice, part: Int, parts: Int, maxBytes: Int, into writer: inout JSONWriter
  ) {
    var suffix: [UInt8] = []
    if parts > 1 {
      suffix.append(ASCII.minus)
      suffix.append(contentsOf: String(part).utf8)
    }
    let room = maxBytes - suffix.count
    writer.byte(ASCII.quote)
    if let key = Notice.present(notice.key) {
      if !key.hasEscapes {
        // The fast path: raw content is the decoded value and already canonical.
        let length = TextCut.scalarPrefixLength(key.rawBytes, maxBytes: room)
        // Safe because `scalarPrefixLength` returns at most the buffer's count.
        writer.raw(UnsafeBufferPointer(rebasing: key.rawBytes[..<length]))
      } else {
        let decoded = key.decodedBytes()
        decoded.withUnsafeBufferPointer { bytes in
          let length = TextCut.scalarPrefixLength(bytes, maxBytes: room)
          // Safe because `scalarPrefixLength` returns at most the buffer's count.
          writer.escapedContent(UnsafeBufferPointer(rebasing: bytes[..<length]))
        }
      }
    } else {
      // `h` + 16 hex digits is 17 ASCII bytes, written in place (no array per line); cut like a
      // key in case the limit is ever lower.
      let hash = notice.lineHash  // hashes the whole line: once
      // Safe because `reserve(17)` makes room for the 17 bytes written; only the first
      // `min(17, room)` of them are committed.
      let out = UnsafeMutableRawPointer(writer.reserve(17))
      out.storeBytes(of: UInt8(ascii: "h"), as: UInt8.self)
      out.storeBytes(
        of: Self.hexDigits(UInt32(truncatingIfNeeded: hash >> 32)), toByteOffset: 1, as: UInt64.self
      )
      out.storeBytes(
        of: Self.hexDigits(UInt32(truncatingIfNeeded: hash)), toByteOffset: 9, as: UInt64.self)
      writer.advance(by: min(17, max(room, 0)))
    }
    suffix.withUnsafeBufferPointer { writer.raw($0) }
    writer.byte(ASCII.quote)
  }
}
