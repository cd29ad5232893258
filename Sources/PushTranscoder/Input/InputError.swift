/// The container format of one input, detected from its first bytes (SPEC 2.1).
package enum InputFormat: String, Sendable {
  /// Plain text (no recognised compression header).
  case plain
  /// A gzip (or zlib) stream.
  case gzip
  /// One or more LZ4 frames.
  case lz4

  /// Detects the format from the first bytes of a file: `1f 8b` is gzip, `04 22 4d 18` (an LZ4
  /// frame) or `5? 2a 4d 18` (an LZ4 skippable frame) is LZ4, anything else is plain text.
  /// File names are never consulted.
  package static func detect(_ prefix: UnsafeRawBufferPointer) -> InputFormat {
    // Safe because each test checks `prefix.count` before it reads those bytes.
    if prefix.count >= 2 && prefix[0] == 0x1F && prefix[1] == 0x8B { return .gzip }
    if prefix.count >= 4 && prefix[1] == 0x22 && prefix[2] == 0x4D && prefix[3] == 0x18
      && prefix[0] == 0x04
    {
      return .lz4
    }
    if prefix.count >= 4 && prefix[0] & 0xF0 == 0x50 && prefix[1] == 0x2A && prefix[2] == 0x4D
      && prefix[3] == 0x18
    {
      return .lz4
    }
    return .plain
  }
}

/// A fatal input error: the run stops with exit status 1 (SPEC 6.5).
///
/// It says what (`reason`, `detail`), where (`source` as given, `-` for stdin) and how far the
/// run got in that source: `compressedBytes` consumed from the file, `uncompressedBytes`
/// produced by the decoder, and `completeLines` of that source delivered before the fault (a
/// final partial line is never delivered after a truncated or corrupt stream, SPEC 9 [2.1]).
package struct InputError: Error, Sendable, CustomStringConvertible {
  /// Why the input stopped.
  package enum Reason: String, Sendable {
    /// `open(2)` failed (missing file, permissions).
    case cannotOpen = "cannot open"
    /// `read(2)` failed.
    case readFailed = "read failed"
    /// A compressed stream ended in the middle of a member or frame, or a regular file ended
    /// before the size it had when it was opened (it shrank while it was read).
    case truncated = "truncated"
    /// A compressed stream failed to decode (bad header, bad data, checksum mismatch).
    case corrupt = "corrupt"
  }

  /// Why the input stopped.
  package let reason: Reason
  /// The path as given on the command line, `-` for stdin.
  package let source: String
  /// The index of the source in the input list.
  package let sourceIndex: Int
  /// The detected format of the source (`.plain` when it failed before detection).
  package let format: InputFormat
  /// Bytes of the file consumed by the decoder before the fault.
  package let compressedBytes: UInt64
  /// Bytes the decoder produced before the fault (the partial last line included).
  package let uncompressedBytes: UInt64
  /// Complete lines of this source delivered before the fault.
  package let completeLines: Int
  /// Free text from the OS or the decoder (`errno` text, zlib or liblz4 message).
  package let detail: String

  /// Builds an error from its parts (the reader fills them in).
  package init(
    reason: Reason, source: String, sourceIndex: Int, format: InputFormat,
    compressedBytes: UInt64, uncompressedBytes: UInt64, completeLines: Int, detail: String
  ) {
    self.reason = reason
    self.source = source
    self.sourceIndex = sourceIndex
    self.format = format
    self.compressedBytes = compressedBytes
    self.uncompressedBytes = uncompressedBytes
    self.completeLines = completeLines
    self.detail = detail
  }

  /// One line for stderr, e.g. `logs/a.gz: truncated gzip stream after 1200 compressed bytes
  /// (52000 uncompressed, 310 complete lines): unexpected end of file`. A plain input has one
  /// count of bytes: `logs/a.ndjson: read failed after 65536 bytes (310 complete lines): …`, or
  /// `logs/a.ndjson: truncated file after 65536 bytes (310 complete lines): the file shrank
  /// while it was read (1048576 bytes when opened)`.
  package var description: String {
    switch reason {
    case .cannotOpen:
      return "\(source): cannot open: \(detail)"
    case .readFailed, .truncated, .corrupt:
      let what =
        reason == .readFailed
        ? "read failed"
        : format == .plain ? "\(reason.rawValue) file" : "\(reason.rawValue) \(format) stream"
      if format == .plain {
        return "\(source): \(what) after \(uncompressedBytes) bytes "
          + "(\(completeLines) complete lines): \(detail)"
      }
      return "\(source): \(what) after \(compressedBytes) compressed bytes "
        + "(\(uncompressedBytes) uncompressed, \(completeLines) complete lines): \(detail)"
    }
  }
}

/// A decoder's fault before the reader adds the source name and the counts.
struct DecodeFailure: Error {
  let reason: InputError.Reason
  let detail: String
  /// Where the fault is, in compressed bytes, when that is before what the decoder has
  /// consumed: a gzip member or LZ4 frame that fails before any of its output is a fault at its
  /// first byte (bytes after the last member that start none, a damaged header), though the
  /// decoder read a few of its bytes to tell. Nil: the fault is where the decoder stopped.
  var at: UInt64? = nil
}
