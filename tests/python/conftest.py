"""Shared pieces of the Python package's tests: the reference files, the repository's own files,
the tool, and the table comparison of the interop tests (tests/interop/arrow_read_test.py)."""

import os
import sys

import pytest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "tests", "interop"))


def shared_data_dir():
    """parquet-testing's data folder, or None where the reference files are missing."""
    shared = os.environ.get("PQPAGE_SHARED_DIR", os.path.join(ROOT, "..", "shared"))
    data = os.path.join(shared, "parquet-testing", "data")
    return data if os.path.isdir(data) else None


def repository_files():
    """The Parquet files the repository generates and keeps (testfiles/, testfiles/peers/)."""
    out = []
    for folder in (os.path.join(ROOT, "testfiles"), os.path.join(ROOT, "testfiles", "peers")):
        out += [os.path.join(folder, n) for n in sorted(os.listdir(folder)) if n.endswith(".parquet")]
    return out


def reference_files():
    """Every *.parquet under parquet-testing/data; empty without the reference files."""
    data = shared_data_dir()
    out = []
    if data is None:
        return out
    for base, dirs, names in os.walk(data):
        dirs.sort()
        out += [os.path.join(base, n) for n in sorted(names) if n.endswith(".parquet")]
    return out


@pytest.fixture
def tool():
    path = os.environ.get("PQPAGE_TOOL") or os.path.join(ROOT, "build", "pqpage")
    if not os.path.exists(path):
        pytest.skip(f"the pqpage tool is not built ({path})")
    return path


@pytest.fixture(scope="session")
def sample_table():
    """A table of every flat type but the views (tests/interop/arrow_write_tables.py)."""
    import arrow_write_tables
    import pyarrow as pa
    flat = dict(arrow_write_tables.tables())["flat"]
    # pqpage reads views back as utf8, binary and lists (a known difference from pyarrow, which
    # restores them from ARROW:schema); the tests that compare with pyarrow's reading leave them
    # out.
    restored_by_pyarrow_only = (
        pa.types.is_string_view, pa.types.is_binary_view, pa.types.is_list_view,
        pa.types.is_large_list_view)
    return flat.select([f.name for f in flat.schema
                        if not any(check(f.type) for check in restored_by_pyarrow_only)])
