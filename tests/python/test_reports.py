"""pqpage.advise, recode and inspect: advice applied through recode, inspect as the tool prints it."""

import json
import subprocess

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import arrow_read_test as R
import pqpage


@pytest.fixture
def plain_file(sample_table, tmp_path):
    """The flat table stored without thought: PLAIN, snappy, v1, in two row groups."""
    path = str(tmp_path / "plain.parquet")
    big = pa.concat_tables([sample_table] * 20)
    pq.write_table(big, path, use_dictionary=False, compression="snappy", row_group_size=3000)
    return path


def test_advice_applied_by_recode_gives_its_bytes(plain_file, tmp_path):
    advice = pqpage.advise(plain_file)
    assert len(advice) == pq.ParquetFile(plain_file).metadata.num_columns
    assert advice.advised_bytes <= advice.current_bytes
    for column in advice:
        assert {"path", "candidates", "advised", "advised_bytes", "options"} <= set(column)
        for candidate in column["candidates"]:
            assert candidate["bytes"] > 0 and candidate["decode_mb_per_s"] >= 0
    out = str(tmp_path / "advised.parquet")
    report = pqpage.recode(plain_file, out, **advice.options, verify=True)
    assert report["verified"]
    written = {c["path"]: c["output_bytes"] for c in report["columns"]}
    for column in advice:
        assert abs(written[column["path"]] - column["advised_bytes"]) <= 0.01 * column["advised_bytes"]
    assert R.compare_tables(pq.read_table(plain_file), pq.read_table(out)) is None
    # One column's advice alone.
    one = pqpage.advise(plain_file, columns=["utf8"])
    assert [c["path"] for c in one] == ["utf8"]
    report = pqpage.recode(plain_file, str(tmp_path / "one.parquet"), **one[0]["options"])
    got = {c["path"]: c["output_bytes"] for c in report["columns"]}
    assert abs(got["utf8"] - one[0]["advised_bytes"]) <= 0.01 * one[0]["advised_bytes"]


def test_recode_report_and_errors(plain_file, tmp_path):
    out = str(tmp_path / "r.parquet")
    report = pqpage.recode(plain_file, out, compression="zstd", encoding="dictionary",
                           page_version=1, threads=2)
    assert report["output_bytes"] < report["input_bytes"]
    assert report["num_row_groups"] == pq.ParquetFile(plain_file).metadata.num_row_groups
    by_path = {c["path"]: c for c in report["columns"]}
    assert by_path["utf8"]["encodings"] == ["RLE_DICTIONARY"]
    assert by_path["bool"]["encodings"] == ["PLAIN"]  # no dictionary for booleans
    with pytest.raises(pqpage.ArgumentError):
        pqpage.recode(plain_file, plain_file)
    with pytest.raises(pqpage.ArgumentError) as error:
        pqpage.recode(plain_file, out, column_encoding={"no_such": "plain"})
    assert "no_such" in str(error.value)
    with pytest.raises(pqpage.MissingFileError):
        pqpage.recode(str(tmp_path / "missing.parquet"), out)
    with pytest.raises(pqpage.ArgumentError):
        pqpage.advise(plain_file, columns=["no_such"])


def test_inspect_is_the_tools_json(plain_file, tool):
    ours = pqpage.inspect(plain_file)
    printed = subprocess.run([tool, "inspect", plain_file, "--json"], capture_output=True,
                             text=True, check=True).stdout
    assert ours == json.loads(printed)
    assert ours["num_rows"] == pq.ParquetFile(plain_file).metadata.num_rows
