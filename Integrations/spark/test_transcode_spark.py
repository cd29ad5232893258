"""End-to-end test: push-transcode on Spark writes what the single-machine run writes.

Run through Integrations/spark/run-tests.sh (it makes the venv with pyspark==4.3.0).
Environment:
  PUSH_TRANSCODE_BIN  the binary (default: `swift build -c release --show-bin-path` of the
                      project root + /push-transcode); it must exist: the test never skips.
  SPARK_TEST_MASTER   default local[2,2]; local-cluster[2,1,1024] runs executor processes.
  GEN_CORPUS          default ../shared/bench/gen_corpus.py beside the project root.

What "equal" means: for every vendor and for the rejects, the Spark output files of that
vendor, decompressed and concatenated in name order, give the same records in the same order,
byte for byte, as the single-machine `push-transcode CORPUS -o - --threads 1` once `source`
and `line` are set aside (a task reads its split on stdin: `"source":"-"`, line within the
split). With the driver's default base64 transport that holds for every line, invalid UTF-8
included. With `--input-transport text`, TRANSFORM decodes lines as UTF-8 and the child sees
U+FFFD instead of invalid bytes (the single-machine run rejects those lines as
invalid-unicode): those lines are left out of the equality, and each must still be accounted
for by a record or reject at the same input line, found from the split (the part file number)
and the line within the split.
"""

import gzip
import json
import os
import re
import shutil
import subprocess
import sys
import time

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)

import transcode_spark as ts  # noqa: E402

SEED, SIZE_MB = 1, 3  # seed 1: 3 lines with invalid UTF-8 among 24 malformed
SPLIT_MB = 1          # 3 MB corpus -> 3 splits, so records cross split boundaries
BATCH_RECORDS = 1500  # several files per split for the bigger vendors
MASTER = os.environ.get("SPARK_TEST_MASTER", "local[2,2]")

PREFIX = re.compile(rb'^\{"source":("(?:[^"\\]|\\.)*"),"line":([0-9]+),')
PART = re.compile(r'^part-([0-9]{5})-[0-9a-f-]{36}\.c([0-9]{3})\.txt\.gz$')


def binary_path():
    b = os.environ.get("PUSH_TRANSCODE_BIN")
    if not b:
        bin_dir = subprocess.run(["swift", "build", "-c", "release", "--show-bin-path"], cwd=ROOT,
                                 check=True, capture_output=True, text=True).stdout.strip()
        b = os.path.join(bin_dir, "push-transcode")
    if not (os.path.isfile(b) and os.access(b, os.X_OK)):
        pytest.fail("push-transcode binary not found at %s (build it, or set PUSH_TRANSCODE_BIN)"
                    % b)
    return os.path.abspath(b)


def normalise(rec):
    """(line, record without its source and line, source) of one record line."""
    m = PREFIX.match(rec)
    assert m, "record does not start with source and line: %r" % rec[:120]
    return int(m.group(2)), b"{" + rec[m.end():], json.loads(m.group(1))


def single_machine_by_vendor(out, skip_source=None):
    by = {}
    for rec in out.split(b"\n")[:-1]:
        vendor = json.loads(rec)["vendor"]
        line, norm, source = normalise(rec)
        if source != skip_source:
            by.setdefault(vendor, []).append((line, norm))
    return by


def part_files(vdir):
    files = []
    for name in os.listdir(vdir):
        if name.startswith("."):
            continue
        m = PART.match(name)
        assert m, "unexpected file %s in %s" % (name, vdir)
        files.append((int(m.group(1)), int(m.group(2)), name))
    return sorted(files)


def spark_by_vendor(out, first_line, skipped=None):
    """vendor -> [(global line, normalised record)] read from a Spark output directory;
    records whose source is not `-` go to skipped[split] instead."""
    by = {}
    for d in sorted(os.listdir(out)):
        if not d.startswith("vendor="):
            continue
        vendor = d[len("vendor="):]
        assert vendor in ts.VENDORS + (ts.REJECT,), d
        recs = by.setdefault(vendor, [])
        position = {}  # split -> records read so far from that split's files
        for split, _, name in part_files(os.path.join(out, d)):
            with gzip.open(os.path.join(out, d, name)) as f:
                data = f.read()
            assert data.endswith(b"\n")
            for rec in data.split(b"\n")[:-1]:
                line, norm, source = normalise(rec)
                pos = position[split] = position.get(split, -1) + 1
                if source != "-":
                    assert skipped is not None, "record with source %r" % source
                    skipped.setdefault(split, []).append((pos, line, norm))
                    continue
                recs.append((first_line[split] + line - 1, norm))
    return by


