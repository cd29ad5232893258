/// Payloads the vendors accept (SPEC 9 [4, 6.8]): the value checks of the enumerated and ranged
/// fields, the blank-text rules of required titles and bodies, and the names under which a
/// dropped value is counted in the stats' `dropped_fields`.

/// A field whose value a vendor refuses, so it is left out of that vendor's payload (or, when
/// required, takes its default). Named by the vendor's own payload key: `badge` (apns),
/// `notification_count` (fcm), `set_num` / `add_num` (huawei), `setNum` / `addNum` (honor,
/// harmony), `category`, `importance`, `notifyType`, `classification`, `notify_level`,
/// `noticeMsgType`.
package enum DroppedField: Int, CaseIterable, Sendable {
  /// apns `aps.badge`.
  case badge
  /// fcm `android.notification.notification_count`.
  case notificationCount
  /// huawei `badge.set_num`.
  case setNumSnake
  /// huawei `badge.add_num`.
  case addNumSnake
  /// honor and harmony `badge.setNum`.
  case setNum
  /// honor and harmony `badge.addNum`.
  case addNum
  /// huawei `android.category`, harmony `category`, vivo `category`.
  case category
  /// huawei and honor `importance`.
  case importance
  /// vivo `notifyType`.
  case notifyType
  /// vivo `classification`.
  case classification
  /// oppo `notify_level`.
  case notifyLevel
  /// meizu `noticeMsgType`.
  case noticeMsgType

  /// The key written in `dropped_fields` (the vendor's payload key).
  package var name: String {
    switch self {
    case .badge: "badge"
    case .notificationCount: "notification_count"
    case .setNumSnake: "set_num"
    case .addNumSnake: "add_num"
    case .setNum: "setNum"
    case .addNum: "addNum"
    case .category: "category"
    case .importance: "importance"
    case .notifyType: "notifyType"
    case .classification: "classification"
    case .notifyLevel: "notify_level"
    case .noticeMsgType: "noticeMsgType"
    }
  }

  /// The field's bit in `RenderEffects.dropped`.
  @inline(__always)
  var bit: UInt16 { 1 << UInt16(rawValue) }
}

/// The values the vendors list for their enumerated fields (SPEC 9 [4, 6.8]). Values compare
/// exactly (decoded, case-sensitive).
enum AcceptedValues {
  /// Huawei `android.category`.
  static let huaweiCategory: [StaticString] = [
    "IM", "VOIP", "SUBSCRIPTION", "TRAVEL", "HEALTH", "WORK", "ACCOUNT", "EXPRESS", "FINANCE",
    "DEVICE_REMINDER", "SYSTEM_REMINDER", "MAIL", "PLAY_VOICE", "MARKETING",
  ]
  /// HarmonyOS `notification.category`.
  static let harmonyCategory: [StaticString] = [
    "IM", "VOIP", "MISS_CALL", "SUBSCRIPTION", "TRAVEL", "HEALTH", "WORK", "ACCOUNT", "EXPRESS",
    "FINANCE", "DEVICE_REMINDER", "MAIL", "PLAY_VOICE", "MARKETING", "CUSTOMER_SERVICE",
  ]
  /// vivo `category` for system messages (`classification` 1).
  static let vivoSystemCategory: [StaticString] = [
    "IM", "ACCOUNT", "TODO", "DEVICE_REMINDER", "ORDER", "SUBSCRIPTION",
  ]
  /// vivo `category` for operational messages (`classification` 0).
  static let vivoOperationalCategory: [StaticString] = ["NEWS", "CONTENT", "MARKETING", "SOCIAL"]
  /// Huawei `importance`.
  static let huaweiImportance: [StaticString] = ["LOW", "NORMAL", "HIGH"]
  /// Honor `importance`.
  static let honorImportance: [StaticString] = ["LOW", "NORMAL"]

