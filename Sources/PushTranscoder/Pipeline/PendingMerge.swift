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
  public static func vendor(_ id: VendorID) -> any PushVendor { StubVendor() }
}
enum DirectoryLoader {
  static func load(paths: [String], into: inout Directory, options: TranscodeOptions, chunkBytes: Int, output: ChunkOutput) throws {}
}
struct StubVendor: PushVendor {
  var id: VendorID { .apns }
  var recipientsPerRecord: Int { 1 }
  func writeRecordExtras(_ notice: Notice, into writer: inout JSONWriter) {}
  func renderPayload(_ notice: Notice, _ context: RenderContext, part: Int, parts: Int, into writer: inout JSONWriter, effects: inout RenderEffects) -> VendorRefusal? { nil }
}