@pytest.fixture(scope="module")
def binary():
    return binary_path()


@pytest.fixture(scope="module")
def corpus(tmp_path_factory, binary):
    # As the Swift tests do: the shared benchmark kit's generator when it is beside the
    # checkout, else the project's own (Corpus/make_test_corpus.py, the same arguments), so a
    # clone on its own runs every test.
    kit = os.path.join(os.path.dirname(ROOT), "shared", "bench", "gen_corpus.py")
    own = os.path.join(ROOT, "Corpus", "make_test_corpus.py")
    gen = os.environ.get("GEN_CORPUS", kit if os.path.exists(kit) else own)
    if not os.path.exists(gen):
        pytest.skip(f"{gen} is missing: the Spark tests that need a generated corpus are skipped")
    data = subprocess.run([sys.executable, gen, str(SEED), str(SIZE_MB), "--malformed"],
                          check=True, capture_output=True).stdout
    # End without a final newline: the last line of the last split has no terminator.
    data = data.rstrip(b"\n")
    path = tmp_path_factory.mktemp("corpus") / "corpus.ndjson"
    path.write_bytes(data)
    lines = data.split(b"\n")
    bad_utf8 = set()
    for i, line in enumerate(lines, 1):
        try:
            line.decode("utf-8")
        except UnicodeDecodeError:
            bad_utf8.add(i)
    assert bad_utf8, "the corpus should have lines with invalid UTF-8"
    return {"path": str(path), "lines": len(lines), "bad_utf8": bad_utf8}


@pytest.fixture(scope="module")
def expected(corpus, binary):
    run = subprocess.run([binary, corpus["path"], "-o", "-", "--threads", "1"],
                         capture_output=True, timeout=120)
    assert run.returncode == 0, run.stderr.decode(errors="replace")
    return single_machine_by_vendor(run.stdout)


@pytest.fixture(scope="module")
def spark_submit_run(tmp_path_factory, corpus, binary):
    """The README's spark-submit line, run as written (local master, --files)."""
    out = str(tmp_path_factory.mktemp("run1") / "out")
    spark_submit = os.path.join(os.path.dirname(sys.executable), "spark-submit")
    cmd = [spark_submit, "--master", MASTER, "--conf", "spark.ui.enabled=false",
           "--files", binary, os.path.join(HERE, "transcode_spark.py"),
           "--input", corpus["path"], "--output", out,
           "--split-mb", str(SPLIT_MB), "--batch-records", str(BATCH_RECORDS),
           "--", "--max-line-bytes", "16777216"]
    t = time.time()
    run = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    sys.stderr.write("spark-submit run: %.1f s\n" % (time.time() - t))
    log = run.stdout + run.stderr  # spark-submit merges the Python driver's stderr into stdout
    assert run.returncode == 0, log[-6000:]
    assert "push-transcode: " in log  # the version line for job logs
    return out


@pytest.fixture(scope="module")
def spark():
    from pyspark.sql import SparkSession
    s = (SparkSession.builder.master(MASTER).appName("push-transcode-test")
         .config("spark.ui.enabled", "false")
         .config("spark.sql.files.maxPartitionBytes", str(SPLIT_MB * 1024 * 1024))
         .getOrCreate())
    yield s
    s.stop()


@pytest.fixture(scope="module")
def first_line(spark, corpus):
    """split -> global number of its first line, from Spark's own split of the corpus
    (same maxPartitionBytes and parallelism as the runs). Test-only: an extra pass."""
    from pyspark.sql import functions as F
    rows = (spark.read.text(corpus["path"], lineSep="\n")
            .select(F.spark_partition_id().alias("p"), "_metadata.file_block_start")
            .groupBy("p").agg(F.count("*").alias("n"), F.min("file_block_start").alias("start"))
            .orderBy("start").collect())
    assert [r.p for r in rows] == list(range(len(rows))), "splits not in file order"
    assert len(rows) >= 2, "the corpus should span several splits"
    first, n = {}, 1
    for r in rows:
        first[r.p] = n
        n += r.n
    assert n - 1 == corpus["lines"]
    return first


