import Foundation
import Testing

extension CLITests {
  /// `push-transcode explain` (issue 24 item 1): its records are transcode's, byte for byte.
  @Suite struct ExplainTests {
    static let directory = "Corpus/messages/directory.ndjson"

    /// The message files of the corpus, as the golden runs read them (directory excluded).
    static var corpusFiles: [String] {
      let names =
        (try? FileManager.default.contentsOfDirectory(
          atPath: CLI.packageRoot.appendingPathComponent("Corpus/messages").path)) ?? []
      return names.filter { $0.hasSuffix(".ndjson") && $0 != "directory.ndjson" }.sorted()
        .map { "Corpus/messages/\($0)" }
    }

    /// The lines of `data` split at `\n`, without their terminators.
    static func lines(_ data: Data) -> [Data] {
      data.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).map {
        Data($0)
      }
    }

    /// `record` as the text mode shows it: the C0 and C1 controls, DEL, the bidirectional
    /// formatting characters and U+2028/U+2029 written as `\uXXXX` (lowercase hex).
    static func shownOnATerminal(_ record: Data) -> Data {
      var shown = ""
      for scalar in String(decoding: record, as: UTF8.self).unicodeScalars {
        let value = scalar.value
        let bidi =
          [0x061C, 0x200E, 0x200F, 0x2028, 0x2029].contains(value)
          || (0x202A...0x202E).contains(value) || (0x2066...0x2069).contains(value)
        if value < 0x20 || (0x7F...0x9F).contains(value) || bidi {
          shown += String(format: "\\u%04x", value)
        } else {
          shown.unicodeScalars.append(scalar)
        }
      }
      return Data(shown.utf8)
    }

    @Test func corpusHasFiles() {
      #expect(Self.corpusFiles.count >= 10)
    }

    /// Every line of every corpus file: the records `explain` prints (text mode: its records
    /// sections; `--json`: the `records` arrays) equal `transcode -o -`'s for that file.
    @Test(arguments: corpusFiles) func recordsEqualTranscode(file: String) throws {
      let root = CLI.packageRoot
      let content = try Data(contentsOf: root.appendingPathComponent(file))
      var count = Self.lines(content).count
      if content.last == UInt8(ascii: "\n") { count -= 1 }
      let options = ["--directory", Self.directory]
      let transcode = try CLI.run([file, "-o", "-"] + options, in: root)
      #expect(transcode.status == 0, "\(transcode.stderrText)")
      let prefix = Data("{\"source\":\(try quoted(file)),".utf8)
      let expected = Self.lines(transcode.stdout).filter { $0.starts(with: prefix) }
      let lineArguments = (1...count).flatMap { ["--line", String($0)] }

      let text = try CLI.run(["explain", file] + lineArguments + options, in: root)
      #expect(text.status == 0, "\(text.stderrText)")
      let textRecords = Self.lines(text.stdout).filter { $0.first == UInt8(ascii: "{") }
      // The text mode shows the characters a terminal would obey as `\uXXXX`, and changes
      // nothing else.
      #expect(textRecords == expected.map(Self.shownOnATerminal))

      let json = try CLI.run(["explain", file, "--json"] + lineArguments + options, in: root)
      #expect(json.status == 0, "\(json.stderrText)")
      let explained = try #require(
        try JSONSerialization.jsonObject(with: json.stdout) as? [[String: Any]])
      #expect(explained.count == count)
      var jsonRecords: [Data] = []
      for (index, entry) in explained.enumerated() {
        #expect(entry["line"] as? Int == index + 1)
        let records = try #require(entry["records"] as? [String])
        for record in records {
          let data = Data(record.utf8)
          // Each record names its own line.
          #expect(data.range(of: Data(",\"line\":\(index + 1),".utf8)) != nil)
          jsonRecords.append(data)
        }
        // A vendor is explained as refusing exactly when transcode wrote its reject for the
        // line, whichever record of a split message it refused; a message every vendor refused
        // is `rejected`, as the stats count it. The first record alone was explained, so a
        // split message refused in a later record read as transcoded and accepted.
        if let vendors = entry["vendors"] as? [[String: Any]] {
          for vendor in vendors {
            let name = try #require(vendor["vendor"] as? String)
            let refused = vendor["refusal"] is [String: Any]
            let rejected = records.contains {
              $0.contains(#""vendor":"reject","for":"\#(name)""#)
            }
            #expect(refused == rejected, "\(file) line \(index + 1): \(name)")
          }
          let payloads = records.contains { !$0.contains(#""vendor":"reject""#) }
          #expect(
            (entry["outcome"] as? String == "rejected") == !payloads,
            "\(file) line \(index + 1)")
        }
      }
      #expect(jsonRecords == expected)
    }

    private func quoted(_ text: String) throws -> String {
      String(decoding: try JSONSerialization.data(withJSONObject: [text]), as: UTF8.self)
        .dropFirst().dropLast().replacingOccurrences(of: "\\/", with: "/")
    }

    /// Bad usage is one line on stderr and exit 64.
    @Test(arguments: [
      ["explain", "Corpus/messages/caps-scalars.ndjson"],
      ["explain", "Corpus/messages/caps-scalars.ndjson", "--line", "0"],
      ["explain", "Corpus/messages/caps-scalars.ndjson", "--line", "100000"],
      ["explain", "Corpus/messages", "--line", "1"],
      ["explain", "Corpus/messages/caps-scalars.ndjson", "--line", "1", "--vendors", "nope"],
    ])
    func badUsageExits64(arguments: [String]) throws {
      let result = try CLI.run(arguments, in: CLI.packageRoot)
      #expect(result.status == 64, "\(result.stderrText)")
      #expect(result.stdout.isEmpty)
      #expect(CLI.lines(result.stderrText).count == 1, "\(result.stderrText)")
      #expect(result.stderrText.hasPrefix("push-transcode: "))
    }

    /// A syntax fault deep in a long line: the window around it and a caret under the byte.
    @Test func caretPointsAtTheFaultByte() throws {
      let line =
        "{\"To_Account\":\"u1\",\"MsgBody\":[" + String(repeating: " ", count: 80)
        + "@],\"tail\":\"" + String(repeating: "x", count: 80) + "\"}"
      let faultOffset = try #require(Array(line.utf8).firstIndex(of: UInt8(ascii: "@")))
      let input = Data(("\n" + line + "\n").utf8)
      let text = try CLI.run(["explain", "-", "--line", "2"], stdin: input)
      #expect(text.status == 0, "\(text.stderrText)")
      #expect(text.stdoutText.contains("rejected: syntax at byte \(faultOffset)"))
      let lines = CLI.lines(text.stdoutText).map(String.init)
      let caretIndex = try #require(
        lines.firstIndex { $0.trimmingCharacters(in: .whitespaces) == "^" })
      let window = Array(lines[caretIndex - 1])
      let column = lines[caretIndex].count - 1
      #expect(window[column] == "@")
      #expect(window.count <= 70)
      #expect(!text.stdoutText.contains("\u{1B}["), "no colour when stdout is not a terminal")

      let json = try CLI.run(["explain", "-", "--line", "2", "--json"], stdin: input)
      let entry = try #require(
        try JSONSerialization.jsonObject(with: json.stdout) as? [[String: Any]]
      ).first
      #expect(entry?["reason"] as? String == "syntax")
      #expect(entry?["offset"] as? Int == faultOffset)
      let jsonWindow = Array(try #require(entry?["window"] as? String))
      let caret = try #require(entry?["caret"] as? String)
      #expect(jsonWindow[caret.count - 1] == "@")
    }

