import ArgumentParser
import PushTranscoder

/// A command line of thousands of input files (`push-transcode logs/*.ndjson.gz`) is parsed in
/// time linear in its length. swift-argument-parser (1.8) spends time quadratic in the number
/// of values of one argument (each value rebuilds the set of positions of the values before
/// it, and the array is copied to append it): 8,000 input files took 1.9 s before the first
/// line was read, four times 4,000's. Above `threshold` arguments, the input files of
/// `transcode` (the default subcommand) and `validate` are taken out before the parser sees the
/// rest, and set on the parsed command.
enum LargeArgumentLists {
  /// Below this many arguments the parser's cost is negligible, and it parses them all.
  static let threshold = 256

  /// The command line without its input files, and those files in order; nil for a short
  /// command line or another subcommand (`explain` takes one input; `help`).
  static func split(_ arguments: [String]) -> (rest: [String], inputs: [String])? {
    guard arguments.count > threshold else { return nil }
    let subcommand: ParsableCommand.Type
    var rest: [String] = []
    var tail = arguments[...]
    switch arguments.first {
    case Validate._commandName:
      subcommand = Validate.self
    case Transcode._commandName:
      subcommand = Transcode.self
    case Explain._commandName, "help":
      return nil
    default:
      subcommand = Transcode.self
    }
    if arguments.first == subcommand._commandName {
      rest.append(arguments[0])
      tail = arguments.dropFirst()
    }
    guard let valueOptions = valueOptions(of: subcommand) else { return nil }
    let split = PositionalArguments.split(Array(tail), valueOptions: valueOptions)
    return (rest + split.options, split.positionals)
  }

  /// Sets `inputs` as the input files of the parsed `command` (`split`'s).
  static func setInputs(_ inputs: [String], on command: inout ParsableCommand) {
    if var transcode = command as? Transcode {
      transcode.input.inputs = inputs
      command = transcode
    } else if var validate = command as? Validate {
      validate.input.inputs = inputs
      command = validate
    }
  }

  /// The spellings of the options of `command` that take a value (`--vendors`, `-o`), read
  /// from the parser's own description of the command (`_dumpHelp`, the JSON of
  /// `--experimental-dump-help`), so that no list here can fall behind the options. Nil when
  /// that description cannot be read: the parser then parses everything itself.
  static func valueOptions(of command: ParsableCommand.Type) -> Set<String>? {
    let dump = Array(command._dumpHelp().utf8)
    var tokenizer = JSONTokenizer()
    return dump.withUnsafeBufferPointer { bytes -> Set<String>? in
      guard tokenizer.parse(bytes) == nil else { return nil }
      return tokenizer.withDocument(bytes) { document -> Set<String>? in
        func text(_ index: Int?) -> String? {
          guard let index, document.kind(index) == .string else { return nil }
          return String(decoding: document.string(index).decodedBytes(), as: UTF8.self)
        }
        guard let description = document.member(document.root, "command"),
          let arguments = document.member(description, "arguments"),
          document.kind(arguments) == .array
        else { return nil }
        var spellings = Set<String>()
        var readable = true
        document.forEachElement(arguments) { argument in
          guard text(document.member(argument, "kind")) == "option" else { return }
          guard let names = document.member(argument, "names"), document.kind(names) == .array
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
            spellings.insert(kind == "long" ? "--" + spelling : "-" + spelling)
          }
        }
        return readable && !spellings.isEmpty ? spellings : nil
      }
    }
  }
}
