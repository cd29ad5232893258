#!/usr/bin/env bash
# Vendor conformance check (SPEC 9 [4, 6.8]): makes (or reuses) a venv with
# google-api-python-client, whose FCM v1 discovery document validates the fcm payloads, then
# runs scripts/vendor_conformance.py on the record files given as arguments.
# When the package index cannot be reached, the fcm part is skipped with a message and the
# table checks of the other vendors still run on the system python3.
set -euo pipefail

GOOGLE_API_CLIENT_VERSION=2.202.0
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/.." && pwd)"
VENV="${VENDORS_VENV:-$ROOT/.venv-vendors}"   # git-ignored (/.venv*/)
PYTHON="${PYTHON:-python3}"

have() {
  [ -x "$VENV/bin/python" ] && "$VENV/bin/python" - "$GOOGLE_API_CLIENT_VERSION" <<'PY' 2>/dev/null
import sys
from importlib.metadata import version
sys.exit(0 if version("google-api-python-client") == sys.argv[1] else 1)
PY
}

RUN="$PYTHON"
if have; then
  RUN="$VENV/bin/python"
else
  echo "vendor-conformance.sh: installing google-api-python-client==$GOOGLE_API_CLIENT_VERSION into $VENV" >&2
  rm -rf "$VENV"
  if "$PYTHON" -m venv "$VENV" \
    && "$VENV/bin/pip" install --disable-pip-version-check --no-input --progress-bar off -q \
      --timeout 30 --retries 1 "google-api-python-client==$GOOGLE_API_CLIENT_VERSION" >&2 \
    && have; then
    RUN="$VENV/bin/python"
  else
    echo "vendor-conformance.sh: SKIPPING the fcm schema check: google-api-python-client could not" \
      "be installed (package index unreachable?); the other vendors are still checked" >&2
  fi
fi
exec "$RUN" "$HERE/vendor_conformance.py" "$@"