    /// Colour on a terminal (a pseudo-terminal from `script`), none when `NO_COLOR` is set.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/script")))
    func colourOnlyOnATerminalWithoutNoColor() throws {
      let command = "\"$BIN\" explain Corpus/messages/tencent-rejects.ndjson --line 2"
      let terminal = try CLI.sh(
        "unset NO_COLOR; script -qec '\(command)' /dev/null", in: CLI.packageRoot)
      #expect(terminal.stdoutText.contains("\u{1B}["), "\(terminal.stdoutText)")
      let noColor = try CLI.sh(
        "NO_COLOR=1 script -qec '\(command)' /dev/null", in: CLI.packageRoot)
      #expect(noColor.stdoutText.contains("rejected"), "\(noColor.stdoutText)")
      #expect(!noColor.stdoutText.contains("\u{1B}["))
    }

    /// A value a vendor does not accept is named where the vendor's payload is explained, in
    /// the text and in the JSON; before, the payload just lacked it, with nothing saying why.
    @Test func fieldsLeftOutAreNamedPerVendor() throws {
      let input = Data(
        (#"{"From_Account":"a","To_Account":"b","MsgBody":[{"MsgType":"TIMTextElem","#
          + #""MsgContent":{"Text":"hi"}}],"OfflinePushInfo":{"BadgeSetNum":-1,"#
          + #""AndroidInfo":{"HuaWeiCategory":"MISS_CALL"}}}"# + "\n").utf8)
      let text = try CLI.run(["explain", "-", "--line", "1"], stdin: input)
      #expect(text.status == 0)
      let apns = text.stdoutLines.first { $0.hasPrefix("  apns: ") } ?? ""
      #expect(apns.hasSuffix("; left out (not accepted by apns): badge"), "\(apns)")
      let huawei = text.stdoutLines.first { $0.hasPrefix("  huawei: ") } ?? ""
      #expect(huawei.hasSuffix("; left out (not accepted by huawei): set_num, category"))
      let oppo = text.stdoutLines.first { $0.hasPrefix("  oppo: ") } ?? ""
      #expect(!oppo.contains("left out"), "\(oppo)")
      let json = try CLI.run(["explain", "-", "--line", "1", "--json"], stdin: input)
      let entry = try #require(
        try JSONSerialization.jsonObject(with: json.stdout) as? [[String: Any]]
      ).first
      let vendors = try #require(entry?["vendors"] as? [[String: Any]])
      var dropped: [String: [String]] = [:]
      for vendor in vendors {
        dropped[vendor["vendor"] as? String ?? ""] = vendor["dropped_fields"] as? [String]
      }
      #expect(dropped["apns"] == ["badge"])
      #expect(dropped["huawei"] == ["set_num", "category"])
      #expect(dropped["oppo"] == [])
    }

    /// A blank line explains as blank, with no records.
    /// A group send whose second group's name (in the display prefix) is too long: harmony
    /// refuses that record, so the message (every record of it) is rejected for harmony, and
    /// the capped vendors cut the second record's title. `explain` looked at the first record
    /// only: "transcoded", harmony "fits", no cut.
    @Test func aSplitMessageIsExplainedByEveryRecord() throws {
      let dir = try TemporaryDirectory()
      defer { dir.remove() }
      let name = String(repeating: "N", count: 4100)
      try dir.write(
        "names.ndjson",
        Data(
          (#"{"GroupId":"g_team","Name":"Team"}"# + "\n" + #"{"GroupId":"g_huge","Name":""#
            + name + "\"}\n").utf8))
      try dir.write(
        "in.ndjson",
        Data(
          #"{"target_type":"chatgroups","target":["g_team","g_huge"],"msg":{"type":"txt","msg":"hi"},"from":"a"}"#
            .utf8))
      let options = ["--line", "1", "--directory", "names.ndjson", "--json"]
      let harmony = try CLI.run(
        ["explain", "in.ndjson", "--vendors", "harmony"] + options, in: dir.url)
      #expect(harmony.status == 0, "\(harmony.stderrText)")
      let one = try #require(
        (try JSONSerialization.jsonObject(with: harmony.stdout) as? [[String: Any]])?.first)
      #expect(one["outcome"] as? String == "rejected")
      #expect(one["reason"] as? String == "over-budget")
      let vendor = try #require((one["vendors"] as? [[String: Any]])?.first)
      #expect((vendor["refusal"] as? [String: Any])?["reason"] as? String == "over-budget")

      let all = try CLI.run(["explain", "in.ndjson"] + options, in: dir.url)
      let entry = try #require(
        (try JSONSerialization.jsonObject(with: all.stdout) as? [[String: Any]])?.first)
      #expect(entry["outcome"] as? String == "transcoded")
      let vendors = try #require(entry["vendors"] as? [[String: Any]])
      let xiaomi = try #require(vendors.first { $0["vendor"] as? String == "xiaomi" })
      #expect(xiaomi["title_cut"] as? Bool == true)
      let text = try CLI.run(
        [
          "explain", "in.ndjson", "--vendors", "harmony", "--line", "1", "--directory",
          "names.ndjson",
        ], in: dir.url)
      #expect(text.stdoutText.contains("rejected: over-budget"), "\(text.stdoutText)")
    }

    /// Explaining many lines holds no explanation longer than its turn: in ascending order each
    /// is printed once its line is read, and a line found before its turn waits as its bytes.
    /// Before, every explanation was held until the end (1,500 lines whose nine vendors' payloads
    /// each carry a 3.9 KB ext: 405 MB against 18 MB for one line), and then each one found
    /// before its turn (lines asked in descending order: 123 MB more than one line).
    @Test(.enabled(if: CLI.hasPython, "needs python3 to measure peak memory"))
    func manyLinesToExplainDoNotAccumulate() throws {
      let dir = try TemporaryDirectory()
      defer { dir.remove() }
      let line = FanOutTests.line(recipients: 1)
      try dir.write("lines.ndjson", Data(String(repeating: line, count: 1_500).utf8))
      let input = dir.file("lines.ndjson")
      let one = try FanOutTests.peak(["explain", input, "--line", "1"])
      #expect(one.status == 0)
      for numbers in [Array(1...1_500), Array((1...1_500).reversed())] {
        let many = try FanOutTests.peak(
          ["explain", input, "--json"] + numbers.flatMap { ["--line", "\($0)"] })
        #expect(many.status == 0)
        // Held lines take 6 MB at most here (1,500 of 4 KB), the explanations hundreds.
        #expect(many.megabytes - one.megabytes < 60, "\(one) \(many), from line \(numbers[0])")
      }
    }

    @Test func blankLineHasNoRecords() throws {
      let result = try CLI.run(["explain", "-", "--line", "1"], stdin: Data("  \n".utf8))
      #expect(result.status == 0)
      #expect(result.stdoutText.contains("blank"))
      #expect(!result.stdoutLines.contains { $0.hasPrefix("{") })
    }

    /// A fatal error (a missing input) exits 1 with the message `transcode` gives for it; it
    /// lacked the `error: ` that every other fatal error carries.
    @Test func aMissingInputIsAFatalErrorWordedAsTranscodeWordsIt() throws {
      let dir = try TemporaryDirectory()
      defer { dir.remove() }
      let explain = try CLI.run(["explain", "missing.ndjson", "--line", "1"], in: dir.url)
      let transcode = try CLI.run(["missing.ndjson"], in: dir.url)
      #expect(explain.status == 1)
      #expect(explain.stdout.isEmpty)
      #expect(
        explain.stderrText
          == "push-transcode: error: missing.ndjson: cannot open: No such file or directory\n")
      #expect(explain.stderrText == transcode.stderrText)
    }

    /// A failed write of the explanation (a full disk) exits 1 naming it; it exited 0 with the
    /// explanation cut. A closed pipe (`| true`) still ends quietly with 0, like `transcode`.
    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/dev/full")))
    func aFailedWriteIsAnErrorAndAClosedPipeIsNot() throws {
      let dir = try TemporaryDirectory()
      defer { dir.remove() }
      let sample = CLI.packageRoot.appendingPathComponent("Corpus/sample.ndjson").path
      let command = "\"$BIN\" explain '" + sample + "' --line 2"
      let full = try CLI.sh(command + " > /dev/full", in: dir.url)
      #expect(full.status == 1)
      #expect(
        full.stderrText
          == "push-transcode: error: cannot write to stdout: No space left on device\n")
      // `true` exits at once: the write meets a closed pipe (or, if `true` was slow, an open one).
      let closed = try CLI.sh(
        "{ " + command + "; echo $? > status; } | true; exit $(cat status)", in: dir.url)
      #expect(closed.status == 0, "\(closed.stderrText)")
      #expect(closed.stderrText.isEmpty, "\(closed.stderrText)")
    }

    /// What a message holds is shown, never obeyed: a C1 control sequence introducer (which
    /// xterm obeys), a right-to-left override, a line separator and an escape character reach
    /// the text mode as `\uXXXX`, in the quoted values, the payloads and the records alike;
    /// `--json` keeps every string as the records hold it.
    @Test func controlCharactersInAMessageAreShownNotObeyed() throws {
      // Raw in the line: U+009B (CSI), U+202E (RLO), U+2028 (LS); escaped: ESC.
      let text = "a\u{9B}2Jb\u{202E}c\u{2028}d"
      let line =
        #"{"From_Account":"s\#u{9D}0;t\u0007","To_Account":"r","MsgKey":"k","MsgBody":[{"MsgType":"TIMTextElem","MsgContent":{"Text":""#
        + text + #"\u001b[31m"}}]}"#
      let input = Data((line + "\n").utf8)
      let shown = try CLI.run(
        ["explain", "-", "--line", "1", "--vendors", "apns,oppo"], stdin: input)
      #expect(shown.status == 0, "\(shown.stderrText)")
      let output = shown.stdoutText
      let obeyed = output.unicodeScalars.filter { scalar in
        scalar != "\n"
          && (scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
            || scalar.value == 0x202E || scalar.value == 0x2028)
      }
      #expect(
        obeyed.isEmpty, "printed as themselves: \(obeyed.map { String($0.value, radix: 16) })")
      #expect(output.contains(#"a\u009b2Jb\u202ec\u2028d\u001b[31m"#), "\(output)")
      // The sender, an OSC title sequence (U+009D … BEL), outside any quotes.
      #expect(output.contains(#"sender=s\u009d0;t\u0007"#), "\(output)")
      // The records section still holds every record, each one JSON for the same strings.
      let records = try #require(output.components(separatedBy: "records\n").last)
      let parsed = try CLI.lines(records).map {
        try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
      }
      let transcoded = try CLI.run(
        ["-", "-o", "-", "--vendors", "apns,oppo"], stdin: input)
      let expected = try CLI.lines(transcoded.stdoutText).map {
        try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
      }
      #expect(parsed.count == 2 && expected.count == 2)
      for (record, original) in zip(parsed, expected) {
        #expect(NSDictionary(dictionary: record).isEqual(to: original))
      }
      // For a program: the strings as the records hold them.
      let json = try CLI.run(["explain", "-", "--line", "1", "--json"], stdin: input)
      #expect(json.stdoutText.contains("a\u{9B}2Jb\u{202E}c\u{2028}d"))
    }
  }
}
