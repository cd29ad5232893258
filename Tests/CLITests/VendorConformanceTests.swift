import Foundation
import Testing

extension CLITests {
  /// Issue 22, SPEC 9 [4, 6.8]: every payload the CLI writes for `Corpus/messages/` and for a
  /// 16 MB generated corpus (with malformed lines) is one its vendor accepts, as checked by
  /// `scripts/vendor-conformance.sh`: fcm against the FCM v1 discovery document of
  /// google-api-python-client (installed into `.venv-vendors/`; skipped with a message when the
  /// package index cannot be reached), the other vendors against the checker's table of their
  /// published constraints, APNs against Apple's `aps` key reference.
  @Suite(needsGenerator) struct VendorConformanceTests {
    static let script = CLI.packageRoot.appendingPathComponent("scripts/vendor-conformance.sh").path

    /// Runs the checker on `records` and expects every payload to pass.
    static func check(_ records: [String]) throws {
      let result = try CLI.execute("/usr/bin/env", ["bash", script] + records)
      if !result.stderrText.isEmpty { print(result.stderrText, terminator: "") }
      #expect(result.status == 0, "\(result.stdoutText)\(result.stderrText)")
      #expect(result.stdoutText.contains("payloads pass"), "\(result.stdoutText)")
    }

    @Test func corpusMessagesPayloadsAreAccepted() throws {
      let dir = try TemporaryDirectory()
      defer { dir.remove() }
      let messages = CLI.packageRoot.appendingPathComponent("Corpus/messages")
      let files = try FileManager.default.contentsOfDirectory(atPath: messages.path)
        .filter { $0.hasSuffix(".ndjson") && $0 != "directory.ndjson" }.sorted()
      #expect(files.contains("vendor-accept.ndjson"))
      var records: [String] = []
      for name in files {
        let out = dir.file(name)
        let result = try CLI.run(
          [
            "--directory", messages.appendingPathComponent("directory.ndjson").path,
            messages.appendingPathComponent(name).path,
          ])
        try result.stdout.write(to: URL(fileURLWithPath: out))
        records.append(out)
      }
      try Self.check(records)
    }

    @Test func generatedCorpusPayloadsAreAccepted() throws {
      let input = try Corpus.generated(seed: 7, megabytes: "16", extra: ["--malformed"])
      let dir = try TemporaryDirectory()
      defer { dir.remove() }
      let result = try CLI.run([input])
      try result.stdout.write(to: URL(fileURLWithPath: dir.file("records.ndjson")))
      #expect(result.stdout.count > 10_000_000)
      try Self.check([dir.file("records.ndjson")])
    }
  }
}
