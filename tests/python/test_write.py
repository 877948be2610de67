"""pqpage.write_table from pyarrow, polars and DuckDB sources, read back by all three."""

import os

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import arrow_read_test as R
import arrow_write_tables
import arrow_write_test as W
import pqpage

TABLES = arrow_write_tables.tables()


@pytest.mark.parametrize("name,table", TABLES, ids=[name for name, _ in TABLES])
def test_pyarrow_tables_read_back_in_every_peer(name, table, tmp_path):
    reference = str(tmp_path / "pyarrow.parquet")
    pq.write_table(table, reference)
    out = str(tmp_path / "pqpage.parquet")
    pqpage.write_table(table, out, threads=1)
    assert W.same_tables(pq.read_table(reference), pq.read_table(out)) is None
    for peer, read, same in (("duckdb", W.duckdb_rows, W.rows_equal),
                             ("polars", W.polars_frame, W.frames_equal)):
        assert W.peer_verdict(read, reference, out, same) == "", peer
    # And pqpage reads its own file as pyarrow does, but for view types and fixed-size lists,
    # which it reads as their plain forms (known differences: pyarrow restores them from
    # ARROW:schema).
    restored_by_pyarrow_only = [f.name for f in table.schema
                                if "view" in str(f.type) or "fixed_size_list" in str(f.type)]
    if not restored_by_pyarrow_only:
        assert R.compare_tables(pq.read_table(out), pqpage.read_table(out).to_pyarrow()) is None


def test_options_and_sources(tmp_path):
    table = dict(TABLES)["flat"]
    out = str(tmp_path / "opts.parquet")
    pqpage.write_table(table.to_reader(max_chunksize=50), out, compression="snappy",
                       compression_level=None, encoding="plain", page_version=1,
                       row_group_rows=100, column_encoding={"int64": "delta"},
                       column_compression={"utf8": ("zstd", 9), "int32": "gzip"},
                       page_index=False, checksums=True, threads=2)
    meta = pq.ParquetFile(out).metadata
    assert meta.num_row_groups == -(-table.num_rows // 100)
    columns = {meta.row_group(0).column(i).path_in_schema: meta.row_group(0).column(i)
               for i in range(meta.num_columns)}
    assert columns["int64"].encodings == ("DELTA_BINARY_PACKED",) or \
        "DELTA_BINARY_PACKED" in columns["int64"].encodings
    assert columns["utf8"].compression == "ZSTD"
    assert columns["int32"].compression == "GZIP"
    assert columns["float32"].compression == "SNAPPY"
    assert not columns["int32"].has_offset_index
    reference = str(tmp_path / "pyarrow.parquet")
    pq.write_table(table, reference)
    assert W.same_tables(pq.read_table(reference), pq.read_table(out)) is None
    # A record batch: the __arrow_c_array__ path.
    batch_out = str(tmp_path / "batch.parquet")
    batch = table.to_batches()[0]
    pqpage.write_table(batch, batch_out)
    pq.write_table(pa.Table.from_batches([batch]), reference)
    assert W.same_tables(pq.read_table(reference), pq.read_table(batch_out)) is None


def test_polars_and_duckdb_sources(tmp_path):
    import duckdb
    import polars

    frame = polars.DataFrame({"id": list(range(1000)), "name": [f"n{i % 37}" for i in range(1000)],
                              "score": [i / 7 if i % 5 else None for i in range(1000)],
                              "tags": [[i, i + 1] if i % 3 else None for i in range(1000)]})
    out = str(tmp_path / "polars.parquet")
    pqpage.write_table(frame, out)
    assert polars.read_parquet(out).equals(frame)
    assert pq.read_table(out).num_rows == 1000
    with duckdb.connect() as connection:
        relation = connection.sql(
            "SELECT i AS id, 'k' || (i % 11) AS key, i * 1.5 AS amount, "
            "DATE '2024-01-01' + i::INTEGER AS day FROM range(5000) t(i)")
        expected = relation.to_arrow_table()
        out = str(tmp_path / "duckdb.parquet")
        pqpage.write_table(relation, out)
        assert connection.execute("SELECT count(*), sum(id) FROM read_parquet(?)",
                                  [out]).fetchall() == [(5000, sum(range(5000)))]
    got = pq.read_table(out)
    assert got.equals(expected.cast(got.schema)) or got.to_pylist() == expected.to_pylist()
    assert polars.read_parquet(out).height == 5000


def test_write_errors(tmp_path):
    table = pa.table({"a": [1, 2, 3]})
    out = str(tmp_path / "x.parquet")
    for bad, word in ((dict(compression="lzo"), "lzo"), (dict(encoding="rle"), "rle"),
                      (dict(page_version=3), "page_version"),
                      (dict(compression="zstd", compression_level=99), "level"),
                      (dict(column_encoding={"nope": "plain"}), "nope"),
                      (dict(threads=0), "threads"), (dict(compression=5), "str")):
        with pytest.raises(pqpage.ArgumentError) as error:
            pqpage.write_table(table, out, **bad)
        assert isinstance(error.value, ValueError)
        assert word in str(error.value).lower(), str(error.value)
    with pytest.raises(pqpage.ArgumentError):
        pqpage.write_table(pa.table({"i": pa.array([(1, 2, 3)], pa.month_day_nano_interval())}), out)
    with pytest.raises(pqpage.FileError) as error:
        pqpage.write_table(table, str(tmp_path / "no" / "such" / "dir.parquet"))
    assert isinstance(error.value, OSError)
    with pytest.raises(TypeError):
        pqpage.write_table([1, 2, 3], out)
    assert not os.path.exists(str(tmp_path / "no"))
