import ArgumentParser
import Glibc
import PushTranscoder

/// `push-transcode`: argument parsing and wiring only; the work is `PushTranscoder.Runner`.
@main
struct PushTranscode: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "push-transcode",
    abstract: "Turn chat message logs (NDJSON) into vendor-ready offline-push payloads.",
    subcommands: [Transcode.self, Validate.self, Explain.self],
    defaultSubcommand: Transcode.self)

  /// Runs the command; usage errors print one line and exit 64 (SPEC 6.7).
  static func main() {
    ProcessSettings.apply()
    if let problem = ArgumentEncoding.problem() {
      FileDescriptorWriter.writeAll(2, Array("push-transcode: \(problem)\n".utf8))
      Glibc.exit(64)
    }
    if let topic = unknownHelpTopic() {
      let names = configuration.subcommands.map { $0._commandName }.joined(separator: ", ")
      FileDescriptorWriter.writeAll(
        2, Array("push-transcode: help: no subcommand '\(topic)' (\(names))\n".utf8))
      Glibc.exit(64)
    }
    // `--version` is answered here, not through the parser's configuration, so the build id
    // (the executable's GNU build-id note) is read only when asked for.
    if CommandLine.arguments.dropFirst().contains("--version") {
      print(BuildInfo.versionLine)
      Glibc.exit(0)
    }
    do {
      var command: ParsableCommand
      if let split = LargeArgumentLists.split(Array(CommandLine.arguments.dropFirst())) {
        command = try parseAsRoot(split.rest)
        LargeArgumentLists.apply(split, to: &command)
      } else {
        command = try parseAsRoot()
      }
      try command.run()
    } catch let exitCode as ExitCode {
      // The run's own status: nothing more goes to stdout, which may be a compressed stream.
      Glibc.exit(exitCode.rawValue)
    } catch {
      let code = exitCode(for: error)
      if code == .success {
        // --help, --version.
        print(fullMessage(for: error))
        Glibc.exit(0)
      }
      let message =
        PushTranscode.message(for: error)
        .split(separator: "\n", omittingEmptySubsequences: true).first.map(String.init)
        ?? "bad usage"
      FileDescriptorWriter.writeAll(2, Array("push-transcode: \(message)\n".utf8))
      Glibc.exit(code == .validationFailure ? 64 : code.rawValue == 1 ? 64 : code.rawValue)
    }
  }

  /// The topic of `push-transcode help TOPIC` when TOPIC names no subcommand: the parser's
  /// `help` would print the general help with status 0, as if the topic were known.
  private static func unknownHelpTopic() -> String? {
    let arguments = CommandLine.arguments.dropFirst()
    guard arguments.first == "help", let topic = arguments.dropFirst().first,
      !topic.hasPrefix("-")
    else { return nil }
    let known = configuration.subcommands.map { $0._commandName } + ["help"]
    return known.contains(topic) ? nil : topic
  }
}
