/// Writes reject records, the one shape used everywhere (stream, `--rejects FILE`,
/// `DIR/rejects.ndjson`, `validate`; SPEC 6.4):
///
/// `{"source","line","offset","vendor":"reject","for"?,"reason","detail","raw"|"raw_base64"}`
///
/// `raw` is the line as a canonical JSON string when it is valid UTF-8, else `raw_base64`.
package enum RejectRecord {
  /// Appends one reject record (without framing or newline).
  package static func write(
    source: SourceName, line: Int, offset: Int, forVendor: VendorID?, reason: RejectReason,
    detail: String, raw: UnsafeBufferPointer<UInt8>, into writer: inout JSONWriter
  ) {
    writer.raw("{\"source\":")
    writer.raw(source.jsonString)
    writer.raw(",\"line\":")
    writer.integer(line)
    writer.raw(",\"offset\":")
    writer.integer(offset)
    writer.raw(",\"vendor\":\"reject\"")
    if let forVendor {
      writer.raw(",\"for\":\"")
      writer.raw(utf8: forVendor.name)
      writer.byte(ASCII.quote)
    }
    writer.raw(",\"reason\":\"")
    writer.raw(utf8: reason.name)
    writer.raw("\",\"detail\":")
    writer.string(decoded: Array(detail.utf8))
    if UTF8Validation.firstInvalidOffset(raw) == nil {
      writer.raw(",\"raw\":\"")
      writer.escapedContent(raw)
      writer.byte(ASCII.quote)
    } else {
      writer.raw(",\"raw_base64\":\"")
      Base64.append(raw, to: &writer)
      writer.byte(ASCII.quote)
    }
    writer.byte(ASCII.closeBrace)
  }
}

/// The display name of an input (the path as given, `-` for stdin), pre-escaped once per run.
package struct SourceName: Sendable, Hashable {
  /// The path as given on the command line, or `-`.
  package let path: String
  /// `path` as a canonical JSON string, quotes included.
  package let jsonString: [UInt8]

  /// The source name of `path` (`-` for stdin).
  package init(_ path: String) {
    self.path = path
    var writer = JSONWriter(capacity: path.utf8.count + 2)
    writer.string(decoded: Array(path.utf8))
    self.jsonString = writer.bytes
  }
}

/// Standard base64 (RFC 4648, with padding) for `raw_base64`.
package enum Base64 {
  /// Appends the base64 text of `input` to `output`.
  package static func append<Output: ByteOutput & ~Copyable>(
    _ input: UnsafeBufferPointer<UInt8>, to output: inout Output
  ) {
    let alphabet: StaticString = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
    let table = alphabet.utf8Start
    var index = 0
    let count = input.count
    // Safe because `index + 3 <= count` (and below, `rest` bytes remain) bounds every read of
    // `input`, and `& 63` keeps every table index below the alphabet's 64 bytes.
    while index + 3 <= count {
      let value =
        UInt32(input[index]) << 16 | UInt32(input[index + 1]) << 8 | UInt32(input[index + 2])
      output.appendByte(table[Int(value >> 18 & 63)])
      output.appendByte(table[Int(value >> 12 & 63)])
      output.appendByte(table[Int(value >> 6 & 63)])
      output.appendByte(table[Int(value & 63)])
      index += 3
    }
    let rest = count - index
    if rest == 1 {
      let value = UInt32(input[index]) << 16
      output.appendByte(table[Int(value >> 18 & 63)])
      output.appendByte(table[Int(value >> 12 & 63)])
      output.appendByte(0x3D)
      output.appendByte(0x3D)
    } else if rest == 2 {
      let value = UInt32(input[index]) << 16 | UInt32(input[index + 1]) << 8
      output.appendByte(table[Int(value >> 18 & 63)])
      output.appendByte(table[Int(value >> 12 & 63)])
      output.appendByte(table[Int(value >> 6 & 63)])
      output.appendByte(0x3D)
    }
  }
}

extension ChunkOutput {
  /// Appends one reject record where the run puts rejects: framed in the record stream
  /// (`rejectsInline`, with the TSV columns under `--framing tsv`) or in `rejects`, one per line.
  /// Message and directory lines, and vendor refusals, all go through here; `source` is the
  /// output's own unless given (a directory file's lines name that file).
  package mutating func writeReject(
    source: SourceName? = nil, line: Int, offset: Int, forVendor: VendorID?, reason: RejectReason,
    detail: String,
    raw: UnsafeBufferPointer<UInt8>, inline: Bool, framing: OutputFraming
  ) {
    let source = source ?? self.source
    if inline {
      if framing == .tsv {
        main.raw("reject\t")
        main.integer(line)
        main.byte(ASCII.tab)
      }
      RejectRecord.write(
        source: source, line: line, offset: offset, forVendor: forVendor, reason: reason,
        detail: detail, raw: raw, into: &main)
      main.byte(ASCII.newline)
    } else {
      RejectRecord.write(
        source: source, line: line, offset: offset, forVendor: forVendor, reason: reason,
        detail: detail, raw: raw, into: &rejects)
      rejects.byte(ASCII.newline)
    }
  }
}
