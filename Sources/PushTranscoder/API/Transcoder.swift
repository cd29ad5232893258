/// Transcodes lines in the calling thread: one line, or a buffer of lines, into the records the
/// command would write for them, in the same order and byte for byte.
///
/// A transcoder reads one source: lines are numbered from 1 in the order they are given, and
/// records name `source`. It keeps scratch buffers between lines (the tokenizer's tape, the
/// record buffer), so it is a class with one owner; use one per thread. No process-wide state
/// is touched.
///
/// ```swift
/// let transcoder = try Transcoder(options: TranscoderOptions(vendors: [Vendor(name: "fcm")!]))
/// for record in transcoder.transcode(line: #"{"To_Account":"bob","MsgBody":[…]}"#) {
///   print(record.text)
/// }
/// ```
public final class Transcoder {
  /// The options every line is transcoded with.
  public let options: TranscoderOptions
  /// The source name records carry (`-` for stdin, as the command names it).
  public let source: String
  /// The number the next line gets.
  public private(set) var nextLineNumber = 1
  /// The reject records of bad `--directory` lines (SPEC 2.4, 9 [6]), in file and line order:
  /// the command writes them before the first message record. Empty without directories.
  public let directoryRejects: [TranscodedRecord]

  private var processor: LineProcessor
  private var output: ChunkOutput
  /// Reads reject records back into `LineReject` values.
  private var rejectReader = JSONTokenizer()

  /// A transcoder for lines of `source`; throws `TranscodeError.invalidOption` when an option
  /// is out of range.
  public convenience init(options: TranscoderOptions = TranscoderOptions(), source: String = "-")
    throws(TranscodeError)
  {
    try self.init(options: options, source: source, directories: [])
  }

  /// A transcoder that also takes sender nicknames and group names from `--directory` files
  /// (NDJSON, gzip or LZ4; SPEC 2.4), loaded in order as the command loads them: its records
  /// are then the command's for `--directory` with the same files. Bad directory lines become
  /// `directoryRejects` and count in the stats' directory section, not as message lines.
  /// Throws `TranscodeError.invalidOption` when an option is out of range, and
  /// `TranscodeError.fatal` when a file cannot be read or is corrupt.
  public init(
    options: TranscoderOptions = TranscoderOptions(), source: String = "-",
    directories: [String]
  ) throws(TranscodeError) {
    var transcodeOptions = try options.transcodeOptions()
    // Rejects travel with the records, in their place, and every payload record's vendor and
    // end is noted: together they split the record buffer into typed records.
    transcodeOptions.rejectsInline = true
    transcodeOptions.collectRecordRefs = true
    var directory = NameDirectory()
    var output = ChunkOutput(sequence: 0, source: SourceName(source))
    do {
      try DirectoryLoader.load(
        paths: directories, into: &directory, options: transcodeOptions,
        chunkBytes: ChunkReader.defaultChunkBytes, output: &output)
    } catch {
      throw .fatal(SinkError.describe(error))
    }
    self.options = options
    self.source = source
    self.processor = LineProcessor(options: transcodeOptions, directory: directory)
    var reader = JSONTokenizer()
    // The directory's output holds reject records only (no payload record, no `RecordRef`).
    self.directoryRejects = Self.records(
      in: output.main.buffer, refs: [], line: nil, tokenizer: &reader)
    output.main.removeAll()
    self.output = output
  }

  /// The counts of every line transcoded so far (SPEC 6.4, 6.8).
  public var stats: TranscodeStats { TranscodeStats(output.stats) }

  /// The records of one line (UTF-8, without its terminator): one payload record per selected
  /// vendor (more when recipients split), or reject records, or none for a blank or skipped
  /// line. A UTF-8 byte-order mark before the first line is skipped, as the command skips one
  /// at the start of each input (SPEC 9 [2.1]).
  public func transcode(line: String) -> [TranscodedRecord] {
    var line = line
    return line.withUTF8 { transcode(line: $0, skippingMark: true) }
  }

