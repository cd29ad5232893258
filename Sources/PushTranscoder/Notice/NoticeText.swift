/// The literal texts of push text (SPEC 3.1, 3.2): element placeholders, default titles, the
/// banner, and the punctuation of display prefixes.
///
/// Every text is a `StaticString`, so a placeholder in a notice is a `StringSlice` of the program
/// image: no copy, no allocation. None contains a character that JSON escapes.
package enum NoticeText {
  /// `TIMLocationElem`, Easemob `loc`.
  package static func location(_ locale: PushLocale) -> StringSlice {
    locale == .en ? StringSlice("[Location]") : StringSlice("[位置]")
  }
  /// `TIMFaceElem`.
  package static func face(_ locale: PushLocale) -> StringSlice {
    locale == .en ? StringSlice("[Face]") : StringSlice("[表情]")
  }
  /// `TIMSoundElem`, Easemob `audio`.
  package static func voice(_ locale: PushLocale) -> StringSlice {
    locale == .en ? StringSlice("[Voice]") : StringSlice("[语音]")
  }
  /// `TIMImageElem`, Easemob `img`.
  package static func image(_ locale: PushLocale) -> StringSlice {
    locale == .en ? StringSlice("[Image]") : StringSlice("[图片]")
  }
  /// `TIMFileElem`, Easemob `file`.
  package static func file(_ locale: PushLocale) -> StringSlice {
    locale == .en ? StringSlice("[File]") : StringSlice("[文件]")
  }
  /// `TIMVideoFileElem`, Easemob `video`.
  package static func video(_ locale: PushLocale) -> StringSlice {
    locale == .en ? StringSlice("[Video]") : StringSlice("[视频]")
  }
  /// `TIMRelayElem`.
  package static func chatHistory(_ locale: PushLocale) -> StringSlice {
    locale == .en ? StringSlice("[Chat History]") : StringSlice("[聊天记录]")
  }
  /// Easemob `custom`.
  package static func custom(_ locale: PushLocale) -> StringSlice {
    locale == .en ? StringSlice("[Custom]") : StringSlice("[自定义消息]")
  }
  /// Easemob `--display banner`.
  package static func banner(_ locale: PushLocale) -> StringSlice {
    locale == .en ? StringSlice("You have a new message") : StringSlice("您有一条新消息")
  }
  /// The `--default-title` default.
  package static func defaultTitle(_ locale: PushLocale) -> StringSlice {
    locale == .en ? StringSlice("New message") : StringSlice("新消息")
  }

  static var colon: StringSlice { StringSlice(":") }
  static var openParenthesis: StringSlice { StringSlice("(") }
  static var closeParenthesisColon: StringSlice { StringSlice("):") }

  /// `body` with the Tencent display prefix (SPEC 3.1): `nick:`, `nick(gname):`, `(gname):`;
  /// nil when neither name is known, since the untitled body is then `body` itself (no array
  /// is built). `groupName` is nil for C2C messages. Inlined: most lines know no name, and
  /// for them this is two compares, not a call.
  @inline(__always)
  package static func tencentDisplay(
    _ body: [StringSlice], nickname: StringSlice?, groupName: StringSlice?
  ) -> [StringSlice]? {
    if nickname == nil && groupName == nil { return nil }
    return prefixed(body, nickname: nickname, groupName: groupName)
  }

  /// `tencentDisplay` when at least one name is known.
  private static func prefixed(
    _ body: [StringSlice], nickname: StringSlice?, groupName: StringSlice?
  ) -> [StringSlice] {
    var parts: [StringSlice] = []
    parts.reserveCapacity(body.count + 4)
    if let nickname { parts.append(nickname) }
    if let groupName {
      parts.append(openParenthesis)
      parts.append(groupName)
      parts.append(closeParenthesisColon)
    } else {
      parts.append(colon)
    }
    parts.append(contentsOf: body)
    return parts
  }

  /// `body` with the Easemob `--display summary` prefix `name:` (SPEC 3.2).
  package static func easemobSummary(_ body: [StringSlice], name: StringSlice) -> [StringSlice] {
    var parts: [StringSlice] = []
    parts.reserveCapacity(body.count + 2)
    parts.append(name)
    parts.append(colon)
    parts.append(contentsOf: body)
    return parts
  }
}
