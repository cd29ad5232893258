// The libFuzzer target for the JSON tokenizer and the whole line pipeline. Build and run:
//
//   swift build -c release --product push-transcode-fuzz --sanitize fuzzer \
//     -Xswiftc -sanitize=fuzzer,address --scratch-path .build-fuzz
//   .build-fuzz/release/push-transcode-fuzz Corpus/fuzz-seeds -max_total_time=600
//
// (`make fuzz` does both.) Naming the product matters: with `--sanitize fuzzer` libFuzzer
// supplies `main`, and SwiftPM compiles this file with `-parse-as-library`, so it must not hold
// top-level code. A normal `swift build` compiles it as an ordinary `main.swift`: there it is an
// empty program whose only symbol is the unused entry point below.
//
// Per input the target checks, beyond "no crash, no sanitizer report":
// - strict parse: a fault's offset lies inside the line; UTF-8 validation agrees with the
//   standard library's validating decoder; an accepted line's tape is well formed, its
//   canonical re-writing parses again, and re-writing that is a fixed point;
// - replace mode: `replacingInvalid` yields valid UTF-8 (the input itself when it was valid,
//   with no replacement), the replace-mode parse accepts every line the strict parse accepts,
//   and what it accepts re-writes to canonical JSON that parses strictly;
// - the whole line pipeline (`LineProcessor`, all nine vendors; once with the defaults, once
//   with `--unicode replace --locale zh --display banner`): the line ends in exactly one of
//   blank / transcoded / skipped / rejected (SPEC 6.4), and every record it writes, payloads
//   and reject records alike, is one line of JSON that parses strictly;
// - TSV framing against NDJSON (the defaults again, with `--framing tsv`): each row is the
//   NDJSON record it stands for, after its vendor and line columns (SPEC 6.3);
// - the vivo line hash over many lines at once (`FNV1a.hashes`, the AVX-512 kernel where the
//   CPU has it, and the scalar lanes): 40 suffixes of the input and its newline-separated
//   lines, each hash equal to the one-line hash; the input is exactly its own allocation, so
//   AddressSanitizer reports any read past a line's end.

import PushTranscoder

/// The line processors the pipeline check runs, made once (each holds reusable scratch state).
/// Safe because libFuzzer calls the entry point from one thread only.
nonisolated(unsafe) private var defaultProcessor = LineProcessor(
  options: TranscodeOptions(), directory: NameDirectory())
nonisolated(unsafe) private var replacingProcessor: LineProcessor = {
  var replacing = TranscodeOptions()
  replacing.unicode = .replace
  replacing.locale = .zh
  replacing.display = .banner
  return LineProcessor(options: replacing, directory: NameDirectory())
}()

nonisolated(unsafe) private var tsvProcessor: LineProcessor = {
  var tsv = TranscodeOptions()
  tsv.framing = .tsv
  return LineProcessor(options: tsv, directory: NameDirectory())
}()

/// The lines of `buffer` (each without its newline); the buffer must end with one.
private func lines(_ buffer: UnsafeBufferPointer<UInt8>) -> [UnsafeBufferPointer<UInt8>] {
  var found: [UnsafeBufferPointer<UInt8>] = []
  var start = 0
  for (offset, byte) in buffer.enumerated() where byte == 0x0A {
    found.append(UnsafeBufferPointer(rebasing: buffer[start..<offset]))
    start = offset + 1
  }
  precondition(start == buffer.count, "output does not end with a newline")
  return found
}

/// Runs one line through the NDJSON and the TSV processors: the TSV output holds the same
/// records, each row `vendor<TAB>1<TAB>record` where the record is framed (reject records in
/// a file of their own stay NDJSON).
private func checkTSV(_ input: UnsafeBufferPointer<UInt8>) {
  var ndjson = ChunkOutput(sequence: 0, source: SourceName("fuzz"))
  var tsv = ChunkOutput(sequence: 0, source: SourceName("fuzz"))
  defaultProcessor.process(line: input, number: 1, into: &ndjson)
  tsvProcessor.process(line: input, number: 1, into: &tsv)
  for (plain, framed) in [
    (ndjson.main.buffer, tsv.main.buffer), (ndjson.rejects.buffer, tsv.rejects.buffer),
  ] {
    let records = lines(plain)
    let rows = lines(framed)
    precondition(records.count == rows.count, "TSV and NDJSON hold different record counts")
    for (record, row) in zip(records, rows) {
      if row.elementsEqual(record) { continue }
      precondition(row.count > record.count && row.suffix(record.count).elementsEqual(record))
      let columns = row.prefix(row.count - record.count)
      let tab = UInt8(ascii: "\t")
      precondition(
        columns.last == tab && columns.dropLast().suffix(2).elementsEqual([tab, UInt8(ascii: "1")])
          && !columns.dropLast(3).isEmpty && !columns.dropLast(3).contains(tab),
        "a TSV row is not vendor<TAB>line<TAB>record")
    }
  }
}

