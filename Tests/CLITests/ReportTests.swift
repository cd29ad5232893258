import Foundation
import Testing

extension CLITests {
  /// `transcode --report FILE.html` (issue 24): the page parses as XML, and every number on it
  /// equals the stats JSON, the outputs or the limits of the same run; the payload-size
  /// histogram equals one recomputed from the records.
  @Suite(needsGenerator) struct ReportTests {
    /// A run over the malformed corpus, `Corpus/messages/` and a source whose name needs
    /// escaping in HTML and in the shell; its report, stats, records and rejects.
    struct ReportRun {
      let directory: TemporaryDirectory
      let inputBytes: Int
      var report: String { directory.file("report.html") }
      var stats: String { directory.file("stats.json") }
      var records: String { directory.file("records.ndjson") }
      var rejects: String { directory.file("rejects.ndjson") }

      init(vendors: String = "all", threads: Int = 2, chunkBytes: Int = 65536) throws {
        directory = try TemporaryDirectory()
        // A syntax error, a skip and a message, under a name with every character HTML
        // escapes (and a quote the shell needs quoted).
        let oddName = directory.file("a<b>&'c\".ndjson")
        try Data(
          (#"{"MsgBody": ["# + "\n"
            + #"{"MsgBody":[{"MsgType":"TIMTextElem","MsgContent":{"Text":"hi"}}],"#
            + #""To_Account":"u1","OfflinePushInfo":{"PushFlag":1}}"# + "\n"
            + #"{"MsgBody":[{"MsgType":"TIMTextElem","MsgContent":{"Text":"hello"}}],"#
            + #""To_Account":"u2"}"# + "\n").utf8
        ).write(to: URL(fileURLWithPath: oddName))
        let messages = try FileManager.default.contentsOfDirectory(
          atPath: CLI.packageRoot.appendingPathComponent("Corpus/messages").path
        ).filter { $0.hasSuffix(".ndjson") && $0 != "directory.ndjson" }.sorted()
          .map { "Corpus/messages/" + $0 }
        let inputs = [try Corpus.malformed] + messages + [oddName]
        inputBytes = try inputs.reduce(0) { total, path in
          let url =
            path.hasPrefix("/") ? URL(fileURLWithPath: path) : CLI.packageRoot.appending(path: path)
          let bytes = try Data(contentsOf: url)
          // A leading byte order mark is not part of the first line (SPEC 9 [2.1]).
          return total + bytes.count - (bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0)
        }
        let result = try CLI.run(
          inputs + [
            "--vendors", vendors, "--threads", "\(threads)", "--chunk-bytes", "\(chunkBytes)",
            "--stats", stats, "--rejects", rejects, "--report", report,
          ], in: CLI.packageRoot)
        #expect(result.status == 0, "\(result.stderrText)")
        try result.stdout.write(to: URL(fileURLWithPath: records))
      }

      /// Runs the checker on `page` (the report, or the DOM a browser made of it).
      func check(page: String, mode: String, vendors: String = "all") throws -> ProcessResult {
        try CLI.python(
          ReportTests.checker,
          [page, stats, records, rejects, vendors, "\(inputBytes)", mode])
      }
    }

