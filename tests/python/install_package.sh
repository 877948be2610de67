#!/usr/bin/env bash
# Builds and installs the Python package into a virtualenv as a user would (`pip install .` from
# the repository root), with scikit-build-core, nanobind and the test tools pinned. The build folder
# (build/python) is kept, so a second run rebuilds only what changed.
# Usage: tests/python/install_package.sh VENV_DIR
set -euo pipefail
venv=$1
root=$(cd "$(dirname "$0")/../.." && pwd)
pins=(scikit-build-core==1.1.2 nanobind==3.1.0 pytest==9.2.0 "dask[dataframe]==2026.8.0"
  distributed==2026.8.0)
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check "${pins[@]}"
launcher=()
command -v ccache > /dev/null && launcher=(-Ccmake.define.CMAKE_CXX_COMPILER_LAUNCHER=ccache)
# No build isolation: the pinned build tools above are used, and nothing is fetched at build time.
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check --no-build-isolation \
  -Cbuild-dir="$root/build/python" "${launcher[@]}" "$root"
