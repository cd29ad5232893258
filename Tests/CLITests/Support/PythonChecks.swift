import Testing

/// Independent checkers in Python (its `json`, `zlib`, `gzip`), run on the CLI's outputs. Each
/// prints what is wrong and exits 1, or exits 0 silently.
enum PythonChecks {
  /// `validate.py INPUT REJECTS`: the reject records are exactly the lines that are not valid
  /// UTF-8 or not valid JSON (NaN/Infinity refused, lone surrogate escapes refused), with
  /// their line numbers; blank lines are not rejects. Prints the blank count on success.
  static let validate = #"""
    import base64, json, sys
    sys.setrecursionlimit(10000)  # has_lone_surrogate walks values up to 512 levels deep
    data = open(sys.argv[1], 'rb').read()
    lines = data.split(b'\n')
    if lines and lines[-1] == b'':
        lines.pop()

    def refuse(name):
        raise ValueError('constant ' + name)

    def has_lone_surrogate(value):
        if isinstance(value, str):
            return any(0xD800 <= ord(c) <= 0xDFFF for c in value)
        if isinstance(value, list):
            return any(has_lone_surrogate(v) for v in value)
        if isinstance(value, dict):
            return any(has_lone_surrogate(k) or has_lone_surrogate(v) for k, v in value.items())
        return False

    def depth(text):
        """The deepest nesting of arrays and objects (outside strings)."""
        level = deepest = 0
        in_string = escaped = False
        for c in text:
            if in_string:
                if escaped:
                    escaped = False
                elif c == '\\':
                    escaped = True
                elif c == '"':
                    in_string = False
            elif c == '"':
                in_string = True
            elif c in '[{':
                level += 1
                deepest = max(deepest, level)
            elif c in ']}':
                level -= 1
        return deepest

    expected = {}
    blank = 0
    raws = {}
    for number, raw in enumerate(lines, 1):
        if raw.endswith(b'\r'):
            raw = raw[:-1]
        body = raw[3:] if number == 1 and raw.startswith(b'\xef\xbb\xbf') else raw
        raws[number] = raw
        if body.strip(b' \t\r\n') == b'':
            blank += 1
            continue
        try:
            text = body.decode('utf-8')
        except UnicodeDecodeError:
            expected[number] = 'invalid-unicode'
            continue
        try:
            value = json.loads(text, parse_constant=refuse)
        except ValueError:
            # Precedence between a lone surrogate and a later syntax fault is the tool's call.
            lower = text.lower()
            expected[number] = 'syntax' if '\\ud' not in lower else None
            continue
        if depth(text) > 512:
            # SPEC 9 [2.2]: 513 levels fail (a lone surrogate further left would win).
            expected[number] = 'too-deep' if '\\ud' not in text.lower() else None
        elif has_lone_surrogate(value):
            expected[number] = 'invalid-unicode'

