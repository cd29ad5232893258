/// One record a line produced: a vendor's payload record (SPEC 6.1) or a reject record (6.4),
/// as the command writes it, without the newline.
///
/// The bytes are the product; `kind` says what they are without parsing them again.
public struct TranscodedRecord: Sendable, Hashable {
  /// What a record is.
  public enum Kind: Sendable, Hashable {
    /// A payload record for this vendor.
    case payload(Vendor)
    /// A reject record: the whole line, or one vendor's refusal of it.
    case reject(LineReject)
  }

  /// A payload for a vendor, or a reject.
  public let kind: Kind
  /// The 1-based number of the line within its source.
  public let line: Int
  /// The record's JSON text (UTF-8), exactly as the command writes it, without the newline.
  public let json: [UInt8]

  /// `json` as a string.
  public var text: String { String(decoding: json, as: UTF8.self) }
}

/// Why a line, or one vendor's rendering of it, was rejected (SPEC 6.4): the fields of the
/// reject record a program acts on.
public struct LineReject: Sendable, Hashable {
  /// The reason, as records and stats name it: `syntax`, `invalid-unicode`, `too-deep`,
  /// `line-too-long`, `not-a-message`, `over-budget`, `missing-timestamp`.
  public let reason: String
  /// The vendor that refused the message (`"for"`), or nil when the whole line was rejected.
  public let vendor: Vendor?
  /// Free text for people (for `not-a-message`, the JSON path of the faulty field).
  public let detail: String
  /// The 0-based byte offset of the fault within the line as read (0 when the fault is not at
  /// a byte).
  public let offset: Int

  /// A reject with these fields (to compare with, in a program's tests).
  public init(reason: String, vendor: Vendor?, detail: String, offset: Int) {
    self.reason = reason
    self.vendor = vendor
    self.detail = detail
    self.offset = offset
  }
}

extension LineReject {
  /// The reject's fields and the `line` it names (0 if none), read back from the record the
  /// pipeline wrote, in one parse: the record is the one source of truth, so the library does
  /// not keep a second account of rejects.
  static func read(record: UnsafeBufferPointer<UInt8>, tokenizer: inout JSONTokenizer)
    -> (reject: LineReject, line: Int)
  {
    var reason = ""
    var vendor: Vendor? = nil
    var detail = ""
    var offset = 0
    var line = 0
    func integer(_ document: JSONDocument, _ index: Int) -> Int {
      Int(String(decoding: document.lexeme(index), as: UTF8.self)) ?? 0
    }
    if tokenizer.parse(record) == nil {
      tokenizer.withDocument(record) { document in
        let root = document.root
        if let index = document.member(root, "reason") {
          reason = document.string(index).decodedString()
        }
        if let index = document.member(root, "for") {
          vendor = Vendor(name: document.string(index).decodedString())
        }
        if let index = document.member(root, "detail") {
          detail = document.string(index).decodedString()
        }
        if let index = document.member(root, "offset") { offset = integer(document, index) }
        if let index = document.member(root, "line") { line = integer(document, index) }
      }
    }
    return (LineReject(reason: reason, vendor: vendor, detail: detail, offset: offset), line)
  }
}
