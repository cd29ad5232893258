#!/usr/bin/env bash
# Spark integration test: makes (or reuses) a venv with pyspark, then runs the pytest module
# against the release build of push-transcode (PUSH_TRANSCODE_BIN overrides the binary).
# Needs Python >= 3.11 and Java 17 (pyspark 4.x). A failed install fails this script.
set -euo pipefail

PYSPARK_VERSION=4.3.0
PYTEST_VERSION=8.4.2
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
VENV="${SPARK_VENV:-$ROOT/.venv-spark}"   # git-ignored (/.venv*/)
PYTHON="${PYTHON:-python3}"

die() { echo "run-tests.sh: $*" >&2; exit 1; }

"$PYTHON" -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else 1)' \
  || die "pyspark $PYSPARK_VERSION needs Python >= 3.11; $("$PYTHON" --version 2>&1) found"
if ! command -v java >/dev/null; then
  # The machine image has Java 17; a machine without it gets Debian's headless JRE.
  echo "run-tests.sh: no java: installing openjdk-17-jre-headless" >&2
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO="sudo"   # sudo only when not root, as scripts/setup.sh
  { $SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq openjdk-17-jre-headless; } \
    || die "java not found and openjdk-17-jre-headless did not install (pyspark needs Java 17 or 21)"
fi

have() {
  [ -x "$VENV/bin/python" ] && "$VENV/bin/python" - "$PYSPARK_VERSION" "$PYTEST_VERSION" <<'EOF' 2>/dev/null
import sys
from importlib.metadata import version
sys.exit(0 if (version("pyspark"), version("pytest")) == (sys.argv[1], sys.argv[2]) else 1)
EOF
}

if ! have; then
  echo "run-tests.sh: installing pyspark==$PYSPARK_VERSION into $VENV" >&2
  start=$SECONDS
  rm -rf "$VENV"
  "$PYTHON" -m venv "$VENV" || die "could not create the venv $VENV"
  "$VENV/bin/pip" install --disable-pip-version-check --no-input --progress-bar off -q \
      "pyspark==$PYSPARK_VERSION" "pytest==$PYTEST_VERSION" \
    || die "pip install pyspark==$PYSPARK_VERSION pytest==$PYTEST_VERSION failed"
  have || die "the venv $VENV does not have pyspark==$PYSPARK_VERSION after the install"
  echo "run-tests.sh: install took $((SECONDS - start)) s" >&2
fi

if [ -z "${PUSH_TRANSCODE_BIN:-}" ]; then
  PUSH_TRANSCODE_BIN="$(cd "$ROOT" && swift build -c release --show-bin-path)/push-transcode"
fi
[ -x "$PUSH_TRANSCODE_BIN" ] \
  || die "no push-transcode binary at $PUSH_TRANSCODE_BIN (run swift build -c release first)"
export PUSH_TRANSCODE_BIN
"$PUSH_TRANSCODE_BIN" --version >&2 || die "$PUSH_TRANSCODE_BIN --version failed"

export PATH="$VENV/bin:$PATH"   # spark-submit, and the venv's python for the driver
export PYSPARK_PYTHON="$VENV/bin/python" PYSPARK_DRIVER_PYTHON="$VENV/bin/python"
export SPARK_LOCAL_IP="${SPARK_LOCAL_IP:-127.0.0.1}"
unset SPARK_HOME   # use the venv's pyspark jars, not some other Spark on the machine
cd "$HERE"
start=$SECONDS
"$VENV/bin/python" -m pytest -p no:cacheprovider -v "$@" test_transcode_spark.py
echo "run-tests.sh: Spark test took $((SECONDS - start)) s" >&2