    problems = []
    seen = {}
    order = []
    for record in open(sys.argv[2], 'rb').read().split(b'\n'):
        if not record:
            continue
        r = json.loads(record, object_pairs_hook=lambda pairs: pairs)
        keys = [k for k, _ in r]
        r = dict(r)
        want = ['source', 'line', 'offset', 'vendor', 'reason', 'detail']
        want.append('raw' if 'raw' in r else 'raw_base64')
        if keys != want:
            problems.append('key order %s' % keys)
        if r['vendor'] != 'reject' or r['source'] != sys.argv[3]:
            problems.append('bad vendor/source %s %s' % (r['vendor'], r['source']))
        number = r['line']
        order.append(number)
        seen[number] = r['reason']
        raw = r['raw'].encode('utf-8', 'surrogatepass') if 'raw' in r else base64.b64decode(r['raw_base64'])
        if number in raws and raw not in (raws[number], raws[number] + b'\r'):
            problems.append('line %d: raw differs' % number)
        if not isinstance(r['offset'], int) or r['offset'] < 0:
            problems.append('line %d: offset %r' % (number, r['offset']))
    if order != sorted(order) or len(order) != len(set(order)):
        problems.append('reject lines not strictly increasing')
    if set(seen) != set(expected):
        problems.append('missing %s, extra %s' % (sorted(set(expected) - set(seen))[:20],
                                                  sorted(set(seen) - set(expected))[:20]))
    for number, reason in expected.items():
        if reason is not None and seen.get(number) not in (None, reason):
            problems.append('line %d: reason %s, expected %s' % (number, seen[number], reason))
    if len(expected) < 10:
        problems.append('too few bad lines (%d) for a meaningful check' % len(expected))
    if problems:
        print('\n'.join(problems[:30]))
        sys.exit(1)
    print(blank)
    """#

  /// `accounting.py INPUT STATS STREAM REJECTS`: the stats balance and match the outputs.
  static let accounting = #"""
    import json, sys
    from collections import Counter
    lines = open(sys.argv[1], 'rb').read().split(b'\n')
    if lines and lines[-1] == b'':
        lines.pop()
    blank = sum(1 for l in lines if l.strip(b' \t\r\n') == b'')
    s = json.load(open(sys.argv[2]))
    problems = []
    def check(ok, what):
        if not ok:
            problems.append(what)
    total = s['transcoded'] + sum(s['skipped'].values()) + sum(s['rejected'].values()) + s['blank']
    check(s['lines'] == len(lines), 'lines %d, file has %d' % (s['lines'], len(lines)))
    check(s['blank'] == blank, 'blank %d, file has %d' % (s['blank'], blank))
    check(total == s['lines'], 'transcoded + skipped + rejected + blank = %d != lines %d' % (total, s['lines']))
    check(sum(s['rejected'].values()) > 0 and sum(s['skipped'].values()) > 0, 'no rejects or skips')
    per_vendor = Counter()
    transcoded = set()
    for record in open(sys.argv[3], 'rb').read().split(b'\n'):
        if record:
            r = json.loads(record)
            per_vendor[r['vendor']] += 1
            transcoded.add(r['line'])
    check('reject' not in per_vendor, 'rejects in the stream despite --rejects')
    check(dict(per_vendor) == {k: v for k, v in s['records'].items() if v}, 'records %s vs %s' % (dict(per_vendor), s['records']))
    check(len(transcoded) == s['transcoded'], 'transcoded %d, stream has %d lines' % (s['transcoded'], len(transcoded)))
    reasons = Counter()
    refused = {}
    for record in open(sys.argv[4], 'rb').read().split(b'\n'):
        if record:
            pairs = json.loads(record, object_pairs_hook=lambda p: p)
            keys = [k for k, _ in pairs]
            r = dict(pairs)
            want = ['source', 'line', 'offset', 'vendor'] + (['for'] if 'for' in r else []) + ['reason', 'detail']
            want.append('raw' if 'raw' in r else 'raw_base64')
            check(keys == want, 'reject key order %s' % keys)
            check(r['vendor'] == 'reject', 'reject vendor %s' % r['vendor'])
            check(r['line'] not in transcoded or 'for' in r, 'line %d both rejected and transcoded' % r['line'])
            if 'for' not in r:
                reasons[r['reason']] += 1
            elif r['line'] not in transcoded and r['line'] not in refused:
                # Every selected vendor refused the line: it counts once, under the first
                # refusal's reason (SPEC 6.4).
                refused[r['line']] = r['reason']
    reasons.update(refused.values())
    check(dict(reasons) == {k: v for k, v in s['rejected'].items() if v}, 'reject reasons %s vs %s' % (dict(reasons), s['rejected']))
    if problems:
        print('\n'.join(problems[:30]))
        sys.exit(1)
    """#

  /// Runs `input` as a stream into `dir`: `stream.ndjson`, `stream-rejects.ndjson` and
  /// `stats.json`, the reference `batches` checks a batch directory against.
  static func writeStreamReference(of input: String, in dir: TemporaryDirectory) throws {
    let stream = try CLI.run([
      input, "--rejects", dir.file("stream-rejects.ndjson"), "--stats", dir.file("stats.json"),
    ])
    #expect(stream.status == 0, "\(stream.stderrText)")
    try dir.write("stream.ndjson", stream.stdout)
  }

  /// `batches.py DIR STREAM REJECTS STATS BATCH_RECORDS SUFFIX`: the batch directory against
  /// the stream run of the same input (records, rejects, stats) and its own manifest.
  static let batches = #"""
    import gzip, json, os, re, subprocess, sys, zlib
    from collections import defaultdict
    out, stream, rejects, stats, batch_records, suffix = sys.argv[1:7]
    batch_records = int(batch_records)
    problems = []
    def check(ok, what):
        if not ok:
            problems.append(what)
    manifest = json.load(open(os.path.join(out, 'manifest.json')))
    check(manifest['version'] == 1 and manifest['complete'] is True, 'version/complete')
    expected = defaultdict(list)
    for record in open(stream, 'rb').read().split(b'\n'):
        if record:
            expected[json.loads(record)['vendor']].append(record + b'\n')
    listed = set()
    got = defaultdict(list)
    counts = defaultdict(int)
    for b in manifest['batches']:
        vendor = b['vendor']
        counts[vendor] += 1
        name = '%s/batch-%06d.ndjson%s' % (vendor, counts[vendor], suffix)
        check(b['file'] == name, 'file %s, expected %s' % (b['file'], name))
        path = os.path.join(out, b['file'])
        listed.add(b['file'])
        raw = open(path, 'rb').read()
        check(len(raw) == b['file_bytes'], '%s file_bytes' % name)
        if suffix == '.gz':
            check(subprocess.run(['gzip', '-t', path]).returncode == 0, '%s: gzip -t' % name)
            data = gzip.decompress(raw)
        elif suffix == '.lz4':
            check(subprocess.run(['lz4', '-q', '-t', path]).returncode == 0, '%s: lz4 -t' % name)
            data = subprocess.run(['lz4', '-q', '-dc', path], capture_output=True, check=True).stdout
        else:
            data = raw
        check(len(data) == b['bytes'], '%s bytes' % name)
        check('%08x' % zlib.crc32(data) == b['crc32'], '%s crc32 %s vs %08x' % (name, b['crc32'], zlib.crc32(data)))
        records = data.split(b'\n')
        check(records[-1] == b'', '%s does not end with a newline' % name)
        records = [r + b'\n' for r in records[:-1]]
        check(len(records) == b['records'], '%s records' % name)
        check(0 < len(records) <= batch_records, '%s has %d records' % (name, len(records)))
        first, last = json.loads(records[0]), json.loads(records[-1])
        check(b['first'] == {'source': first['source'], 'line': first['line']}, '%s first' % name)
        check(b['last'] == {'source': last['source'], 'line': last['line']}, '%s last' % name)
        check(all(json.loads(r)['vendor'] == vendor for r in records), '%s: other vendors' % name)
        got[vendor].append(records)
    for vendor, batches in got.items():
        check(all(len(b) == batch_records for b in batches[:-1]), '%s: a short batch before the last' % vendor)
    check({v: sum(b, []) for v, b in got.items()} == dict(expected), 'batches differ from the stream run')
    on_disk = set()
    for root, dirs, files in os.walk(out):
        for f in files:
            on_disk.add(os.path.relpath(os.path.join(root, f), out))
    # The lock file stays, empty, once the run is done (OutputLock).
    check(os.path.getsize(os.path.join(out, '.lock')) == 0, '.lock is not empty')
    on_disk.discard('.lock')
    check(on_disk == listed | {'manifest.json', 'rejects.ndjson'}, 'files on disk: %s' % sorted(on_disk ^ (listed | {'manifest.json', 'rejects.ndjson'}))[:10])
    reject_bytes = open(os.path.join(out, 'rejects.ndjson'), 'rb').read()
    check(reject_bytes == open(rejects, 'rb').read(), 'rejects.ndjson differs from --rejects')
    check(manifest['rejects'] == {'file': 'rejects.ndjson', 'records': reject_bytes.count(b'\n')}, 'manifest rejects')
    check(manifest['stats'] == json.load(open(stats)), 'manifest stats differ from --stats')
    check(set(manifest['timing']) == {'seconds', 'mb_per_s'}, 'timing')
    if problems:
        print('\n'.join(problems[:30]))
        sys.exit(1)
    """#

  /// `corrupt_gzip.py INPUT N GOOD CORRUPT` (a generator, not a checker): writes the first N
  /// lines of INPUT to GOOD, and to CORRUPT a gzip member holding them followed by a member
  /// whose first deflate block has a reserved type, so a reader stops after exactly N lines.
  static let corruptGzip = #"""
    import gzip, sys
    lines = open(sys.argv[1], 'rb').read().splitlines(keepends=True)
    count = int(sys.argv[2])
    good = b''.join(lines[:count])
    open(sys.argv[3], 'wb').write(good)
    bad = bytearray(gzip.compress(b''.join(lines[count:]), mtime=0))
    bad[10] = 0x07  # BFINAL=1, BTYPE=11: a reserved block type
    open(sys.argv[4], 'wb').write(gzip.compress(good, mtime=0) + bytes(bad))
    """#

  /// `killed.py DIR BATCH_RECORDS`: after SIGKILL, no manifest, and every file under a final
  /// `batch-*` name is complete. Prints how many final batches there were.
  static let killed = #"""
    import gzip, json, os, re, subprocess, sys
    out, batch_records = sys.argv[1], int(sys.argv[2])
    problems = []
    if os.path.exists(os.path.join(out, 'manifest.json')):
        problems.append('manifest.json after SIGKILL')
    final = 0
    for root, dirs, files in os.walk(out):
        for f in files:
            path = os.path.join(root, f)
            if not re.fullmatch(r'batch-\d{6}\.ndjson(\.gz|\.lz4)?', f):
                continue
            final += 1
            try:
                raw = open(path, 'rb').read()
                if f.endswith('.gz'):
                    data = gzip.decompress(raw)
                elif f.endswith('.lz4'):
                    data = subprocess.run(['lz4', '-dc'], input=raw, capture_output=True,
                                          check=True).stdout
                else:
                    data = raw
                records = data.split(b'\n')
                assert records[-1] == b'', 'no final newline'
                assert len(records) - 1 == batch_records, '%d records' % (len(records) - 1)
                for r in records[:-1]:
                    json.loads(r)
            except Exception as error:
                problems.append('%s: incomplete: %s' % (path, error))
    if problems:
        print('\n'.join(problems[:30]))
        sys.exit(1)
    print(final)
    """#
}
