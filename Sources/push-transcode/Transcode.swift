import ArgumentParser
import Glibc
import PushTranscoder

/// An option's values: the cases of an enum, spelled by their raw strings.
protocol OptionValues: ExpressibleByArgument, CaseIterable, RawRepresentable
where RawValue == String {}

extension OptionValues {
  /// The values for the help and completions, mapped by a closure: ArgumentParser's default
  /// (`allCases.map(\.rawValue.defaultValueDescription)`) builds a generic key path on every
  /// call, and the parser asks at every start (docs/DECISIONS.md [issue 25, start-up]). Public
  /// because it stands in for a requirement of a public protocol on the library's public enums.
  public static var allValueStrings: [String] { allCases.map { $0.rawValue } }
}

extension OutputFraming: OptionValues {}
extension PushLocale: OptionValues {}
extension DisplayMode: OptionValues {}
extension UnicodeMode: OptionValues {}
extension OutputCompression: OptionValues {}
extension ProgressMode: OptionValues {}

/// The options that change what a line becomes, shared by `transcode` and `explain`.
struct RecordOptions: ParsableArguments {
  @Option(
    help:
      "Comma-separated vendor ids, or 'all' (\(VendorID.allCases.map(\.name).joined(separator: ",")))."
  )
  var vendors: String = "all"

  @Option(help: "Placeholder and default-title language: en or zh.")
  var locale: PushLocale = .en

  @Option(help: "Easemob display: summary (nick:text) or banner.")
  var display: DisplayMode = .summary

  @Option(
    help:
      "Title for vendors that require one when nothing else gives it (default: New message, or 新消息 with --locale zh)."
  )
  var defaultTitle: String?

  @Option(help: "Directory NDJSON (nicknames, group names); repeatable.")
  var directory: [String] = []

  func validate() throws { _ = try parsedVendors() }

  func parsedVendors() throws -> [VendorID] {
    if vendors == "all" { return VendorID.allCases }
    var selected = Set<VendorID>()
    for name in vendors.split(separator: ",", omittingEmptySubsequences: false) {
      if name == "all" {
        throw ValidationError("'all' stands alone in --vendors: it selects every vendor")
      }
      guard let id = VendorID(name: String(name)) else {
        throw ValidationError(
          "unknown vendor id '\(name)' (known: all, \(VendorID.allCases.map(\.name).joined(separator: ", ")))"
        )
      }
      selected.insert(id)
    }
    return selected.sorted()
  }

  /// Sets the record options of `options`.
  func apply(to options: inout TranscodeOptions) throws {
    options.vendors = try parsedVendors()
    options.locale = locale
    options.display = display
    options.defaultTitle = defaultTitle
  }
}

/// The options shared by `transcode` and `validate` (input side).
struct InputOptions: ParsableArguments {
  @Argument(help: "Input files (NDJSON, gzip or LZ4 detected by content); none or '-' is stdin.")
  var inputs: [String] = []

  @Option(
    parsing: .unconditional, help: "Reject lines longer than this many bytes (line-too-long).")
  var maxLineBytes: Int = 16 * 1024 * 1024

  @Option(help: "Invalid UTF-8 and lone surrogates: strict (reject) or replace (U+FFFD).")
  var unicode: UnicodeMode = .strict

  @Option(
    parsing: .unconditional, help: "Worker threads, 1 to 1024 (default: the number of cores).")
  var threads: Int?

  @Option(
    parsing: .unconditional,
    help: "Bytes per read buffer (65536 to 1073741824).")
  var chunkBytes: Int = 4 * 1024 * 1024

  @Option(help: "Progress line on stderr: auto (when a terminal), always, never.")
  var progress: ProgressMode = .auto

  func validate() throws {
    guard maxLineBytes >= 1 else { throw ValidationError("--max-line-bytes must be at least 1") }
    // A chunk is one buffer per chunk in flight: a gigabyte is already more than any run
    // needs, and far larger values would overflow the page rounding or fail to allocate.
    guard (65536...(1 << 30)).contains(chunkBytes) else {
      throw ValidationError("--chunk-bytes must be between 65536 and 1073741824")
    }
    if let threads, threads < 1 || threads > 1024 {
      throw ValidationError("--threads must be between 1 and 1024")
    }
  }

