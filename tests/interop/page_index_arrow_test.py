"""The page index both ways against Arrow C++ (issue 13).

pqpage writes, Arrow reads: files recoded by pqpage across encoding policies x data page versions x
codecs (small pages, so chunks have many), from reference files with flat, optional, nested and
repeated columns of every physical type (shipped in testfiles/, and the reference files of
SHARED_DIR/parquet-testing where present) and from a table made here (long strings that get
truncated bounds, 0xFF bytes, NaN and signed zeros, nulls, lists, structs, decimals, INT96).
Every ColumnIndex and OffsetIndex that Arrow C++ reads (page_index_dump_arrow, built against
pyarrow's libparquet) must equal what pqpage's own reader returns (page_index_dump_pqpage), and
pyarrow must report has_column_index / has_offset_index and read every value.

Arrow writes, pqpage reads: the same table and reference files written by pyarrow with
write_page_index=True, both dumps equal again.

Called by ctest as: page_index_arrow_test.py TOOL SHARED_DIR SCRATCH_DIR. Skipped (77) where the
dump programs were not built (a build configured without PQPAGE_ARROW_DIR, like the sanitizer
build); without SHARED_DIR/parquet-testing the reference files are skipped with one line.
"""

import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import interop_common as C  # noqa: E402

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
# The sample and peers' files (every physical type, nested and repeated columns, other writers).
SHIPPED = [os.path.join(ROOT, "testfiles", "sample_trips.parquet")] + [
    os.path.join(ROOT, "testfiles", "peers", name) for name in (
        "pyarrow-dictionary-v1-snappy.parquet", "pyarrow-delta-binary-packed-v2-zstd.parquet",
        "pyarrow-byte-stream-split-v1-lz4raw.parquet", "fastparquet-lz4-hadoop.parquet")]
REFERENCE = [
    "alltypes_plain.parquet", "nested_lists.snappy.parquet", "nested_structs.rust.parquet",
    "list_columns.parquet", "null_list.parquet", "repeated_no_annotation.parquet",
    "byte_stream_split.zstd.parquet", "fixed_length_decimal.parquet", "int96_from_spark.parquet",
    "nan_in_stats.parquet", "binary.parquet", "delta_byte_array.parquet",
    "datapage_v2.snappy.parquet", "nulls.snappy.parquet",
]
POLICIES = ["auto", "plain", "dictionary", "delta", "byte_stream_split"]
CODECS = ["snappy", "zstd", "uncompressed", "lz4_raw", "gzip"]


def made_table():
    import decimal
    import pyarrow as pa
    n = 3000
    long_text = ["x" * 70 + str(i) if i % 3 else None for i in range(n)]
    high_bytes = [bytes([0xFF] * (65 + i % 3)) + bytes([i % 256]) for i in range(n)]
    floats = [float("nan") if i % 97 == 0 else (-0.0 if i % 89 == 0 else i * 0.5 - 700)
              for i in range(n)]
    return pa.table({
        "id": pa.array(range(n), pa.int64()),
        "down": pa.array([None if i % 11 == 0 else n - i for i in range(n)], pa.int32()),
        "text": pa.array(long_text, pa.string()),
        "high": pa.array(high_bytes, pa.binary()),
        "f": pa.array(floats, pa.float64()),
        "g": pa.array([None if i % 5 == 0 else float(i % 50) for i in range(n)], pa.float32()),
        "flag": pa.array([None if i % 13 == 0 else i % 3 == 0 for i in range(n)], pa.bool_()),
        "money": pa.array([decimal.Decimal(i * 7 - 900) / 100 for i in range(n)],
                          pa.decimal128(9, 2)),
        "tags": pa.array([None if i % 17 == 0 else [f"t{j}" for j in range(i % 4)]
                          for i in range(n)], pa.list_(pa.string())),
        "point": pa.array([None if i % 19 == 0 else {"x": i, "y": None if i % 2 else -i}
                           for i in range(n)],
                          pa.struct([("x", pa.int32()), ("y", pa.int64())])),
    })


