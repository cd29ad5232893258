#!/usr/bin/env python3
"""Run push-transcode on Apache Spark.

    spark-submit --master MASTER --files path/to/push-transcode[,names.ndjson] \\
        Integrations/spark/transcode_spark.py --input IN [IN...] --output OUT \\
        [--vendors LIST] [--batch-records N] [--split-mb N] [-- BINARY-ARGS...]

Each Spark task feeds its split of the input, line by line, to
`push-transcode - -o - --framing tsv --threads 1 BINARY-ARGS` through SQL
`TRANSFORM` (the JVM checks the child's exit status: a failing child fails the
task, retries re-run it, and a job that fails leaves no `_SUCCESS`). Lines travel
base64-encoded and `base64 -d` (GNU coreutils) restores their exact bytes before
the binary reads them: TRANSFORM hands the child text decoded as UTF-8, which
would turn invalid UTF-8 into U+FFFD (`--input-transport text` does that). The
`vendor<TAB>line<TAB>record-json` rows are validated, sorted within the split
into the order the child wrote them, and written through Spark's committer as

    OUT/vendor=<id>/part-<split>-<job-uuid>.c<NNN>.txt.gz   (records)
    OUT/vendor=reject/part-...                              (rejects)
    OUT/_SUCCESS

Each file holds at most --batch-records records; reading `part-*` of one vendor
in name order gives that vendor's records in input order. Inside a task the
binary reads stdin: records carry `"source":"-"` and the line number within the
split (`part-<split>`); `key` joins records back to input messages.
"""

import argparse
import os
import shlex
import subprocess
import sys

VENDORS = ("apns", "fcm", "huawei", "honor", "harmony", "xiaomi", "oppo", "vivo", "meizu")
REJECT = "reject"

# Options the driver sets itself, or that would write files a task cannot hand back.
_RESERVED = {"-o", "--output", "--framing", "--threads", "--rejects", "--stats", "--compress",
             "--level", "--batch-records", "--force", "--vendors", "--progress", "-"}


def select_vendors(spec):
    """Canonical-order list of the vendor ids in `spec` ("all" or comma-separated)."""
    if spec is None or spec == "all":
        return list(VENDORS)
    wanted = [v.strip() for v in spec.split(",") if v.strip()]
    unknown = [v for v in wanted if v not in VENDORS]
    if unknown or not wanted:
        raise ValueError("unknown vendor id(s): %s (known: %s)" % (",".join(unknown) or "none given",
                                                                ",".join(VENDORS)))
    return [v for v in VENDORS if v in wanted]


def check_binary_args(args):
    for a in args:
        name = a.split("=", 1)[0]
        if name in _RESERVED:
            raise ValueError("binary argument %r is set by the driver or cannot work inside a "
                             "Spark task (use the driver's own options)" % a)
        if not a.startswith("-") and a not in args_values(args):
            raise ValueError("binary argument %r looks like an input file: inputs are the "
                             "driver's --input" % a)


def args_values(args):
    """Tokens that are values of an option (`--directory FILE`), not positional inputs."""
    vals = set()
    for i, a in enumerate(args[:-1]):
        if a.startswith("--") and "=" not in a and not args[i + 1].startswith("-"):
            vals.add(args[i + 1])
    return vals


def _sql_string(s):
    return "'" + s.replace("\\", "\\\\").replace("'", "\\'") + "'"


def _is_local_master(master):
    return master == "local" or master.startswith("local[")


def shipped_files(sc):
    """Names under which `--files` made files available to tasks (spark.files; YARN puts them
    in spark.yarn.dist.files, where `path#alias` names the file `alias`)."""
    names = set()
    conf = sc.getConf()
    for key in ("spark.files", "spark.yarn.dist.files"):
        for f in conf.get(key, "").split(","):
            if f.strip():
                f = f.strip()
                names.add(f.split("#", 1)[1] if "#" in f else os.path.basename(f))
    return names


