import Dispatch
import FoundationEssentials  // ProcessInfo only; ArgumentParser loads it anyway
import Glibc

/// `--progress` (SPEC 6.4).
package enum ProgressMode: String, Sendable, CaseIterable { case auto, always, never }

/// Everything one run needs: the CLI fills it, `Runner.run` executes it.
package struct RunConfiguration: Sendable {
  /// Input paths, processed in order as one stream; `-` is stdin.
  package var inputs: [String] = ["-"]
  /// `-` for stdout, else a batch directory.
  package var output = "-"
  /// The options that decide what each line becomes.
  package var options = TranscodeOptions()
  /// `--threads`: the number of workers.
  package var threads = RunConfiguration.defaultThreads
  /// `--chunk-bytes`: the size of the chunks input is cut into, at line boundaries.
  package var chunkBytes = 4 * 1024 * 1024
  /// `--directory` files, loaded in order (later entries override earlier ones).
  package var directories: [String] = []
  /// `--max-rejects`: more rejected lines end the run with status 3; nil is no limit.
  package var maxRejects: Int? = nil
  /// `--rejects FILE`: where reject records also (batch) or instead (stream) go.
  package var rejectsPath: String? = nil
  /// `--stats FILE`: where the stats JSON goes.
  package var statsPath: String? = nil
  /// `--report FILE.html`: where the run report (`RunReport`) goes.
  package var reportPath: String? = nil
  /// `--compress`: the codec of the output stream or of each batch file.
  package var compression: OutputCompression = .none
  /// `--level`: the compression level; nil is the codec's default.
  package var level: Int? = nil
  /// `--batch-records`: the most records per batch file.
  package var batchRecords = 1000
  /// The content size past which a batch is written in pieces as it grows (`SpilledBatch`).
  package var batchPieceBytes = BatchSink.defaultPieceBytes
  /// `--force`: replace the batches of an existing output directory.
  package var force = false
  /// False with `--no-sync`: batch mode flushes nothing to stable storage (scratch runs); true
  /// makes a directory whose manifest survived a power cut hold every batch it lists.
  package var sync = true
  /// `--progress`: whether the progress line shows on stderr.
  package var progress: ProgressMode = .auto
  /// The descriptor the stream (`output == "-"`) goes to: stdout unless a library caller
  /// names another.
  package var streamDescriptor: Int32 = 1

  /// True when the records go to batch files in `output` (`-o DIR`), not to a stream.
  package var batchMode: Bool { output != "-" && !options.validateOnly }

  /// The defaults of SPEC 6.7: stdin to stdout, every vendor, all cores.
  package init() {}

  /// The number of cores.
  package static var defaultThreads: Int { max(1, ProcessInfo.processInfo.activeProcessorCount) }
}

/// Exit statuses (SPEC 6.5).
package enum ExitStatus {
  /// The run completed (also when stdout was closed early).
  package static let done: Int32 = 0
  /// A fatal error: I/O, corrupt compressed input, an existing output directory.
  package static let fatal: Int32 = 1
  /// Done, but more lines were rejected than `--max-rejects` allows (`validate`: any).
  package static let tooManyRejects: Int32 = 3
  /// Bad usage: unknown options, ids or out-of-range values, or an output that would overwrite
  /// an input (`OutputOverlap`).
  package static let usage: Int32 = 64
}

/// How a run ended: its exit status, its counts once the inputs were read, and its fatal error.
package struct RunOutcome: Sendable {
  /// The exit status (SPEC 6.5).
  package var status: Int32
  /// The run's counts (the directory's included); nil when the run stopped before its inputs
  /// were read, or when stdout was closed early.
  package var stats: RunStats? = nil
  /// The fatal error (or, with status 64, the usage error), phrased for people, as stderr
  /// names it.
  package var error: String? = nil
}

