/// Takes a command's positional arguments out of its command line, keeping every option with
/// its value in place (the command-line tool's remedy for a parser that spends time quadratic in
/// the number of values one argument is given: it parses what is left, and the positionals are
/// set on the parsed command).
package enum PositionalArguments {
  /// `arguments` (without the program name) split into the options and their values, in order,
  /// and the positional arguments, in order. `valueOptions` are the spellings of the options
  /// that take a value (`--vendors`, `-o`): each takes the argument after it, whatever it is, as
  /// the parser reads it (a missing or misplaced value is left for the parser to report). A
  /// `--name=value` argument is one option; `-` is a positional (standard input); everything
  /// after `--` is positional, and `--` is dropped.
  package static func split(_ arguments: [String], valueOptions: Set<String>)
    -> (options: [String], positionals: [String])
  {
    var options: [String] = []
    var positionals: [String] = []
    var index = arguments.startIndex
    while index < arguments.endIndex {
      let argument = arguments[index]
      index += 1
      if argument == "--" {
        positionals += arguments[index...]
        break
      }
      guard argument.hasPrefix("-"), argument != "-" else {
        positionals.append(argument)
        continue
      }
      options.append(argument)
      if !argument.contains("="), valueOptions.contains(argument), index < arguments.endIndex {
        options.append(arguments[index])
        index += 1
      }
    }
    return (options, positionals)
  }

  /// `arguments` (without the program name) with the values of the `repeating` options taken
  /// out, but for each option's first, which stays in place with every other argument; and the
  /// values taken out, in order, by spelling (`--line`). `valueOptions` are as in `split`
  /// (`repeating` is a subset); `--name=value` gives `value`, and nothing after `--` is read.
  /// The parser then parses one value of each, and the rest are appended to what it set: the
  /// same values in the same order as the whole command line gives. A value `accepts` refuses
  /// (one the parser would read otherwise, such as `--help` after an option that is not
  /// unconditional) stays in place with its option, and `refused` says that one did: the
  /// parser then parses it before the values taken out, so a caller that needs their order
  /// leaves all of them to the parser.
  package static func extractRepeated(
    _ arguments: [String], valueOptions: Set<String>, repeating: Set<String>,
    accepts: (_ option: String, _ value: String) -> Bool = { _, _ in true }
  ) -> (arguments: [String], values: [String: [String]], refused: Bool) {
    var kept: [String] = []
    kept.reserveCapacity(arguments.count)
    var values: [String: [String]] = [:]
    var seen = Set<String>()
    var refused = false
    /// True when the value of this occurrence of a repeating `option` is taken out.
    func takes(_ option: String, _ value: String) -> Bool {
      guard repeating.contains(option) else { return false }
      guard accepts(option, value) else {
        refused = true
        return false
      }
      return !seen.insert(option).inserted
    }
    var index = arguments.startIndex
    while index < arguments.endIndex {
      let argument = arguments[index]
      index += 1
      if argument == "--" {
        kept += arguments[(index - 1)...]
        break
      }
      guard argument.hasPrefix("-"), argument != "-" else {
        kept.append(argument)
        continue
      }
      if let equals = argument.firstIndex(of: "=") {
        let name = String(argument[..<equals])
        let value = String(argument[argument.index(after: equals)...])
        if takes(name, value) {
          values[name, default: []].append(value)
        } else {
          kept.append(argument)
        }
        continue
      }
      guard valueOptions.contains(argument), index < arguments.endIndex else {
        kept.append(argument)
        continue
      }
      let value = arguments[index]
      index += 1
      if takes(argument, value) {
        values[argument, default: []].append(value)
      } else {
        kept += [argument, value]
      }
    }
    return (kept, values, refused)
  }
}
