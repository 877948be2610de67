"""pqpage's ORC codecs against Apache ORC's C++ library, through pyarrow.orc, both ways.

Reading: pyarrow.orc writes the table of orc_table.py with file versions 0.11 (integer RLE v1) and
0.12 (RLE v2), every compression it offers, a 4 KiB compression block, small stripes (several per
file) and string dictionaries off and on (dictionary_key_size_threshold 0 and 1). `pqpage dump`
of each file must equal what pyarrow.orc reads, column by column: the definition levels rebuilt
from pyarrow's nulls (a struct field: 0 struct null, 1 field null, 2 present) and every present
value (floats bit for bit, decimals exactly, timestamps in nanoseconds, dates in days, strings
and binary as hex).

Writing: `pqpage recode` re-encodes every file with --rle 1 and --rle 2 and every compression;
pyarrow.orc must read each recoded file back equal to the original table (floats bit for bit),
its postscript must carry the file version of its RLE version (and no RLE v2 encoding in a v1
file), and `pqpage dump` of it must equal the original's.

Times before 1970 with a fraction of a second, which ORC's C++ writer stores with negative
nanoseconds (outside the spec's range) and reads back, are in every file and also in files of
their own (orc_table.py's make_pre1970_table), which name the case when it fails.

Called by ctest as: orc_pyarrow_test.py TOOL SHARED_DIR SCRATCH_DIR. The matrix is printed and
written to SCRATCH_DIR/matrix.md. The sanitizer build runs one file version and two codecs.
"""

import decimal
import math
import os
import struct
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import interop_common as C  # noqa: E402

ORC_KIND = {"bool": "BOOLEAN", "int8": "BYTE", "int16": "SHORT", "int32": "INT",
            "int64": "LONG", "float": "FLOAT", "double": "DOUBLE", "string": "STRING",
            "binary": "BINARY", "date32[day]": "DATE", "timestamp[ns]": "TIMESTAMP"}


def orc_kind(arrow_type):
    import pyarrow as pa
    if pa.types.is_decimal(arrow_type):
        return "DECIMAL"
    return ORC_KIND.get(str(arrow_type), str(arrow_type))


def leaves(table):
    """(path, arrow type, [definition level per row], [present values as pyarrow scalars' Python
    values]) for every column pqpage dumps: top-level primitives and the fields of structs."""
    import pyarrow as pa
    out = []

    def walk(path, array, parent_defs, depth):
        valid = array.is_valid().to_pylist()
        defs = [d + 1 if d == depth - 1 and v else d for d, v in zip(parent_defs, valid)]
        if pa.types.is_list(array.type) or pa.types.is_map(array.type):
            return  # not dumped: its children have a slot per item, not per row
        if pa.types.is_struct(array.type):
            for i in range(array.type.num_fields):
                field = array.type.field(i)
                walk(f"{path}.{field.name}", array.field(i), defs, depth + 1)
            return
        present = [i for i, d in enumerate(defs) if d == depth]
        values = array.take(pa.array(present, pa.int64())) if present else array.slice(0, 0)
        out.append((path, array.type, depth, defs, values))

    for name in table.column_names:
        column = table.column(name).combine_chunks()
        walk(name, column, [0] * len(column), 1)
    return out


def float_bits(value, single):
    return struct.unpack("<I", struct.pack("<f", value))[0] if single else \
        struct.unpack("<Q", struct.pack("<d", value))[0]


def dumped_float(text_or_number):
    if isinstance(text_or_number, str):
        return {"NaN": math.nan, "Infinity": math.inf, "-Infinity": -math.inf}[text_or_number]
    return float(text_or_number)


