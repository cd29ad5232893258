/// Takes a command's positional arguments out of its command line, keeping every option with
/// its value in place (the command-line tool's remedy for a parser that spends time quadratic in
/// the number of values one argument is given: it parses what is left, and the positionals are
/// set on the parsed command).
///
/// Both walkers read an option's value as swift-argument-parser does. An option that takes a
/// value reads it from `--name=value` (`--name=` with nothing after the `=` is `--name`; `-o=`
/// is `-o` with an empty value) or else from the next argument: whatever that is for an
/// unconditional option (`parsing: .unconditional`), and only when it is a value (`isValue`)
/// for the others, which otherwise lack their value, an error the parser reports.
package enum PositionalArguments {
  /// Whether the parser reads `argument` as a value rather than an option or the terminator
  /// `--`: it does not start with `-`, or it is `-` (standard input). The empty string is a
  /// value.
  static func isValue(_ argument: String) -> Bool {
    !argument.hasPrefix("-") || argument == "-"
  }

  /// `arguments` (without the program name) split into the options and their values, in order,
  /// and the positional arguments, in order. `valueOptions` are the spellings of the options
  /// that take a value (`--vendors`, `-o`), `unconditional` those among them that take the next
  /// argument whatever it is (a missing or misplaced value is left for the parser to report).
  /// A `--name=value` argument is one option; `-` is a positional (standard input); everything
  /// after `--` is positional, and `--` is dropped.
  package static func split(
    _ arguments: [String], valueOptions: Set<String>, unconditional: Set<String> = []
  ) -> (options: [String], positionals: [String]) {
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
      let next = index < arguments.endIndex ? arguments[index] : nil
      if read(argument, next: next, valueOptions, unconditional).takesNext, let next {
        options.append(next)
        index += 1
      }
    }
    return (options, positionals)
  }

  /// `arguments` (without the program name) with the values of the `repeating` options taken
  /// out, but for each option's first, which stays in place with every other argument; and the
  /// values taken out, in order, by spelling (`--line`). `valueOptions` and `unconditional` are
  /// as in `split` (`repeating` is a subset of `valueOptions`); `--name=value` gives `value`,
  /// and nothing after `--` is read. The parser then parses one value of each, and the rest are
  /// appended to what it set: the same values in the same order as the whole command line
  /// gives. The argument after an option that lacks its value stays where it is, so the parser
  /// reports the same fault. A value `accepts` refuses (one the parser would read otherwise,
  /// or the command refuse) stays in place with its option, and `refused` says that one did:
  /// the parser then parses it before the values taken out, so a caller that needs their order
  /// leaves all of them to the parser.
  package static func extractRepeated(
    _ arguments: [String], valueOptions: Set<String>, unconditional: Set<String> = [],
    repeating: Set<String>,
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
    // Set after an option that lacks its value: the next argument stays in place, whole.
    var nextStays = false
    var index = arguments.startIndex
    while index < arguments.endIndex {
      let argument = arguments[index]
      index += 1
      let stays = nextStays
      nextStays = false
      if argument == "--" {
        kept += arguments[(index - 1)...]
        break
      }
      guard argument.hasPrefix("-"), argument != "-" else {
        kept.append(argument)
        continue
      }
      let next = index < arguments.endIndex ? arguments[index] : nil
      let option = read(argument, next: next, valueOptions, unconditional)
      if let joined = option.joined {
        if !stays && takes(option.name, joined) {
          values[option.name, default: []].append(joined)
        } else {
          kept.append(argument)
        }
        continue
      }
      guard option.takesNext, let next else {
        kept.append(argument)
        nextStays = valueOptions.contains(option.name)
        continue
      }
      index += 1
      if !stays && takes(option.name, next) {
        values[option.name, default: []].append(next)
      } else {
        kept += [argument, next]
      }
    }
    return (kept, values, refused)
  }

  /// How the parser reads the option `argument` (it starts with `-` and is neither `-` nor
  /// `--`), followed by `next` (nil at the end): its name, the value joined to it by `=` (nil
  /// when none), and whether it takes `next` as its value.
  private static func read(
    _ argument: String, next: String?, _ valueOptions: Set<String>,
    _ unconditional: Set<String>
  ) -> (name: String, joined: String?, takesNext: Bool) {
    var name = argument
    if let equals = argument.firstIndex(of: "=") {
      name = String(argument[..<equals])
      let value = String(argument[argument.index(after: equals)...])
      // The parser reads `--name=` as `--name`, but `-o=` as `-o` with an empty value.
      if !value.isEmpty || !argument.hasPrefix("--") { return (name, value, false) }
    }
    guard valueOptions.contains(name), let next else { return (name, nil, false) }
    return (name, nil, unconditional.contains(name) || isValue(next))
  }
}
