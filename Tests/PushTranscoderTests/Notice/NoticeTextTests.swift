import Testing

@testable import PushTranscoder

@Suite struct NoticeTextTests {
  private let body = [StringSlice("a"), StringSlice("[Image]")]

  @Test func tencentDisplayForms() {
    let nick = StringSlice("Nick")
    let group = StringSlice("Team")
    #expect(
      text(NoticeText.tencentDisplay(body, nickname: nick, groupName: nil) ?? []) == "Nick:a[Image]"
    )
    #expect(
      text(NoticeText.tencentDisplay(body, nickname: nick, groupName: group) ?? [])
        == "Nick(Team):a[Image]")
    #expect(
      text(NoticeText.tencentDisplay(body, nickname: nil, groupName: group) ?? [])
        == "(Team):a[Image]")
    // No name: no prefix, and no array (the untitled body is the body itself).
    #expect(
      text(NoticeText.tencentDisplay(body, nickname: nil, groupName: nil) ?? body) == "a[Image]")
    #expect(NoticeText.tencentDisplay(body, nickname: nil, groupName: nil) == nil)
  }

  @Test func easemobSummary() {
    #expect(text(NoticeText.easemobSummary(body, name: StringSlice("u1"))) == "u1:a[Image]")
  }

  @Test func literalsNeedNoEscaping() {
    for locale in [PushLocale.en, .zh] {
      let all = [
        NoticeText.location(locale), NoticeText.face(locale), NoticeText.voice(locale),
        NoticeText.image(locale), NoticeText.file(locale), NoticeText.video(locale),
        NoticeText.chatHistory(locale), NoticeText.custom(locale), NoticeText.banner(locale),
        NoticeText.defaultTitle(locale),
      ]
      for slice in all {
        #expect(!slice.hasEscapes)
        #expect(JSONWriter.canonicalLength(slice) == slice.count)
      }
    }
    #expect(NoticeText.banner(.zh).decodedString() == "您有一条新消息")
    #expect(NoticeText.defaultTitle(.en).decodedString() == "New message")
  }

  @Test func defaultTitleOptionIsStoredCanonically() {
    let plain = MessageOptions(defaultTitle: "Hello")
    #expect(!plain.defaultTitle.hasEscapes)
    #expect(plain.defaultTitle.decodedString() == "Hello")
    let escaped = MessageOptions(defaultTitle: "a\"b\n")
    #expect(escaped.defaultTitle.hasEscapes)
    #expect(String(decoding: escaped.defaultTitle.rawBytes, as: UTF8.self) == #"a\"b\n"#)
    #expect(escaped.defaultTitle.decodedString() == "a\"b\n")
    #expect(MessageOptions(defaultTitle: "").defaultTitle.decodedString() == "New message")
    #expect(MessageOptions(locale: .zh).defaultTitle.decodedString() == "新消息")
  }
}