def ship_binary(spark, binary):
    """Make the binary available to every task; return (file name, directory for local mode).

    `binary` is either a path on the driver (shipped with SparkContext.addFile) or the name of
    a file already shipped with `spark-submit --files`. Tasks on executors find shipped files in
    their working directory; in plain local mode they are under SparkFiles' root instead, so the
    command changes into it (relative `--directory` files shipped with --files work the same).
    """
    from pyspark import SparkFiles
    sc = spark.sparkContext
    name = os.path.basename(binary)
    if name not in shipped_files(sc):
        if not os.path.isfile(binary):
            raise FileNotFoundError("push-transcode binary %r: not a file on the driver and not "
                                    "shipped with --files" % binary)
        sc.addFile(os.path.abspath(binary))
    workdir = SparkFiles.getRootDirectory() if _is_local_master(sc.master) else None
    return name, workdir


def binary_version(spark, name):
    """`push-transcode --version` of the shipped copy, when the driver can run it (for job logs)."""
    from pyspark import SparkFiles
    for path in (SparkFiles.get(name), os.path.join(".", name)):
        try:
            out = subprocess.run([path, "--version"], capture_output=True, text=True, timeout=30)
        except (OSError, subprocess.SubprocessError):
            continue
        if out.returncode == 0 and out.stdout.strip():
            return out.stdout.strip()
    return None


TRANSPORTS = ("base64", "text")


def command(name, vendors, binary_args, workdir=None, transport="base64"):
    """The shell command each task runs (TRANSFORM starts it with /bin/bash -c)."""
    argv = ["./" + name, "-", "-o", "-", "--framing", "tsv", "--threads", "1"]
    if list(vendors) != list(VENDORS):
        argv += ["--vendors", ",".join(vendors)]
    argv += list(binary_args)
    run = " ".join(shlex.quote(a) for a in argv)
    if transport == "base64":
        # -i: Spark's base64() breaks its output into 76-character lines with CRLF. pipefail:
        # the task fails with the binary's status, or base64's when the binary succeeded.
        cmd = "set -o pipefail && base64 -d -i | " + run
    elif transport == "text":
        cmd = "exec " + run
    else:
        raise ValueError("input transport must be one of %s" % ", ".join(TRANSPORTS))
    if workdir:
        cmd = "cd %s && %s" % (shlex.quote(workdir), cmd)
    return cmd


def transcode(spark, inputs, *, binary="push-transcode", vendors="all", binary_args=(),
              transport="base64", view="push_transcode_input"):
    """DataFrame (vendor, split, line, seq, record) sorted within partitions for writing."""
    from pyspark.sql import functions as F

    selected = select_vendors(vendors)
    binary_args = list(binary_args)
    check_binary_args(binary_args)
    name, workdir = ship_binary(spark, binary)
    cmd = command(name, selected, binary_args, workdir, transport)

    # lineSep="\n": the default reader also splits on a bare CR. A CRLF line keeps its CR, which
    # the binary strips as part of the line ending.
    lines = spark.read.text(list(inputs), lineSep="\n")
    if transport == "base64":
        # The text reader keeps a line's bytes as they are (no UTF-8 check); the cast to binary
        # keeps them too. Each row carries its own "\n", so `base64 -d` of the concatenated rows
        # is the split's bytes (GNU base64 decodes padded quanta one after another).
        lines = lines.select(F.base64(F.concat(F.col("value").cast("binary"),
                                               F.unhex(F.lit("0A")))).alias("value"))
    lines.createOrReplaceTempView(view)
    tab = "ROW FORMAT DELIMITED FIELDS TERMINATED BY '\\t' LINES TERMINATED BY '\\n'"
    rows = spark.sql(
        "SELECT TRANSFORM(value) {tab} USING {cmd} "
        "AS (vendor STRING, line BIGINT, record STRING) {tab} FROM {view}"
        .format(tab=tab, cmd=_sql_string(cmd), view=view))

    checked = validate(rows, selected).select(
        "vendor",
        F.spark_partition_id().alias("split"),
        "line",
        # Position of the row in the child's output: the child writes in input order, then
        # vendor order, so this restores its order within each vendor (sorts are not stable).
        F.monotonically_increasing_id().alias("seq"),
        "record")
    # Not sorted by `line`: `seq` already follows it, and directory rejects (written first,
    # numbered by directory line) must stay first.
    return checked.sortWithinPartitions("vendor", "split", "seq")


