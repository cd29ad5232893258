/// The options that decide what a line becomes (SPEC 6.7); the output is a pure function of
/// the input and these.
///
/// The defaults are the command's: every vendor, English, the summary display, strict
/// Unicode, lines of at most 16 MiB.
public struct TranscoderOptions: Sendable, Equatable {
  /// The language of placeholders (`[Image]` / `[图片]`) and of the default title.
  public enum Locale: String, Sendable, CaseIterable {
    /// English (`--locale en`).
    case en
    /// Chinese (`--locale zh`).
    case zh
  }

  /// How an Easemob push text without a title is shown (`--display`, SPEC 3.2).
  public enum Display: String, Sendable, CaseIterable {
    /// `nick:text`.
    case summary
    /// The nickname as title, the text as body.
    case banner
  }

  /// What happens to invalid UTF-8 and lone surrogate escapes (`--unicode`, SPEC 2.2).
  public enum UnicodeHandling: String, Sendable, CaseIterable {
    /// The line is rejected (`invalid-unicode`).
    case strict
    /// Each is replaced with U+FFFD and counted in the stats.
    case replace
  }

  /// The vendors to write payloads for; records follow canonical order whatever the order
  /// here, and a vendor listed twice counts once.
  public var vendors: [Vendor] = Vendor.all
  /// `--locale`: the language of placeholders and default titles.
  public var locale: Locale = .en
  /// `--display`: how Easemob push text without a title is shown.
  public var display: Display = .summary
  /// `--default-title`: the title of vendors that require one when nothing else gives it; nil
  /// is `New message` / `新消息` by locale.
  public var defaultTitle: String? = nil
  /// `--unicode`: reject or replace invalid UTF-8 and lone surrogates.
  public var unicode: UnicodeHandling = .strict
  /// `--max-line-bytes`: longer lines are rejected as `line-too-long` (at least 1).
  public var maxLineBytes = 16 * 1024 * 1024

  /// The defaults of SPEC 6.7.
  public init() {}

  /// The defaults, with the vendors given (the usual change).
  public init(vendors: [Vendor]) {
    self.vendors = vendors
  }

  /// The package's options for the same choices; throws when a value is out of range.
  func transcodeOptions() throws(TranscodeError) -> TranscodeOptions {
    guard !vendors.isEmpty else { throw .invalidOption("no vendor selected") }
    guard maxLineBytes >= 1 else {
      throw .invalidOption("maxLineBytes must be at least 1")
    }
    var options = TranscodeOptions()
    options.vendors = Set(vendors.map(\.id)).sorted()
    options.locale = locale == .en ? .en : .zh
    options.display = display == .summary ? .summary : .banner
    options.defaultTitle = defaultTitle
    options.unicode = unicode == .strict ? .strict : .replace
    options.maxLineBytes = maxLineBytes
    return options
  }
}
