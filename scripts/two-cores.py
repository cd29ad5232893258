#!/usr/bin/env python3
"""Are the two cores independent? Times, in alternating rounds on one corpus (nine vendors,
stream to /dev/null): one `--threads 1` run alone, two such runs side by side, another alone,
and one `--threads 2` run. Two SMT siblings slow each other down side by side (ratio well above
1); independent cores do not. Prints each round and the medians of side-by-side / alone and
x2 / x1.

Usage (from the project root, after `swift build -c release`):
  scripts/two-cores.py [CORPUS] [ROUNDS]   (default: the 128 MB compare.sh corpus, 9 rounds)
"""
import statistics
import subprocess
import sys
import time

BIN = subprocess.run(["swift", "build", "-c", "release", "--show-bin-path"], capture_output=True,
                     text=True, check=True).stdout.strip() + "/push-transcode"
CORPUS = sys.argv[1] if len(sys.argv) > 1 else "/tmp/push-transcode-bench/corpus-128.ndjson"
ROUNDS = int(sys.argv[2]) if len(sys.argv) > 2 else 9


def start(threads):
    return subprocess.Popen([BIN, CORPUS, "-o", "-", "--threads", str(threads)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def timed(processes):
    """Seconds until each process ends (started together)."""
    began = time.perf_counter()
    ends = [None] * len(processes)
    while any(end is None for end in ends):
        for index, process in enumerate(processes):
            if ends[index] is None and process.poll() is not None:
                ends[index] = time.perf_counter() - began
        time.sleep(0.002)
    return ends


rows = []
for round_number in range(ROUNDS):
    first = timed([start(1)])[0]
    pair = timed([start(1), start(1)])
    second = timed([start(1)])[0]
    both = timed([start(2)])[0]
    alone = (first + second) / 2
    rows.append((alone, statistics.mean(pair), both))
    print("round %d: alone %.3f s (%.3f, %.3f); side by side %.3f and %.3f s; --threads 2 %.3f s"
          % (round_number + 1, alone, first, second, pair[0], pair[1], both))
print("median side-by-side / alone: %.2f; median x2 / x1: %.2f"
      % (statistics.median(r[1] / r[0] for r in rows), statistics.median(r[0] / r[2] for r in rows)))
