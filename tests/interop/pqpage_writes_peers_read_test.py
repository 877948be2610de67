"""Direction 2: files pqpage writes, the peers read.

One source file per peer (written by peer_writers.py, its dump checked against peer_table first)
is rewritten by `pqpage recode` with every encoding policy x page version 1 and 2 x every codec x
CRC on/off (--page-size 4096, so chunks have several pages). Every peer (pyarrow, DuckDB, polars,
fastparquet) reads every rewritten file, and must read exactly what it reads from the source (in
its own API, NaN-aware: peer_readers.py). A peer error that states the peer does not support
something (its own words: "not supported", "unknown encoding", ...) is recorded as that peer's
limitation with the error; any other error or difference is a FAIL. Except for `auto`: pyarrow,
DuckDB and polars must read everything it writes, since it chooses only what they all read.

pyarrow also: reads CRC files with page_checksum_verification=True; checks every column chunk's
statistics (min/max/null_count) against the values (the source's dump, split by row group), and
that it has its page index (has_offset_index, has_column_index); and
checks the footer rules of shared/TRAPS.md: encodings complete, encoding_stats equal to the pages
with the dictionary page first, dictionary_page_offset only with a dictionary page, created_by
"pqpage version X.Y.Z (build HASH)", FileMetaData version 1, page CRCs present (--checksum).

The matrix has one line per (reading peer, encoding policy, page version, codec, crc); a line
passes when that peer passes on the rewrites of every source file.

Called by ctest as: pqpage_writes_peers_read_test.py TOOL SHARED_DIR SCRATCH_DIR. Under
PQPAGE_SANITIZER_BUILD=1: a reduced matrix (v1 with snappy, v2 with zstd; CRC on).
"""

import os
import re
import struct
import sys
import time
from concurrent.futures import ThreadPoolExecutor

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import interop_common as C  # noqa: E402

POLICIES = ["auto", "plain", "dictionary", "delta", "delta_length_byte_array",
            "byte_stream_split"]
CODECS = ["uncompressed", "snappy", "gzip", "zstd", "lz4_raw", "brotli"]
PAGE_SIZE = 4096
# The peers every file written with --encoding auto must be readable by, in full.
AUTO_READERS = ("pyarrow", "duckdb", "polars")
CREATED_BY = re.compile(r"^pqpage version \d+\.\d+\.\d+ \(build [0-9a-f]+\)$")

# The source file of each peer (files of peer_writers.write_all, reduced set).
SOURCES = {
    "pyarrow": "pyarrow-dictionary-v1-snappy.parquet",
    "duckdb": "duckdb-default-v1-snappy.parquet",
    "polars": "polars-stats1-v1-snappy.parquet",
    "fastparquet": "fastparquet-default-v1-SNAPPY.parquet",
}


def combos(reduced):
    out = []
    for policy in POLICIES:
        for version in (1, 2):
            codecs = CODECS if not reduced else (["snappy"] if version == 1 else ["zstd"])
            for codec in codecs:
                for crc in ((False, True) if not reduced else (True,)):
                    out.append((policy, version, codec, crc))
    return out


def recode(tool, source, out, combo):
    policy, version, codec, crc = combo
    args = ["recode", source, out, "--encoding", policy, "--page-version", str(version),
            "--compression", codec, "--page-size", str(PAGE_SIZE)]
    if crc:
        args.append("--checksum")
    result = C.run_tool(tool, *args)
    if result.returncode != 0:
        return f"pqpage recode exit {result.returncode}: {result.stderr.strip()[:300]}"
    return None


# ---- statistics expected from the values ----

def split_by_row_group(column, row_counts):
    """[(def levels, values)] per row group of a dumped column."""
    max_def, max_rep = column["max_def"], column["max_rep"]
    values = iter(column["values"])
    n = len(column["def"]) if max_def else len(column["values"])
    defs = column.get("def", [max_def] * n)
    reps = column.get("rep", [0] * n)
    groups, bounds, row, total = [], [], -1, 0
    for count in row_counts:
        total += count
        bounds.append(total)
        groups.append(([], []))
    g = 0
    for d, r in zip(defs, reps):
        if r == 0:
            row += 1
            while row >= bounds[g]:
                g += 1
        groups[g][0].append(d)
        if d == max_def:
            groups[g][1].append(next(values))
    return groups


