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


def _bloom_lengths(path):
    meta = pq.ParquetFile(path).metadata
    return {meta.row_group(g).column(c).path_in_schema:
            meta.row_group(g).column(c).to_dict().get("bloom_filter_length")
            for g in range(meta.num_row_groups) for c in range(meta.num_columns)}


def test_bloom_filters_and_lookup(tmp_path):
    import datetime
    n = 20000
    table = pa.table({
        "id": pa.array([i * 3 for i in range(n)], pa.int64()),
        "name": pa.array([f"user-{i % 700}" for i in range(n)]),
        "day": pa.array([datetime.date(2026, 1, 1) + datetime.timedelta(days=i % 90)
                         for i in range(n)], pa.date32()),
    })
    out = str(tmp_path / "bloom.parquet")
    pqpage.write_table(table, out, row_group_rows=5000,
                       bloom_filter_options={"id": {"ndv": 5000, "fpp": 0.01}, "name": {}})
    lengths = _bloom_lengths(out)
    assert lengths["id"] and lengths["name"] and lengths["day"] is None, lengths
    assert pq.read_table(out).equals(table)
    # A value that is there: the rows holding it; one that is not: ruled out by the filters.
    present, absent = pqpage.lookup(out, "name", "user-5", "user-10000", rows=True)
    assert present["found_rows"] == [i for i in range(n) if i % 700 == 5]
    assert absent["found_rows"] == []
    assert all(g["bloom_filter"] == "ruled out" for g in absent["row_groups"])
    (by_day,) = pqpage.lookup(out, "day", datetime.date(2026, 1, 3), rows=True)
    assert by_day["found_rows"] == [i for i in range(n) if i % 90 == 2]
    (by_id,) = pqpage.lookup(out, "id", 30000, rows=True)
    assert by_id["found_rows"] == [10000]
    assert [g["statistics"] for g in by_id["row_groups"]] == [
        "ruled out", "ruled out", "may hold", "ruled out"]
    # recode keeps the filters by default, and drops or adds them as asked.
    kept = str(tmp_path / "kept.parquet")
    pqpage.recode(out, kept)
    assert _bloom_lengths(kept)["name"] and _bloom_lengths(kept)["day"] is None
    none = str(tmp_path / "none.parquet")
    pqpage.recode(out, none, bloom_filters="none")
    assert not any(_bloom_lengths(none).values())
    every = str(tmp_path / "all.parquet")
    pqpage.recode(out, every, bloom_filters="all")
    assert all(_bloom_lengths(every).values())
    with pytest.raises(pqpage.ArgumentError):
        pqpage.recode(out, str(tmp_path / "x.parquet"), bloom_filters="some")
    with pytest.raises(pqpage.ArgumentError):
        pqpage.write_table(table, str(tmp_path / "y.parquet"),
                           bloom_filter_options={"id": {"fpp": 2.0}})
    with pytest.raises(pqpage.ArgumentError):
        pqpage.write_table(table, str(tmp_path / "z.parquet"),
                           bloom_filter_options={"id": {"size": 1}})
    with pytest.raises(pqpage.ArgumentError):
        pqpage.lookup(out, "nope", 1)


def test_content_defined_chunking(tmp_path):
    n = 50000
    table = pa.table({"id": pa.array(range(n), pa.int64()),
                      "text": pa.array([f"row {i} " * (i % 5 + 1) for i in range(n)])})
    plain = str(tmp_path / "plain.parquet")
    cdc = str(tmp_path / "cdc.parquet")
    pqpage.write_table(table, plain, encoding="plain")
    pqpage.write_table(table, cdc, encoding="plain",
                       use_content_defined_chunking={"min_chunk_size": 16384,
                                                     "max_chunk_size": 65536})
    assert pq.read_table(cdc).equals(table)

    def pages(path):
        return sum(len(c["pages"]) for g in pqpage.inspect(path)["row_groups"]
                   for c in g["columns"])
    assert pages(cdc) > pages(plain)  # pages of at most 64 KiB, not 1 MiB
    with pytest.raises(pqpage.ArgumentError):
        pqpage.write_table(table, str(tmp_path / "bad.parquet"),
                           use_content_defined_chunking={"min_chunk_size": 10,
                                                         "max_chunk_size": 5})
    with pytest.raises(pqpage.ArgumentError):
        pqpage.write_table(table, str(tmp_path / "bad2.parquet"),
                           use_content_defined_chunking={"window": 10})
