import ArgumentParser
import PushTranscoder

/// A command line of thousands of input files (`push-transcode logs/*.ndjson.gz`), of
/// directories or of lines to explain (`explain --line 1 --line 7 ...`) is parsed in time linear
/// in its length. swift-argument-parser (1.8) spends time quadratic in the number of values of
/// one argument (each value rebuilds the set of positions of the values before it, and the
/// array is copied to append it): 8,000 input files took 1.9 s before the first line was read,
/// four times 4,000's. Above `threshold` arguments, the input files of `transcode` (the default
/// subcommand) and `validate`, and all but the first value of each repeatable option
/// (`--directory`, `explain --line`), are taken out before the parser sees the rest, and set on
/// the parsed command. A value the parser or the command would refuse or read otherwise
/// leaves them to the parser, which then reports what it would report.
enum LargeArgumentLists {
  /// Below this many arguments the parser's cost is negligible, and it parses them all.
  static let threshold = 256

  /// What `split` took out of a command line.
  struct Split {
    /// The command line the parser parses.
    var rest: [String]
    /// The input files, in order (nil for `explain`, whose one input the parser reads).
    var inputs: [String]?
    /// The values of the repeatable options after each one's first, which stays in `rest`.
    var repeated: [String: [String]]
  }

  /// What `optionSpellings` reads off a command's description.
  struct Spellings {
    /// The options that take a value.
    var values: Set<String>
    /// Those among `values` that take the next argument whatever it is.
    var unconditional: Set<String>
    /// Those among `values` that repeat.
    var repeating: Set<String>
  }

  /// The repeatable options whose values `apply` knows where to put, by subcommand; any other
  /// repeatable option stays with the parser.
  static let extractable: [String: Set<String>] = [
    Transcode._commandName: ["--directory"],
    Validate._commandName: [],
    Explain._commandName: ["--line", "--directory"],
  ]

  /// The command line taken apart, or nil for a short one, `help`, or one whose description
  /// or values cannot be read here (the parser then parses everything itself and reports what
  /// it finds wrong).
  static func split(_ arguments: [String]) -> Split? {
    guard arguments.count > threshold else { return nil }
    let subcommand: ParsableCommand.Type
    var head: [String] = []
    var tail = arguments[...]
    switch arguments.first {
    case Validate._commandName: subcommand = Validate.self
    case Transcode._commandName: subcommand = Transcode.self
    case Explain._commandName: subcommand = Explain.self
    case "help": return nil
    default: subcommand = Transcode.self
    }
    if arguments.first == subcommand._commandName {
      head.append(arguments[0])
      tail = arguments.dropFirst()
    }
    guard let spellings = optionSpellings(of: subcommand) else { return nil }
    let repeating = spellings.repeating.intersection(
      extractable[subcommand._commandName] ?? [])
    // A `--directory` value the command refuses (empty) or that starts with `-` (`-`, standard
    // input, or a joined `--directory=-x`) leaves every repeated option to the parser, in
    // place and in order, for what it would do and report.
    var extracted = PositionalArguments.extractRepeated(
      Array(tail), valueOptions: spellings.values, unconditional: spellings.unconditional,
      repeating: repeating
    ) { option, value in
      option != "--directory" || !(value.isEmpty || value.hasPrefix("-"))
    }
    if extracted.refused { extracted = (Array(tail), [:], true) }
    // A `--line` that is not a number or is below 1 leaves the whole command line to the
    // parser: `explain` checks its lines before the parser looks at the rest, and its message
    // comes first among several faults.
    if let lines = extracted.values["--line"],
      lines.contains(where: { Int($0).map { $0 < 1 } ?? true })
    {
      return nil
    }
    if subcommand == Explain.self {
      return Split(rest: head + extracted.arguments, inputs: nil, repeated: extracted.values)
    }
    let positionals = PositionalArguments.split(
      extracted.arguments, valueOptions: spellings.values, unconditional: spellings.unconditional)
    return Split(
      rest: head + positionals.options, inputs: positionals.positionals,
      repeated: extracted.values)
  }

  /// Sets what `split` took out on the parsed `command`. Every value is one the command's own
  /// checks accept (`split` leaves a `--line` below 1 to the parser), so nothing is checked
  /// again.
  static func apply(_ split: Split, to command: inout ParsableCommand) {
    let directories = split.repeated["--directory"] ?? []
    if var transcode = command as? Transcode {
      if let inputs = split.inputs { transcode.input.inputs = inputs }
      transcode.records.directory += directories
      command = transcode
    } else if var validate = command as? Validate {
      if let inputs = split.inputs { validate.input.inputs = inputs }
      command = validate
    } else if var explain = command as? Explain {
      // Safe to force: `split` returned nil unless every value is an integer.
      explain.line += (split.repeated["--line"] ?? []).map { Int($0)! }
      explain.records.directory += directories
      command = explain
    }
  }

  /// The spellings of the options of `command` that take a value (`--vendors`, `-o`), of those
  /// among them that take the next argument whatever it is (`parsing: .unconditional`:
  /// `--threads`, `explain --line`) and of those that repeat (`--directory`), read from the
  /// parser's own description of the command (`_dumpHelp`, the JSON of
  /// `--experimental-dump-help`), so that no list here can fall behind the options. Nil when
  /// that description cannot be read: the parser then parses everything itself.
  static func optionSpellings(of command: ParsableCommand.Type) -> Spellings? {
    let dump = Array(command._dumpHelp().utf8)
    var tokenizer = JSONTokenizer()
    return dump.withUnsafeBufferPointer { bytes -> Spellings? in
      guard tokenizer.parse(bytes) == nil else { return nil }
      return tokenizer.withDocument(bytes) { document -> Spellings? in
        func text(_ index: Int?) -> String? {
          guard let index, document.kind(index) == .string else { return nil }
          return String(decoding: document.string(index).decodedBytes(), as: UTF8.self)
        }
        guard let description = document.member(document.root, "command"),
          let arguments = document.member(description, "arguments"),
          document.kind(arguments) == .array
        else { return nil }
        var spellings = Set<String>()
        var unconditional = Set<String>()
        var repeating = Set<String>()
        var readable = true
        document.forEachElement(arguments) { argument in
          guard text(document.member(argument, "kind")) == "option" else { return }
          guard let names = document.member(argument, "names"), document.kind(names) == .array
          else {
            readable = false
            return
          }
          let repeats = document.member(argument, "isRepeating").map { document.kind($0) == .true }
          // The walkers know two ways to find a value: the next argument if it is a value
          // (`default`), or whatever it is (`unconditional`). Any other (an array that reads
          // values up to the next option, say) leaves the command line to the parser.
          guard let strategy = text(document.member(argument, "parsingStrategy")),
            strategy == "default" || strategy == "unconditional"
          else {
            readable = false
            return
          }
          document.forEachElement(names) { name in
            guard let spelling = text(document.member(name, "name")),
              let kind = text(document.member(name, "kind"))
            else {
              readable = false
              return
            }
            let option = kind == "long" ? "--" + spelling : "-" + spelling
            spellings.insert(option)
            if strategy == "unconditional" { unconditional.insert(option) }
            if repeats == true { repeating.insert(option) }
          }
        }
        return readable && !spellings.isEmpty
          ? Spellings(values: spellings, unconditional: unconditional, repeating: repeating) : nil
      }
    }
  }
}
