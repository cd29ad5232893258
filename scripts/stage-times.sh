#!/usr/bin/env bash
# Where the wall time of a one-thread run goes, stage by stage, measured by doing one stage
# twice: a scratch copy of the checkout at HEAD gets `scripts/stage-doubling.patch`, whose
# build runs the stage named by PT_DOUBLE twice per line (1 the message reader, 2 the record
# writers, 3 the line gate with the tokenizer) or per window of lines (4 the vivo line hash),
# with the output unchanged (checked first, by md5 of the records of the first 8 MB). The time
# a second pass adds, paired round by round with the plain run, is the stage's time, less the
# cache misses and mispredictions the first pass already paid: a lower bound.
# Usage (from the project root): scripts/stage-times.sh [SIZE_MB] [ROUNDS]   (default 128 11)
# Needs a clean enough checkout for `git worktree`, python3, and ../shared/bench.
set -euo pipefail
cd "$(dirname "$0")/.."
size=${1:-128}
rounds=${2:-11}
WORK=${WORK:-/tmp/push-transcode-bench}
mkdir -p "$WORK"
corpus=$WORK/corpus-$size.ndjson
[ -s "$corpus" ] || python3 ../shared/bench/gen_corpus.py 1 "$size" > "$corpus"
small=$WORK/corpus-8.ndjson
[ -s "$small" ] || python3 ../shared/bench/gen_corpus.py 1 8 > "$small"

scratch=$(mktemp -d)
cleanup() {
  git worktree remove --force "$scratch" 2> /dev/null || rm -rf "$scratch"
}
trap cleanup EXIT
git worktree add --detach "$scratch" HEAD > /dev/null
git -C "$scratch" apply "$PWD/scripts/stage-doubling.patch"
echo "stage-times.sh: building the measuring copy in $scratch" >&2
if ! (cd "$scratch" && swift build -c release --product push-transcode > "$WORK/stage-times-build.log" 2>&1)
then
  cat "$WORK/stage-times-build.log" >&2
  exit 1
fi
binary="$scratch/.build/release/push-transcode"

# Same records in every mode, for apns and for every vendor.
for vendors in apns all; do
  flags=(-o - --threads 1)
  [ "$vendors" = apns ] && flags+=(--vendors apns)
  plain=$(PT_DOUBLE=0 "$binary" "$small" "${flags[@]}" 2> /dev/null | md5sum)
  for mode in 1 2 3 4; do
    doubled=$(PT_DOUBLE=$mode "$binary" "$small" "${flags[@]}" 2> /dev/null | md5sum)
    if [ "$doubled" != "$plain" ]; then
      echo "stage-times.sh: PT_DOUBLE=$mode changes the $vendors records" >&2
      exit 1
    fi
  done
done

spec=$WORK/stage-times.tsv
{
  printf 'validate\t%s\tPT_DOUBLE=0 %s validate --threads 1 %s > /dev/null 2>&1\n' \
    "$corpus" "$binary" "$corpus"
  # simdjson's APNs transcoder, when compare.sh has built it: the reference of issue 25.
  if [ -x "$WORK/sj_transcode" ]; then
    printf 'sj_transcode\t%s\t%s %s > /dev/null\n' "$corpus" "$WORK/sj_transcode" "$corpus"
  fi
  for mode in 0 1 2 3; do
    printf 'apns_%s\t%s\tPT_DOUBLE=%s %s %s -o - --vendors apns --threads 1 > /dev/null 2>&1\n' \
      "$mode" "$corpus" "$mode" "$binary" "$corpus"
  done
  for mode in 0 1 2 3 4; do
    printf 'all_%s\t%s\tPT_DOUBLE=%s %s %s -o - --threads 1 > /dev/null 2>&1\n' \
      "$mode" "$corpus" "$mode" "$binary" "$corpus"
  done
} > "$spec"
python3 ../shared/bench/bench.py "$spec" --rounds "$rounds" --baseline apns_0 --ref apns_0 \
  --json "$WORK/stage-times.json" > /dev/null
python3 - "$WORK/stage-times.json" << 'PY'
import json, statistics, sys
runs = json.load(open(sys.argv[1]))
stages = {1: "message reader", 2: "record writers", 3: "line gate (tokenizer)", 4: "vivo line hash"}
print("| run | stage | seconds (median of paired differences) | share of the run |")
print("| --- | --- | ---: | ---: |")
def median_difference(a, b):
    return statistics.median(x - y for x, y in zip(runs[a]["wall_s"], runs[b]["wall_s"]))
# What the line gate leaves of `validate` (start-up, reading, the line split) is in every run.
outside = statistics.median(runs["validate"]["wall_s"]) - median_difference("apns_3", "apns_0")
for run, modes in (("apns", (1, 2, 3)), ("all", (1, 2, 3, 4))):
    whole = statistics.median(runs[f"{run}_0"]["wall_s"])
    print(f"| {run} | whole run | {whole:.4f} | 100 % |")
    for mode in modes:
        extra = median_difference(f"{run}_{mode}", f"{run}_0")
        print(f"| {run} | {stages[mode]} | {extra:.4f} | {100 * extra / whole:.0f} % |")
    print(f"| {run} | validate less its gate (start-up, input, lines) | {outside:.4f} | "
          f"{100 * outside / whole:.0f} % |")
print()
print(f"validate: {statistics.median(runs['validate']['wall_s']):.4f} s")
if "sj_transcode" in runs:
    reference = statistics.median(runs["sj_transcode"]["wall_s"])
    apns = statistics.median(runs["apns_0"]["wall_s"])
    print(f"sj_transcode: {reference:.4f} s; apns at 0.85x of it would take {reference / 0.85:.4f} s, "
          f"{apns - reference / 0.85:.4f} s less than now")
PY
