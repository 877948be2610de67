"""Writes the files compare_with_arrow.sh scans with both page decoders: one table (a million rows
of sorted timestamps, low-cardinality ids, optional doubles and URL-like strings) written by
pyarrow twice: with its defaults (data pages v1, dictionary, snappy) and as data pages v2 with the
delta and BYTE_STREAM_SPLIT encodings and zstd. Usage: make_scan_files.py OUT_DIR."""
import os
import sys

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq


def main(out_dir):
    os.makedirs(out_dir, exist_ok=True)
    rng = np.random.default_rng(11)
    n = 1_000_000
    timestamps = 1_767_225_600_000_000 + np.cumsum(rng.integers(0, 5_000_000, n))
    ids = rng.integers(0, 1000, n).astype(np.int32)
    doubles = pa.array(rng.standard_normal(n), mask=rng.random(n) < 0.05)
    paths = ["trip/receipt", "trip/rating", "rider/profile", "trip/support/ticket"]
    urls = [f"https://rides.example.com/{paths[i % 4]}?id={10_000_000 + i * 7}" for i in range(n)]
    table = pa.table({"pickup": timestamps, "vendor": ids, "distance": doubles, "url": urls})
    pq.write_table(table, os.path.join(out_dir, "scan_pyarrow_defaults.parquet"))
    pq.write_table(table, os.path.join(out_dir, "scan_pyarrow_v2_delta_zstd.parquet"),
                   data_page_version="2.0", compression="zstd", use_dictionary=False,
                   column_encoding={"pickup": "DELTA_BINARY_PACKED",
                                    "vendor": "DELTA_BINARY_PACKED",
                                    "distance": "BYTE_STREAM_SPLIT",
                                    "url": "DELTA_BYTE_ARRAY"})


if __name__ == "__main__":
    main(sys.argv[1])
