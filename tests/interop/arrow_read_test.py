"""pqpage's Arrow reader (pqpage/arrow_reader.h) against pyarrow, file by file.

Every *.parquet of SHARED_DIR/parquet-testing/data (subfolders too), of testfiles/peers and of
testfiles/ is read by arrow_stream_to_ipc (OpenArrowStream, imported by Arrow C++, every batch
ValidateFull'ed, written as an IPC stream) and by pyarrow.parquet.read_table. Then:
  - both read: the schemas must be equal (names, types, nullability; metadata ignored) and the
    values too, floats bit for bit (NaN payloads and -0.0 included);
  - pyarrow reads, pqpage reports an error: a failure;
  - pyarrow refuses: pqpage must report an error (exit 1), not produce batches.
When both read the whole file, variations run too: --batch-rows 7 (batches never longer than 7
rows nor across a row group, equal to the table once concatenated), --rows 3:9 (files of 10 rows
or more, against table.slice(3, 6)) and --columns with the first top-level field (against
table.select). A file listed in KNOWN_DIFFERENCES, with the reason, does not fail the test.

pyarrow reads with checksums verified (as pqpage's FileReader does by default) and otherwise its
defaults: UUID and JSON columns come out as the extension types arrow.uuid and arrow.json on both
sides.

Prints one line per file: ok, known: REASON, or what differs. Called by ctest as:
arrow_read_test.py TOOL SHARED_DIR SCRATCH_DIR; arrow_stream_to_ipc is found beside TOOL. Skipped
(77) without the peers' virtualenv or where arrow_stream_to_ipc was not built (no
PQPAGE_ARROW_DIR, or a sanitizer build); without SHARED_DIR the repository's own files still run.
"""

import concurrent.futures
import multiprocessing
import os
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import interop_common as C  # noqa: E402

# label (as printed: "parquet-testing/NAME", "testfiles/NAME", "testfiles/peers/NAME") -> why
# pqpage's reading may differ from pyarrow's. Applies to every variation of that file.
KNOWN_DIFFERENCES = {
}

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
BATCH_ROWS = 7
ROWS = (3, 9)
TIMEOUT = 120


def files(shared):
    """[(label, path)], the repository's files first; and a note when the reference files are
    missing."""
    out = []
    testfiles = os.path.join(ROOT, "testfiles")
    for name in sorted(os.listdir(testfiles)):
        if name.endswith(".parquet"):
            out.append((f"testfiles/{name}", os.path.join(testfiles, name)))
    peers = os.path.join(testfiles, "peers")
    for name in sorted(os.listdir(peers)):
        if name.endswith(".parquet"):
            out.append((f"testfiles/peers/{name}", os.path.join(peers, name)))
    data = os.path.join(shared, "parquet-testing", "data")
    if not os.path.isdir(data):
        return out, f"skipped: the reference files, as {data} is missing (see README)"
    for base, dirs, names in os.walk(data):
        dirs.sort()
        for name in sorted(names):
            if name.endswith(".parquet"):
                path = os.path.join(base, name)
                out.append(("parquet-testing/" + os.path.relpath(path, data), path))
    return out, None


# ---------------------------------------------------------------- comparing


def whole(column):
    """A ChunkedArray as one array."""
    import pyarrow as pa
    if column.num_chunks == 0:
        return pa.array([], type=column.type)
    return column.chunk(0) if column.num_chunks == 1 else pa.concat_arrays(column.chunks)


def lengths(a):
    """The lengths of the lists (or maps) of `a`, null where a list is null."""
    import numpy as np
    import pyarrow as pa
    return pa.array(np.diff(a.offsets.to_numpy()), mask=a.is_null().to_numpy(zero_copy_only=False))


