/// Loads `--directory` files (NDJSON, compressed or not) before the run (SPEC 2.4, 9 [6]).
///
/// Directory lines pass the same `LineGate` as message lines ("bad directory lines are reported
/// like bad input lines"): bad ones become reject records with the directory's path as `source`,
/// written before any message record, and are counted in the stats' `directory` section (not in
/// the message accounting, and not toward `--max-rejects`). `--unicode replace` applies as to
/// message lines; its replacements count in `unicode_replacements`.
///
/// With `flush`, the rejects leave as the files are read: after a chunk whose rejects bring
/// `output` past `options.segmentBytes`, they go to `flush` (as a segment: `output` keeps the
/// stats), so a directory of millions of bad lines is not held whole until the run starts.
enum DirectoryLoader {
  static func load(
    paths: [String], into directory: inout NameDirectory, options: TranscodeOptions,
    chunkBytes: Int,
    output: inout ChunkOutput,
    flush: ((consuming ChunkOutput) throws -> Void)? = nil
  ) throws {
    guard !paths.isEmpty else { return }
    let reader = ChunkReader(
      paths: paths, chunkBytes: chunkBytes, maxLineBytes: options.maxLineBytes)
    var gate = LineGate(maxLineBytes: options.maxLineBytes, unicode: options.unicode)
    while let event = try reader.next() {
      switch event {
      case .chunk(let chunk):
        let source = SourceName(chunk.source)
        chunk.forEachLine { line, number in
          output.stats.directoryLines += 1
          let verdict = gate.check(line)
          output.stats.unicodeReplacements += gate.replacements
          switch verdict {
          case .blank:
            return
          case .rejected(let fault):
            reject(
              &output, options, source, number, fault.offset, RejectReason(fault.kind),
              fault.detail, fault.raw)
          case .parsed:
            switch gate.withDocument(of: line, { directory.ingest($0) }) {
            case .user, .group:
              output.stats.directoryEntries += 1
            case .reject(_, let detail):
              reject(&output, options, source, number, 0, .notAMessage, detail, line)
            }
          }
        }
        if let flush,
          output.main.count + output.rejects.count >= options.segmentBytes
        {
          try flush(output.takeSegment())
        }
      case .overlongLine(let line):
        output.stats.directoryLines += 1
        line.prefix.withUnsafeBufferPointer { prefix in
          let fault = gate.oversized(prefix: prefix, totalLength: line.length)
          reject(
            &output, options, SourceName(line.source), line.lineNumber, fault.offset,
            RejectReason(fault.kind), fault.detail, fault.raw)
        }
      }
    }
  }

  private static func reject(
    _ output: inout ChunkOutput, _ options: TranscodeOptions, _ source: SourceName, _ line: Int,
    _ offset: Int, _ reason: RejectReason, _ detail: String, _ raw: UnsafeBufferPointer<UInt8>
  ) {
    output.stats.directoryRejected[reason.rawValue] += 1
    output.writeReject(
      source: source, line: line, offset: offset, forVendor: nil, reason: reason, detail: detail,
      raw: raw, inline: options.rejectsInline, framing: options.framing)
  }
}