    /// A run that stops early (here a truncated gzip input) says so at the top of its page,
    /// with the error the summary printed; a finished run's page has no such notice.
    @Test func aRunThatStoppedEarlySaysSoAtTheTopOfItsPage() throws {
      let dir = try TemporaryDirectory()
      defer { dir.remove() }
      let line =
        #"{"MsgBody":[{"MsgType":"TIMTextElem","MsgContent":{"Text":"hello <&> world"}}],"#
        + #""To_Account":"u1"}"#
      try Data(String(repeating: line + "\n", count: 3000).utf8).write(
        to: URL(fileURLWithPath: dir.file("in.ndjson")))
      let made = try CLI.sh(
        "gzip -c in.ndjson > whole.gz && head -c $(($(wc -c < whole.gz) / 2)) whole.gz > cut.gz",
        in: dir.url)
      #expect(made.status == 0, "\(made.stderrText)")
      let stopped = try CLI.run(
        ["cut.gz", "--report", "stopped.html", "-o", "out"], in: dir.url)
      #expect(stopped.status == 1)
      let error = try #require(
        CLI.lines(stopped.stderrText).first { $0.hasPrefix("push-transcode: error: ") }
      )
      .dropFirst("push-transcode: error: ".count)
      #expect(error.contains("truncated gzip stream"))
      // The page parses as XML, and its notice holds the error as the summary printed it.
      let notice = try CLI.python(
        #"""
        import sys, xml.etree.ElementTree as ET
        ns = {'h': 'http://www.w3.org/1999/xhtml'}
        root = ET.parse(sys.argv[1]).getroot()
        body = root.find('h:body', ns)
        first = list(body)[1]
        assert first.get('id') == 'stopped' and first.get('role') == 'alert', first.attrib
        print(first.find('h:span', ns).text)
        """#, [dir.file("stopped.html")])
      #expect(notice.status == 0, "\(notice.stderrText)")
      #expect(notice.stdoutText == error + "\n")
      let finished = try CLI.run(
        ["whole.gz", "--report", "finished.html", "-o", "out2"], in: dir.url)
      #expect(finished.status == 0, "\(finished.stderrText)")
      #expect(
        !String(decoding: try dir.read("finished.html"), as: UTF8.self).contains("id=\"stopped\""))
    }

    @Test func everyNumberOnThePageMatchesTheRun() throws {
      let run = try ReportRun()
      defer { run.directory.remove() }
      let result = try run.check(page: run.report, mode: "xml")
      #expect(result.status == 0, "\(result.stdoutText)\(result.stderrText)")
      #expect(result.stdoutText.contains("charts 9"), "\(result.stdoutText)")
    }

    @Test func selectedVendorsGetOneChartEach() throws {
      let run = try ReportRun(vendors: "oppo,apns")
      defer { run.directory.remove() }
      let result = try run.check(page: run.report, mode: "xml", vendors: "apns,oppo")
      #expect(result.status == 0, "\(result.stdoutText)\(result.stderrText)")
      #expect(result.stdoutText.contains("charts 2"), "\(result.stdoutText)")
    }

    /// The histogram and the examples are merged in input order: the same for any split.
    @Test func reportAndStatsDoNotDependOnThreadsOrChunks() throws {
      let one = try ReportRun(threads: 1, chunkBytes: 4 << 20)
      defer { one.directory.remove() }
      let many = try ReportRun(threads: 4, chunkBytes: 65536)
      defer { many.directory.remove() }
      #expect(try one.directory.read("stats.json") == many.directory.read("stats.json"))
      // Apart from the timing, the pages are the same (paths differ only in the temp folder).
      func stable(_ run: ReportRun) throws -> String {
        let page = String(decoding: try run.directory.read("report.html"), as: UTF8.self)
        return page.replacing(run.directory.path, with: "TMP")
          .replacing(/<span data-timing="(seconds|mb_per_s)">[^<]*</, with: "<span>T<")
      }
      #expect(try stable(one) == stable(many))
    }

    /// The stats JSON's histogram bucket bounds (inclusive upper bounds).
    @Test func payloadBytesBucketsHaveInclusiveUpperBounds() throws {
      let run = try ReportRun(vendors: "fcm")
      defer { run.directory.remove() }
      let stats = try JSONSerialization.jsonObject(with: run.directory.read("stats.json"))
      let histogram = (stats as? [String: Any])?["payload_bytes"] as? [String: Any]
      #expect(histogram?["bounds"] as? [Int] == (1...20).map { $0 * 256 })
      let counts = histogram?["counts"] as? [String: [Int]]
      #expect(counts?.keys.sorted() == ["fcm"])
      #expect(counts?["fcm"]?.count == 21)
    }

    /// Headless Chromium loads the page from its file: no console message, and the DOM it
    /// renders holds one chart per vendor with the stats' numbers (the same checker, on the
    /// serialized DOM). The screenshot is kept at `Browser.screenshot` (under `.build/`, each
    /// run replacing the last) and its path printed; the run's temporary folder, with the
    /// browser's profile and the run's outputs, is removed.
    @Test(.enabled(if: Browser.path != nil, "Chromium is missing and could not be installed"))
    func rendersInHeadlessChromium() throws {
      let browser = try #require(Browser.path)
      let run = try ReportRun()
      defer { run.directory.remove() }
      let url = URL(fileURLWithPath: run.report).absoluteString
      let common = [
        "--headless", "--disable-gpu", "--no-sandbox", "--hide-scrollbars",
        "--user-data-dir=" + run.directory.file("profile"), "--enable-logging=stderr", "--v=0",
      ]
      let dom = try CLI.execute(browser, common + ["--dump-dom", url])
      #expect(dom.status == 0, "\(dom.stderrText)")
      let consoleLines = CLI.lines(dom.stderrText).filter { $0.contains(":CONSOLE") }
      #expect(consoleLines.isEmpty, "console: \(consoleLines)")
      try dom.stdout.write(to: URL(fileURLWithPath: run.directory.file("dom.html")))
      let result = try run.check(page: run.directory.file("dom.html"), mode: "dom")
      #expect(result.status == 0, "\(result.stdoutText)\(result.stderrText)")
      #expect(result.stdoutText.contains("charts 9"), "\(result.stdoutText)")

      let screenshot = run.directory.file("report.png")
      let shot = try CLI.execute(
        browser, common + ["--window-size=1280,2400", "--screenshot=" + screenshot, url])
      #expect(shot.status == 0, "\(shot.stderrText)")
      let png = try Data(contentsOf: URL(fileURLWithPath: screenshot))
      #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47]) && png.count > 10_000)
      let kept = Browser.screenshot
      try FileManager.default.createDirectory(
        at: kept.deletingLastPathComponent(), withIntermediateDirectories: true)
      try? FileManager.default.removeItem(at: kept)
      try FileManager.default.moveItem(at: URL(fileURLWithPath: screenshot), to: kept)
      print("report screenshot: \(kept.path)")
    }

    /// `python3 -c checker REPORT STATS RECORDS REJECTS VENDORS INPUT_BYTES xml|dom`.
    static let checker = #"""
      import json, re, sys
      from html.parser import HTMLParser
      import xml.etree.ElementTree as ET

      page_path, stats_path, records_path, rejects_path, vendors_arg, input_bytes, mode = sys.argv[1:8]
      ORDER = ['apns', 'fcm', 'huawei', 'honor', 'harmony', 'xiaomi', 'oppo', 'vivo', 'meizu']
      vendors = ORDER if vendors_arg == 'all' else [v for v in ORDER if v in vendors_arg.split(',')]
      stats = json.load(open(stats_path))
      problems = []

      # A tree of (tag, attrs, children), children being nodes or strings.
      if mode == 'xml':
          def convert(element):
              tag = element.tag.split('}')[-1]
              children = [element.text] if element.text else []
              for child in element:
                  children.append(convert(child))
                  if child.tail:
                      children.append(child.tail)
              return (tag, dict(element.attrib), children)
          root = convert(ET.parse(page_path).getroot())
      else:
          VOID = {'meta', 'br', 'img', 'input', 'link', 'hr', 'area', 'base', 'col', 'source', 'wbr'}
          class Builder(HTMLParser):
              def __init__(self):
                  super().__init__(convert_charrefs=True)
                  self.root = ('document', {}, [])
                  self.stack = [self.root]
              def handle_starttag(self, tag, attrs):
                  node = (tag, dict(attrs), [])
                  self.stack[-1][2].append(node)
                  if tag not in VOID:
                      self.stack.append(node)
              def handle_startendtag(self, tag, attrs):
                  self.stack[-1][2].append((tag, dict(attrs), []))
              def handle_endtag(self, tag):
                  for index in range(len(self.stack) - 1, 0, -1):
                      if self.stack[index][0] == tag:
                          del self.stack[index:]
                          return
              def handle_data(self, data):
                  self.stack[-1][2].append(data)
          builder = Builder()
          builder.feed(open(page_path, encoding='utf-8').read())
          root = builder.root

      def text(node):
          return ''.join(c if isinstance(c, str) else text(c) for c in node[2])

      def walk(node, ancestors=()):
          yield node, ancestors
          for child in node[2]:
              if not isinstance(child, str):
                  yield from walk(child, ancestors + (node,))

      def resolve(path):
          parts = path.split('.')
          node = stats
          if parts[-1] == '*':
              for part in parts[:-1]:
                  node = node.get(part, {})
              return sum(node.values())
          for index, part in enumerate(parts):
              last = index == len(parts) - 1
              if isinstance(node, list):
                  node = node[int(part)]
              else:
                  node = node.get(part, 0 if last else {})
          return node

      def number(value):
          return int(value.replace(',', ''))

      # 1. Every number from the stats equals the stats JSON.
      checked = 0
      for node, _ in walk(root):
          path = node[1].get('data-stat')
          if path is not None:
              checked += 1
              if number(text(node)) != resolve(path):
                  problems.append(f'{path}: page {text(node)!r}, stats {resolve(path)}')

      # 2. No other number on the page: digits only inside marked elements.
      MARKS = ('data-stat', 'data-timing', 'data-bound', 'data-line', 'data-source')
      def unmarked_digits(node, marked):
          if node[0] in ('style', 'title', 'script', 'head'):
              return
          marked = marked or any(mark in node[1] for mark in MARKS)
          for child in node[2]:
              if isinstance(child, str):
                  if not marked and re.search(r'[0-9]', child):
                      problems.append(f'unmarked number in <{node[0]}>: {child.strip()!r}')
              else:
                  unmarked_digits(child, marked)
      unmarked_digits(root, False)

      # 3. Bounds and budgets are the documented constants (SPEC 4).
      BUDGETS = {'apns': {4096, 5120}, 'fcm': {4000}, 'huawei': {4096}, 'honor': {4096},
                 'harmony': {4096}}
      CAPS = {'xiaomi': {49, 127}, 'oppo': {50}, 'vivo': {40, 100}, 'meizu': {32, 100}}
      FIELDS = {'xiaomi': {4096}, 'oppo': {4000}, 'vivo': {1024}}
      bounds = stats.get('payload_bytes', {}).get('bounds', [256 * k for k in range(1, 21)])
      for node, ancestors in walk(root):
          kind = node[1].get('data-bound')
          if kind is None:
              continue
          value = number(text(node))
          vendor = next((a[1]['data-vendor'] for a in ancestors if 'data-vendor' in a[1]), None)
          ok = {'bucket': value == bounds[0], 'last': value == bounds[-1],
                'tick': value % 1024 == 0 and 0 <= value <= bounds[-1],
                'budget': value in BUDGETS.get(vendor, set()),
                'cap': value in CAPS.get(vendor, set()),
                'field': value in FIELDS.get(vendor, set())}.get(kind, False)
          if not ok:
              problems.append(f'data-bound {kind} {value} for {vendor}')

      # 4. Timing and bytes.
      out_bytes = len(open(records_path, 'rb').read()) + len(open(rejects_path, 'rb').read())
      for node, _ in walk(root):
          key = node[1].get('data-timing')
          if key == 'input_bytes' and number(text(node)) != int(input_bytes):
              problems.append(f'bytes in {text(node)} != {input_bytes}')
          if key == 'output_bytes' and number(text(node)) != out_bytes:
              problems.append(f'bytes out {text(node)} != {out_bytes}')
          if key in ('seconds', 'mb_per_s') and float(text(node).split()[0]) < 0:
              problems.append(f'{key} {text(node)}')

      # 5. One chart per selected vendor, in order, each with the vendor's bars; budgeted
      #    vendors have their budget line.
      charts = [n for n, _ in walk(root) if n[0] == 'svg' and 'histogram' in n[1].get('class', '')]
      if [c[1].get('data-vendor') for c in charts] != vendors:
          problems.append(f'charts {[c[1].get("data-vendor") for c in charts]} != {vendors}')
      for chart in charts:
          vendor = chart[1]['data-vendor']
          shown = sum(number(text(n)) for n, _ in walk(chart) if 'data-stat' in n[1])
          if shown != stats['records'].get(vendor, 0):
              problems.append(f'{vendor}: bars add up to {shown}, records {stats["records"].get(vendor, 0)}')
          lines = [n for n, _ in walk(chart) if 'budget-line' in n[1].get('class', '')]
          if len(lines) != len(BUDGETS.get(vendor, ())):
              problems.append(f'{vendor}: {len(lines)} budget lines')

      # 6. The histogram in the stats equals one recomputed from the records' payload bytes.
      decoder = json.JSONDecoder()
      recomputed = {}
      for raw in open(records_path, 'rb').read().split(b'\n'):
          if not raw:
              continue
          line = raw.decode('utf-8')
          vendor = json.loads(line)['vendor']
          if vendor == 'reject':
              continue
          start = 0
          while True:
              start = line.index('"payload":', start) + len('"payload":')
              try:
                  _, end = decoder.raw_decode(line, start)
              except ValueError:
                  continue
              if end == len(line) - 1:
                  break
          size = len(line[start:end].encode('utf-8'))
          bucket = min((size - 1) >> 8, 20)
          recomputed.setdefault(vendor, [0] * 21)[bucket] += 1
      if recomputed:
          if stats.get('payload_bytes', {}).get('counts') != recomputed:
              problems.append(f'payload_bytes {stats.get("payload_bytes")} != {recomputed}')
          if bounds != [256 * k for k in range(1, 21)]:
              problems.append(f'bounds {bounds}')

      # 7. Examples: the first lines of each reason, in input order, as the outputs show them.
      by_line = []
      for raw in open(rejects_path, 'rb').read().split(b'\n'):
          if raw:
              record = json.loads(raw)
              by_line.append((record['source'], record['line'], record.get('for'), record['reason']))
      firsts = {}
      for source, line, vendor, reason in by_line:
          if vendor is None:
              firsts.setdefault(('rejected', reason), []).append((source, line))
          else:
              firsts.setdefault(('vendor_rejects', vendor, reason), []).append((source, line))
      refused = {}
      for source, line, vendor, reason in by_line:
          if vendor is not None:
              refused.setdefault((source, line), []).append((vendor, reason))
      whole = [(key, refusals[0][1]) for key, refusals in refused.items() if len(refusals) == len(vendors)]
      for key, reason in whole:
          firsts.setdefault(('rejected', reason), []).append(key)
      ordered = {}
      for (source, line, _, _) in by_line:
          ordered.setdefault((source, line), len(ordered))
      written = set(ordered)
      for raw in open(records_path, 'rb').read().split(b'\n'):
          if raw:
              record = json.loads(raw)
              written.add((record['source'], record['line']))
      rows = 0
      for node, _ in walk(root):
          if node[0] != 'tr':
              continue
          stat = next((n[1]['data-stat'] for n, _ in walk(node) if 'data-stat' in n[1]), None)
          sources = [text(n) for n, _ in walk(node) if n[1].get('data-source') == '']
          lines = [number(text(n)) for n, _ in walk(node) if 'data-line' in n[1]]
          if not sources:
              continue
          rows += 1
          shown = list(zip(sources, lines))
          parts = stat.split('.')
          if parts[0] == 'skipped':
              expected_count = min(5, resolve(stat))
              if len(shown) != expected_count or any(key in written for key in shown):
                  problems.append(f'{stat}: examples {shown}')
          else:
              key = ('rejected', parts[1]) if parts[0] == 'rejected' else ('vendor_rejects', parts[1], parts[2])
              expected = sorted(set(firsts.get(key, [])), key=lambda k: ordered[k])[:5]
              if shown != expected:
                  problems.append(f'{stat}: examples {shown} != {expected}')
          quoted = [text(n) for n, _ in walk(node) if n[1].get('data-source') == 'quoted']
          first = sources[0]
          if quoted and quoted[0] != (first if re.fullmatch(r'[A-Za-z0-9_./,:+@%=-]+', first)
                                      else "'" + first.replace("'", "'\\''") + "'"):
              problems.append(f'{stat}: explain {quoted[0]!r} for {first!r}')
          if lines and lines[-1] != lines[0]:
              problems.append(f'{stat}: explain line {lines[-1]} != {lines[0]}')
      reasons = len(stats['rejected']) + len(stats['skipped'])
      reasons += sum(len(v) for v in stats.get('vendor_rejects', {}).values())
      if rows != reasons:
          problems.append(f'{rows} reason rows with examples, stats name {reasons} reasons')
      if checked < 20:
          problems.append(f'only {checked} numbers checked')
      if problems:
          print('\n'.join(problems[:40]))
          sys.exit(1)
      print(f'charts {len(charts)} numbers {checked} reasons {rows}')
      """#
  }
}

/// Headless Chromium for the report test, installed on demand by `scripts/setup-browser.sh`
/// (the only test that needs a browser, so `scripts/setup.sh` does not install one).
enum Browser {
  /// The browser's path, or nil (with the reason on stderr) when it cannot be installed.
  static let path: String? = {
    let script = CLI.packageRoot.appendingPathComponent("scripts/setup-browser.sh").path
    guard let result = try? CLI.execute("/bin/bash", [script]) else { return nil }
    guard result.status == 0 else {
      FileHandle.standardError.write(
        Data(("report browser test skipped: " + result.stderrText).utf8))
      return nil
    }
    let path = result.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)
    return path.isEmpty ? nil : CLI.lines(path).last.map(String.init)
  }()

  /// Where the report's screenshot is kept for a reader to look at: one file in the build
  /// folder, replaced by each run (the run's own folder is removed).
  static let screenshot = CLI.packageRoot.appendingPathComponent(".build/test-artifacts/report.png")
}
