import Synchronization

/// One input of a run.
package enum InputSource: Sendable, Hashable {
  /// Standard input, named `-`.
  case standardInput
  /// A file path, named as given.
  case path(String)
  /// An already open descriptor (a pipe, a socket); it is read but never closed.
  case descriptor(Int32, name: String)

  /// The command-line spelling: `-` is stdin, anything else a path.
  package init(argument: String) {
    self = argument == "-" ? .standardInput : .path(argument)
  }

  /// The name used in records, rejects and errors: the path as given, `-` for stdin.
  package var name: String {
    switch self {
    case .standardInput: "-"
    case .path(let path): path
    case .descriptor(_, let name): name
    }
  }
}

/// Progress counters of a reader, safe to read from any thread (the progress line, SPEC 6.4).
package final class InputProgress: Sendable {
  /// The sum of the inputs' file sizes when every input is a regular file (stdin redirected
  /// from one counts what is left of it), else nil (no ETA).
  package let totalBytes: UInt64?
  private let read = Atomic<UInt64>(0)

  init(totalBytes: UInt64?) { self.totalBytes = totalBytes }

  /// Bytes read from the inputs so far (compressed bytes for compressed inputs), the unit of
  /// `totalBytes`.
  package var bytesRead: UInt64 { read.load(ordering: .relaxed) }

  func add(_ bytes: Int) { read.add(UInt64(bytes), ordering: .relaxed) }
}