def assert_same_as_single_machine(got, expected, corpus, vendors=ts.VENDORS, changed=()):
    """Equality per vendor and for the rejects; lines in `changed` (input Spark altered) are
    left out of it but must still be accounted for at their line."""
    bad = set(changed)
    assert set(got) <= set(vendors) | {ts.REJECT}, sorted(got)
    assert set(expected) <= set(vendors) | {ts.REJECT}, sorted(expected)
    for vendor in tuple(vendors) + (ts.REJECT,):
        want = [r for r in expected.get(vendor, []) if r[0] not in bad]
        have = [r for r in got.get(vendor, []) if r[0] not in bad]
        assert want, "%s: no records in the single-machine run" % vendor
        assert len(have) == len(want), (vendor, len(have), len(want))
        for i, (h, w) in enumerate(zip(have, want)):
            assert h[1] == w[1], "%s: record %d differs (line %d):\nspark:  %r\nsingle: %r" % (
                vendor, i, w[0], h[1][:400], w[1][:400])
        # Beyond the requirement: part file + line within the split map back to input lines.
        assert [r[0] for r in have] == [r[0] for r in want], "%s: line mapping" % vendor
    seen = {r[0] for recs in got.values() for r in recs}
    rejected_here = {r[0] for r in expected[ts.REJECT]}
    for line in sorted(bad):
        assert line in rejected_here, "single-machine run did not reject line %d" % line
        assert line in seen, "line %d (invalid UTF-8) is missing from the Spark output" % line
    # The invalid UTF-8 lines that were compared are rejects on both sides.
    spark_rejected = {r[0] for r in got.get(ts.REJECT, [])}
    assert corpus["bad_utf8"] - bad <= spark_rejected


def test_spark_output_equals_single_machine(spark_submit_run, spark, first_line, corpus,
                                            expected):
    out = spark_submit_run
    assert os.path.exists(os.path.join(out, "_SUCCESS"))
    assert_same_as_single_machine(spark_by_vendor(out, first_line), expected, corpus)


def test_text_transport_changes_only_invalid_utf8(spark, binary, first_line, corpus, expected,
                                                  tmp_path):
    """--input-transport text: TRANSFORM decodes lines as UTF-8, so the child gets U+FFFD for
    invalid bytes. Those lines are left out of the equality, and must still be accounted for."""
    out = str(tmp_path / "out")
    ts.write(ts.transcode(spark, [corpus["path"]], binary=binary, transport="text"), out,
             batch_records=BATCH_RECORDS)
    got = spark_by_vendor(out, first_line)
    assert_same_as_single_machine(got, expected, corpus, changed=corpus["bad_utf8"])
    # ... and they do differ: none of them is an invalid-unicode reject any more.
    unicode_rejects = {r[0] for r in got[ts.REJECT] if b'"reason":"invalid-unicode"' in r[1]}
    assert not unicode_rejects & corpus["bad_utf8"]


def test_vendor_subset(spark, binary, first_line, corpus, tmp_path):
    vendors = ["apns", "vivo"]
    run = subprocess.run([binary, corpus["path"], "-o", "-", "--threads", "1",
                          "--vendors", "vivo,apns"], capture_output=True, timeout=120)
    assert run.returncode == 0, run.stderr.decode(errors="replace")
    out = str(tmp_path / "out")
    ts.write(ts.transcode(spark, [corpus["path"]], binary=binary, vendors="vivo,apns"), out,
             batch_records=BATCH_RECORDS)
    assert_same_as_single_machine(spark_by_vendor(out, first_line),
                                  single_machine_by_vendor(run.stdout), corpus, vendors)


