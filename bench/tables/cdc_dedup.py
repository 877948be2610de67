#!/usr/bin/env python3
"""Measures how many data pages survive an edit byte for byte, the figure a deduplicating store
(one that chunks by content, such as Hugging Face's Xet) pays for: a table is written, 1% of its
rows are inserted in the middle (or deleted from it, or appended), the table is written again, and
the data pages of the second file whose bytes (header and body) are found among the first file's
are counted. Writers: pqpage recode of a file pyarrow wrote (the page builder cutting pages by
size, and with --cdc by content) and pyarrow itself (without and with
use_content_defined_chunking). Every file is one row group, so that row groups do not move.

usage: cdc_dedup.py [--rows N] [--page-size BYTES] [--tool PQPAGE] [--per-column]
                    [--cdc-size MIN:MAX] [--encoding POLICY]

Run with build/peers-venv/bin/python (pyarrow with use_content_defined_chunking, numpy).
"""

import argparse
import collections
import json
import os
import subprocess
import tempfile

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

WORDS = ("the quick brown fox jumps over a lazy dog while parquet pages hold values of every "
         "kind and content defined chunking keeps most of them in place after an edit").split()
CATEGORIES = ["books", "music", "garden", "toys", "sports", "food", "health", "tools", "cars",
              "baby", "beauty", "office", "pets", "shoes", "travel", "games"]


def make_rows(count, seed, first_id):
    """`count` rows of a web-log-like table; `first_id` numbers them."""
    rng = np.random.default_rng(seed)
    ids = np.arange(first_id, first_id + count, dtype=np.int64)
    start = np.datetime64("2024-01-01T00:00:00", "us").astype(np.int64)
    timestamps = start + ids * 1_000_000 + rng.integers(0, 900_000, count)
    categories = [CATEGORIES[i] for i in rng.integers(0, len(CATEGORIES), count)]
    hosts = rng.integers(0, 500, count)
    paths = rng.integers(0, 1 << 40, count)
    urls = [f"https://shop{h}.example.com/{c}/item/{p:x}?ref={i % 97}"
            for h, c, p, i in zip(hosts, categories, paths, ids)]
    lengths = rng.integers(3, 25, count)
    word_ids = rng.integers(0, len(WORDS), int(lengths.sum()))
    texts, at = [], 0
    for n in lengths:
        texts.append(" ".join(WORDS[w] for w in word_ids[at:at + n]))
        at += n
    prices = np.round(rng.lognormal(3, 1, count), 2)
    ratings = rng.integers(1, 6, count).astype(np.int32)
    ratings_mask = rng.random(count) < 0.3  # 30% null
    tag_counts = rng.integers(0, 6, count)
    tag_values = rng.integers(0, 10_000, int(tag_counts.sum())).astype(np.int32)
    offsets = np.concatenate([[0], np.cumsum(tag_counts)]).astype(np.int32)
    return pa.table({
        "id": pa.array(ids),
        "ts": pa.array(timestamps, type=pa.timestamp("us")),
        "category": pa.array(categories),
        "url": pa.array(urls),
        "text": pa.array(texts),
        "price": pa.array(prices),
        "rating": pa.array(ratings, mask=ratings_mask),
        "tags": pa.ListArray.from_arrays(pa.array(offsets), pa.array(tag_values)),
    })


def edits(table, extra):
    """The three edited tables: 1% inserted in the middle, deleted from it, appended."""
    rows, middle, count = table.num_rows, table.num_rows // 2, extra.num_rows
    return {
        "insert": pa.concat_tables([table.slice(0, middle), extra, table.slice(middle)]),
        "delete": pa.concat_tables([table.slice(0, middle), table.slice(middle + count)]),
        "append": pa.concat_tables([table, extra]),
    }


def data_pages(tool, path):
    """{column path: [bytes of each data page]} of a file, from `pqpage inspect --json`."""
    report = json.loads(subprocess.run([tool, "inspect", "--json", path], check=True,
                                       capture_output=True, text=True).stdout)
    with open(path, "rb") as f:
        content = f.read()
    pages = collections.defaultdict(list)
    for group in report["row_groups"]:
        for column in group["columns"]:
            for page in column["pages"]:
                if page["type"] in ("DATA_PAGE", "DATA_PAGE_V2"):
                    start = page["offset"]
                    end = start + page["header_size"] + page["compressed_page_size"]
                    pages[column["path"]].append(content[start:end])
    return pages


