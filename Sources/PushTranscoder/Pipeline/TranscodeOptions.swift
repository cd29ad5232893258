/// The options that decide what a line becomes; the output is a pure function of the input and
/// these (SPEC 6.3).
package struct TranscodeOptions: Sendable {
  /// Selected vendors in canonical order.
  package var vendors: [VendorID] = VendorID.allCases
  /// `--locale`: the language of placeholders and default titles.
  package var locale: PushLocale = .en
  /// `--display`: how Easemob push text without a title is shown.
  package var display: DisplayMode = .summary
  /// `--default-title`; nil means `New message` / `新消息` by locale.
  package var defaultTitle: String? = nil
  /// `--unicode`: reject invalid UTF-8 and lone surrogates, or replace them with U+FFFD.
  package var unicode: UnicodeMode = .strict
  /// `--max-line-bytes`: longer lines are rejected as `line-too-long`.
  package var maxLineBytes = 16 * 1024 * 1024
  /// `--framing`: how records are framed on the stream.
  package var framing: OutputFraming = .ndjson
  /// True: reject records travel in the record stream; false: in their own channel.
  package var rejectsInline = true
  /// True for `validate`: check framing, UTF-8 and JSON only.
  package var validateOnly = false
  /// True when the consumer needs per-record vendor and line (batch mode).
  package var collectRecordRefs = false
  /// In a pipeline run, the record bytes a chunk may hold before its records so far go to the
  /// writer as a segment (`OutputSegments`): a message with many recipients can make records
  /// hundreds of times the size of its line. Output bytes do not depend on it.
  package var segmentBytes = 16 << 20

  /// The defaults of SPEC 6.7.
  package init() {}
}
