#!/usr/bin/env python3
"""Alternating pairs: how a change is judged on a host whose speed drifts.

Runs command A, then command B, N times (A and B alternate, so both meet the same stretches of
the host's speed), each with its output to /dev/null, and prints the median wall time of each,
the median and quartiles of the per-pair ratio B / A, and each pair's user and system CPU
seconds. A ratio below 1 means B is faster. The per-pair ratio is the figure to quote: single
runs on this host differ by 40 % (BENCHMARKS.md, "This session's measurements").

Usage (from anywhere; the commands run through the shell):
  scripts/pairs.py N "COMMAND A" "COMMAND B"
Example (a build of another commit against this one, apns at one thread):
  scripts/pairs.py 21 "/tmp/base/push-transcode $C -o - --vendors apns --threads 1" \\
                      "$(swift build -c release --show-bin-path)/push-transcode $C -o - --vendors apns --threads 1"
"""
import os
import statistics
import subprocess
import sys
import time


EXIT_CODES = {}


def timed(command):
    """Wall, user and system seconds of one run of `command` (its output discarded). Every run of
    a command must end with the exit status of its first run (the simdjson peer exits 1 on a
    corpus with a broken line, push-transcode 0): a run that ends otherwise stops the timing."""
    before = os.times()
    began = time.perf_counter()
    result = subprocess.run(command, shell=True, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    wall = time.perf_counter() - began
    after = os.times()
    expected = EXIT_CODES.setdefault(command, result.returncode)
    if result.returncode != expected:
        sys.exit("pairs.py: %r exited with %d, its first run with %d"
                 % (command, result.returncode, expected))
    return (wall, after.children_user - before.children_user,
            after.children_system - before.children_system)


def quartiles(values):
    ordered = sorted(values)
    return ordered[len(ordered) // 4], ordered[(3 * len(ordered)) // 4]


def main():
    if len(sys.argv) != 4 or not sys.argv[1].isdigit() or int(sys.argv[1]) < 1:
        sys.exit(__doc__)
    count, command_a, command_b = int(sys.argv[1]), sys.argv[2], sys.argv[3]
    pairs = []
    for number in range(count):
        a = timed(command_a)
        b = timed(command_b)
        pairs.append((a, b))
        print("pair %2d: A %.3f s (user %.2f, sys %.2f)  B %.3f s (user %.2f, sys %.2f)  B/A %.3f"
              % (number + 1, a[0], a[1], a[2], b[0], b[1], b[2], b[0] / a[0]))
    ratios = [b[0] / a[0] for a, b in pairs]
    low, high = quartiles(ratios)
    print("%d pairs: median A %.3f s, B %.3f s; per-pair B/A median %.3f (quartiles %.3f-%.3f);"
          " exit status A %d, B %d"
          % (count, statistics.median(a[0] for a, _ in pairs),
             statistics.median(b[0] for _, b in pairs), statistics.median(ratios), low, high,
             EXIT_CODES[command_a], EXIT_CODES[command_b]))


main()