def dump(binary, path):
    result = subprocess.run([binary, path], capture_output=True, text=True, timeout=300)
    if result.returncode != 0:
        return None, result.stderr.strip()[:300]
    return result.stdout, None


def first_difference(a, b):
    for i, (x, y) in enumerate(zip(a.splitlines(), b.splitlines())):
        if x != y:
            return f"line {i + 1}: Arrow '{x}' / pqpage '{y}'"
    return f"{len(a.splitlines())} lines from Arrow, {len(b.splitlines())} from pqpage"


def main(tool, scratch):
    import pyarrow.parquet as pq
    build = os.path.dirname(os.path.abspath(tool))
    arrow_dump = os.path.join(build, "page_index_dump_arrow")
    pqpage_dump = os.path.join(build, "page_index_dump_pqpage")
    if not (os.path.exists(arrow_dump) and os.path.exists(pqpage_dump)):
        print("page index dump programs not built (no PQPAGE_ARROW_DIR): skipped")
        return 77
    shared = sys.argv[2]
    data = os.path.join(shared, "parquet-testing", "data")
    table_path = os.path.join(scratch, "made.parquet")
    pq.write_table(made_table(), table_path, row_group_size=1200)
    sources = [table_path] + SHIPPED
    if os.path.isdir(data):
        sources += [os.path.join(data, f) for f in REFERENCE]
    else:
        print(f"skipped: the {len(REFERENCE)} reference files, as {data} is missing "
              "(see README: reference files)")

    failures = []
    files = []  # (label, path)
    combination = 0
    for source in sources:
        name = os.path.basename(source)
        for policy in POLICIES:
            for version in (1, 2):
                codec = CODECS[combination % len(CODECS)]
                combination += 1
                out = os.path.join(scratch, f"{name}-{policy}-v{version}-{codec}.parquet")
                result = C.run_tool(tool, "recode", source, out, "--encoding", policy,
                                    "--page-version", str(version), "--compression", codec,
                                    "--page-size", "512")
                if result.returncode != 0:
                    failures.append(f"recode {name} {policy} v{version} {codec}: "
                                    f"{result.stderr.strip()[:200]}")
                    continue
                files.append((f"pqpage wrote {name} ({policy}, v{version}, {codec})", out))
        # Arrow writes its own page index; pqpage must read it as Arrow does.
        out = os.path.join(scratch, f"{name}-pyarrow-indexed.parquet")
        try:
            pq.write_table(pq.read_table(source), out, write_page_index=True,
                           data_page_size=512)
            files.append((f"pyarrow wrote {name}", out))
        except Exception as error:  # a type pyarrow cannot write back is not this test's subject
            print(f"note: pyarrow cannot rewrite {name}: {error}")

    compared = indexed_chunks = 0
    for label, path in files:
        arrow_text, arrow_error = dump(arrow_dump, path)
        pqpage_text, pqpage_error = dump(pqpage_dump, path)
        if arrow_error or pqpage_error:
            failures.append(f"{label}: Arrow: {arrow_error or 'ok'}; pqpage: {pqpage_error or 'ok'}")
            continue
        if arrow_text != pqpage_text:
            failures.append(f"{label}: {first_difference(arrow_text, pqpage_text)} ({path})")
            continue
        compared += 1
        indexed_chunks += arrow_text.count("offset index:")
        if label.startswith("pqpage"):
            meta = pq.ParquetFile(path).metadata
            for i in range(meta.num_row_groups):
                for j in range(meta.num_columns):
                    column = meta.row_group(i).column(j)
                    if not column.has_offset_index:
                        failures.append(f"{label}: pyarrow sees no OffsetIndex on "
                                        f"{column.path_in_schema}")
            pq.read_table(path)  # every value reads (the recode tests compare them)
    print(f"{compared} of {len(files)} files: Arrow C++ and pqpage read the same page indexes "
          f"({indexed_chunks} chunks with an OffsetIndex)")
    if indexed_chunks < 500:
        failures.append(f"only {indexed_chunks} indexed chunks compared")
    for failure in failures:
        print("FAIL:", failure)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(C.main_in_venv(main))