def float_of(token, physical):
    if token == "NaN":
        return float("nan")
    return struct.unpack("<f" if physical == "FLOAT" else "<d", bytes.fromhex(token))[0]


def expected_stats(physical, max_def, defs, values):
    """(null_count, min, max) in pyarrow's min_raw form; min/max None when none is due."""
    import peer_table as T
    nulls = sum(1 for d in defs if d < max_def)
    if physical == "INT96" or not values:
        return nulls, None, None
    if physical in ("FLOAT", "DOUBLE"):
        numbers = [float_of(T.float_token(v, physical), physical) for v in values]
        numbers = [v for v in numbers if v == v]
        if not numbers:
            return nulls, None, None
        lo, hi = min(numbers), max(numbers)
        if lo == 0:
            lo = -0.0
        if hi == 0:
            hi = 0.0
        return nulls, lo, hi
    if physical in ("BYTE_ARRAY", "FIXED_LEN_BYTE_ARRAY"):
        raw = [bytes.fromhex(v) for v in values]
        return nulls, min(raw), max(raw)
    return nulls, min(values), max(values)


def same_stat(want, got, physical):
    if isinstance(got, str):
        got = got.encode("utf-8")
    if physical in ("FLOAT", "DOUBLE"):
        return (struct.pack("<d", want) == struct.pack("<d", got))
    return want == got


