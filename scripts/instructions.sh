#!/usr/bin/env bash
# Instruction counts (callgrind) of the one-thread paths on the first 8 MB of the benchmark
# corpus: the deterministic measure of a change on a host whose wall-clock speed drifts.
# Prints one line per path: validate, apns, nine vendors, nine vendors with --framing tsv, and an
# empty input (start-up). With BINARY arguments, each is counted too, in the same table (for
# example the binary of the commit a change starts from). Counts depend a little on the corpus
# path (every record head names its source): compare rows of one table, not across tables made
# with another WORK.
# Usage (from the project root): scripts/instructions.sh [BINARY ...]
# Needs valgrind (apt-get install valgrind); builds the release binary first.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v valgrind > /dev/null || { echo "instructions.sh: needs valgrind" >&2; exit 1; }
swift build -c release --product push-transcode > /dev/null
WORK=${WORK:-/tmp/push-transcode-instructions}
mkdir -p "$WORK"
corpus="$WORK/corpus-8.ndjson"
[ -s "$corpus" ] || python3 ../shared/bench/gen_corpus.py 1 8 > "$corpus"
: > "$WORK/empty.ndjson"

# valgrind 3.19 cannot read the DWARF 5 debug info of a release build: count a copy without it
# (the symbol table stays).
binaries=("$(swift build -c release --show-bin-path)/push-transcode" "$@")
printf '| binary | validate | apns | nine vendors | nine vendors, tsv | empty input |\n'
printf '| --- | ---: | ---: | ---: | ---: | ---: |\n'
for binary in "${binaries[@]}"; do
  stripped="$WORK/stripped"
  objcopy --strip-debug "$binary" "$stripped"
  count() {
    valgrind --tool=callgrind --callgrind-out-file=/dev/null "$stripped" "$@" 2>&1 > /dev/null \
      | awk '/I[ ]+refs:/ { gsub(",", "", $NF); printf "%.2f M", $NF / 1e6 }'
  }
  printf '| %s | %s | %s | %s | %s | %s |\n' "$binary" \
    "$(count validate --threads 1 "$corpus")" \
    "$(count "$corpus" -o - --vendors apns --threads 1)" \
    "$(count "$corpus" -o - --threads 1)" \
    "$(count "$corpus" -o - --threads 1 --framing tsv)" \
    "$(count "$WORK/empty.ndjson" -o - --vendors apns --threads 1)"
done
