"""pqpage.read_table against pyarrow.parquet.read_table, and through the consumers of the Arrow
PyCapsule interface."""

import concurrent.futures
import os
import shutil

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import arrow_read_test as R
import pqpage
from conftest import reference_files, repository_files, shared_data_dir

FILES = repository_files() + reference_files()


def test_reference_files_present():
    if shared_data_dir() is None:
        pytest.skip("the reference files (../shared/parquet-testing) are missing; "
                    "the repository's own files are still read")


@pytest.mark.parametrize("path", FILES, ids=lambda p: os.path.relpath(p, R.ROOT + "/.."))
def test_reads_as_pyarrow_does(path):
    try:
        expected = pq.read_table(path, page_checksum_verification=True)
    except Exception:  # noqa: BLE001 - any refusal
        # pyarrow refuses the file: pqpage must refuse it too, with its own error.
        with pytest.raises(pqpage.Error):
            pqpage.read_table(path, threads=1).to_pyarrow()
        return
    got = pqpage.read_table(path, threads=1).to_pyarrow()
    assert R.compare_tables(expected, got) is None


def test_consumers_take_it_without_pyarrow_glue(sample_table, tmp_path):
    import duckdb
    import polars

    path = str(tmp_path / "t.parquet")
    pq.write_table(sample_table, path)
    table = pqpage.read_table(path)
    expected = pq.read_table(path)
    assert R.compare_tables(expected, pa.table(table)) is None
    # Read twice from one object: every export reads the file again.
    assert R.compare_tables(expected, pa.table(table)) is None
    # polars makes a DataFrame of a PyCapsule stream with DataFrame(), and from_arrow() makes a
    # Series of its struct rows, as it does for any PyCapsule stream.
    frame = polars.DataFrame(table)
    assert frame.height == expected.num_rows
    assert frame["int64"].to_list() == expected["int64"].to_pylist()
    rows = polars.from_arrow(table)
    assert isinstance(rows, polars.Series) and rows.struct.unnest().columns == frame.columns
    # DuckDB has no float16: it takes a selection of the columns.
    some = pqpage.read_table(path, columns=["int64", "utf8", "timestamp_us"])
    rows = duckdb.from_arrow(some).aggregate("count(*), sum(int64)").fetchall()
    total = sum(v for v in expected["int64"].to_pylist() if v is not None)  # no int64 overflow
    assert rows == [(expected.num_rows, total)]
    assert len(table) == expected.num_rows


def test_columns_rows_dictionary(sample_table, tmp_path):
    path = str(tmp_path / "t.parquet")
    pq.write_table(sample_table, path, row_group_size=100)
    whole = pq.read_table(path)
    got = pqpage.read_table(path, columns=["utf8", "int32"], rows=range(30, 170)).to_pyarrow()
    assert got.column_names == ["int32", "utf8"]  # the file's order
    assert R.compare_tables(whole.select(["int32", "utf8"]).slice(30, 140), got) is None
    table = pqpage.read_table(path, rows=(250, 10**9))
    assert table.num_rows == whole.num_rows - 250
    assert table.row_group_rows == [100, 100, whole.num_rows - 200]
    dictionary = pqpage.read_table(path, columns=["utf8"], dictionary=True).to_pyarrow()
    assert pa.types.is_dictionary(dictionary.schema.field("utf8").type)
    assert dictionary["utf8"].cast(pa.string()).equals(whole["utf8"])
    named = pqpage.read_table(path, columns=["utf8", "binary"], dictionary=["binary"]).to_pyarrow()
    assert not pa.types.is_dictionary(named.schema.field("utf8").type)
    assert pa.types.is_dictionary(named.schema.field("binary").type)


def test_batch_rows_and_bytes(sample_table, tmp_path):
    path = str(tmp_path / "t.parquet")
    pq.write_table(sample_table, path, row_group_size=100)
    whole = pq.read_table(path)

    def batch_lengths(table):
        return [len(batch) for batch in pa.RecordBatchReader.from_stream(table)]

    # Batches of a few rows under a bound below a row's bytes; no bound gives batch_rows.
    tiny = pqpage.read_table(path, columns=["utf8"], batch_bytes=1)
    assert len(batch_lengths(tiny)) > whole.num_rows // 4
    assert R.compare_tables(whole.select(["utf8"]), tiny.to_pyarrow()) is None
    rows = pqpage.read_table(path, batch_rows=40, batch_bytes=0)
    assert max(batch_lengths(rows)) == 40
    assert R.compare_tables(whole, rows.to_pyarrow()) is None
    with pytest.raises(pqpage.ArgumentError):
        pqpage.read_table(path, batch_bytes=-1)


def test_two_threads_read_alike(sample_table, tmp_path):
    path = str(tmp_path / "t.parquet")
    big = pa.concat_tables([sample_table] * 200)
    pq.write_table(big, path, row_group_size=10_000)
    alone = pqpage.read_table(path, threads=1).to_pyarrow()
    with concurrent.futures.ThreadPoolExecutor(2) as pool:
        results = list(pool.map(lambda t: pqpage.read_table(path, threads=t).to_pyarrow(), [1, 2]))
    for table in results:
        assert R.compare_tables(alone, table) is None


def test_read_errors(sample_table, tmp_path):
    missing = str(tmp_path / "missing.parquet")
    with pytest.raises(pqpage.MissingFileError) as error:
        pqpage.read_table(missing)
    assert isinstance(error.value, OSError) and "missing.parquet" in str(error.value)
    assert "\n" not in str(error.value)

    path = str(tmp_path / "t.parquet")
    pq.write_table(sample_table, path, compression="none")
    with pytest.raises(pqpage.ArgumentError) as error:
        pqpage.read_table(path, columns=["no_such_column"])
    assert isinstance(error.value, ValueError) and "no_such_column" in str(error.value)
    with pytest.raises(pqpage.ArgumentError):
        pqpage.read_table(path, rows=range(0, 10, 2))
    with pytest.raises(pqpage.ArgumentError):
        pqpage.read_table(path, threads=0)
    with pytest.raises(pqpage.ArgumentError):
        pqpage.read_table(path, dictionary=["int32"])  # not a byte array column

    truncated = str(tmp_path / "truncated.parquet")
    data = open(path, "rb").read()
    open(truncated, "wb").write(data[: len(data) // 2])
    with pytest.raises(pqpage.DataLossError) as error:
        pqpage.read_table(truncated)
    assert isinstance(error.value, OSError)

    # Damaged pages (the footer intact): the error comes while reading, as pqpage's.
    damaged = str(tmp_path / "damaged.parquet")
    shutil.copy(path, damaged)
    meta = pq.ParquetFile(path).metadata
    chunk = meta.row_group(0).column(0)
    with open(damaged, "r+b") as f:
        f.seek(chunk.data_page_offset + 2)
        f.write(b"\xff" * 12)
    with pytest.raises(pqpage.Error):
        pqpage.read_table(damaged).to_pyarrow()