def check_pyarrow_metadata(path, info, source_dump, crc):
    """Footer rules, statistics and CRCs through pyarrow's metadata (and inspect's page view)."""
    import pyarrow.parquet as pq
    problems = []
    meta = pq.ParquetFile(path).metadata
    if not CREATED_BY.match(meta.created_by or ""):
        problems.append(f"created_by {meta.created_by!r}")
    if meta.format_version != "1.0":
        problems.append(f"format version {meta.format_version} (FileMetaData version "
                        f"{info['version']}), expected 1")
    row_counts = [meta.row_group(i).num_rows for i in range(meta.num_row_groups)]
    per_rg = {c["path"]: split_by_row_group(c, row_counts) for c in source_dump}
    for i in range(meta.num_row_groups):
        rg = meta.row_group(i)
        for j in range(rg.num_columns):
            col = rg.column(j)
            mine = info["row_groups"][i]["columns"][j]
            where = f"row group {i} column {col.path_in_schema}"
            pages = mine["pages"]
            dict_pages = [p for p in pages if p["type"] == "DICTIONARY_PAGE"]
            used = {p["encoding"] for p in pages}
            footer = set(col.encodings)
            if not used <= footer:
                problems.append(f"{where}: footer encodings {sorted(footer)} miss "
                                f"{sorted(used - footer)} used by pages")
            # RLE may be listed beyond the pages' value encodings: it is the levels' encoding
            # (Arrow lists it for every column, with levels or not).
            extra = footer - used - {"RLE"}
            if extra:
                problems.append(f"{where}: footer encodings {sorted(footer)} list "
                                f"{sorted(extra)} no page uses")
            stats_pages = [(e["page_type"], e["encoding"], e["count"])
                           for e in mine["page_encodings"]]
            stats_footer = [(e["page_type"], e["encoding"], e["count"])
                            for e in mine.get("encoding_stats") or []]
            if sorted(stats_pages) != sorted(stats_footer):
                problems.append(f"{where}: encoding_stats {stats_footer} but pages {stats_pages}")
            elif dict_pages and stats_footer[0][0] != "DICTIONARY_PAGE":
                problems.append(f"{where}: encoding_stats do not start with the dictionary page")
            if col.has_dictionary_page != bool(dict_pages):
                problems.append(f"{where}: has_dictionary_page {col.has_dictionary_page} with "
                                f"{len(dict_pages)} dictionary pages")
            if dict_pages and col.dictionary_page_offset != pages[0]["offset"]:
                problems.append(f"{where}: dictionary_page_offset {col.dictionary_page_offset}, "
                                f"dictionary page at {pages[0]['offset']}")
            if not dict_pages and col.dictionary_page_offset is not None:
                problems.append(f"{where}: dictionary_page_offset {col.dictionary_page_offset} "
                                f"without a dictionary page")
            data_pages = [p for p in pages if p["type"] in ("DATA_PAGE", "DATA_PAGE_V2")]
            if data_pages and col.data_page_offset != data_pages[0]["offset"]:
                problems.append(f"{where}: data_page_offset {col.data_page_offset}, first data "
                                f"page at {data_pages[0]['offset']}")
            if sum(p["num_values"] for p in data_pages) != col.num_values:
                problems.append(f"{where}: pages hold {sum(p['num_values'] for p in data_pages)}"
                                f" values, footer num_values {col.num_values}")
            # The page index (issue 13): an OffsetIndex for every chunk with data pages, a
            # ColumnIndex unless the type has no order (INT96) or a page holds only NaN.
            if data_pages and not col.has_offset_index:
                problems.append(f"{where}: no OffsetIndex")
            ordered = col.physical_type != "INT96"
            # Only a page of nothing but NaN leaves a float column without one.
            if data_pages and ordered and not col.has_column_index and \
                    col.physical_type not in ("FLOAT", "DOUBLE"):
                problems.append(f"{where}: no ColumnIndex")
            if not ordered and col.has_column_index:
                problems.append(f"{where}: a ColumnIndex for INT96, which has no order")
            if crc and not all(p["crc_present"] and p["crc_valid"] for p in pages):
                problems.append(f"{where}: --checksum but a page has no valid CRC")
            if not crc and any(p["crc_present"] for p in pages):
                problems.append(f"{where}: a CRC without --checksum")
            # statistics
            physical = col.physical_type
            defs, values = per_rg[col.path_in_schema][i]
            max_def = info["columns"][j]["max_def"]
            nulls, lo, hi = expected_stats(physical, max_def, defs, values)
            stats = col.statistics
            if stats is None:
                problems.append(f"{where}: no statistics")
                continue
            if not stats.has_null_count or stats.null_count != nulls:
                stated = stats.null_count if stats.has_null_count else "absent"
                problems.append(f"{where}: null_count {stated}, the data has {nulls}")
            if lo is None:
                if stats.has_min_max and physical != "INT96":
                    problems.append(f"{where}: min/max {stats.min_raw!r}/{stats.max_raw!r} "
                                    f"where none is due")
                continue
            if not stats.has_min_max:
                problems.append(f"{where}: no min/max (data: {lo!r}..{hi!r})")
                continue
            if not same_stat(lo, stats.min_raw, physical):
                problems.append(f"{where}: min {stats.min_raw!r}, the data's {lo!r}")
            if not same_stat(hi, stats.max_raw, physical):
                problems.append(f"{where}: max {stats.max_raw!r}, the data's {hi!r}")
    return problems


# Peer bugs a pqpage file can trigger, each proven on a file pyarrow writes (the control): only a
# bug whose control still shows it turns that peer's crash into "peer bug" instead of FAIL.
KNOWN_PEER_BUGS = {
    ("fastparquet", "DELTA_BINARY_PACKED"):
        "fastparquet's delta_binary_unpack (cencoding.pyx) unpacks whole miniblocks (32 values) "
        "into a buffer sized for the page's values: a heap overflow whenever a page's value "
        "count is not a multiple of 32 (pyarrow's own DELTA_BINARY_PACKED files with such "
        "pages crash it too)",
}