def unchanged(before, after):
    """{column: (pages of `after` found among `before`'s, pages of `after`)}."""
    result = {}
    for column, pages in after.items():
        old = collections.Counter(before.get(column, []))
        same = 0
        for page in pages:
            if old[page] > 0:
                old[page] -= 1
                same += 1
        result[column] = (same, len(pages))
    return result


def parse_size(text):
    """A size with pqpage's K and M suffixes."""
    units = {"k": 1 << 10, "m": 1 << 20}
    return int(text[:-1]) * units[text[-1].lower()] if text[-1].lower() in units else int(text)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--page-size", type=int, default=1 << 20)
    parser.add_argument("--cdc-size", help="MIN:MAX for pqpage --cdc=MIN:MAX (default: --cdc)")
    parser.add_argument("--encoding", default="auto", help="pqpage recode --encoding")
    parser.add_argument("--tool", default=None, help="the pqpage tool (default build-cdc/pqpage "
                        "or build/pqpage beside this script's repository)")
    parser.add_argument("--per-column", action="store_true")
    args = parser.parse_args()
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    tool = args.tool or next(p for p in (os.path.join(root, "build-cdc", "pqpage"),
                                         os.path.join(root, "build", "pqpage"))
                             if os.path.exists(p))

    table = make_rows(args.rows, 1, 0)
    extra = make_rows(args.rows // 100, 2, args.rows * 10)
    tables = {"base": table, **edits(table, extra)}
    cdc = [f"--cdc={args.cdc_size}"] if args.cdc_size else ["--cdc"]
    # pqpage's page sizes (--cdc: a quarter of the page size to twice it), for pyarrow's chunker.
    low, high = ((parse_size(x) for x in args.cdc_size.split(":")) if args.cdc_size
                 else (args.page_size // 4, args.page_size * 2))
    writers = {
        "pqpage by size": ("pqpage", []),
        "pqpage cdc": ("pqpage", cdc),
        "pyarrow": ("pyarrow", False),
        "pyarrow cdc": ("pyarrow", {"min_chunk_size": low, "max_chunk_size": high}),
        "pyarrow cdc dflt": ("pyarrow", True),  # its own sizes: 256 KiB to 1 MiB
    }
    with tempfile.TemporaryDirectory() as tmp:
        source = {}
        for name, t in tables.items():
            # pqpage's input; also the source of truth for row group boundaries (one group).
            source[name] = os.path.join(tmp, f"{name}.source.parquet")
            pq.write_table(t, source[name], row_group_size=t.num_rows + 1)
        pages = {}
        for writer, (kind, setting) in writers.items():
            for name, t in tables.items():
                out = os.path.join(tmp, f"{name}.{writer.replace(' ', '_')}.parquet")
                if kind == "pqpage":
                    subprocess.run([tool, "recode", source[name], out, "--page-size",
                                    str(args.page_size), "--encoding", args.encoding, *setting],
                                   check=True, capture_output=True)
                else:
                    pq.write_table(t, out, row_group_size=t.num_rows + 1,
                                   data_page_size=args.page_size,
                                   use_content_defined_chunking=setting)
                pages[writer, name] = (data_pages(tool, out), os.path.getsize(out))

    print(f"{args.rows} rows, page size {args.page_size}, pqpage {' '.join(cdc)} (pyarrow cdc: "
          f"min {low}, max {high}), pqpage encoding {args.encoding}; data pages of the edited "
          "file byte-identical to a page of the original")
    print(f"{'writer':<16} {'file MB':>8} {'pages':>6} " +
          " ".join(f"{edit:>16}" for edit in ("insert 1%", "delete 1%", "append 1%")))
    for writer in writers:
        base, size = pages[writer, "base"]
        cells = []
        for edit in ("insert", "delete", "append"):
            counts = unchanged(base, pages[writer, edit][0])
            same = sum(s for s, _ in counts.values())
            total = sum(n for _, n in counts.values())
            cells.append(f"{same:>5}/{total:<5} {100 * same / max(total, 1):5.1f}%")
        base_pages = sum(len(p) for p in base.values())
        print(f"{writer:<16} {size / 1e6:8.1f} {base_pages:6} " + " ".join(cells))
        if args.per_column:
            for edit in ("insert", "delete", "append"):
                counts = unchanged(base, pages[writer, edit][0])
                print(f"    {edit}: " + ", ".join(f"{c} {s}/{n}" for c, (s, n) in counts.items()))


if __name__ == "__main__":
    main()