/// Runs a configured job end to end and returns its exit status.
package enum Runner {
  /// Loads the directory, transcodes every input into the sink, writes the summary and stats,
  /// and returns the exit status.
  package static func run(_ configuration: RunConfiguration) -> Int32 {
    execute(configuration).status
  }

  /// `run`, reporting the stats and the fatal error beside the exit status (the library's
  /// `TranscodeJob`).
  package static func execute(_ configuration: RunConfiguration) -> RunOutcome {
    if let problem = OutputOverlap.problem(in: configuration) {
      FileDescriptorWriter.writeAll(2, Array("push-transcode: \(problem)\n".utf8))
      return RunOutcome(status: ExitStatus.usage, error: problem)
    }
    if let problem = RunPreflight.problem(in: configuration) { return fail(problem) }
    var configuration = configuration
    let batchMode = configuration.batchMode
    // Batch mode routes records by `RecordRef`, which covers payload records only, so its
    // rejects always take their own channel (`DIR/rejects.ndjson`).
    configuration.options.rejectsInline = !batchMode && configuration.rejectsPath == nil
    configuration.options.collectRecordRefs = batchMode
    let options = configuration.options

    let sink: RecordSink
    do {
      if batchMode {
        sink = try BatchSink(
          directory: configuration.output, force: configuration.force,
          compression: configuration.compression, level: configuration.level,
          batchRecords: configuration.batchRecords, threads: configuration.threads,
          optionsJSON: optionsJSON(configuration), rejectsPath: configuration.rejectsPath,
          sync: configuration.sync, pieceBytes: configuration.batchPieceBytes)
      } else {
        sink = try StreamSink(
          fd: configuration.streamDescriptor, compression: configuration.compression,
          level: configuration.level,
          rejectsPath: configuration.rejectsPath)
      }
    } catch {
      return fail(SinkError.describe(error))
    }

    // The directory first: its rejects precede every message record (SPEC 9 [6]).
    var directory = NameDirectory()
    var directoryOutput = ChunkOutput(sequence: -1, source: SourceName("-"))
    // A corrupt or truncated directory file stops the run as a fatal error in an input would,
    // before any message line: the directory lines before the fault are accounted for (their
    // rejects written and counted), the summary, `--stats` and `--report` say so, and a batch
    // directory is left without a manifest but with no temporary file (SPEC 2.1).
    var directoryFault: InputError? = nil
    do {
      do {
        try DirectoryLoader.load(
          paths: configuration.directories, into: &directory, options: options,
          chunkBytes: configuration.chunkBytes, output: &directoryOutput
        ) { segment in try sink.consume(segment) }
      } catch let fault as InputError {
        directoryFault = fault
      }
      try sink.consume(directoryOutput)
    } catch SinkError.closedOutput {
      // Quietly, as below: the run files count what was written, none of it.
      let result = RunResult(
        stats: RunStats(), inputBytes: 0, seconds: 0, fatal: nil, closedOutput: true)
      do { try writeRunFiles(result, configuration) } catch {
        return fail(SinkError.describe(error))
      }
      return RunOutcome(status: ExitStatus.done)
    } catch {
      // The directory's rejects could not be written: a failed output like any other, with the
      // summary and the run files counting what was written, none of it.
      let message = SinkError.describe(error)
      let result = RunResult(
        stats: RunStats(), inputBytes: 0, seconds: 0, fatal: message, closedOutput: false)
      FileDescriptorWriter.writeAll(2, Array((summary(of: result, configuration) + "\n").utf8))
      do { try writeRunFiles(result, configuration) } catch {
        return fail(SinkError.describe(error))
      }
      return RunOutcome(status: ExitStatus.fatal, stats: result.stats, error: message)
    }

    // `push-transcode -o out` without its input file reads the terminal: say so, or the run
    // looks hung.
    if directoryFault == nil && configuration.inputs.contains("-") && isatty(0) == 1 {
      FileDescriptorWriter.writeAll(2, Array(Self.terminalInputHint.utf8))
    }
    let reader: InputReader
    do {
      reader = try InputReader(
        paths: configuration.inputs, chunkBytes: configuration.chunkBytes,
        maxLineBytes: options.maxLineBytes, inPieces: configuration.threads == 1)
    } catch {
      return fail("\(error)")
    }
    let showProgress: Bool
    switch configuration.progress {
    case .always: showProgress = true
    case .never: showProgress = false
    case .auto: showProgress = isatty(2) == 1
    }
    let progress = showProgress ? Progress(input: reader.progress) : nil
    let pipeline = Pipeline(threads: configuration.threads)
    // A complete run's stats and report are written before it is declared complete: a failure
    // to write them (a full disk) leaves a batch directory without its manifest, as its status
    // 1 says, not a complete one. A run that stopped early writes them after (below).
    var runFilesTried = false
    let result = pipeline.run(
      options: options, directory: directory, sink: sink,
      initialStats: directoryOutput.stats, progress: progress,
      beforeCommit: {
        runFilesTried = true
        try writeRunFiles($0, configuration)
      },
      nextItem: { [directoryFault] in
        if let directoryFault { throw directoryFault }
        return try reader.next()
      })

    if result.closedOutput {
      // Quietly (SPEC 6.3): no summary; but the files asked for are written, with the counts
      // of the lines read before the reader went away. A failure to write them is still one.
      if !runFilesTried {
        do { try writeRunFiles(result, configuration) } catch {
          return fail(SinkError.describe(error))
        }
      }
      return RunOutcome(status: ExitStatus.done)
    }
    var summary = summary(of: result, configuration)
    // Status 3 says why, next to the counts (the summary alone does not name the limit).
    var overRejectLimit = false
    if result.fatal == nil, !configuration.options.validateOnly,
      let maxRejects = configuration.maxRejects, result.stats.rejectedLines > maxRejects
    {
      overRejectLimit = true
      summary +=
        "\npush-transcode: \(result.stats.rejectedLines) lines rejected, more than --max-rejects"
        + " \(maxRejects) allows (exit status 3)"
    }
    FileDescriptorWriter.writeAll(2, Array((summary + "\n").utf8))
    // A run that stopped early (a fatal input error, a failed output): its stats and report
    // account for the lines before the fault.
    if !runFilesTried {
      do { try writeRunFiles(result, configuration) } catch {
        return fail(SinkError.describe(error))
      }
    }
    var report = RunOutcome(status: ExitStatus.done, stats: result.stats, error: result.fatal)
    if result.fatal != nil {
      report.status = ExitStatus.fatal
    } else if configuration.options.validateOnly {
      if result.stats.rejectedLines > 0 { report.status = ExitStatus.tooManyRejects }
    } else if overRejectLimit {
      report.status = ExitStatus.tooManyRejects
    }
    return report
  }

  /// The summary of `result` for stderr (SPEC 6.4), with its fatal error's line after it.
  private static func summary(of result: RunResult, _ configuration: RunConfiguration) -> String {
    var summary =
      configuration.options.validateOnly
      ? result.stats.validationSummary(seconds: result.seconds, inputBytes: result.inputBytes)
      : result.stats.summary(seconds: result.seconds, inputBytes: result.inputBytes)
    if let fatal = result.fatal { summary += "\npush-transcode: error: " + fatal }
    return summary
  }

  /// Writes `--stats` and `--report`, when given, for the complete run `result`.
  private static func writeRunFiles(_ result: RunResult, _ configuration: RunConfiguration) throws {
    if let statsPath = configuration.statsPath {
      var writer = JSONWriter()
      result.stats.writeJSON(into: &writer)
      writer.byte(ASCII.newline)
      let file = try BufferedFile(creating: statsPath)
      try file.write(writer.bytes)
      try file.close()
    }
    if let reportPath = configuration.reportPath {
      let page = RunReport.html(
        stats: result.stats, vendors: configuration.options.vendors,
        timing: RunReport.Timing(
          seconds: result.seconds, inputBytes: result.inputBytes,
          outputBytes: result.outputBytes),
        stoppedBy: result.fatal)
      let file = try BufferedFile(creating: reportPath)
      try file.write(Array(page.utf8))
      try file.close()
    }
  }

  /// Printed on stderr when standard input, read as an input, is a terminal.
  static let terminalInputHint =
    "push-transcode: reading standard input from the terminal; end it with Ctrl-D, or name the"
    + " input files\n"

  private static func fail(_ message: String) -> RunOutcome {
    FileDescriptorWriter.writeAll(2, Array("push-transcode: error: \(message)\n".utf8))
    return RunOutcome(status: ExitStatus.fatal, error: message)
  }

  /// The options recorded in the manifest: those that shape the output.
  static func optionsJSON(_ configuration: RunConfiguration) -> [UInt8] {
    var writer = JSONWriter()
    let options = configuration.options
    func key(_ name: String) {
      writer.string(decoded: Array(name.utf8))
      writer.byte(ASCII.colon)
    }
    writer.byte(ASCII.openBrace)
    key("vendors")
    writer.byte(ASCII.openBracket)
    for (index, vendor) in options.vendors.enumerated() {
      if index > 0 { writer.byte(ASCII.comma) }
      writer.string(decoded: Array(vendor.name.utf8))
    }
    writer.raw("],")
    key("locale")
    writer.string(decoded: Array(options.locale.rawValue.utf8))
    writer.byte(ASCII.comma)
    key("display")
    writer.string(decoded: Array(options.display.rawValue.utf8))
    writer.byte(ASCII.comma)
    key("default_title")
    if let title = options.defaultTitle {
      writer.string(decoded: Array(title.utf8))
    } else {
      writer.raw("null")
    }
    writer.byte(ASCII.comma)
    key("directory")
    writer.byte(ASCII.openBracket)
    for (index, path) in configuration.directories.enumerated() {
      if index > 0 { writer.byte(ASCII.comma) }
      writer.string(decoded: Array(path.utf8))
    }
    writer.raw("],")
    key("unicode")
    writer.string(decoded: Array(options.unicode.rawValue.utf8))
    writer.byte(ASCII.comma)
    key("max_line_bytes")
    writer.integer(options.maxLineBytes)
    writer.byte(ASCII.comma)
    key("compress")
    writer.string(decoded: Array(configuration.compression.rawValue.utf8))
    writer.byte(ASCII.comma)
    key("level")
    // The level in effect: `--compress gzip` and `--compress gzip --level 6` write the same
    // batches, so their manifests say the same (SPEC 6.8: only `timing` differs).
    if let level = configuration.compression.level(given: configuration.level) {
      writer.integer(level)
    } else {
      writer.raw("null")
    }
    writer.byte(ASCII.comma)
    key("batch_records")
    writer.integer(configuration.batchRecords)
    // Only when off: a manifest of a run with the default says what it always said.
    if !configuration.sync {
      writer.byte(ASCII.comma)
      key("sync")
      writer.raw("false")
    }
    writer.byte(ASCII.closeBrace)
    return writer.bytes
  }
}
