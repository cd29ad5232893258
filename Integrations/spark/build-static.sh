#!/usr/bin/env bash
# `make static`: a push-transcode that runs on a machine without the Swift runtime (for
# spark-submit --files). Swift's runtime and FoundationEssentials are linked statically
# (--static-swift-stdlib); zlib, liblz4 and libdeflate too where their static libraries are
# installed (zlib1g-dev, liblz4-dev, libdeflate-dev ship libz.a, liblz4.a, libdeflate.a): a
# private pkg-config dir points the CZlib, CLZ4 and CDeflate system modules at a directory that
# holds only the .a files, so the linker cannot pick the .so. The result needs only glibc, libstdc++, libgcc_s and libm; the script fails if ldd
# shows anything else it was meant to remove.
# Output: .build-static/release/push-transcode (a scratch path of its own, so the ordinary
# release build in .build/ is left alone).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
SCRATCH=.build-static
LIBS="$PWD/$SCRATCH/static-libs"
rm -rf "$LIBS" && mkdir -p "$LIBS"

static_pc=()
for spec in z:zlib lz4:liblz4 deflate:libdeflate; do
  lib=${spec%%:*} pc=${spec#*:}
  archive=$(clang -print-file-name="lib$lib.a" 2>/dev/null || true)
  if [ -n "$archive" ] && [ -f "$archive" ]; then
    ln -s "$(readlink -f "$archive")" "$LIBS/lib$lib.a"
    printf 'Name: %s\nDescription: %s, static\nVersion: 0\nLibs: -L%s -l%s\nCflags:\n' \
      "$pc" "$pc" "$LIBS" "$lib" > "$LIBS/$pc.pc"
    static_pc+=("$lib")
  else
    echo "build-static.sh: no lib$lib.a found: lib$lib is linked dynamically" >&2
  fi
done

PKG_CONFIG_PATH="$LIBS${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}" \
  swift build -c release --static-swift-stdlib --scratch-path "$SCRATCH" --product push-transcode
BIN="$SCRATCH/release/push-transcode"

echo "ldd $BIN:"
ldd "$BIN" | tee "$SCRATCH/ldd.txt"
forbidden='libswift|libFoundation|libdispatch|libBlocksRuntime|libicu'
for lib in "${static_pc[@]}"; do forbidden="$forbidden|lib$lib\\.so"; done
if grep -E "$forbidden" "$SCRATCH/ldd.txt"; then
  echo "build-static.sh: $BIN still links the libraries above dynamically" >&2
  exit 1
fi
"$BIN" --version