def test_directory_shipped_with_the_job(spark, binary, first_line, corpus, tmp_path):
    """--directory FILE shipped like --files: names reach the payloads; bad directory lines are
    rejected by every task, first in its reject output (documented: per task)."""
    names = tmp_path / "names-dir.ndjson"
    # A nickname for the corpus's Tencent senders (whichever generator made it), then one bad
    # directory line.
    senders = set()
    with open(corpus["path"], "rb") as f:
        for raw in f:
            try:
                message = json.loads(raw)
            except ValueError:
                continue
            sender = message.get("From_Account") if isinstance(message, dict) else None
            if isinstance(sender, str) and sender and sender.isascii() and sender.isprintable():
                senders.add(sender)
    assert senders, "the corpus has no Tencent sender"
    entries = [json.dumps({"To_Account": sender, "ProfileItem": [
        {"Tag": "Tag_Profile_IM_Nick", "Value": "Zelda Dir"}]}) for sender in sorted(senders)]
    names.write_bytes(("\n".join(entries) + '\n{"To_Account":\n').encode())
    spark.sparkContext.addFile(str(names))
    run = subprocess.run([binary, corpus["path"], "-o", "-", "--threads", "1",
                          "--directory", str(names)], capture_output=True, timeout=120)
    assert run.returncode == 0, run.stderr.decode(errors="replace")
    assert b"Zelda Dir" in run.stdout
    dir_rejects = [normalise(r)[1] for r in run.stdout.split(b"\n")[:-1]
                   if r.startswith(b'{"source":%s,' % json.dumps(str(names)).encode())]
    assert len(dir_rejects) == 1
    out = str(tmp_path / "out")
    ts.write(ts.transcode(spark, [corpus["path"]], binary=binary,
                          binary_args=["--directory", names.name]), out,
             batch_records=BATCH_RECORDS)
    skipped = {}
    assert_same_as_single_machine(spark_by_vendor(out, first_line, skipped),
                                  single_machine_by_vendor(run.stdout, str(names)), corpus)
    assert sorted(skipped) == sorted(first_line)  # every task, once each, at the front
    for split, recs in skipped.items():
        assert [(pos, norm) for pos, _, norm in recs] == [(0, dir_rejects[0])], (split, recs)


def _normalised_files(out):
    files = {}
    for d in sorted(os.listdir(out)):
        if d.startswith("vendor="):
            for split, c, name in part_files(os.path.join(out, d)):
                with open(os.path.join(out, d, name), "rb") as f:
                    files["%s/part-%05d.c%03d" % (d, split, c)] = f.read()
    return files


def test_rerun_into_fresh_directory_is_identical(spark_submit_run, spark, binary, corpus,
                                                 tmp_path):
    out = str(tmp_path / "out")
    df = ts.transcode(spark, [corpus["path"]], binary=binary,
                      binary_args=["--max-line-bytes", "16777216"])
    ts.write(df, out, batch_records=BATCH_RECORDS)
    assert os.path.exists(os.path.join(out, "_SUCCESS"))
    a, b = _normalised_files(spark_submit_run), _normalised_files(out)
    assert sorted(a) == sorted(b)
    for name in a:
        assert gzip.decompress(a[name]) == gzip.decompress(b[name]), name
        assert a[name] == b[name], "%s: same content, different gzip bytes" % name


def test_failing_child_fails_the_job(spark, binary, corpus, tmp_path):
    out = str(tmp_path / "out")
    df = ts.transcode(spark, [corpus["path"]], binary=binary, binary_args=["--max-rejects", "0"])
    with pytest.raises(Exception) as e:
        ts.write(df, out, batch_records=BATCH_RECORDS)
    assert "exited with status 3" in str(e.value) or "status 3" in str(e.value), str(e.value)[:2000]
    assert not os.path.exists(os.path.join(out, "_SUCCESS"))
    committed = [os.path.join(r, f) for r, _, fs in os.walk(out) if "_temporary" not in r
                 for f in fs if f.startswith("part-")]
    assert committed == []


def test_unexpected_vendor_fails_the_task(spark, tmp_path):
    rows = spark.createDataFrame([("apns", 1, '{"a":1}'), ("apn\u0073x", 2, '{"a":2}')],
                                 "vendor string, line bigint, record string")
    with pytest.raises(Exception) as e:
        ts.validate(rows, ts.select_vendors("all")).collect()
    assert "unexpected row (vendor=apnsx" in str(e.value)


def test_driver_refuses_reserved_binary_args():
    for args in (["-o", "x"], ["--framing", "ndjson"], ["--rejects", "r.ndjson"], ["in.ndjson"]):
        with pytest.raises(ValueError):
            ts.check_binary_args(args)
    ts.check_binary_args(["--directory", "names.ndjson", "--max-rejects", "10"])
    with pytest.raises(ValueError):
        ts.select_vendors("apns,nokia")
    assert ts.select_vendors("vivo,apns") == ["apns", "vivo"]


def test_command_line():
    assert ts.command("push-transcode", ts.VENDORS, ["--directory", "a b.ndjson"]) == (
        "set -o pipefail && base64 -d -i | ./push-transcode - -o - --framing tsv --threads 1 "
        "--directory 'a b.ndjson'")
    assert ts.command("pt", ["apns", "vivo"], [], workdir="/tmp/x y", transport="text") == (
        "cd '/tmp/x y' && exec ./pt - -o - --framing tsv --threads 1 --vendors apns,vivo")
    assert ts._sql_string("a'b\\c") == "'a\\'b\\\\c'"
