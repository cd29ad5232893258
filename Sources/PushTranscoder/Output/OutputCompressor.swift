/// `--compress` (SPEC 6.2, 6.3).
public enum OutputCompression: String, Sendable, CaseIterable {
  /// Plain NDJSON, a standard gzip stream, or standard LZ4 frames.
  case none, gzip, lz4

  /// The batch file suffix after `.ndjson`.
  public var fileSuffix: String {
    switch self {
    case .none: ""
    case .gzip: ".gz"
    case .lz4: ".lz4"
    }
  }

  /// The level a run compresses at: `given` (`--level`) when there is one, else the codec's
  /// default; nil without compression.
  public func level(given: Int?) -> Int? {
    switch self {
    case .none: nil
    case .gzip: given ?? GzipCompressor.defaultLevel
    case .lz4: given ?? LZ4FrameCompressor.defaultLevel
    }
  }
}

/// One compressed output stream (stdout in pipeline mode) behind the gzip / LZ4 compressors.
struct OutputCompressor {
  private enum Engine {
    case gzip(GzipCompressor)
    case lz4(LZ4FrameCompressor)
  }
  private let engine: Engine

  /// nil for `.none`.
  init?(_ compression: OutputCompression, level: Int?) throws {
    guard let level = compression.level(given: level) else { return nil }
    switch compression {
    case .none: return nil
    case .gzip: engine = .gzip(GzipCompressor(level: level))
    case .lz4: engine = .lz4(LZ4FrameCompressor(level: level))
    }
  }

  mutating func append(_ bytes: UnsafeBufferPointer<UInt8>, to output: inout [UInt8]) throws {
    switch engine {
    case .gzip(let compressor): compressor.append(UnsafeRawBufferPointer(bytes), to: &output)
    case .lz4(let compressor): compressor.append(UnsafeRawBufferPointer(bytes), to: &output)
    }
  }

  mutating func finish(to output: inout [UInt8]) throws {
    switch engine {
    case .gzip(let compressor): compressor.finish(to: &output)
    case .lz4(let compressor): compressor.finish(to: &output)
    }
  }
}
