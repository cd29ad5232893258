#!/bin/sh
# Builds the libFuzzer target (the tokenizer and the whole line pipeline) and runs it on the seed
# corpus and on every line of Corpus/messages.
# Usage: scripts/fuzz.sh [SECONDS] [extra libFuzzer flags...]   (default 600 seconds)
# New inputs go to .build-fuzz/corpus (git-ignored); crashes to fuzz-artifacts/.
set -eu
cd "$(dirname "$0")/.."
seconds="${1:-600}"
[ $# -gt 0 ] && shift
# Naming the product matters: building every product would link a second `main`.
# `--sanitize fuzzer` makes SwiftPM link libFuzzer's `main`; the sanitizers themselves go in one
# `-sanitize=fuzzer,address`: given as two flags (`--sanitize fuzzer --sanitize address`), the
# compiler keeps only the last one, and the code got no coverage instrumentation (libFuzzer:
# "no interesting inputs ... Is the code instrumented for coverage?").
swift build -c release --product push-transcode-fuzz --sanitize fuzzer \
  -Xswiftc -sanitize=fuzzer,address --scratch-path .build-fuzz
mkdir -p .build-fuzz/corpus .build-fuzz/message-seeds fuzz-artifacts
# Every line of the golden corpus as a seed of its own, so the pipeline checks start from real
# messages of both dialects (each file of a seed directory is one input).
for file in Corpus/messages/*.ndjson Corpus/sample.ndjson; do
  name=$(basename "$file" .ndjson)
  LC_ALL=C awk -v dir=.build-fuzz/message-seeds -v name="$name" \
    '{ path = sprintf("%s/%s-%04d", dir, name, NR); printf "%s", $0 > path; close(path) }' "$file"
done
exec .build-fuzz/release/push-transcode-fuzz .build-fuzz/corpus Corpus/fuzz-seeds \
  .build-fuzz/message-seeds \
  -max_total_time="$seconds" -max_len=4096 -artifact_prefix=fuzz-artifacts/ \
  -print_final_stats=1 "$@"
