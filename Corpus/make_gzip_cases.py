#!/usr/bin/env python3
"""Writes gzip input cases, each with the content Python's zlib says it holds, for the
differential test of the gzip input decoder (GzipInputDifferentialTests).

    python3 Corpus/make_gzip_cases.py OUTDIR

For every case NAME it writes OUTDIR/NAME.gz (the input), OUTDIR/NAME.out (the content a
correct decoder yields: all of it, or, for a broken stream, what comes before the fault), and
a line `NAME OUTCOME` in OUTDIR/cases.txt, where OUTCOME is `ok`, `truncated` or `corrupt`
(SPEC 2.1: a truncated or corrupt stream is a fatal error after the lines before it).

The streams are built here by hand around zlib's raw deflate, so that they cover what other
tools write and this project's own compressor does not: header fields (FEXTRA, FNAME,
FCOMMENT, FHCRC), empty members, zlib streams after gzip members at every window size (corrupt:
SPEC 2.1's gzip input is gzip members; `gzip -d` and Python's gzip refuse them too),
stored and sync-flushed blocks, zero padding, every cut through a two-member file, and every
byte of each trailer flipped. The output depends only on this script.
"""
import os
import random
import struct
import sys
import zlib


def text(lines, seed):
    rng = random.Random(seed)
    return b"".join(
        b"line %d %s\n" % (i, bytes(rng.choice(b"abcdefghij ") for _ in range(rng.randint(0, 60))))
        for i in range(lines)
    )


def member(data, level=6, name=None, extra=None, comment=None, header_crc=False):
    flags = 0
    fields = b""
    if extra is not None:
        flags |= 4
        fields += struct.pack("<H", len(extra)) + extra
    if name is not None:
        flags |= 8
        fields += name + b"\0"
    if comment is not None:
        flags |= 16
        fields += comment + b"\0"
    if header_crc:
        flags |= 2
    header = b"\x1f\x8b\x08" + bytes([flags]) + struct.pack("<I", 0) + b"\x00\xff" + fields
    if header_crc:
        header += struct.pack("<H", zlib.crc32(header) & 0xFFFF)
    deflate = zlib.compressobj(level, zlib.DEFLATED, -15)
    body = deflate.compress(data) + deflate.flush()
    return header + body + struct.pack("<II", zlib.crc32(data), len(data) & 0xFFFFFFFF)


def zlib_stream(data, level=6, window_bits=15):
    deflate = zlib.compressobj(level, zlib.DEFLATED, window_bits)
    return deflate.compress(data) + deflate.flush()


def main(out):
    os.makedirs(out, exist_ok=True)
    cases = []

    def add(name, stream, content, outcome):
        with open(os.path.join(out, name + ".gz"), "wb") as f:
            f.write(stream)
        with open(os.path.join(out, name + ".out"), "wb") as f:
            f.write(content)
        cases.append((name, outcome))

    a, b, c = text(300, 1), text(5, 2), text(2000, 3)
    add("single", member(a), a, "ok")
    add("empty", member(b""), b"", "ok")
    add("empty-middle", member(a) + member(b"") + member(b), a + b, "ok")
    add("empty-first", member(b"") + member(b), b, "ok")
    add("empty-last", member(a) + member(b""), a, "ok")
    add(
        "header-fields",
        member(a, name=b"x.txt", extra=b"abcd", comment=b"hi") + member(b, header_crc=True, name=b"n"),
        a + b,
        "ok",
    )
    add("zlib-middle", member(a) + zlib_stream(b) + member(c, level=1), a, "corrupt")
    for bits in (9, 10, 12, 15):
        add(f"zlib-window-{bits}", member(b) + zlib_stream(c, window_bits=bits) + member(a), b, "corrupt")
    add("zlib-empty", member(a) + zlib_stream(b"") + member(b), a, "corrupt")
    add("zlib-last", member(a) + zlib_stream(c), a, "corrupt")
    add("stored-then-level-9", member(c, level=0) + member(a, level=9), c + a, "ok")
    deflate = zlib.compressobj(6, zlib.DEFLATED, -15)
    body = (
        deflate.compress(a)
        + deflate.flush(zlib.Z_SYNC_FLUSH)
        + deflate.compress(b)
        + deflate.flush(zlib.Z_FULL_FLUSH)
        + deflate.flush()
    )
    header = b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\xff"
    add("flushed-blocks", header + body + struct.pack("<II", zlib.crc32(a + b), len(a + b)), a + b, "ok")
    add("zero-padding", member(a) + member(b) + b"\0" * 1000, a + b, "ok")
    add("padding-then-member-start", member(a) + b"\0\0\x1f\x8b", a, "corrupt")
    add("garbage", member(a) + b"hello", a, "corrupt")
    add("one-byte-after", member(a) + b"\x1f", a, "truncated")
    add("one-stray-byte-after", member(a) + b"\x01", a, "corrupt")
    # A preset dictionary cannot be read without the dictionary.
    dictionary = zlib.compressobj(6, zlib.DEFLATED, 15, zdict=b"line abc")
    add("zlib-dictionary", member(b) + dictionary.compress(a) + dictionary.flush(), b, "corrupt")
    # Every cut through the first member and its boundary, and through the last 30 bytes.
    two = member(b) + member(a)
    first = len(member(b))
    for cut in sorted(set(range(1, first + 20)) | set(range(len(two) - 30, len(two))) | {len(two) // 2}):
        add(f"cut-{cut}", two[:cut], b if cut == first else b + a, "ok" if cut == first else "truncated")
    # Every byte of each trailer flipped (CRC-32, then ISIZE).
    for i in range(8):
        flipped = bytearray(two)
        flipped[first - 8 + i] ^= 0x40
        add(f"flip-first-{i}", bytes(flipped), b, "corrupt")
        flipped = bytearray(two)
        flipped[len(two) - 8 + i] ^= 0x40
        add(f"flip-last-{i}", bytes(flipped), b + a, "corrupt")
    with open(os.path.join(out, "cases.txt"), "w") as f:
        for name, outcome in cases:
            f.write(f"{name} {outcome}\n")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: make_gzip_cases.py OUTDIR")
    main(sys.argv[1])