def expected_values(arrow_type, values):
    """The dump's values for pyarrow's present `values`, as comparable Python objects."""
    import pyarrow as pa
    import pyarrow.compute as pc
    if pa.types.is_floating(arrow_type):
        single = arrow_type == pa.float32()
        return [float_bits(v, single) for v in values.to_pylist()]
    if pa.types.is_timestamp(arrow_type):
        return pc.cast(values, pa.int64()).to_pylist()
    if pa.types.is_date32(arrow_type):
        return values.view(pa.int32()).to_pylist()
    if pa.types.is_string(arrow_type):
        return [v.encode("utf-8").hex() for v in values.to_pylist()]
    if pa.types.is_binary(arrow_type):
        return [v.hex() for v in values.to_pylist()]
    return values.to_pylist()  # bool, integers, Decimal


def dumped_values(arrow_type, values):
    import pyarrow as pa
    if pa.types.is_floating(arrow_type):
        single = arrow_type == pa.float32()
        return [float_bits(dumped_float(v), single) for v in values]
    if pa.types.is_decimal(arrow_type):
        return [decimal.Decimal(v) for v in values]
    return values


def compare_dump(tool, path, table):
    """'' when `pqpage dump` of path equals `table` (as pyarrow read it), else what differs."""
    columns, error = C.dump(tool, path)
    if error:
        return error
    expected = leaves(table)
    if [c["path"] for c in columns] != [e[0] for e in expected]:
        return f"columns {[c['path'] for c in columns]}, expected {[e[0] for e in expected]}"
    for column, (name, arrow_type, depth, defs, values) in zip(columns, expected):
        if column["type"] != orc_kind(arrow_type):
            return f"{name}: type {column['type']}, expected {orc_kind(arrow_type)}"
        if column["max_def"] != depth or column["max_rep"] != 0:
            return f"{name}: max_def {column['max_def']}, expected {depth}"
        if column["def"] != defs:
            first = next(i for i, (a, b) in enumerate(zip(column["def"], defs)) if a != b) \
                if len(column["def"]) == len(defs) else "length"
            return f"{name}: definition levels differ (first at row {first})"
        got = dumped_values(arrow_type, column["values"])
        want = expected_values(arrow_type, values)
        if got != want:
            if len(got) != len(want):
                return f"{name}: {len(got)} values, expected {len(want)}"
            i = next(i for i, (a, b) in enumerate(zip(got, want)) if a != b)
            return (f"{name}: value {i} is {column['values'][i]!r}, "
                    f"pyarrow reads {values[i].as_py()!r}")
    return ""


def same_array(a, b):
    """Equal types, nulls and values, floats compared bit for bit (NaN equals itself)."""
    import pyarrow as pa
    if a.type != b.type or a.is_valid() != b.is_valid():
        return False
    if pa.types.is_struct(a.type):
        a, b = a.filter(a.is_valid()), b.filter(b.is_valid())
        return all(same_array(a.field(i), b.field(i)) for i in range(a.type.num_fields))
    a, b = a.drop_null(), b.drop_null()
    if pa.types.is_floating(a.type):
        bits = pa.int32() if a.type == pa.float32() else pa.int64()
        return a.view(bits).equals(b.view(bits))
    return a.equals(b)


def differing_columns(table, other):
    if table.column_names != other.column_names or table.num_rows != other.num_rows:
        return [f"shape {other.column_names} x {other.num_rows}"]
    return [name for name in table.column_names
            if not same_array(table.column(name).combine_chunks(),
                              other.column(name).combine_chunks())]


def check_recoded_layout(tool, path, rle):
    """'' when the recoded file says the file version of its RLE version and uses only the
    column encodings of that version."""
    info, error = C.inspect(tool, path)
    if error:
        return error
    want = [0, 11] if rle == 1 else [0, 12]
    if info["file_version"] != want:
        return f"file version {info['file_version']}, expected {want}"
    kinds = {e["kind"] for s in info["stripes"] for e in s["encodings"]}
    allowed = {"DIRECT", "DICTIONARY"} if rle == 1 else {"DIRECT", "DIRECT_V2", "DICTIONARY_V2"}
    if not kinds <= allowed:
        return f"encodings {sorted(kinds)} in an RLE v{rle} file"
    return ""


