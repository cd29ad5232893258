/// `--locale` (SPEC 3): the language of placeholders and default texts.
package enum PushLocale: String, Sendable, CaseIterable { case en, zh }

/// `--display` (SPEC 3.2, Easemob only).
package enum DisplayMode: String, Sendable, CaseIterable { case summary, banner }

/// The options that shape a notice (SPEC 6.7), fixed for the run.
package struct MessageOptions: @unchecked Sendable {
  // Safe because every field is immutable after `init`; the default title's bytes live in an
  // arena owned by this value that is never written again.

  /// The `--locale` in force.
  package let locale: PushLocale
  /// The `--display` in force.
  package let display: DisplayMode
  /// `--directory` entries.
  package let directory: NameDirectory
  /// `--default-title`, else `New message` / `新消息`, as canonical JSON string content.
  package let defaultTitle: StringSlice
  private let arena: TextArena

  /// The options of a run; a nil or empty `defaultTitle` means the locale's default.
  package init(
    locale: PushLocale = .en, display: DisplayMode = .summary, defaultTitle: String? = nil,
    directory: NameDirectory = NameDirectory()
  ) {
    self.locale = locale
    self.display = display
    self.directory = directory
    let arena = TextArena()
    self.arena = arena
    if let defaultTitle, !defaultTitle.isEmpty {
      self.defaultTitle = arena.slice(of: defaultTitle)
    } else {
      self.defaultTitle = NoticeText.defaultTitle(locale)
    }
  }
}
