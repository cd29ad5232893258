#!/usr/bin/env bash
# Installs what building and testing push-transcode needs on a fresh Debian machine:
# liblz4-dev (the LZ4 frame library), libdeflate-dev (gzip batch files), zlib1g-dev,
# pkg-config, the lz4/gzip tools the tests use to check compressed output, and python3 (test
# corpora and checks). Uses sudo only when not root.
set -euo pipefail
need=()
pkg-config --exists liblz4 2>/dev/null || need+=(liblz4-dev)
pkg-config --exists libdeflate 2>/dev/null || need+=(libdeflate-dev)
pkg-config --exists zlib 2>/dev/null || need+=(zlib1g-dev)
command -v pkg-config >/dev/null || need+=(pkg-config)
command -v lz4 >/dev/null || need+=(lz4)
command -v gzip >/dev/null || need+=(gzip)
command -v python3 >/dev/null || need+=(python3)
if [ ${#need[@]} -gt 0 ]; then
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  echo "setup: installing ${need[*]}" >&2
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${need[@]}" >/dev/null
fi
