// TEMPORARY: stand-ins for the message stage and vendor registry until their branches merge.
public struct Directory: Sendable { public init() {} }
enum MessageOutcome { case skip(SkipReason), reject(String), notice(Notice) }
struct MessageStage {
  init(options: TranscodeOptions, directory: Directory) {}
  func read(_ document: JSONDocument, original: UnsafeBufferPointer<UInt8>, stats: inout RunStats)
    -> MessageOutcome
  { .reject("message stage not merged yet") }
}
public enum VendorRegistry {
  public static func vendor(_ id: VendorID) -> any PushVendor { fatalError("not merged") }
}
public enum OutputCompression: String, Sendable, CaseIterable {
  case none, gzip, lz4
  var fileSuffix: String { self == .none ? "" : self == .gzip ? ".gz" : ".lz4" }
}
struct OutputCompressor {
  init?(_ c: OutputCompression, level: Int?) throws { return nil }
  mutating func append(_ b: UnsafeBufferPointer<UInt8>, to: inout [UInt8]) throws {}
  mutating func finish(to: inout [UInt8]) throws {}
  static func compressWhole(_ b: [UInt8], _ c: OutputCompression, level: Int?) throws -> [UInt8] { b }
}
enum CRC32Checksum { static func checksum(_ b: [UInt8]) -> UInt32 { 0 } }
enum DirectoryLoader {
  static func load(paths: [String], into: inout Directory, options: TranscodeOptions, chunkBytes: Int, output: ChunkOutput) throws {}
}
final class InputReader: @unchecked Sendable {
  init(paths: [String], chunkBytes: Int, maxLineBytes: Int) throws {}
  var totalBytes: Int? { nil }
  func next() throws -> WorkItem? { nil }
}