  /// True when `value` decodes to one of `values`.
  static func contains(_ values: [StaticString], _ value: StringSlice) -> Bool {
    values.contains { value.equals($0) }
  }

  /// The value of an integer lexeme (`-?(0|[1-9][0-9]*)`), or nil when it does not fit an
  /// `Int` (no accepted range reaches that far, so such a value is refused).
  static func integer(_ lexeme: UnsafeBufferPointer<UInt8>) -> Int? {
    var index = 0
    let negative = lexeme.first == ASCII.minus
    if negative { index = 1 }
    guard index < lexeme.count else { return nil }
    var value = 0
    while index < lexeme.count {
      let digit = Int(lexeme[index]) - Int(ASCII.zero)
      guard digit >= 0 && digit <= 9 else { return nil }
      let (times10, overflow) = value.multipliedReportingOverflow(by: 10)
      let (sum, overflow2) = times10.addingReportingOverflow(negative ? -digit : digit)
      guard !overflow && !overflow2 else { return nil }
      value = sum
      index += 1
    }
    return value
  }

  /// True when the integer lexeme's value is at least 0, compared exactly, however large
  /// (SPEC 9 [4, 6.8]: "Values compare exactly"): a lexeme without a minus sign, or `-0`.
  static func nonNegativeInteger(_ lexeme: UnsafeBufferPointer<UInt8>) -> Bool {
    // Safe because `lexeme[1]` is read only when the lexeme has two bytes.
    lexeme.first != ASCII.minus || (lexeme.count == 2 && lexeme[1] == ASCII.zero)
  }

  /// True when the integer lexeme's value lies in `range`.
  static func integer(_ lexeme: UnsafeBufferPointer<UInt8>, in range: ClosedRange<Int>) -> Bool {
    guard let value = integer(lexeme) else { return false }
    return range.contains(value)
  }
}

extension RenderEffects {
  /// Records that `field` was left out of the payload (or took its default).
  @inline(__always)
  mutating func drop(_ field: DroppedField) { dropped |= field.bit }
}

extension JSONWriter {
  /// Writes `key` and the string when present, non-empty and one of `values`; a present value
  /// outside the list is left out and recorded as `field` in `effects`.
  /// `values` is read only for a present value: the lists are lazily initialised statics, and
  /// reading one costs a check and a call per record even when the field is absent.
  @inline(__always)
  mutating func enumeratedString(
    _ key: StaticString, _ value: StringSlice?, _ values: @autoclosure () -> [StaticString],
    _ field: DroppedField, _ effects: inout RenderEffects
  ) {
    guard let value = Notice.present(value) else { return }
    guard AcceptedValues.contains(values(), value) else {
      effects.drop(field)
      return
    }
    raw(key)
    string(value)
  }

  /// Writes `key` and the integer lexeme when present and `accepted` by the vendor
  /// (`AcceptedValues.nonNegativeInteger`, or `AcceptedValues.integer(_:in:)` for a range); a
  /// present value it refuses is left out and recorded as `field` in `effects`.
  @inline(__always)
  mutating func acceptedNumber(
    _ key: StaticString, _ lexeme: UnsafeBufferPointer<UInt8>?, _ field: DroppedField,
    _ effects: inout RenderEffects, accepted: (UnsafeBufferPointer<UInt8>) -> Bool
  ) {
    guard let lexeme else { return }
    guard accepted(lexeme) else {
      effects.drop(field)
      return
    }
    raw(key)
    raw(lexeme)
  }

