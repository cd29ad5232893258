/// How records are framed on the stream (SPEC 6.3).
package enum OutputFraming: String, Sendable, CaseIterable {
  /// One record per line.
  case ndjson
  /// `vendor<TAB>line<TAB>record-json` per line, for Spark `TRANSFORM`, Hadoop Streaming, awk.
  case tsv
}

/// The framing of a payload record's head (SPEC 6.3): `{"source":…,"line":N,"key":…,"vendor":"`,
/// the line number, and `,"to":[…]` with every recipient are the same for every vendor of a
/// line, so they are rendered once per line (`prepare`) and copied into each record (`write`).
struct RecordHead: ~Copyable {
  private var scratch = JSONWriter(capacity: 4096)
  private var prefixEnd = 0
  private var numberEnd = 0
  private var recipientsEnd = 0
  private var hasSharedTail = false
  private var keysStart = 0

  /// Renders the shared parts for one line (valid until the next `prepare`).
  @inline(__always)
  mutating func prepare(
    _ notice: Notice, _ document: JSONDocument, source: SourceName, number: Int
  ) {
    scratch.removeAll()
    scratch.raw("{\"source\":")
    scratch.raw(source.jsonString)
    scratch.raw(",\"line\":")
    let digitsStart = scratch.count
    scratch.integer(number)
    let digitsEnd = scratch.count
    scratch.raw(",\"key\":")
    if let key = notice.key { scratch.string(key) } else { scratch.raw("null") }
    scratch.raw(",\"vendor\":\"")
    prefixEnd = scratch.count
    // The number again, for TSV framing: copied, not formatted twice.
    appendCopy(of: digitsStart..<digitsEnd)
    numberEnd = scratch.count
    scratch.raw(",\"to\":[")
    for (index, recipient) in notice.recipients.enumerated() {
      if index > 0 { scratch.byte(ASCII.comma) }
      scratch.string(recipient)
    }
    scratch.byte(ASCII.closeBracket)
    recipientsEnd = scratch.count
    // The shared tail: what follows the vendor name in every single-part record without
    // vendor extras, as `write` would write it. Several groups make one record each,
    // each with its own group: no shared tail.
    hasSharedTail = notice.groups.count <= 1
    if hasSharedTail {
      scratch.byte(ASCII.quote)
      if let group = notice.groups.first {
        scratch.raw(",\"group\":")
        scratch.string(group)
      } else {
        appendCopy(of: numberEnd..<recipientsEnd)
      }
    }
    // The last keys, rendered once per line (the template can be large: one canonical copy,
    // then a `memcpy` per record, not one canonical walk per vendor).
    keysStart = scratch.count
    Self.writeKeysBeforePayload(notice, document, into: &scratch)
  }

  /// Appends a copy of `range` of the bytes already written to `scratch`.
  private mutating func appendCopy(of range: Range<Int>) {
    precondition(range.lowerBound >= 0 && range.upperBound <= scratch.count)
    // Safe because `reserve` makes room first (it may move the buffer, so the source is taken
    // after it; the append then has room and moves nothing), and `range` lies inside the
    // written bytes, before the room it made. The copies are short (the line number, the
    // recipients): `rawHeadPart`'s inline moves, not a call to memmove.
    _ = scratch.reserve(range.count)
    scratch.rawHeadPart(UnsafeBufferPointer(rebasing: scratch.buffer[range]))
  }

  /// `force`, `template` and `,"payload":`, the last keys of every record head.
  static func writeKeysBeforePayload(
    _ notice: Notice, _ document: JSONDocument, into writer: inout JSONWriter
  ) {
    if notice.force { writer.raw(",\"force\":true") }
    if let template = notice.template {
      // The template is a JSON value of the line, passed through in canonical form.
      writer.raw(",\"template\":")
      writer.value(document, template)
    }
    writer.raw(",\"payload\":")
  }

  /// The parts `prepare` rendered, for the records of the line: valid until the next
  /// `prepare`, which rewrites them.
  var parts: Parts {
    // Safe because `prepare` sets `prefixEnd <= numberEnd <= recipientsEnd <= keysStart <=
    // scratch.count`, and only it writes `scratch`, so these slices lie within the written
    // bytes.
    let bytes = scratch.buffer
    return Parts(
      prefix: UnsafeBufferPointer(rebasing: bytes[..<prefixEnd]),
      number: UnsafeBufferPointer(rebasing: bytes[prefixEnd..<numberEnd]),
      recipients: UnsafeBufferPointer(rebasing: bytes[numberEnd..<recipientsEnd]),
      lastKeys: UnsafeBufferPointer(rebasing: bytes[keysStart...]),
      sharedTail: hasSharedTail ? UnsafeBufferPointer(rebasing: bytes[recipientsEnd...]) : nil)
  }

  /// A line's rendered head parts, borrowed from the `RecordHead` that prepared them (a view,
  /// so the record writers hold it without holding the head).
  struct Parts {
    /// Everything before the vendor name.
    let prefix: UnsafeBufferPointer<UInt8>
    /// The line number in decimal (TSV framing).
    let number: UnsafeBufferPointer<UInt8>
    /// `,"to":[…]` with every recipient.
    let recipients: UnsafeBufferPointer<UInt8>
    /// `force`, `template` and `,"payload":`, the last keys of every record head.
    let lastKeys: UnsafeBufferPointer<UInt8>
    /// What follows the vendor name in a single-part record without vendor extras: `"`, the
    /// recipients or the group, `force`, `template` and `,"payload":`; nil with several groups.
    let sharedTail: UnsafeBufferPointer<UInt8>?

    /// Writes the head of record `part` of `vendor` for the prepared line, up to and including
    /// `,"payload":`: the TSV columns under `--framing tsv`, the prefix, the vendor's name, the
    /// record's recipients (`perRecord` of them per part) or group, the vendor's extras, and the
    /// last keys.
    func write<Vendor: PushVendor>(
      _ notice: Notice, _ document: JSONDocument, vendor: Vendor, part: Int, perRecord: Int,
      framing: OutputFraming, into writer: inout JSONWriter
    ) {
      if framing == .tsv {
        writer.raw(Vendor.name)
        writer.byte(ASCII.tab)
        writer.raw(number)
        writer.byte(ASCII.tab)
      }
      writer.raw(prefix)
      writer.raw(Vendor.name)
      writer.byte(ASCII.quote)
      if notice.groups.isEmpty {
        if perRecord >= notice.recipients.count {
          writer.raw(recipients)
        } else {
          writer.raw(",\"to\":[")
          let first = (part - 1) * perRecord
          let last = min(notice.recipients.count, first + perRecord)
          for index in first..<last {
            if index > first { writer.byte(ASCII.comma) }
            writer.string(notice.recipients[index])
          }
          writer.byte(ASCII.closeBracket)
        }
      } else {
        writer.raw(",\"group\":")
        writer.string(notice.groups[part - 1])
      }
      vendor.writeRecordExtras(notice, into: &writer)
      writer.raw(lastKeys)
    }
  }
}