  /// The records of one line given as bytes, without its terminator (see `transcode(line:)`
  /// for strings).
  public func transcode(line: [UInt8]) -> [TranscodedRecord] {
    line.withUnsafeBufferPointer { transcode(line: $0, skippingMark: true) }
  }

  /// The records of every line in `lines`, in order: lines end at `\n` (one `\r` before it
  /// belongs to the ending), and the last line may end without one, as in an input file.
  public func transcode(lines: [UInt8]) -> [TranscodedRecord] {
    // A byte-order mark at the start is not a line's content: the command drops it before it
    // counts lines (SPEC 9 [2.1]), so a buffer holding only the mark has no line, and a second
    // mark stays in line 1.
    let atStart = nextLineNumber == 1 && lines.starts(with: Self.byteOrderMark)
    let lines = atStart ? Array(lines.dropFirst(Self.byteOrderMark.count)) : lines
    guard !lines.isEmpty else { return [] }
    let chunk = lines.withUnsafeBytes { bytes in
      // Safe because `bytes` is not empty (checked above), so it has a base address; the
      // chunk takes a copy in memory it owns.
      let memory = SharedPageMemory(bytes: bytes.count)
      memory.memory.copyMemory(from: bytes.baseAddress!, byteCount: bytes.count)
      let newlines = NewlineScan.count(bytes.baseAddress!, bytes.count)
      return LineChunk(
        memory: memory, start: 0, byteCount: bytes.count, sequence: 0, sourceIndex: 0,
        source: source, firstLine: nextLineNumber, sourceOffset: 0,
        lineCount: newlines + (lines.last == ASCII.newline ? 0 : 1),
        maxLineBytes: options.maxLineBytes)
    }
    var records: [TranscodedRecord] = []
    chunk.forEachLine { line, _ in records += transcode(line: line, skippingMark: false) }
    return records
  }

  /// The UTF-8 encoding of U+FEFF.
  private static let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]

  /// Processes one line and splits what it wrote into records; `skippingMark`: a byte-order
  /// mark at the start of line 1 is dropped (a buffer of lines drops it before its lines).
  private func transcode(line: UnsafeBufferPointer<UInt8>, skippingMark: Bool)
    -> [TranscodedRecord]
  {
    let number = nextLineNumber
    nextLineNumber += 1
    var line = line
    if skippingMark, number == 1, line.starts(with: Self.byteOrderMark) {
      // Safe because the line starts with the mark's three bytes.
      line = UnsafeBufferPointer(rebasing: line[3...])
    }
    output.main.removeAll()
    output.refs.removeAll(keepingCapacity: true)
    processor.process(line: line, number: number, into: &output)
    return Self.records(
      in: output.main.buffer, refs: output.refs, line: number, tokenizer: &rejectReader)
  }

  /// The records in `written`: every record is one line of JSON (its strings escape
  /// newlines); a payload record ends where its `RecordRef` says, anything else between is a
  /// reject record. Each names `line`, or, when it is nil, the line its own record names (the
  /// directory's rejects).
  private static func records(
    in written: UnsafeBufferPointer<UInt8>, refs: [RecordRef], line: Int?,
    tokenizer: inout JSONTokenizer
  ) -> [TranscodedRecord] {
    var records: [TranscodedRecord] = []
    var start = 0
    var refIndex = 0
    while start < written.count {
      var end = start
      while end < written.count && written[end] != ASCII.newline { end += 1 }
      // Safe because `start ..< end` lies within the written bytes.
      let record = UnsafeBufferPointer(rebasing: written[start..<end])
      let kind: TranscodedRecord.Kind
      var number = line ?? 0
      if refIndex < refs.count, refs[refIndex].end == end + 1,
        let id = VendorID(rawValue: Int(refs[refIndex].vendor))
      {
        kind = .payload(Vendor(id))
        refIndex += 1
      } else {
        let read = LineReject.read(record: record, tokenizer: &tokenizer)
        kind = .reject(read.reject)
        if line == nil { number = read.line }
      }
      records.append(TranscodedRecord(kind: kind, line: number, json: Array(record)))
      start = end + 1
    }
    return records
  }
}
