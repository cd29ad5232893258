/// Loads `--directory` files (NDJSON, compressed or not) before the run (SPEC 2.4, 9 [6]).
///
/// Bad directory lines become reject records with the directory's path as `source`, written
/// before any message record, and are counted in the stats' `directory` section (not in the
/// message accounting, and not toward `--max-rejects`).
enum DirectoryLoader {
  static func load(
    paths: [String], into directory: inout Directory, options: TranscodeOptions, chunkBytes: Int,
    output: inout ChunkOutput
  ) throws {
    guard !paths.isEmpty else { return }
    let reader = ChunkReader(
      paths: paths, chunkBytes: chunkBytes, maxLineBytes: options.maxLineBytes)
    let replace = options.unicode == .replace
    var tokenizer = JSONTokenizer(replaceLoneSurrogates: replace)
    var repaired: [UInt8] = []
    while let event = try reader.next() {
      switch event {
      case .chunk(let chunk):
        let source = SourceName(chunk.source)
        chunk.forEachLine { line, number in
          output.stats.directoryLines += 1
          if LineProcessor.isBlank(line) { return }
          if line.count > options.maxLineBytes {
            // Safe because line.count > maxLineBytes, so the prefix lies inside the line.
            reject(
              &output, options, source, number, options.maxLineBytes, .lineTooLong,
              "line of \(line.count) bytes is longer than --max-line-bytes",
              UnsafeBufferPointer(rebasing: line[0..<options.maxLineBytes]))
            return
          }
          // `--unicode replace` applies as to message lines ("reported like bad input
          // lines", SPEC 2.4); its replacements count in `unicode_replacements`.
          func ingest(_ bytes: UnsafeBufferPointer<UInt8>) {
            let error = replace ? tokenizer.parseValidatedUTF8(bytes) : tokenizer.parse(bytes)
            if let error {
              let offset = LineProcessor.faultOffset(
                error, parsed: bytes, original: line, unicode: options.unicode,
                replacements: &output.stats.unicodeReplacements)
              reject(
                &output, options, source, number, offset, RejectReason(error.fault),
                error.message, line)
              return
            }
            output.stats.unicodeReplacements += tokenizer.loneSurrogates
            switch tokenizer.withDocument(bytes, { directory.ingest($0) }) {
            case .user, .group:
              output.stats.directoryEntries += 1
            case .reject(_, let detail):
              reject(&output, options, source, number, 0, .notAMessage, detail, line)
            }
          }
          if replace, UTF8Validation.firstInvalidOffset(line) != nil {
            output.stats.unicodeReplacements += UTF8Validation.replacingInvalid(
              line, into: &repaired)
            repaired.withUnsafeBufferPointer { ingest($0) }
          } else {
            ingest(line)
          }
        }
      case .overlongLine(let line):
        output.stats.directoryLines += 1
        line.prefix.withUnsafeBufferPointer { prefix in
          reject(
            &output, options, SourceName(line.source), line.lineNumber, options.maxLineBytes,
            .lineTooLong, "line of \(line.length) bytes is longer than --max-line-bytes", prefix)
        }
      }
    }
  }

  private static func reject(
    _ output: inout ChunkOutput, _ options: TranscodeOptions, _ source: SourceName, _ line: Int,
    _ offset: Int, _ reason: RejectReason, _ detail: String, _ raw: UnsafeBufferPointer<UInt8>
  ) {
    output.stats.directoryRejected[reason.rawValue] += 1
    var writer = JSONWriter(capacity: raw.count + 256)
    if options.rejectsInline && options.framing == .tsv {
      writer.raw("reject\t")
      writer.integer(line)
      writer.byte(ASCII.tab)
    }
    RejectRecord.write(
      source: source, line: line, offset: offset, forVendor: nil, reason: reason, detail: detail,
      raw: raw, into: &writer)
    writer.byte(ASCII.newline)
    if options.rejectsInline {
      output.main.raw(writer.bytes)
    } else {
      output.rejects.raw(writer.bytes)
    }
  }
}