def prove_known_peer_bugs(scratch):
    """The KNOWN_PEER_BUGS their proof still shows (the bug may be fixed in a newer peer)."""
    import numpy as np
    proven = {}
    key = ("fastparquet", "DELTA_BINARY_PACKED")
    try:
        from fastparquet import cencoding
        # 10 INT64 values: one miniblock of 1-bit deltas. A correct decoder writes 10 slots.
        stream = bytes([128, 1, 4, 10, 0, 0, 1, 0, 0, 0, 0xFF, 0xFF, 0xFF, 0xFF])
        buffer = np.full(64, -7, dtype=np.int64)
        cencoding.delta_binary_unpack(cencoding.NumpyIO(stream),
                                      cencoding.NumpyIO(buffer.view("uint8")), longval=1)
        overrun = int((buffer[10:] != -7).sum())
    except Exception as error:  # noqa: BLE001
        overrun, error_text = 0, str(error)
    if overrun:
        proven[key] = KNOWN_PEER_BUGS[key] + (f" (proof: decoding a 10-value stream wrote "
                                               f"{overrun} slots past the 10)")
        print(f"known peer bug proven: {proven[key]}")
    else:
        print(f"known peer bug no longer shown: {key}")
    return proven


def known_bug(proven, reader, info):
    """The proven peer bug that explains reader's crash on the file inspect described."""
    if info is None:
        return None
    encodings = {p["encoding"] for rg in info["row_groups"] for c in rg["columns"]
                 for p in c["pages"]}
    for (peer, encoding), text in proven.items():
        if peer == reader and encoding in encodings:
            return text
    return None


PYARROW_CODEC = {"uncompressed": "none", "lz4_raw": "lz4"}


def control_options(info, combo, source_has_int96):
    """pyarrow write_table options mirroring a pqpage file: its per-column encodings (from
    inspect), page version, codec, page size and CRCs."""
    policy, version, codec, crc = combo
    dictionary, encodings = [], {}
    for column in info["row_groups"][0]["columns"]:
        used = {p["encoding"] for p in column["pages"] if p["type"] != "DICTIONARY_PAGE"}
        if used & {"RLE_DICTIONARY", "PLAIN_DICTIONARY"}:
            dictionary.append(column["path"])
        others = used - {"RLE_DICTIONARY", "PLAIN_DICTIONARY", "PLAIN"}
        if others:
            encodings[column["path"]] = sorted(others)[0]
        elif not used & {"RLE_DICTIONARY", "PLAIN_DICTIONARY"}:
            encodings[column["path"]] = "PLAIN"
    return {"use_dictionary": dictionary or False, "column_encoding": encodings or None,
            "data_page_version": f"{version}.0", "compression": PYARROW_CODEC.get(codec, codec),
            "data_page_size": PAGE_SIZE, "write_page_checksum": crc,
            "use_deprecated_int96_timestamps": source_has_int96}


class Controls:
    """pyarrow's equivalents of pqpage files, read by the peer that failed on pqpage's."""

    def __init__(self, scratch, sources, int96):
        self.dir = os.path.join(scratch, "controls")
        os.makedirs(self.dir, exist_ok=True)
        self.sources, self.int96 = sources, int96
        self.workers, self.cache = {}, {}

    def check(self, reader, src, path, out, info, combo, compare=False):
        import json
        import peer_readers as R
        import pyarrow.parquet as pq
        options = control_options(info, combo, self.int96[src])
        key = (reader, src, json.dumps(options, sort_keys=True), compare and out)
        if key in self.cache:
            return self.cache[key]
        file = os.path.join(self.dir, "control-" + os.path.basename(out))
        try:
            pq.write_table(pq.read_table(path), file, **options)
        except Exception:  # noqa: BLE001 (pyarrow cannot write that mix)
            self.cache[key] = None
            return None
        worker = self.workers.get(reader)
        if worker is None:
            worker = self.workers[reader] = R.Worker(reader, self.sources)
        answer = dict(worker.check(src, file, False, out if compare else ""), file=file)
        self.cache[key] = answer
        return answer

    def close(self):
        for worker in self.workers.values():
            worker.close()


def same_error(a, b):
    """Two error texts alike but for numbers and paths."""
    def skeleton(text):
        text = re.sub(r"/\S+", "PATH", text)
        return re.sub(r"\d+", "N", text)
    return skeleton(a) == skeleton(b)


