/// `--compress` (SPEC 6.2, 6.3).
package enum OutputCompression: String, Sendable, CaseIterable {
  /// Plain NDJSON, a standard gzip stream, or standard LZ4 frames.
  case none, gzip, lz4

  /// The batch file suffix after `.ndjson`.
  package var fileSuffix: String {
    switch self {
    case .none: ""
    case .gzip: ".gz"
    case .lz4: ".lz4"
    }
  }

  /// The `--level` values accepted (SPEC 6.7): gzip 1–9, each libdeflate's level of the same
  /// number; lz4 1–12, liblz4's fast mode then its HC levels; without compression any level
  /// one of them accepts (lz4's range holds gzip's), which has no effect.
  package var levels: ClosedRange<Int> {
    switch self {
    case .gzip: 1...9
    case .lz4, .none: LZ4FrameCompressor.levels
    }
  }

  /// gzip's default level (zlib's and libdeflate's default).
  package static let gzipDefaultLevel = 6

  /// The level a run compresses at: `given` (`--level`) when there is one, else the codec's
  /// default; nil without compression.
  package func level(given: Int?) -> Int? {
    switch self {
    case .none: nil
    case .gzip: given ?? Self.gzipDefaultLevel
    case .lz4: given ?? LZ4FrameCompressor.defaultLevel
    }
  }
}

/// One compressed output stream (stdout in pipeline mode) behind the gzip / LZ4 compressors.
struct OutputCompressor {
  private enum Engine {
    case gzip(GzipMemberStream)
    case lz4(LZ4FrameCompressor)
  }
  private let engine: Engine

  /// nil for `.none`. `lz4ContentChecksum: false` leaves the LZ4 frame's content checksum out
  /// (batch files, whose content the manifest's CRC-32 covers).
  init?(_ compression: OutputCompression, level: Int?, lz4ContentChecksum: Bool = true) throws {
    guard let level = compression.level(given: level) else { return nil }
    switch compression {
    case .none: return nil
    case .gzip: engine = .gzip(GzipMemberStream(level: level))
    case .lz4:
      engine = .lz4(LZ4FrameCompressor(level: level, contentChecksum: lz4ContentChecksum))
    }
  }

  mutating func append(_ bytes: UnsafeBufferPointer<UInt8>, to output: inout [UInt8]) throws {
    switch engine {
    case .gzip(let stream): stream.append(bytes, to: &output)
    case .lz4(let compressor): compressor.append(UnsafeRawBufferPointer(bytes), to: &output)
    }
  }

  mutating func finish(to output: inout [UInt8]) throws {
    switch engine {
    case .gzip(let stream): stream.finish(to: &output)
    case .lz4(let compressor): compressor.finish(to: &output)
    }
  }
}

/// The compressed stdout stream of `-o - --compress gzip` (SPEC 6.3): a multi-member gzip
/// stream, one member per `memberBytes` of content (the last one shorter), each compressed in
/// one call by libdeflate (`GzipFileCompressor`). Multi-member gzip is standard: `gzip -d`,
/// `zcat` and Python's `gzip` read the members as one stream, and so does this program's input
/// decoder.
///
/// Members are cut by content size alone, never by how the chunks arrive, so the bytes are a
/// function of the content and the level (SPEC 7). libdeflate at the same level compresses the
/// stream's records faster than zlib's streaming deflate at about the same ratio; a member
/// restarts the 32 KiB window once per MiB, which costs little.
final class GzipMemberStream {
  /// The uncompressed bytes of every member but the last.
  static let memberBytes = 1 << 20

  private let compressor: GzipFileCompressor
  /// Content waiting for its member: fewer than `memberBytes` bytes between calls.
  private let pending: UnsafeMutableBufferPointer<UInt8>
  private var pendingCount = 0
  /// Where a member is compressed before it is appended to the caller's output.
  private var member = JSONWriter(capacity: GzipMemberStream.memberBytes / 2)
  private var wroteMember = false

  init(level: Int) {
    compressor = GzipFileCompressor(level: level)
    pending = .allocate(capacity: Self.memberBytes)
  }

  deinit { pending.deallocate() }

  /// Adds `bytes` to the stream, appending every member they complete to `output`.
  func append(_ bytes: UnsafeBufferPointer<UInt8>, to output: inout [UInt8]) {
    guard var source = bytes.baseAddress else { return }
    var remaining = bytes.count
    while remaining > 0 {
      if pendingCount == 0 && remaining >= Self.memberBytes {
        // A whole member straight from the caller's bytes, without the copy.
        emit(UnsafeBufferPointer(start: source, count: Self.memberBytes), to: &output)
        // Safe because `memberBytes <= remaining`: `source` stays within `bytes`.
        source += Self.memberBytes
        remaining -= Self.memberBytes
        continue
      }
      let piece = min(remaining, Self.memberBytes - pendingCount)
      // Safe because `pendingCount + piece <= memberBytes`, the capacity of `pending`, and
      // `piece <= remaining` bytes are readable at `source`.
      (pending.baseAddress! + pendingCount).initialize(from: source, count: piece)
      pendingCount += piece
      source += piece
      remaining -= piece
      if pendingCount == Self.memberBytes {
        emit(UnsafeBufferPointer(start: pending.baseAddress!, count: pendingCount), to: &output)
        pendingCount = 0
      }
    }
  }

  /// Appends the last member (the one holding what is pending; an empty member when the
  /// stream is empty, so that the output is still a gzip file).
  func finish(to output: inout [UInt8]) {
    if pendingCount > 0 || !wroteMember {
      emit(UnsafeBufferPointer(start: pending.baseAddress!, count: pendingCount), to: &output)
      pendingCount = 0
    }
  }

  private func emit(_ content: UnsafeBufferPointer<UInt8>, to output: inout [UInt8]) {
    member.truncate(to: 0)
    _ = compressor.compress(content, into: &member)
    output.append(contentsOf: member.buffer)
    wroteMember = true
  }
}
