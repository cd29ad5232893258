/// How records are framed on the stream (SPEC 6.3).
public enum OutputFraming: String, Sendable, CaseIterable {
  /// One record per line.
  case ndjson
  /// `vendor<TAB>line<TAB>record-json` per line, for Spark `TRANSFORM`, Hadoop Streaming, awk.
  case tsv
}

/// `--locale` (SPEC 3).
public enum PushLocale: String, Sendable, CaseIterable { case en, zh }

/// `--display` (SPEC 3.2, Easemob only).
public enum DisplayMode: String, Sendable, CaseIterable { case summary, banner }

/// `--unicode` (SPEC 2.2).
public enum UnicodeMode: String, Sendable, CaseIterable { case strict, replace }

/// The options that decide what a line becomes; the output is a pure function of the input and
/// these (SPEC 6.3).
public struct TranscodeOptions: Sendable {
  /// Selected vendors in canonical order.
  public var vendors: [VendorID] = VendorID.allCases
  /// `--locale`: the language of placeholders and default titles.
  public var locale: PushLocale = .en
  /// `--display`: how Easemob push text without a title is shown.
  public var display: DisplayMode = .summary
  /// `--default-title`; nil means `New message` / `新消息` by locale.
  public var defaultTitle: String? = nil
  /// `--unicode`: reject invalid UTF-8 and lone surrogates, or replace them with U+FFFD.
  public var unicode: UnicodeMode = .strict
  /// `--max-line-bytes`: longer lines are rejected as `line-too-long`.
  public var maxLineBytes = 16 * 1024 * 1024
  /// `--framing`: how records are framed on the stream.
  public var framing: OutputFraming = .ndjson
  /// True: reject records travel in the record stream; false: in their own channel.
  public var rejectsInline = true
  /// True for `validate`: check framing, UTF-8 and JSON only.
  public var validateOnly = false
  /// True when the consumer needs per-record vendor and line (batch mode).
  public var collectRecordRefs = false

  /// The defaults of SPEC 6.7.
  public init() {}
}