def main(tool, scratch):
    import peer_readers as R
    import peer_table as T
    import peer_writers as W
    import pyarrow.parquet as pq
    start = time.time()
    reduced = C.sanitizer_build()
    source_dir = os.path.join(scratch, "sources")
    manifest = {e["file"]: e for e in W.write_all(source_dir, reduced=True)}
    matrix = C.Matrix("Direction 2: pqpage recode writes, the peers read (values identical to "
                      "the peer's read of the source)",
                      ["reading peer", "encoding policy", "page version", "codec", "crc",
                       "source files"])
    setup_failures = []
    sources = {}
    for peer, file in SOURCES.items():
        entry = manifest[file]
        columns, error = C.dump(tool, entry["path"])
        problems = [error] if error else T.compare_dump(
            T.expected_dump(T.PROFILES[entry["profile"]]), columns)
        if problems:
            setup_failures.append(f"source {file}: {'; '.join(problems[:3])}")
            continue
        sources[peer] = (entry["path"], columns)
        pq.write_table(pq.read_table(entry["path"]), entry["path"] + ".pyarrow-copy.parquet")
    out_dir = os.path.join(scratch, "recoded")
    os.makedirs(out_dir, exist_ok=True)
    jobs = []
    for combo in combos(reduced):
        policy, version, codec, crc = combo
        for src, (path, _) in sources.items():
            out = os.path.join(out_dir, f"{src}-{policy}-v{version}-{codec}-crc{int(crc)}.parquet")
            jobs.append((combo, src, path, out))

    def produce(job):
        combo, src, path, out = job
        error = recode(tool, path, out, combo)
        info = None
        if not error:
            info, error = C.inspect(tool, out)
        return error, info

    with ThreadPoolExecutor(max_workers=2) as pool:
        produced = list(pool.map(produce, jobs))
    print(f"{len(jobs)} files recoded and inspected in {time.time() - start:.1f}s", flush=True)
    # --no-page-index: no index of either kind (only the footer changes; the matrix below reads
    # the values of the default, indexed files).
    for src, (path, _) in sources.items():
        out = os.path.join(out_dir, f"{src}-no-page-index.parquet")
        result = C.run_tool(tool, "recode", path, out, "--no-page-index")
        if result.returncode != 0:
            setup_failures.append(f"recode {path} --no-page-index: {result.stderr.strip()[:300]}")
            continue
        meta = pq.ParquetFile(out).metadata
        indexed = [meta.row_group(i).column(j).path_in_schema
                   for i in range(meta.num_row_groups) for j in range(meta.num_columns)
                   if meta.row_group(i).column(j).has_offset_index
                   or meta.row_group(i).column(j).has_column_index]
        if indexed:
            setup_failures.append(f"recode {path} --no-page-index: page indexes on {indexed}")
    known_bugs = prove_known_peer_bugs(scratch)

    # Every peer reads every file in a worker process of its own (a crash costs one result).
    def read_all(reader):
        worker = R.Worker(reader, {src: path for src, (path, _) in sources.items()})
        answers = []
        for (combo, src, path, out), (error, info) in zip(jobs, produced):
            if error:
                answers.append(None)
                continue
            answers.append(worker.check(src, out, combo[3] and reader == "pyarrow"))
        worker.close()
        return worker.baseline_errors, answers

    with ThreadPoolExecutor(max_workers=len(R.PEERS)) as pool:
        reads = dict(zip(R.PEERS, pool.map(read_all, R.PEERS)))
    print(f"read by every peer after {time.time() - start:.1f}s", flush=True)
    controls = Controls(scratch, {src: path for src, (path, _) in sources.items()},
                        {src: any(c["type"] == "INT96" for c in dump)
                         for src, (_, dump) in sources.items()})
    limitations = [f"{reader} cannot read the source file written by {src}: {text}"
                   for reader, (errors, _) in reads.items() for src, text in errors.items()]
    results = {}
    for k, ((combo, src, path, out), (error, info)) in enumerate(zip(jobs, produced)):
        repro = (f"{tool} recode {path} {out} --encoding {combo[0]} --page-version "
                 f"{combo[1]} --compression {combo[2]} --page-size {PAGE_SIZE}"
                 + (" --checksum" if combo[3] else ""))
        for reader in R.PEERS:
            key = (reader,) + combo
            results.setdefault(key, [])
            if error:
                results[key].append(("FAIL", f"[{src} source] {error} [reproduce: {repro}]"))
                continue
            answer = reads[reader][1][k]
            verdict, detail = answer["verdict"], answer["detail"]
            if verdict == "crash":
                bug = known_bug(known_bugs, reader, info)
                if bug:
                    verdict, detail = "peer_bug", f"{detail}: {bug}"
            if verdict == "FAIL" and detail.startswith("values differ"):
                # Does the peer read pyarrow's equivalent file exactly as it reads pqpage's?
                control = controls.check(reader, src, path, out, info, combo, compare=True)
                if control is not None and control["verdict"] == "pass":
                    verdict = "peer_bug"
                    detail = (f"{detail} -- {reader} reads pyarrow's equivalent file "
                              f"{control['file']} exactly the same way (the peer's reading of "
                              f"this layout, not pqpage's writing)")
                elif control is not None:
                    detail += (f" -- pyarrow's equivalent file {control['file']} reads "
                               f"differently: {control['detail']}")
            elif verdict in ("FAIL", "crash"):
                # The peer's error: does it fail the same way on pyarrow's equivalent file?
                control = controls.check(reader, src, path, out, info, combo)
                if control is None:
                    detail += " (no pyarrow control file could be written)"
                elif control["verdict"] != "pass" and (
                        control["verdict"] == verdict == "crash"
                        or same_error(control["detail"], detail)):
                    verdict = "peer_bug" if verdict == "crash" else "unsupported"
                    detail = (f"{detail} -- the same on pyarrow's equivalent file "
                              f"{control['file']}")
                elif control["verdict"] in ("FAIL", "unsupported", "crash") and \
                        not control["detail"].startswith("values differ"):
                    verdict = "unsupported"
                    detail = (f"{detail} -- and pyarrow's equivalent file fails too: "
                              f"{control['detail']} ({control['file']})")
                else:
                    detail += (f" -- pyarrow's equivalent file {control['file']}: "
                               f"{control['verdict']} {control['detail']}")
            if verdict == "crash":
                verdict = "FAIL"
            if verdict == "pass" and reader == "pyarrow":
                problems = check_pyarrow_metadata(out, info, sources[src][1], combo[3])
                if problems:
                    verdict = "FAIL"
                    detail = (f"metadata: {'; '.join(problems[:4])}"
                              f"{' ...' if len(problems) > 4 else ''}")
            if verdict == "FAIL":
                detail += f" [reproduce: {repro}]"
            results[key].append((verdict, f"[{src} source] {detail}" if detail else src))
    for failure in setup_failures:
        matrix.add(["(setup)", "", "", "", "", ""], "FAIL", failure)
    for (reader, policy, version, codec, crc), outcomes in results.items():
        fails = [d for v, d in outcomes if v == "FAIL"]
        unsupported = [d for v, d in outcomes if v == "unsupported"]
        bugs = [d for v, d in outcomes if v == "peer_bug"]
        passed = [d for v, d in outcomes if v == "pass"]
        cells = [reader, policy, f"v{version}", codec, "crc" if crc else "no crc",
                 f"{len(passed)}/{len(outcomes)} pass"]
        if unsupported and policy == "auto" and reader in AUTO_READERS:
            # auto must choose only what these peers read (AutoEncodings::kInteroperable).
            fails.append("auto wrote an encoding this peer does not read")
        if fails:
            matrix.add(cells, "FAIL", " || ".join(fails + unsupported + bugs))
        elif unsupported:
            matrix.add(cells, "unsupported", " || ".join(unsupported + bugs))
        elif bugs:
            matrix.add(cells, "peer_bug", " || ".join(bugs))
        else:
            matrix.add(cells, "pass", "")
    controls.close()
    for note in limitations:
        print(f"limitation: {note}")
    return matrix.finish(scratch, start,
                         extra_md="\n".join(f"- limitation: {n}" for n in limitations))


if __name__ == "__main__":
    sys.exit(C.main_in_venv(main))