def same_values(a, b):
    """None when arrays a and b (of equal types) hold the same values, floats compared by their
    bits; else why not (short)."""
    import pyarrow as pa
    import pyarrow.types as t
    if len(a) != len(b):
        return f"{len(b)} values, pyarrow {len(a)}"
    if a.null_count != b.null_count or not a.is_null().equals(b.is_null()):
        return "nulls differ"
    kind = a.type
    if t.is_dictionary(kind):
        return same_values(a.dictionary_decode(), b.dictionary_decode())
    if isinstance(kind, pa.ExtensionType):
        return same_values(a.storage, b.storage)
    if t.is_floating(kind):
        width = {16: pa.int16(), 32: pa.int32(), 64: pa.int64()}[kind.bit_width]
        # The bits, not the numbers: NaN != NaN and -0.0 == 0.0 would hide differences.
        return None if a.view(width).equals(b.view(width)) else "float bits differ"
    if t.is_struct(kind):
        # flatten() gives each field with the struct's nulls applied, so what lies under a null
        # struct does not count.
        for i, (x, y) in enumerate(zip(a.flatten(), b.flatten())):
            why = same_values(x, y)
            if why:
                return f"field {kind.field(i).name}: {why}"
        return None
    if t.is_map(kind):
        # As the list of key-value structs it is, which flatten() takes (it takes no map).
        entries = pa.list_(pa.field("entries", pa.struct([kind.key_field, kind.item_field]),
                                    nullable=False))
        return same_values(a.cast(entries), b.cast(entries))
    if t.is_list(kind) or t.is_large_list(kind) or t.is_fixed_size_list(kind):
        if not t.is_fixed_size_list(kind) and not lengths(a).equals(lengths(b)):
            return "list lengths differ"
        # flatten(): the values of the non-null lists in order, whatever the offsets.
        why = same_values(a.flatten(), b.flatten())
        return f"elements: {why}" if why else None
    return None if a.equals(b) else "values differ"


def first_difference(a, b):
    """The first index at which arrays a and b differ (bisection over prefixes)."""
    low, high = 0, min(len(a), len(b))
    while low < high:
        mid = (low + high) // 2
        if same_values(a.slice(0, mid + 1), b.slice(0, mid + 1)):
            high = mid
        else:
            low = mid + 1
    return low


def short(value, limit=80):
    text = repr(value)
    return text if len(text) <= limit else text[:limit] + "..."


def compare_tables(expected, got):
    """None when table `got` (pqpage's) equals `expected` (pyarrow's); else the first difference."""
    if not got.schema.equals(expected.schema, check_metadata=False):
        if got.schema.names != expected.schema.names:
            return f"schema: fields {got.schema.names}, pyarrow {expected.schema.names}"
        for mine, theirs in zip(got.schema, expected.schema):
            if not mine.equals(theirs, check_metadata=False):
                return (f"schema: field {mine.name}: {mine.type}"
                        f"{'' if mine.nullable else ' not null'}, pyarrow {theirs.type}"
                        f"{'' if theirs.nullable else ' not null'}")
        return "schema differs"
    if got.num_rows != expected.num_rows:
        return f"{got.num_rows} rows, pyarrow {expected.num_rows}"
    for name, theirs, mine in zip(expected.column_names, expected.columns, got.columns):
        a, b = whole(theirs), whole(mine)
        why = same_values(a, b)
        if why:
            row = first_difference(a, b)
            return (f"column {name}: {why}; row {row}: pqpage {short(b[row].as_py())}, "
                    f"pyarrow {short(a[row].as_py())}")
    return None


# ---------------------------------------------------------------- one file


