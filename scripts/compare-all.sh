#!/usr/bin/env bash
# Every compare.sh row of BENCHMARKS.md's table in one run: the default rows, the README's jobs
# (fresh directories, as users make them), the `--force` reruns into one directory, the
# nine-vendor jobs into a fresh directory on the disk under WORK (default /tmp, not tmpfs), the
# apns batch rows into fresh directories on tmpfs, and the apns stream from the corpus
# compressed (gzip -6, lz4), as exported logs often come; their MB/s count decoded bytes.
# Usage (from the project root): scripts/compare-all.sh [SIZE_MB] [ROUNDS]   (default 128 7)
set -euo pipefail
cd "$(dirname "$0")/.."
# The apns batch rows again on tmpfs, each round into a fresh directory: the program's share,
# next to compare.sh's lz4x2/gzipx2 on the disk under WORK.
SHM=$(mktemp -d -p /dev/shm compare-all.XXXXXX 2>/dev/null || mktemp -d)
trap 'rm -rf "$SHM"' EXIT
EXTRA=$'lz4x2_force\t{bin} {in} --vendors apns --threads 2 --compress lz4 -o {work}/lf --force'
EXTRA+=$'\ngzipx2_force\t{bin} {in} --vendors apns --threads 2 --compress gzip --level 1 -o {work}/gf --force'
EXTRA+=$'\njob_lz4_disk\trm -rf {work}/jld; {bin} {in} --threads 2 --compress lz4 -o {work}/jld'
EXTRA+=$'\njob_lz4_disk_force\t{bin} {in} --threads 2 --compress lz4 -o {work}/jlf --force'
EXTRA+=$'\njob_gzip_disk\trm -rf {work}/jgd; {bin} {in} --threads 2 --compress gzip -o {work}/jgd'
EXTRA+=$'\nstream_x2\t{bin} {in} -o - --threads 2 > /dev/null'
EXTRA+=$'\nlz4x2_tmpfs\t{bin} {in} --vendors apns --threads 2 --compress lz4 -o $(mktemp -u -p '"$SHM"$' l.XXXXXX)'
EXTRA+=$'\ngzipx2_tmpfs\t{bin} {in} --vendors apns --threads 2 --compress gzip --level 1 -o $(mktemp -u -p '"$SHM"$' g.XXXXXX)'
EXTRA+=$'\ngzin_x2\t{bin} {in}.gz --vendors apns --threads 2 -o - > /dev/null'
EXTRA+=$'\nlz4in_x2\t{bin} {in}.lz4 --vendors apns --threads 2 -o - > /dev/null'
export EXTRA
# The compressed copies of compare.sh's corpus (made here, once, with compare.sh's generator).
WORK=${WORK:-/tmp/push-transcode-bench}
CORPUS=$WORK/corpus-${1:-128}.ndjson
mkdir -p "$WORK"
[ -s "$CORPUS" ] || python3 ../shared/bench/gen_corpus.py 1 "${1:-128}" > "$CORPUS"
[ -s "$CORPUS.gz" ] || gzip -6 -c "$CORPUS" > "$CORPUS.gz"
[ -s "$CORPUS.lz4" ] || lz4 -q -c "$CORPUS" > "$CORPUS.lz4"
ONLY="cat sj_parse sj_transcode validate apns all x2 lz4x2 gzipx2 job_lz4 job_gzip" \
  ../shared/bench/compare.sh "${1:-128}" "${2:-7}"
