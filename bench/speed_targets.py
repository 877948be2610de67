#!/usr/bin/env python3
"""Measures every speed target of the codec layer in one run and prints target, figure and ratio.

Usage: python3 bench/speed_targets.py [BUILD_DIR]   (default: build; build the *_bench targets first)
Each row runs one Google Benchmark at 64K values (65536) and reads its items/s or bytes/s, so the
figures come from one machine in one sitting; the memcpy baseline is measured in the same run.
"""
import json
import os
import subprocess
import sys

BUILD = sys.argv[1] if len(sys.argv) > 1 else "build"

# (what, binary, exact benchmark name, counter, target, unit); target None = reference only.
ROWS = [
    ("unpack32 bit-packed, width 1", "bit_packing_bench", "unpack32/avx2/w1/65536", "items_per_second", 8e9, "values/s"),
    ("unpack32 bit-packed, width 8", "bit_packing_bench", "unpack32/avx2/w8/65536", "items_per_second", 8e9, "values/s"),
    ("unpack32 bit-packed, width 17", "bit_packing_bench", "unpack32/avx2/w17/65536", "items_per_second", 8e9, "values/s"),
    ("unpack32 bit-packed, width 25", "bit_packing_bench", "unpack32/avx2/w25/65536", "items_per_second", 8e9, "values/s"),
    ("hybrid stream decode, width 8 (bit-packed)", "rle_bit_packed_hybrid_bench", "BM_HybridDecodeBitPacked/8/65536", "items_per_second", 8e9, "values/s"),
    ("levels max 1 -> validity bitmap, scattered nulls", "rle_bit_packed_hybrid_bench", "BM_LevelsToValidityBitmap/0/65536", "items_per_second", 8e9, "levels/s"),
    ("levels max 1 -> validity bitmap, clustered nulls", "rle_bit_packed_hybrid_bench", "BM_LevelsToValidityBitmap/1/65536", "items_per_second", 8e9, "levels/s"),
    ("dictionary indices + gather -> int32", "dictionary_bench", "BM_DictionaryDecode<int32_t>/5000/65536", "items_per_second", 2.2e9, "values/s"),
    ("dictionary indices + gather -> int64", "dictionary_bench", "BM_DictionaryDecode<int64_t>/5000/65536", "items_per_second", 2.2e9, "values/s"),
    ("DELTA_BINARY_PACKED decode int32", "delta_bench", "BM_DeltaBinaryPackedDecode<int32_t, RandomInt32>/65536", "items_per_second", 3.5e9, "values/s"),
    ("DELTA_BINARY_PACKED decode int64 (timestamps)", "delta_bench", "BM_DeltaBinaryPackedDecode<int64_t, Timestamps>/65536", "items_per_second", 2.5e9, "values/s"),
    ("BYTE_STREAM_SPLIT decode float", "byte_stream_split_bench", "BM_BssDecode<float>/65536", "bytes_per_second", 30e9, "B/s"),
    ("BYTE_STREAM_SPLIT decode double", "byte_stream_split_bench", "BM_BssDecode<double>/65536", "bytes_per_second", 30e9, "B/s"),
    ("PLAIN decode int32", "plain_bench", "BM_PlainDecode<int32_t>/65536", "bytes_per_second", None, "B/s"),
    ("memcpy of the same bytes", "plain_bench", "BM_MemcpyBaseline<int32_t>/65536", "bytes_per_second", None, "B/s"),
    ("PLAIN decode double", "plain_bench", "BM_PlainDecode<double>/65536", "bytes_per_second", None, "B/s"),
    ("memcpy of the same bytes", "plain_bench", "BM_MemcpyBaseline<double>/65536", "bytes_per_second", None, "B/s"),
    ("DELTA_BYTE_ARRAY decode, short strings", "delta_bench", "BM_DeltaByteArrayDecode<ShortStrings>/65536", "items_per_second", 0.5e9, "values/s"),
    ("hybrid encode, random width 8", "rle_bit_packed_hybrid_bench", "BM_HybridEncode/0/65536", "items_per_second", 2e9, "values/s"),
    ("hybrid encode, levels with clustered nulls", "rle_bit_packed_hybrid_bench", "BM_HybridEncode/2/65536", "items_per_second", 2e9, "values/s"),
    ("hybrid encode, levels with scattered nulls", "rle_bit_packed_hybrid_bench", "BM_HybridEncode/1/65536", "items_per_second", 2e9, "values/s"),
    ("DELTA_BINARY_PACKED encode int32", "delta_bench", "BM_DeltaBinaryPackedEncode<int32_t, RandomInt32>/65536", "items_per_second", 1e9, "values/s"),
    ("DELTA_BINARY_PACKED encode int64", "delta_bench", "BM_DeltaBinaryPackedEncode<int64_t, Timestamps>/65536", "items_per_second", 1e9, "values/s"),
]


def run(binary, names):
    pattern = "^(" + "|".join(n.replace("<", ".").replace(">", ".").replace("(", ".").replace(")", ".")
                             for n in names) + ")$"
    out = subprocess.run([os.path.join(BUILD, binary), "--benchmark_filter=" + pattern,
                          "--benchmark_min_time=0.5", "--benchmark_repetitions=3",
                          "--benchmark_report_aggregates_only=true", "--benchmark_format=json"],
                         check=True, capture_output=True, text=True).stdout
    result = {}
    for b in json.loads(out)["benchmarks"]:
        if b.get("aggregate_name") == "median":
            result[b["run_name"]] = b
    return result


def main():
    by_binary = {}
    for row in ROWS:
        by_binary.setdefault(row[1], []).append(row[2])
    measured = {}
    for binary, names in by_binary.items():
        measured.update(run(binary, names))
    with open("/proc/cpuinfo") as f:
        model = next((l.split(":", 1)[1].strip() for l in f if l.startswith("model name")), "?")
    print("machine: %s, %d cores; medians of 3 runs of >= 0.5 s, 65536 values" % (model, os.cpu_count()))
    print("%-50s %14s %14s %7s" % ("path", "measured", "target", "ratio"))
    for what, binary, name, counter, target, unit in ROWS:
        b = measured.get(name)
        if b is None:
            print("%-50s %14s" % (what, "missing: " + name))
            continue
        value = b[counter]
        scale = 1e9
        shown = "%.2f G%s" % (value / scale, unit)
        goal = "%.2f G%s" % (target / scale, unit) if target else ""
        ratio = "%.2f" % (value / target) if target else ""
        print("%-50s %14s %14s %7s" % (what, shown, goal, ratio))


if __name__ == "__main__":
    main()