def run_program(program, path, out, *args):
    """(batches, error): pqpage's batches read back from the IPC stream, or (None, why) with
    error[0] 'error' (pqpage reported an error: exit 1) or 'broken' (anything else)."""
    import pyarrow as pa
    try:
        result = subprocess.run([program, path, out, *args], capture_output=True, text=True,
                                timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        return None, ("broken", f"no answer in {TIMEOUT} s")
    message = result.stderr.strip().replace("\n", " ").removeprefix("arrow_stream_to_ipc: ")[:300]
    if result.returncode == 1:
        return None, ("error", message)
    if result.returncode != 0:
        return None, ("broken", f"exit {result.returncode}: {message}")
    if out == os.devnull:
        return (None, []), None
    with pa.ipc.open_stream(out) as reader:
        schema = reader.schema
        batches = list(reader)
    os.remove(out)
    return (schema, batches), None


def check_file(program, scratch, label, path):
    """(label, 'ok' | 'known' | 'FAIL', detail)."""
    import pyarrow as pa
    import pyarrow.parquet as pq
    out = os.path.join(scratch, label.replace("/", "_") + ".arrows")
    try:
        expected = pq.read_table(path, page_checksum_verification=True)
        refused = None
    except Exception as error:  # noqa: BLE001 (any refusal of pyarrow's counts)
        expected, refused = None, str(error).replace("\n", " ")[:200]

    problems = []
    if refused is not None:
        # Only the exit status matters: the batches (of a file too big for pyarrow, say) are not
        # kept.
        read, error = run_program(program, path, os.devnull)
        if read is not None:
            problems.append(f"pyarrow refuses it ({refused}), pqpage reads it")
        elif error[0] != "error":
            problems.append(f"pyarrow refuses it, pqpage {error[1]}")
        return problems, "(both refuse it)"
    read, error = run_program(program, path, out)
    if read is None:
        return [f"pqpage: {error[1]}"], None

    schema, batches = read
    problem = compare_tables(expected, pa.Table.from_batches(batches, schema))
    if problem:
        return [problem], None

    # Batches of at most BATCH_ROWS rows that end at every row group's end.
    read, error = run_program(program, path, out, "--batch-rows", str(BATCH_ROWS))
    if read is None:
        problems.append(f"--batch-rows {BATCH_ROWS}: pqpage: {error[1]}")
    else:
        schema, batches = read
        sizes = [len(b) for b in batches]
        metadata = pq.ParquetFile(path).metadata
        ends, at = set(), 0
        for i in range(metadata.num_row_groups):
            at += metadata.row_group(i).num_rows
            ends.add(at)
        cuts, at = set(), 0
        for size in sizes:
            at += size
            cuts.add(at)
        if any(size > BATCH_ROWS for size in sizes):
            problems.append(f"--batch-rows {BATCH_ROWS}: a batch of {max(sizes)} rows")
        elif not ends - {0} <= cuts:
            problems.append(f"--batch-rows {BATCH_ROWS}: no batch ends at row group end "
                            f"{min(ends - {0} - cuts)}")
        problem = compare_tables(expected, pa.Table.from_batches(batches, schema))
        if problem:
            problems.append(f"--batch-rows {BATCH_ROWS}: {problem}")

    if expected.num_rows >= 10:
        begin, end = ROWS
        read, error = run_program(program, path, out, "--rows", f"{begin}:{end}")
        if read is None:
            problems.append(f"--rows {begin}:{end}: pqpage: {error[1]}")
        else:
            problem = compare_tables(expected.slice(begin, end - begin),
                                     pa.Table.from_batches(read[1], read[0]))
            if problem:
                problems.append(f"--rows {begin}:{end}: {problem}")

    # The first top-level byte array column read as a dictionary, as read_dictionary reads it.
    for field in expected.schema:
        if (pa.types.is_string(field.type) or pa.types.is_binary(field.type)) and \
                "." not in field.name and expected.column_names.count(field.name) == 1:
            read, error = run_program(program, path, out, "--read-dictionary", field.name)
            if read is None:
                problems.append(f"--read-dictionary {field.name}: pqpage: {error[1]}")
            else:
                got = pa.Table.from_batches(read[1], read[0])
                try:
                    wanted = pq.read_table(path, page_checksum_verification=True,
                                           read_dictionary=[field.name])
                except OSError:
                    # pyarrow reads no DELTA_(LENGTH_)BYTE_ARRAY page into a dictionary; pqpage
                    # does: its dictionary's values must be the column's.
                    wanted = expected
                    at = got.schema.get_field_index(field.name)
                    got = got.set_column(at, field, got.column(at).cast(field.type))
                problem = compare_tables(wanted, got)
                if problem:
                    problems.append(f"--read-dictionary {field.name}: {problem}")
            break

    names = expected.column_names
    # A name with '.' cannot be given as a path; a repeated name is not one field.
    if names and "." not in names[0] and names.count(names[0]) == 1:
        read, error = run_program(program, path, out, "--columns", names[0])
        if read is None:
            problems.append(f"--columns {names[0]}: pqpage: {error[1]}")
        else:
            problem = compare_tables(expected.select([names[0]]),
                                     pa.Table.from_batches(read[1], read[0]))
            if problem:
                problems.append(f"--columns {names[0]}: {problem}")
    return problems, None


def check(program, scratch, label, path):
    try:
        problems, note = check_file(program, scratch, label, path)
    except Exception as error:  # noqa: BLE001 (a crash of the comparison is a failure to report)
        problems, note = [f"the comparison failed: {type(error).__name__}: {error}"], None
    if label in KNOWN_DIFFERENCES:
        if problems:
            return label, "known", KNOWN_DIFFERENCES[label]
        return label, "ok", "but listed in KNOWN_DIFFERENCES: remove it"
    if problems:
        return label, "FAIL", "; ".join(problems)
    return label, "ok", note or ""


def written_by_pyarrow(scratch):
    """Files pyarrow writes here, whose stored ARROW:schema carries types the Parquet schema
    cannot: dictionaries (of strings and large strings, nested in a list and a struct), time zones,
    durations, large lists; and UUID and JSON columns, which pyarrow reads as extension types.
    (label, path) pairs."""
    import pyarrow as pa
    import pyarrow.parquet as pq
    os.makedirs(scratch, exist_ok=True)
    words = pa.array(["red", None, "green", "red", "blue", None, "green", "red"] * 5)
    table = pa.table({
        "color": words.dictionary_encode(),
        "large_color": words.cast(pa.large_string()).dictionary_encode(),
        "tags": pa.array([["a", "b"], None, [], ["a", None]] * 10,
                         pa.list_(pa.dictionary(pa.int32(), pa.string()))),
        "point": pa.array([{"name": "x"}, None, {"name": None}, {"name": "y"}] * 10,
                          pa.struct([("name", pa.dictionary(pa.int8(), pa.string()))])),
        "when": pa.array(list(range(40)), pa.timestamp("ms", tz="Europe/Paris")),
        "took": pa.array([None if i % 7 == 0 else i * 1000 for i in range(40)],
                         pa.duration("us")),
        "many": pa.array([[i, i + 1] if i % 5 else None for i in range(40)],
                         pa.large_list(pa.int64())),
        "id": pa.ExtensionArray.from_storage(
            pa.uuid(), pa.array([None if i % 6 == 0 else bytes([i] * 16) for i in range(40)],
                                pa.binary(16))),
        "doc": pa.ExtensionArray.from_storage(
            pa.json_(), pa.array([None if i % 4 == 0 else '{"n": %d}' % i for i in range(40)])),
    })
    out = []
    for name, options in (("dictionaries-v1.parquet", {}),
                          ("dictionaries-v2-small-groups.parquet",
                           {"data_page_version": "2.0", "row_group_size": 13})):
        path = os.path.join(scratch, name)
        pq.write_table(table, path, **options)
        out.append((f"written/{name}", path))
    return out


def main(tool, scratch):
    start = time.time()
    program = os.path.join(os.path.dirname(os.path.abspath(tool)), "arrow_stream_to_ipc")
    if not os.path.exists(program):
        print("arrow_stream_to_ipc not built (no PQPAGE_ARROW_DIR, or a sanitizer build): skipped")
        return 77
    chosen, note = files(sys.argv[2])
    chosen += written_by_pyarrow(scratch)
    if note:
        print(note)
    counts = {"ok": 0, "known": 0, "FAIL": 0}
    # Two processes: each file costs a few program runs and a pyarrow read.
    # spawn: the parent has pyarrow loaded, whose threads a fork would not carry.
    context = multiprocessing.get_context("spawn")
    with concurrent.futures.ProcessPoolExecutor(max_workers=2, mp_context=context) as pool:
        futures = [pool.submit(check, program, scratch, label, path) for label, path in chosen]
        for future in futures:
            label, verdict, detail = future.result()
            counts[verdict] += 1
            shown = {"ok": "ok", "known": "known:", "FAIL": "FAIL:"}[verdict]
            print(f"{label}: {shown}{' ' if detail else ''}{detail}", flush=True)
    print(f"{counts['ok']} ok, {counts['known']} known differences, {counts['FAIL']} failed "
          f"of {len(chosen)} files; runtime {time.time() - start:.1f}s")
    return 1 if counts["FAIL"] or not chosen else 0


if __name__ == "__main__":
    sys.exit(C.main_in_venv(main))
