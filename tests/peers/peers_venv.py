"""Running a test script in the peers' virtualenv (pyarrow, duckdb, polars, fastparquet), which
tests/peers/make_venv.sh makes and test.sh names in PQPAGE_PEERS_VENV. Test scripts start under
the system python3 and call reexec_in_venv() first."""

import os
import subprocess
import sys


def reexec_in_venv():
    """None when the peers can be imported here; else the exit status of the re-run in the
    peers' virtualenv (PQPAGE_PEERS_VENV), 77 (skipped) without it outside CI, 1 in CI."""
    try:
        import pyarrow, duckdb, polars, fastparquet  # noqa: F401,E401
        return None
    except ImportError:
        pass
    venv = os.environ.get("PQPAGE_PEERS_VENV", "")
    python = os.path.join(venv, "bin", "python")
    if venv and os.path.exists(python) and os.path.abspath(sys.prefix) != os.path.abspath(venv):
        return subprocess.call([python, *sys.argv])
    if os.environ.get("CI"):
        print("FAIL: the peers' virtualenv (PQPAGE_PEERS_VENV) is missing in CI")
        return 1
    print("skipped: the peers (pyarrow, duckdb, polars, fastparquet) are not available "
          "(run ./test.sh to make the peers' venv)")
    return 77