  /// The checked form of `badge(_:set:add:)` for huawei, honor and harmony: set beats add, then
  /// the chosen value must lie in `0...99` (set) or `1...99` (add), else no badge is written
  /// and the chosen key is recorded as dropped (SPEC 9 [4, 6.8]).
  mutating func checkedBadge(
    _ notice: Notice, set setKey: StaticString, _ setField: DroppedField,
    add addKey: StaticString, _ addField: DroppedField, _ effects: inout RenderEffects
  ) {
    if let value = notice.badgeSet {
      guard AcceptedValues.integer(value, in: 0...99) else {
        effects.drop(setField)
        return
      }
      raw(",\"badge\":{")
      raw(setKey)
      raw(value)
      byte(ASCII.closeBrace)
    } else if let value = notice.badgeAdd {
      guard AcceptedValues.integer(value, in: 1...99) else {
        effects.drop(addField)
        return
      }
      raw(",\"badge\":{")
      raw(addKey)
      raw(value)
      byte(ASCII.closeBrace)
    }
  }
}

extension PushText {
  /// True when the text is empty or made only of scalars up to U+0020 or with Unicode's
  /// White_Space property (SPEC 9 [4, 6.8]): a text the vendors that require one refuse.
  /// Inlined: seven vendors ask it of the body of every message, and the usual one-slice body
  /// is settled by its first byte.
  @inline(__always)
  var isBlank: Bool {
    if case .slice(let slice) = self { return slice.isBlank }
    return isBlankOutOfLine
  }

  /// True when the text's first bytes tell that it is not blank (`startsNonBlank`): the
  /// usual text, settled without reading further. False means not known.
  @inline(__always)
  var startsNonBlank: Bool {
    switch self {
    case .slice(let slice): slice.startsNonBlank
    case .pieces(let pieces): pieces.first?.startsNonBlank ?? false
    case .decoded(let bytes): bytes.withUnsafeBufferPointer { PushText.startsNonBlank($0) }
    }
  }

  /// True when UTF-8 or JSON string content starts with a scalar that is not blank, told from
  /// its first two bytes: `startsNonBlank(lead)`, or a lead byte of some blank scalars followed
  /// by a byte none of them has second (`「` and hiragana start E3 but not E3 80). False
  /// (not known) for an escape, and so for a decoded text that starts with a backslash.
  @inline(__always)
  static func startsNonBlank(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    guard let lead = bytes.first, lead != ASCII.backslash else { return false }
    if startsNonBlank(lead) { return true }
    guard bytes.count >= 2 else { return false }
    // Safe because bytes.count >= 2.
    let next = bytes[1]
    switch lead {
    case 0xC2: return next != 0x85 && next != 0xA0  // U+0085, U+00A0
    case 0xE1: return next != 0x9A  // U+1680
    case 0xE2: return next != 0x80 && next != 0x81  // U+2000–U+200A, U+2028–U+202F, U+205F
    case 0xE3: return next != 0x80  // U+3000
    default: return false
    }
  }

  /// `isBlank` for every case, out of line (`isBlank` inlines only the one-slice case).
  private var isBlankOutOfLine: Bool {
    switch self {
    case .slice(let slice):
      return slice.isBlank
    case .pieces(let pieces):
      for piece in pieces where !piece.isBlank { return false }
      return true
    case .decoded(let bytes):
      return bytes.withUnsafeBufferPointer { PushText.isBlankUTF8($0) }
    }
  }

  /// `isBlank` of decoded UTF-8.
  static func isBlankUTF8(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    if let first = bytes.first, startsNonBlank(first) { return false }
    var iterator = bytes.makeIterator()
    var decoder = UTF8()
    while case .scalarValue(let scalar) = decoder.decode(&iterator) {
      if !isBlankScalar(scalar.value) { return false }
    }
    return true
  }

  /// True when valid UTF-8 starting with `lead` starts with a scalar that is not blank, told
  /// from the lead byte alone: printable ASCII; or a lead byte of scalars none of which is
  /// blank. The blank scalars above ASCII start with C2 (U+0085, U+00A0), E1 (U+1680), E2
  /// (U+2000–U+205F) or E3 (U+3000); every other lead byte (C3–DF, E0, E4–EF: CJK and most
  /// scripts, F0–F4: emoji) starts a scalar that is not blank.
  @inline(__always)
  static func startsNonBlank(_ lead: UInt8) -> Bool {
    switch lead {
    case 0x21..<0x80: true
    case 0xC3...0xE0, 0xE4...0xF4: true
    default: false
    }
  }

