/// The options that shape a notice (SPEC 6.7), fixed for the run.
package struct MessageOptions: @unchecked Sendable {
  // Safe because every field is immutable after `init`; the default title's bytes live in an
  // arena owned by this value that is never written again.

  /// `--locale`: the language of placeholders and default texts.
  package enum Locale: Sendable { case en, zh }
  /// `--display` (Easemob only).
  package enum Display: Sendable { case summary, banner }

  /// The `--locale` in force.
  package let locale: Locale
  /// The `--display` in force.
  package let display: Display
  /// `--directory` entries.
  package let directory: Directory
  /// `--default-title`, else `New message` / `新消息`, as canonical JSON string content.
  package let defaultTitle: StringSlice
  private let arena: TextArena

  /// The options of a run; a nil or empty `defaultTitle` means the locale's default.
  package init(
    locale: Locale = .en, display: Display = .summary, defaultTitle: String? = nil,
    directory: Directory = Directory()
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
