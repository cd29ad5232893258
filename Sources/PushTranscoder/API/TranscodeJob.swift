/// A whole run, as `push-transcode` does it: inputs (files, gzip and LZ4 detected by content,
/// or stdin) read in order as one stream, transcoded on worker threads, into a stream or a
/// directory of per-vendor batches with a manifest (SPEC 6, 7).
///
/// The run changes no process-wide setting; a program that uses it decides these itself, as
/// the command does before it runs one:
/// - `signal(SIGPIPE, SIG_IGN)` when the stream goes to a pipe: a closed pipe (`| head`) then
///   ends the run quietly instead of killing the process.
/// - `signal(SIGXFSZ, SIG_IGN)` when a file-size limit may apply: a write past it then fails
///   the run (`TranscodeError.fatal`) instead of killing the process.
/// - glibc: `mallopt(M_MMAP_THRESHOLD, 1 << 20)` for runs over large inputs: the megabyte
///   chunk buffers are freed on worker threads, and without a fixed threshold glibc keeps them
///   in per-thread arenas, so resident memory grows with the input.
///
/// Like the command, a run writes a one-paragraph summary (and fatal errors) to stderr.
public struct TranscodeJob: Sendable {
  /// Where the records go.
  public enum Output: Sendable, Equatable {
    /// Records as NDJSON on stdout in input order, rejects among them (`-o -`).
    case standardOutput
    /// Records as NDJSON on an open descriptor the caller owns (a pipe, a socket, a file);
    /// it is written to, never closed.
    case stream(fileDescriptor: Int32)
    /// Per-vendor batch files, `rejects.ndjson` and `manifest.json` in this directory
    /// (`-o DIR`, SPEC 6.2).
    case directory(String)
  }

  /// The codec of the stream or of every batch file (`--compress`).
  public enum Compression: String, Sendable, CaseIterable {
    /// Plain NDJSON.
    case none
    /// Standard gzip (`--level` 1–9, default 6).
    case gzip
    /// Standard LZ4 frames (`--level` 1–12, default 1).
    case lz4
  }

  /// How a stream frames its records (`--framing`, SPEC 6.3).
  public enum Framing: String, Sendable, CaseIterable {
    /// One JSON record per line (NDJSON).
    case ndjson
    /// `vendor<TAB>line<TAB>record` per line (a reject in the stream has vendor `reject`), for
    /// Spark `TRANSFORM`, Hadoop Streaming and awk.
    case tsv
  }

  /// How a run ended without a fatal error.
  public struct Result: Sendable {
    /// The command's exit status: 0 done, 3 more lines rejected than `maxRejects` allows.
    public let exitStatus: Int32
    /// The run's counts; nil when the stream's reader went away before the end (a closed
    /// pipe ends a run early, and quietly, with status 0).
    public let stats: TranscodeStats?
  }

  /// Input paths, read in order as one stream; `-` is stdin.
  public var inputs: [String] = ["-"]
  /// Where the records go.
  public var output: Output = .standardOutput
  /// What each line becomes.
  public var options = TranscoderOptions()
  /// `--directory` files (nicknames, group names; SPEC 2.4), loaded in order.
  public var directories: [String] = []
  /// `--compress`: the codec of the stream or of every batch file.
  public var compression: Compression = .none
  /// `--level`: the compression level; nil is the codec's default.
  public var level: Int? = nil
  /// `--batch-records`: the most records per batch file.
  public var batchRecords = 1000
  /// `--max-rejects`: more rejected lines end the run with status 3; nil is no limit.
  public var maxRejects: Int? = nil
  /// `--rejects`: a file for reject records, instead of the stream or beside the directory's.
  public var rejectsPath: String? = nil
  /// `--stats`: a file for the stats JSON.
  public var statsPath: String? = nil
  /// `--report`: a file for the run's self-contained HTML report (outcomes, payload-size
  /// charts, reasons).
  public var reportPath: String? = nil
  /// `--framing`: how a stream frames its records; `.tsv` needs a stream output (batch files
  /// hold NDJSON records).
  public var framing: Framing = .ndjson
  /// `--no-sync` when false: a directory run skips its flushes to stable storage (a scratch
  /// run; a power cut may leave a manifest whose batches are lost).
  public var sync = true
  /// `--chunk-bytes`: bytes per read buffer (65536 to 1073741824). The output does not depend
  /// on it.
  public var chunkBytes = 4 * 1024 * 1024
  /// `--force`: replace the batches of an existing output directory.
  public var force = false
  /// `--threads`: worker threads (1–1024); the default is the number of cores.
  public var threads = RunConfiguration.defaultThreads