  /// A scalar up to U+0020, or one with the White_Space property (Unicode's PropList.txt).
  @inline(__always)
  static func isBlankScalar(_ value: UInt32) -> Bool {
    switch value {
    case 0...0x20, 0x85, 0xA0, 0x1680, 0x2000...0x200A, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000:
      true
    default:
      false
    }
  }
}

extension StringSlice {
  /// True when the first bytes tell that the slice is not blank (`PushText.startsNonBlank`).
  @inline(__always)
  var startsNonBlank: Bool { PushText.startsNonBlank(rawBytes) }

  /// `startsNonBlank` from the first byte alone: inlined where every record asks.
  @inline(__always)
  var leadIsNonBlank: Bool {
    guard let first = rawBytes.first else { return false }
    return first != ASCII.backslash && PushText.startsNonBlank(first)
  }

  /// `PushText.isBlank` of one slice. The usual text starts with a printable ASCII byte that is
  /// not an escape, which settles it at once.
  @inline(__always)
  var isBlank: Bool {
    if rawBytes.isEmpty { return true }
    if leadIsNonBlank { return false }
    if !hasEscapes { return PushText.isBlankUTF8(rawBytes) }
    return Self.isBlankEscaped(rawBytes)
  }

  /// `isBlank` of string content with escapes, read in place up to its first non-blank scalar:
  /// no decoded copy. The content is validated (every escape complete), as `writeCanonical`
  /// requires.
  static func isBlankEscaped(_ content: UnsafeBufferPointer<UInt8>) -> Bool {
    var index = 0
    while index < content.count {
      guard content[index] == ASCII.backslash else {
        var end = index + 1
        while end < content.count && content[end] != ASCII.backslash { end += 1 }
        // Safe because `index < end <= count`.
        guard PushText.isBlankUTF8(UnsafeBufferPointer(rebasing: content[index..<end])) else {
          return false
        }
        index = end
        continue
      }
      // Safe because a validated backslash is followed by its escape letter.
      let letter = content[index + 1]
      index += 2
      switch letter {
      case ASCII.lowerU:
        let scalar = JSONEscapes.decodeUnicodeEscape(content, &index)
        if !PushText.isBlankScalar(scalar) { return false }
      case UInt8(ascii: "b"), UInt8(ascii: "f"), UInt8(ascii: "n"), UInt8(ascii: "r"),
        UInt8(ascii: "t"):
        continue  // U+0008, U+000C, U+000A, U+000D, U+0009: all blank
      default:
        return false  // `\"`, `\\`, `\/`
      }
    }
    return true
  }
}

extension Notice {
  /// `value` when present and not blank: a required title made only of blank scalars counts as
  /// absent (SPEC 9 [4, 6.8]).
  @inline(__always)
  static func presentAndNotBlank(_ value: StringSlice?, memo: TextMemo) -> StringSlice? {
    guard let value, !value.isEmpty else { return nil }
    if value.leadIsNonBlank { return value }
    return memo.isBlank(.slice(value)) ? nil : value
  }

  /// The body of a vendor whose API requires one (huawei, honor, harmony, xiaomi, oppo, vivo,
  /// meizu): `bodyText(titled:)`, or the banner text when that is empty or blank (SPEC 9
  /// [4, 6.8]). The banner then goes under the vendor's caps and budget like any body.
  ///
  /// With the line's `memo`, a text that starts blank is walked once per line, not once per
  /// record (`TextMemo.isBlank`).
  @inline(__always)
  func requiredBody(titled: Bool, memo: TextMemo) -> PushText {
    let text = bodyText(titled: titled)
    // The usual one-slice body is settled here, by its first bytes.
    if case .slice(let slice) = text, slice.leadIsNonBlank { return text }
    return memo.isBlank(text) ? .slice(banner) : text
  }
}
