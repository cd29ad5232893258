#!/usr/bin/env python3
"""Where a run's instructions go, by source line: callgrind counts each instruction of the
program, and addr2line maps each instruction's address to the source lines it came from
(inlined frames included). valgrind 3.19 cannot read the DWARF 5 debug info of a release build,
so callgrind runs a copy stripped of it (`objcopy --strip-debug` keeps every address), and
addr2line reads the original.

Prints three tables: the innermost source line of each instruction (where the work is
written), the function the instruction's code sits in (what `callgrind_annotate` calls
exclusive cost, after inlining), and, for the instructions of one source file or of the
compiler's own code (`<compiler-generated>`: copies, destroys, retains of values), the
functions they sit in. Counts do not depend on the host.

Usage (from the project root, after `swift build -c release --product push-transcode`):
  scripts/instructions-by-line.py [--top N] [--inside TEXT] [ARGUMENTS ...]
ARGUMENTS are push-transcode's (default: the 8 MB instruction corpus of
`scripts/instructions.sh`, `-o - --threads 1`, every vendor). `--inside TEXT` names the
source file or pseudo-file whose instructions the third table splits by function (default
`compiler-generated`). `--within TEXT` adds a fourth table: the instructions of the functions
whose name holds TEXT, by source line (innermost frame, then the frame it was inlined into).
"""
import bisect
import collections
import os
import re
import subprocess
import sys
import tempfile

WORK = os.environ.get("WORK", "/tmp/push-transcode-instructions")
PROJECT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def options(argv):
    top, inside, within, rest = 40, "compiler-generated", None, []
    index = 0
    while index < len(argv):
        if argv[index] == "--top":
            top = int(argv[index + 1])
            index += 2
        elif argv[index] == "--inside":
            inside = argv[index + 1]
            index += 2
        elif argv[index] == "--within":
            within = argv[index + 1]
            index += 2
        else:
            rest.append(argv[index])
            index += 1
    if not rest:
        corpus = os.path.join(WORK, "corpus-8.ndjson")
        # As `scripts/instructions.sh` does (`[ -s ]`): an empty file counts as missing, and a
        # generator that fails leaves no file behind.
        if not os.path.exists(corpus) or os.path.getsize(corpus) == 0:
            os.makedirs(WORK, exist_ok=True)
            partial = corpus + ".partial"
            with open(partial, "w") as out:
                subprocess.run(["python3", os.path.join(PROJECT, "../shared/bench/gen_corpus.py"),
                                "1", "8"], stdout=out, check=True)
            os.replace(partial, corpus)
        rest = [corpus, "-o", "-", "--threads", "1"]
    return top, inside, within, rest


def self_costs(profile, object_name):
    """Instruction address -> instructions executed there, for the code of `object_name`
    (a callgrind profile written with --dump-instr=yes; costs of calls are not counted)."""
    costs = collections.Counter()
    objects = {}
    in_object = False
    after_calls = False
    position = 0
    for line in open(profile):
        if not line.strip():
            continue
        head = line[0]
        if line.startswith("ob="):
            match = re.match(r"ob=\((\d+)\)(?: (.*))?", line.strip())
            if match.group(2):
                objects[match.group(1)] = match.group(2)
            in_object = objects.get(match.group(1), "").endswith(object_name)
        elif line.startswith("cob="):
            match = re.match(r"cob=\((\d+)\)(?: (.*))?", line.strip())
            if match and match.group(2):
                objects[match.group(1)] = match.group(2)
        elif line.startswith("calls="):
            after_calls = True
        elif head.isdigit() or head in "+-*":
            fields = line.split()
            first = fields[0]
            if first[0] in "+-":
                step = int(first[1:], 0)
                position += step if first[0] == "+" else -step
            elif first != "*":
                position = int(first, 0)
            if after_calls:
                # The line after `calls=` is the call's inclusive cost, not this address's own.
                after_calls = False
            elif in_object:
                costs[position] += int(fields[-1])
    return costs


def source_lines(binary, addresses):
    """Address -> its source lines, innermost first (`addr2line -i`)."""
    lines = {}
    for start in range(0, len(addresses), 20000):
        batch = addresses[start:start + 20000]
        output = subprocess.run(["addr2line", "-e", binary, "-a", "-i"] + [hex(a) for a in batch],
                                capture_output=True, text=True, check=True).stdout
        current = None
        for text in output.splitlines():
            if text.startswith("0x"):
                current = int(text, 16)
                lines[current] = []
            elif current is not None:
                text = text.split(" (discriminator")[0]
                lines[current].append(text.replace(PROJECT + "/Sources/", "").replace("//", ""))
    return lines


def functions(binary):
    """Sorted (start address, demangled name) of the binary's functions."""
    symbols = []
    table = subprocess.run(["nm", "-n", "--defined-only", binary], capture_output=True,
                           text=True, check=True).stdout
    for text in table.splitlines():
        fields = text.split()
        if len(fields) == 3 and fields[1] in "tTwW":
            symbols.append((int(fields[0], 16), fields[2]))
    names = subprocess.run(["swift", "demangle", "--simplified"],
                           input="\n".join(name for _, name in symbols), capture_output=True,
                           text=True, check=True).stdout.splitlines()
    return [address for address, _ in symbols], names


def main():
    top, inside, within, arguments = options(sys.argv[1:])
    binary = subprocess.run(["swift", "build", "-c", "release", "--show-bin-path"], cwd=PROJECT,
                            capture_output=True, text=True, check=True).stdout.strip()
    binary += "/push-transcode"
    with tempfile.TemporaryDirectory() as scratch:
        stripped = os.path.join(scratch, "push-transcode-stripped")
        profile = os.path.join(scratch, "callgrind.out")
        subprocess.run(["objcopy", "--strip-debug", binary, stripped], check=True)
        subprocess.run(["valgrind", "--tool=callgrind", "--dump-instr=yes",
                        "--callgrind-out-file=" + profile, stripped] + arguments,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
        costs = self_costs(profile, "push-transcode-stripped")
    total = sum(costs.values())
    lines = source_lines(binary, sorted(costs))
    starts, names = functions(binary)

    def function_of(address):
        index = bisect.bisect_right(starts, address) - 1
        return names[index] if index >= 0 else "?"

    by_line = collections.Counter()
    by_function = collections.Counter()
    inside_by_function = collections.Counter()
    within_by_line = collections.Counter()
    for address, cost in costs.items():
        frames = lines.get(address) or ["?"]
        innermost = frames[0]
        function = function_of(address)
        by_line[innermost] += cost
        by_function[function] += cost
        if inside in innermost:
            inside_by_function[function] += cost
        if within is not None and within in function:
            within_by_line[" < ".join(frames[:2])] += cost

    def table(title, counter):
        print(f"\n{title}\n| instructions | share | where |\n| ---: | ---: | --- |")
        for where, cost in counter.most_common(top):
            print(f"| {cost:,} | {100 * cost / total:.2f} % | {where[:150]} |")

    print(f"push-transcode {' '.join(arguments)}: {total:,} instructions in the program's own "
          "code (libc and the kernel not counted)")
    table("By source line (innermost frame):", by_line)
    table("By function (after inlining):", by_function)
    table(f"Instructions from `{inside}`, by function:", inside_by_function)
    if within is not None:
        table(f"Instructions of the functions named `{within}`, by source line (innermost < "
              "outer frame):", within_by_line)


if __name__ == "__main__":
    main()