  func apply(to configuration: inout RunConfiguration) {
    configuration.inputs = inputs.isEmpty ? ["-"] : inputs
    configuration.options.maxLineBytes = maxLineBytes
    configuration.options.unicode = unicode
    configuration.threads = threads ?? RunConfiguration.defaultThreads
    configuration.chunkBytes = chunkBytes
    configuration.progress = progress
  }
}

/// The main job: transcode messages into per-vendor push records.
struct Transcode: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "transcode",
    abstract: "Transcode chat messages into per-vendor push records (the default command).")

  @OptionGroup var input: InputOptions

  @Option(name: .short, help: "Output: '-' for stdout (pipeline mode) or a directory of batches.")
  var output: String = "-"

  @OptionGroup var records: RecordOptions

  @Option(
    parsing: .unconditional,
    help: "Exit 3 when more lines than this are rejected (default: no limit).")
  var maxRejects: Int?

  @Option(
    help:
      "Write reject records to this file instead of the stream (with -o DIR: as well as to DIR/rejects.ndjson)."
  )
  var rejects: String?

  @Option(help: "Write the run's stats JSON to this file.")
  var stats: String?

  @Option(
    help:
      "Write a self-contained HTML report of the run (outcomes, payload-size charts, reasons) to this file."
  )
  var report: String?

  @Option(help: "Stream framing for -o -: ndjson or tsv (vendor, line, record).")
  var framing: OutputFraming = .ndjson

  @Option(help: "Compression: none, gzip or lz4.")
  var compress: OutputCompression = .none

  @Option(
    parsing: .unconditional, help: "Compression level (gzip 1-9, default 6; lz4 1-12, default 1).")
  var level: Int?

  @Option(parsing: .unconditional, help: "Records per batch file in directory mode.")
  var batchRecords: Int = 1000

  @Flag(help: "Replace the batches of an existing output directory.")
  var force = false

  @Flag(
    help:
      "With -o DIR: skip the flushes to stable storage (a scratch run; a power cut may leave a manifest whose batches are lost)."
  )
  var noSync = false

  @Flag(help: "Print the version and build id (the executable's GNU build id), then exit.")
  var version = false

  func validate() throws {
    if let level, !compress.levels.contains(level) {
      func span(_ codec: OutputCompression) -> String {
        "\(codec.levels.lowerBound)-\(codec.levels.upperBound)"
      }
      // Without compression there is no codec to judge the level by: any level one of them
      // accepts passes (SPEC 6.7 makes only out-of-range values bad usage) and has no effect.
      throw ValidationError(
        compress == .none
          ? "--level must be \(span(.gzip)) (gzip) or \(span(.lz4)) (lz4)"
          : "--level for \(compress.rawValue) must be \(span(compress))")
    }
    guard batchRecords >= 1 else { throw ValidationError("--batch-records must be at least 1") }
    if output.isEmpty { throw ValidationError("-o needs '-' (stdout) or a directory") }
    if framing == .tsv && output != "-" {
      throw ValidationError("--framing tsv is for -o - (batch files hold NDJSON records)")
    }
    if let maxRejects, maxRejects < 0 { throw ValidationError("--max-rejects must be at least 0") }
  }

  func run() throws {
    var configuration = RunConfiguration()
    input.apply(to: &configuration)
    configuration.output = output
    try records.apply(to: &configuration.options)
    configuration.options.framing = framing
    configuration.directories = records.directory
    configuration.maxRejects = maxRejects
    configuration.rejectsPath = rejects
    configuration.statsPath = stats
    configuration.reportPath = report
    configuration.compression = compress
    configuration.level = level
    configuration.batchRecords = batchRecords
    configuration.force = force
    configuration.sync = !noSync
    throw ExitCode(Runner.run(configuration))
  }
}

/// `validate`: framing, UTF-8 and JSON syntax only (SPEC 6.6).
struct Validate: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "validate",
    abstract: "Check framing, UTF-8 and JSON syntax of every line; reject records on stdout.")

  @OptionGroup var input: InputOptions

  func run() throws {
    var configuration = RunConfiguration()
    input.apply(to: &configuration)
    configuration.options.validateOnly = true
    throw ExitCode(Runner.run(configuration))
  }
}
