#!/usr/bin/env bash
# Makes (or reuses) the virtualenv of peer implementations the tests compare pqpage with:
# pyarrow, duckdb, polars and fastparquet from PyPI, pinned so every run compares against the same
# peers (pandas and numpy too: fastparquet's behaviour follows them; cryptography for the test KMS
# client of the encryption tests, tests/interop/encryption_kms.py). They are test tools only; the
# library never links them. Usage: make_venv.sh VENV_DIR. Prints nothing when the venv already
# holds exactly these versions.
#
# Moving a pin: change it below and run ./test.sh (the venv is re-installed when its versions
# differ); if a peer now writes differently, regenerate testfiles/peers with
# `build/peers-venv/bin/python tests/interop/make_peer_testfiles.py build/pqpage` (it checks each
# file against peer_table.py before writing its golden), and read the interop matrices for cells
# that changed (a peer bug fixed, a new option) before committing.
set -euo pipefail
venv=$1
pins=(pyarrow==26.0.1 duckdb==2.0.1 polars==2.1.0 fastparquet==2026.9.0 pandas==3.1.1 numpy==2.4.6
      cryptography==50.0.2)
have_pins() {
  "$venv/bin/python" - "${pins[@]}" <<'PY' 2>/dev/null
import sys
from importlib.metadata import version
sys.exit(0 if all(version(n) == v for n, v in (p.split("==") for p in sys.argv[1:])) else 1)
PY
}
if [ -x "$venv/bin/python" ] && have_pins; then
  exit 0
fi
echo "making the peers' virtualenv in $venv (${pins[*]})"
[ -x "$venv/bin/python" ] || python3 -m venv "$venv"
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check "${pins[@]}"
have_pins