def check_file(tool, matrix, scratch, name, table, options, codecs, min_stripes=0):
    """Writes `table` with pyarrow.orc (`options`), compares `pqpage dump` with what pyarrow.orc
    reads, then recodes it with both RLE versions and each of `codecs` and has pyarrow.orc and
    pqpage read every recoded file back."""
    import pyarrow.orc as orc
    path = os.path.join(scratch, name + ".orc")
    orc.write_table(table, path, **options)
    original = orc.read_table(path)
    stripes = orc.ORCFile(path).nstripes
    if stripes < min_stripes:
        matrix.add([name, f"at least {min_stripes} stripes"], "FAIL", f"{stripes} stripes")
    try:
        problem = compare_dump(tool, path, original)
    except Exception as e:  # noqa: BLE001 - a dump the check cannot parse fails it
        problem = f"comparing the dump raised {type(e).__name__}: {e}"
    matrix.add([name, f"pqpage dump = pyarrow.orc ({stripes} stripes)"],
               "FAIL" if problem else "pass", problem)
    if problem:
        return
    original_dump = C.run_tool(tool, "dump", path).stdout
    for rle in (1, 2):
        for codec in codecs:
            out = os.path.join(scratch, f"{name}.rle{rle}.{codec}.orc")
            # RLE v1 with 4 KiB chunks (pyarrow cannot write blocks under 64 KiB), RLE v2 with
            # the input's block size.
            args = ["--rle", str(rle), "--compression", codec]
            if rle == 1 and codec != "uncompressed":
                args += ["--block-size", "4096"]
            result = C.run_tool(tool, "recode", path, out, *args)
            check = "recode " + " ".join(args)
            if result.returncode != 0:
                matrix.add([name, check], "FAIL",
                           f"exit {result.returncode}: {result.stderr.strip()}")
                continue
            problem = check_recoded_layout(tool, out, rle)
            if not problem:
                try:
                    differing = differing_columns(original, orc.read_table(out))
                    if differing:
                        problem = f"pyarrow.orc reads other values in {differing}"
                except Exception as e:  # noqa: BLE001 - any reader error is the finding
                    problem = f"pyarrow.orc cannot read it: {e}"
            if not problem and C.run_tool(tool, "dump", out).stdout != original_dump:
                problem = "pqpage dump differs from the original's"
            matrix.add([name, check + ", read by pyarrow.orc"], "FAIL" if problem else "pass",
                       problem)
            os.remove(out)


def main(tool, scratch):
    import orc_table as T

    start = time.time()
    sanitizer = C.sanitizer_build()
    versions = ["0.12"] if sanitizer else T.VERSIONS
    compressions = ["uncompressed", "zstd"] if sanitizer else T.COMPRESSIONS
    # Under the sanitizers: fewer rows, still enough for pyarrow to cut the zstd files in 2 stripes.
    rows = 12000 if sanitizer else 24000
    table = T.make_table(rows=rows, seed=14)
    pre1970 = T.make_pre1970_table()
    matrix = C.Matrix("ORC: pqpage against pyarrow.orc (Apache ORC C++)", ["file", "check"])
    for version in versions:
        for compression in compressions:
            for threshold in T.DICTIONARY_THRESHOLDS:
                options = T.write_options(compression, version, threshold)
                name = f"pyarrow-v{version}-{compression}-dict{threshold}"
                check_file(tool, matrix, scratch, name, table, options, compressions,
                           min_stripes=2)
        check_file(tool, matrix, scratch, f"pyarrow-v{version}-zstd-pre1970-subsecond", pre1970,
                   T.write_options("zstd", version, 0), ["uncompressed", "zstd"])
        check_file(tool, matrix, scratch, f"pyarrow-v{version}-zlib-zero-rows", table.slice(0, 0),
                   T.write_options("zlib", version, 1), ["uncompressed", "zlib"])
    return matrix.finish(scratch, start)


if __name__ == "__main__":
    sys.exit(C.main_in_venv(main))
