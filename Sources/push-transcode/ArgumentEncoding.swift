import Glibc

/// The command's arguments must be UTF-8: Swift reads `argv` into `String`s, which replace
/// bytes that are not UTF-8 with U+FFFD, so a file whose name is in another encoding would be
/// looked for under a name it does not have ("No such file or directory" for a file that is
/// there), and a title would change silently. Such an argument is bad usage, named with its
/// position, before anything runs.
enum ArgumentEncoding {
  /// The usage error for the first argument that is not UTF-8, or nil when all are.
  static func problem() -> String? {
    for index in 1..<Int(CommandLine.argc) {
      guard let argument = CommandLine.unsafeArgv[index] else { continue }
      if String(validatingCString: argument) != nil { continue }
      let shown = String(cString: argument).debugDescription
      return
        "argument \(index) is not UTF-8 (\(shown); U+FFFD marks the bytes that are not): arguments must be UTF-8, and a file named in another encoding can be read from standard input (push-transcode - < FILE)"
    }
    return nil
  }
}
