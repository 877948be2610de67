"""Direction 3: the writer's defaults.

pyarrow writes the table of peer_table.py with all its defaults; `pqpage recode` rewrites it with
pqpage's defaults (encoding auto, data page v1, snappy). Every peer must read the rewrite exactly
as it reads pyarrow's file, and no column of the rewrite may be larger than pyarrow's (sum of the
column chunks' total_compressed_size, from pyarrow's metadata) by more than a tiny tolerance
(1% + 8 bytes). The per-column sizes of both are printed and written to SCRATCH_DIR/matrix.md.

Called by ctest as: writer_defaults_size_test.py TOOL SHARED_DIR SCRATCH_DIR (the same small
matrix in the sanitizer build).
"""

import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import interop_common as C  # noqa: E402

TOLERANCE = 0.01
SLACK_BYTES = 8


def column_sizes(path):
    import pyarrow.parquet as pq
    meta = pq.ParquetFile(path).metadata
    sizes = {}
    for i in range(meta.num_row_groups):
        rg = meta.row_group(i)
        for j in range(rg.num_columns):
            col = rg.column(j)
            sizes[col.path_in_schema] = sizes.get(col.path_in_schema, 0) + \
                col.total_compressed_size
    return sizes


def main(tool, scratch):
    import pyarrow.parquet as pq
    import peer_readers as R
    import peer_table as T
    import peer_writers as W
    start = time.time()
    source = os.path.join(scratch, "pyarrow-defaults.parquet")
    out = os.path.join(scratch, "pqpage-defaults.parquet")
    pq.write_table(W.arrow_table(), source)
    pq.write_table(pq.read_table(source), source + ".pyarrow-copy.parquet")
    matrix = C.Matrix("Direction 3: pqpage recode with its defaults (auto, v1, snappy) of "
                      "pyarrow's defaults file, read by every peer",
                      ["reading peer", "encoding policy", "page version", "codec", "crc"])
    columns, error = C.dump(tool, source)
    problems = [error] if error else T.compare_dump(
        T.expected_dump(T.PROFILES["pyarrow_int64_ts"]), columns)
    repro = f"{tool} recode {source} {out}"
    result = C.run_tool(tool, "recode", source, out)
    if result.returncode != 0:
        problems.append(f"pqpage recode exit {result.returncode}: {result.stderr.strip()}")
    if problems:
        matrix.add(["(setup)", "auto", "v1", "snappy", "no crc"], "FAIL",
                   "; ".join(problems[:4]) + f" [reproduce: {repro}]")
    else:
        for reader in R.PEERS:
            worker = R.Worker(reader, {"pyarrow": source})
            answer = worker.check("pyarrow", out, False)
            worker.close()
            verdict = answer["verdict"]
            detail = answer["detail"]
            if verdict == "crash":
                verdict = "FAIL"
            if verdict == "FAIL":
                detail += f" [reproduce: {repro}]"
            matrix.add([reader, "auto", "v1", "snappy", "no crc"], verdict, detail)
    # sizes
    lines = ["", "## Column sizes (sum of total_compressed_size over row groups, bytes)", "",
             "| column | pyarrow defaults | pqpage defaults | pqpage/pyarrow | verdict |",
             "|---|---|---|---|---|"]
    print(f"{'column':22} {'pyarrow':>9} {'pqpage':>9} {'ratio':>7}  verdict")
    larger = []
    if os.path.exists(out):
        theirs, mine = column_sizes(source), column_sizes(out)
        for name in theirs:
            a, b = theirs[name], mine.get(name, 0)
            ok = b <= a * (1 + TOLERANCE) + SLACK_BYTES
            verdict = "ok" if ok else "LARGER"
            if not ok:
                larger.append(f"{name}: pqpage {b} bytes, pyarrow {a}")
            print(f"{name:22} {a:9} {b:9} {b / a:7.3f}  {verdict}")
            lines.append(f"| {name} | {a} | {b} | {b / a:.3f} | {verdict} |")
        total_a, total_b = sum(theirs.values()), sum(mine.values())
        print(f"{'total':22} {total_a:9} {total_b:9} {total_b / total_a:7.3f}")
        lines.append(f"| total | {total_a} | {total_b} | {total_b / total_a:.3f} | |")
        print(f"files: pyarrow {os.path.getsize(source)} bytes, pqpage {os.path.getsize(out)}")
        lines.append(f"\nfiles: pyarrow {os.path.getsize(source)} bytes, pqpage "
                     f"{os.path.getsize(out)} bytes")
    for item in larger:
        matrix.add(["(size)", "auto", "v1", "snappy", "no crc"], "FAIL",
                   f"column larger than pyarrow's: {item} [reproduce: {repro}; then "
                   f"{tool} inspect on both]")
    return matrix.finish(scratch, start, extra_md="\n".join(lines))


if __name__ == "__main__":
    sys.exit(C.main_in_venv(main))