  /// A run from stdin to stdout with the default options.
  public init() {}

  /// A run of `inputs` into `output` with the default options.
  public init(inputs: [String], output: Output) {
    self.inputs = inputs
    self.output = output
  }

  /// Runs the job to the end. Throws `TranscodeError.invalidOption` before anything is read
  /// or written when an option is out of range or an output would overwrite an input, another
  /// output or a file of the output directory (`rejectsPath: "in.ndjson"`), and
  /// `TranscodeError.fatal` when the run stopped on I/O, a corrupt compressed input or an
  /// existing output directory. A missing or unreadable input, and an output file that cannot
  /// be created, are fatal before anything is read or written.
  public func run() throws(TranscodeError) -> Result {
    let report = Runner.execute(try configuration())
    if report.status == ExitStatus.usage {
      throw .invalidOption(report.error ?? "an output would overwrite an input")
    }
    if report.status == ExitStatus.fatal {
      throw .fatal(report.error ?? "the run stopped")
    }
    return Result(exitStatus: report.status, stats: report.stats.map(TranscodeStats.init))
  }

  /// The package's configuration for this job, checked as the command checks its options.
  func configuration() throws(TranscodeError) -> RunConfiguration {
    var configuration = RunConfiguration()
    configuration.options = try options.transcodeOptions()
    guard !inputs.isEmpty else { throw .invalidOption("no input (use \"-\" for stdin)") }
    configuration.inputs = inputs
    switch output {
    case .standardOutput:
      configuration.output = "-"
    case .stream(let descriptor):
      guard descriptor >= 0 else { throw .invalidOption("a stream needs an open descriptor") }
      configuration.output = "-"
      configuration.streamDescriptor = descriptor
    case .directory(let path):
      guard !path.isEmpty, path != "-" else { throw .invalidOption("a directory needs a path") }
      configuration.output = path
    }
    configuration.directories = directories
    if framing == .tsv {
      if case .directory = output {
        throw .invalidOption("tsv framing is for a stream (batch files hold NDJSON records)")
      }
      configuration.options.framing = .tsv
    }
    switch compression {
    case .none: configuration.compression = .none
    case .gzip: configuration.compression = .gzip
    case .lz4: configuration.compression = .lz4
    }
    if let level {
      guard configuration.compression.levels.contains(level) else {
        throw .invalidOption("level \(level) is out of range for \(compression.rawValue)")
      }
    }
    configuration.level = level
    guard batchRecords >= 1 else { throw .invalidOption("batchRecords must be at least 1") }
    configuration.batchRecords = batchRecords
    if let maxRejects, maxRejects < 0 {
      throw .invalidOption("maxRejects must be at least 0")
    }
    configuration.maxRejects = maxRejects
    configuration.rejectsPath = rejectsPath
    configuration.statsPath = statsPath
    configuration.reportPath = reportPath
    configuration.sync = sync
    guard (65536...(1 << 30)).contains(chunkBytes) else {
      throw .invalidOption("chunkBytes must be between 65536 and 1073741824")
    }
    configuration.chunkBytes = chunkBytes
    configuration.force = force
    guard (1...1024).contains(threads) else {
      throw .invalidOption("threads must be between 1 and 1024")
    }
    configuration.threads = threads
    // The progress line is for a person at the command's terminal, not for a host program.
    configuration.progress = .never
    return configuration
  }
}
