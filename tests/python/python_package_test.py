"""Runs the Python package's tests (tests/python/test_*.py, pytest) in the peers' virtualenv,
where ./test.sh installs the package (`pip install .`, tests/python/install_package.sh).

Called by ctest as python_package_test.py TOOL SHARED_DIR SCRATCH_DIR; the tests find the tool
(for inspect --json) and the reference files through PQPAGE_TOOL and PQPAGE_SHARED_DIR. Skipped
(77) outside CI when the virtualenv or the package is missing; in CI that is a failure.
"""

import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "peers"))
from peers_venv import reexec_in_venv  # noqa: E402


def main():
    status = reexec_in_venv()
    if status is not None:
        return status
    tool, shared, scratch = sys.argv[1:4]
    try:
        import pqpage  # noqa: F401
        import pytest  # noqa: F401
    except ImportError as error:
        print(f"{'FAIL' if os.environ.get('CI') else 'skipped'}: {error} in {sys.prefix} "
              "(./test.sh installs the package with tests/python/install_package.sh)")
        return 1 if os.environ.get("CI") else 77
    os.makedirs(scratch, exist_ok=True)
    env = dict(os.environ, PQPAGE_TOOL=tool, PQPAGE_SHARED_DIR=shared)
    return subprocess.call([sys.executable, "-m", "pytest", HERE, "-q", "-p", "no:cacheprovider",
                            "--basetemp", os.path.join(scratch, "pytest"), "-rs"], env=env)


if __name__ == "__main__":
    sys.exit(main())
