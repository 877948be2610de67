"""pqpage.dask on a distributed.LocalCluster of two worker processes: a directory of 8 files read
as dask.dataframe.read_parquet reads it, and recoded file by file."""

import os

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import pqpage
import pqpage.dask

dd = pytest.importorskip("dask.dataframe")
distributed = pytest.importorskip("distributed")


@pytest.fixture(scope="module")
def cluster():
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as local, \
            distributed.Client(local) as client:
        yield client


@pytest.fixture
def folder(tmp_path):
    folder = tmp_path / "parts"
    folder.mkdir()
    for part in range(8):
        n = 500 + part * 10
        ids = list(range(part * 1000, part * 1000 + n))
        pq.write_table(pa.table({
            "id": pa.array(ids, pa.int64()),
            "city": pa.array([["Oslo", "Lima", "Pune", None][i % 4] for i in ids]),
            "amount": pa.array([i * 0.25 if i % 9 else None for i in ids]),
        }), str(folder / f"part-{part}.parquet"), row_group_size=200)
    return str(folder)


def test_read_parquet_equals_dask(cluster, folder):
    ours = pqpage.dask.read_parquet(folder)
    theirs = dd.read_parquet(folder)
    assert ours.npartitions == 8
    a = ours.compute().reset_index(drop=True)
    b = theirs.compute().reset_index(drop=True)
    assert list(a.columns) == list(b.columns)
    assert a.astype(object).where(a.notna(), None).equals(b.astype(object).where(b.notna(), None))
    by_group = pqpage.dask.read_parquet(folder, columns=["id"], split_row_groups=True)
    assert by_group.npartitions == 8 * 3
    assert sorted(by_group["id"].compute()) == sorted(b["id"])


def test_recode_every_file(cluster, folder, tmp_path):
    out = str(tmp_path / "recoded")
    results = pqpage.dask.recode(folder, out, compression="zstd", encoding="auto")
    assert [os.path.basename(r["path"]) for r in results] == sorted(os.listdir(folder))
    for result in results:
        assert os.path.getsize(result["output"]) == result["output_bytes"]
        assert pq.read_table(result["output"]).equals(pq.read_table(result["path"]))
    with pytest.raises(pqpage.ArgumentError):
        pqpage.dask.recode(folder, folder)