/// Runs one line through `processor` and checks what it wrote: exactly one outcome, and
/// records and rejects that are valid JSON lines.
private func checkPipeline(_ processor: inout LineProcessor, _ input: UnsafeBufferPointer<UInt8>) {
  var output = ChunkOutput(sequence: 0, source: SourceName("fuzz"))
  processor.process(line: input, number: 1, into: &output)
  let stats = output.stats
  let outcomes =
    stats.blank + stats.transcoded + stats.skippedLines + stats.rejectedLines
  precondition(stats.lines == 1 && outcomes == 1, "a line must end in exactly one outcome")
  var records = JSONTokenizer()
  for buffer in [output.main.buffer, output.rejects.buffer] {
    var start = 0
    for (offset, byte) in buffer.enumerated() where byte == 0x0A {
      let record = UnsafeBufferPointer(rebasing: buffer[start..<offset])
      precondition(records.parse(record) == nil, "a record is not valid JSON")
      start = offset + 1
    }
    precondition(start == buffer.count, "output does not end with a newline")
  }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func pushTranscodeFuzzTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  /// Checks the tape of an accepted line and returns its canonical re-writing.
  func canonicalRewrite(
    _ tokenizer: JSONTokenizer, _ bytes: UnsafeBufferPointer<UInt8>
  ) -> [UInt8] {
    let tokens = tokenizer.tokens
    precondition(!tokens.isEmpty && tokens[0].next == UInt32(tokens.count), "root spans tape")
    for (index, token) in tokens.enumerated() {
      precondition(Int(token.next) > index && Int(token.next) <= tokens.count, "bad next link")
      precondition(token.start <= token.end && Int(token.end) <= bytes.count, "bad range")
      if token.kind != .object && token.kind != .array {
        precondition(Int(token.next) == index + 1, "scalar with children")
      }
    }
    var writer = JSONWriter(capacity: bytes.count * 2 + 16)
    tokenizer.withDocument(bytes) { writer.value($0, $0.root) }
    return writer.bytes
  }

  /// Parses canonical output strictly; it must be accepted and re-write to itself.
  func checkCanonical(_ output: [UInt8]) {
    var again = JSONTokenizer()
    output.withUnsafeBufferPointer { buffer in
      let error = again.parse(buffer)
      precondition(error == nil, "canonical output rejected: \(String(describing: error))")
      let second = canonicalRewrite(again, buffer)
      precondition(second == output, "canonical re-writing is not a fixed point")
    }
  }

  let input = UnsafeBufferPointer(start: data, count: data == nil ? 0 : size)

  // Strict mode.
  let firstInvalid = UTF8Validation.firstInvalidOffset(input)
  let standardLibraryValid = String(validating: input, as: UTF8.self) != nil
  precondition((firstInvalid == nil) == standardLibraryValid, "UTF-8 validation disagrees")
  var strict = JSONTokenizer()
  let strictError = strict.parse(input)
  if let error = strictError {
    precondition(error.offset >= 0 && error.offset <= input.count, "fault offset out of range")
    if let firstInvalid {
      precondition(error.fault == .invalidUnicode && error.offset == firstInvalid, "precedence")
    }
  } else {
    checkCanonical(canonicalRewrite(strict, input))
  }

  // Replace mode (`--unicode replace`).
  var repaired: [UInt8] = []
  let replacements = UTF8Validation.replacingInvalid(input, into: &repaired)
  precondition((replacements == 0) == (firstInvalid == nil), "replacement count")
  var replace = JSONTokenizer(replaceLoneSurrogates: true)
  repaired.withUnsafeBufferPointer { buffer in
    precondition(UTF8Validation.firstInvalidOffset(buffer) == nil, "repair left bad UTF-8")
    if replacements == 0 {
      precondition(buffer.elementsEqual(input), "repair changed valid input")
    }
    let replaceError = replace.parse(buffer)
    if strictError == nil {
      precondition(replaceError == nil, "replace mode rejected a strictly valid line")
    }
    if replaceError == nil {
      checkCanonical(canonicalRewrite(replace, buffer))
      // The textual count of unpaired surrogate escapes (used for rejected lines) agrees with
      // the tokenizer's on every line it accepts.
      precondition(
        JSONEscapes.unpairedSurrogateEscapes(in: buffer) == replace.loneSurrogates,
        "surrogate escape counts disagree")
    }
    // Offsets in the repaired line map back into the line as read, in order, onto its ends.
    let mappedEnd = UTF8Validation.originalOffset(ofRepairedOffset: buffer.count, in: input)
    precondition(mappedEnd == input.count, "repaired end maps to the input's end")
    if let error = replaceError {
      let mapped = UTF8Validation.originalOffset(ofRepairedOffset: error.offset, in: input)
      precondition(mapped >= 0 && mapped <= input.count, "mapped fault offset out of range")
      if replacements == 0 { precondition(mapped == error.offset, "offset moved without repair") }
    }
  }

  // The line hash over many lines: suffixes of every length class, then the input's lines.
  var manyLines = (0..<40).map { index in
    UnsafeBufferPointer(rebasing: input[min(input.count, index &* 7 % (input.count + 1))...])
  }
  var start = 0
  for (offset, byte) in input.enumerated() where byte == 0x0A {
    manyLines.append(UnsafeBufferPointer(rebasing: input[start..<offset]))
    start = offset + 1
  }
  var wideHashes = [UInt64](repeating: 0, count: manyLines.count)
  var narrowHashes = wideHashes
  manyLines.withUnsafeBufferPointer { lines in
    wideHashes.withUnsafeMutableBufferPointer { FNV1a.hashes(lines, into: $0.baseAddress!) }
    narrowHashes.withUnsafeMutableBufferPointer {
      FNV1a.hashes(lines, into: $0.baseAddress!, wide: false)
    }
  }
  precondition(wideHashes == narrowHashes, "the wide and scalar line hashes disagree")
  precondition(wideHashes == manyLines.map(FNV1a.hash), "a line hash is not the line's FNV-1a")

  // The whole line pipeline.
  checkPipeline(&defaultProcessor, input)
  checkPipeline(&replacingProcessor, input)
  checkTSV(input)
  return 0
}
