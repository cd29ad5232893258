import Foundation
import Testing

/// The README's example, run as a user would: the inputs and the exact records printed in
/// `docs/EXAMPLE.md` (whose Tencent part the README shows verbatim) must be what the binary
/// writes.
@Suite struct DocumentedExampleTests {
  /// The bodies of the fenced code blocks of a Markdown file, in order.
  static func codeBlocks(_ markdown: String) -> [String] {
    var blocks: [String] = []
    var current: [Substring]? = nil
    for line in markdown.split(separator: "\n", omittingEmptySubsequences: false) {
      if line.hasPrefix("```") {
        if let body = current {
          blocks.append(body.joined(separator: "\n"))
          current = nil
        } else {
          current = []
        }
      } else {
        current?.append(line)
      }
    }
    return blocks
  }

  @Test func exampleRecordsAreWhatTheBinaryWrites() throws {
    let root = CLI.packageRoot
    let example = try String(
      contentsOf: root.appendingPathComponent("docs/EXAMPLE.md"), encoding: .utf8)
    let blocks = Self.codeBlocks(example)
    // names.ndjson, in.ndjson, the command, the Tencent records, the Easemob records.
    try #require(blocks.count == 5, "docs/EXAMPLE.md changed shape: \(blocks.count) code blocks")
    #expect(blocks[2] == "push-transcode in.ndjson --directory names.ndjson -o -")
    let dir = try TemporaryDirectory()
    defer { dir.remove() }
    try dir.write("names.ndjson", Data((blocks[0] + "\n").utf8))
    try dir.write("in.ndjson", Data((blocks[1] + "\n").utf8))
    let result = try CLI.run(
      ["in.ndjson", "--directory", "names.ndjson", "-o", "-"], in: dir.url)
    #expect(result.status == 0, "\(result.stderrText)")
    #expect(result.stdoutText == blocks[3] + "\n" + blocks[4] + "\n")

    // The README shows the Tencent records verbatim.
    let readme = try String(
      contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
    #expect(Self.codeBlocks(readme).contains(blocks[3]), "README's example is out of date")
  }
}
