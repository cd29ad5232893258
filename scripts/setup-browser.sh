#!/usr/bin/env bash
# Installs headless Chromium (Debian package `chromium`) for the report's browser test only;
# scripts/setup.sh does not, since nothing else needs a browser. Prints the browser's path and
# exits 0 when one is there (or was installed), else prints why not and exits 1, so the test
# can skip with that message. Uses sudo only when not root, and never asks for a password.
set -uo pipefail
find_browser() {
  for name in chromium chromium-browser google-chrome; do
    if command -v "$name" >/dev/null 2>&1; then command -v "$name"; return 0; fi
  done
  return 1
}
if find_browser; then exit 0; fi
if ! command -v apt-get >/dev/null 2>&1; then
  echo "setup-browser: no chromium and no apt-get to install it" >&2
  exit 1
fi
SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  if ! sudo -n true 2>/dev/null; then
    echo "setup-browser: no chromium, and installing it needs root (sudo -n failed)" >&2
    exit 1
  fi
  SUDO="sudo -n"
fi
echo "setup-browser: installing chromium" >&2
if ! $SUDO apt-get update -qq >/dev/null 2>&1 \
  || ! DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium >/dev/null 2>&1; then
  echo "setup-browser: apt-get could not install chromium" >&2
  exit 1
fi
find_browser || { echo "setup-browser: chromium installed but not found on PATH" >&2; exit 1; }
