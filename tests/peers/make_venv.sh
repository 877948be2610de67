#!/usr/bin/env bash
# Makes (or reuses) the virtualenv of peer implementations the tests compare pqpage with:
# pyarrow, duckdb, polars and fastparquet from PyPI. They are test tools only; the library never
# links them. Usage: make_venv.sh VENV_DIR. Prints nothing when the venv is already complete.
set -euo pipefail
venv=$1
peers=(pyarrow duckdb polars fastparquet)
if [ -x "$venv/bin/python" ] && "$venv/bin/python" -c "import pyarrow, duckdb, polars, fastparquet" 2>/dev/null; then
  exit 0
fi
echo "making the peers' virtualenv in $venv (${peers[*]})"
python3 -m venv "$venv"
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check "${peers[@]}"