def validate(rows, selected):
    """Fail the task on a row whose vendor is not a selected id or `reject`, or that is not
    `vendor<TAB>line<TAB>{...}`, before anything is partitioned by it."""
    from pyspark.sql import functions as F
    allowed = list(selected) + [REJECT]
    ok = (F.col("vendor").isin(allowed) & F.col("line").isNotNull() & (F.col("line") > 0)
          & F.col("record").startswith("{"))
    bad = F.raise_error(F.concat(
        F.lit("push-transcode wrote an unexpected row (vendor="),
        F.coalesce(F.col("vendor"), F.lit("NULL")), F.lit(", line="),
        F.coalesce(F.col("line").cast("string"), F.lit("NULL")), F.lit(", record starts "),
        F.coalesce(F.substring("record", 1, 80), F.lit("NULL")), F.lit(")")))
    return rows.select(F.when(ok, F.col("vendor")).otherwise(bad).alias("vendor"),
                       "line", "record")


def write(df, output, *, batch_records=100000, compression="gzip"):
    (df.select("vendor", "record").write
       .partitionBy("vendor")
       .option("compression", compression)
       .option("maxRecordsPerFile", int(batch_records))
       .mode("errorifexists")
       .text(output))


def parse_args(argv):
    if "--" in argv:
        i = argv.index("--")
        argv, binary_args = argv[:i], argv[i + 1:]
    else:
        binary_args = []
    p = argparse.ArgumentParser(
        prog="transcode_spark.py",
        description="Run push-transcode on Spark; arguments after `--` go to the binary.")
    p.add_argument("--input", nargs="+", required=True,
                   help="NDJSON input paths, directories or globs (plain or .gz)")
    p.add_argument("--output", required=True, help="output directory (must not exist)")
    p.add_argument("--vendors", default="all", help="comma-separated vendor ids, or all")
    p.add_argument("--batch-records", type=int, default=100000,
                   help="at most this many records per output file (maxRecordsPerFile)")
    p.add_argument("--binary", default="push-transcode",
                   help="name of the binary shipped with --files, or a path on the driver")
    p.add_argument("--split-mb", type=int, default=None,
                   help="input split size in MB (spark.sql.files.maxPartitionBytes)")
    p.add_argument("--compression", default="gzip", help="output codec (default gzip)")
    p.add_argument("--input-transport", choices=TRANSPORTS, default="base64",
                   help="base64 (default): the binary reads each line's exact bytes; text: "
                        "TRANSFORM's own UTF-8 text, where invalid UTF-8 becomes U+FFFD")
    a = p.parse_args(argv)
    a.binary_args = binary_args
    if a.batch_records < 1:
        p.error("--batch-records must be at least 1")
    try:
        select_vendors(a.vendors)
        check_binary_args(binary_args)
    except ValueError as e:
        p.error(str(e))
    return a


def main(argv=None):
    a = parse_args(sys.argv[1:] if argv is None else argv)
    from pyspark.sql import SparkSession
    spark = SparkSession.builder.appName("push-transcode").getOrCreate()
    if a.split_mb:
        spark.conf.set("spark.sql.files.maxPartitionBytes", str(a.split_mb * 1024 * 1024))
    df = transcode(spark, a.input, binary=a.binary, vendors=a.vendors, binary_args=a.binary_args,
                   transport=a.input_transport)
    version = binary_version(spark, os.path.basename(a.binary))
    print("push-transcode: %s" % (version or "version unknown (binary not runnable on driver)"),
          file=sys.stderr)
    spark.sparkContext.setJobDescription("push-transcode %s -> %s" % (version or "", a.output))
    try:
        write(df, a.output, batch_records=a.batch_records, compression=a.compression)
    finally:
        spark.stop()


if __name__ == "__main__":
    main()
