"""Structural checks of `pqpage inspect --json` output (used by inspect_test.sh and recode_test.sh).

usage: python3 inspect_check.py JSON_FILE [EXPECTATION...]
       python3 inspect_check.py --manifest FILE
A manifest checks many files in one run (python's start-up dominates a check): one line per
file, tab-separated: a label for failure messages, the JSON file, then its expectations.

Checks that hold for every file: counts agree between the footer, the row groups and the pages;
pages tile their chunk exactly; every encoding, page type and codec is named by its spec name;
statistics bounds have the JSON type their physical type calls for. Expectations add
file-specific checks:
  clean               no problems reported (every page read and decoded)
  crc=bad             some page has a CRC that does not match
  crc=ok              every page has a CRC and it matches
  crc=none            no page has a CRC
  page_type=T         some page has type T
  only_data_page=T    every data page has type T
  encoding=E          some page uses value encoding E
  only_encoding=E     every data page uses value encoding E
  dictionary          some chunk has a dictionary page
  nested              some column has max_rep > 0
  statistics          some chunk or page has statistics
  no_statistics       no chunk or page has statistics
  created_by=PREFIX   created_by starts with PREFIX
  consistent_rows     the row groups' rows add up to the file's num_rows
  same_shape=JSON     same row groups (and their rows), leaf columns and key-value keys as
                      the inspect --json output in file JSON
  exact_chunks        pages end exactly at offset + the footer's total_compressed_size
"""
import json
import re
import sys

ENCODINGS = {"PLAIN", "PLAIN_DICTIONARY", "RLE", "BIT_PACKED", "DELTA_BINARY_PACKED",
             "DELTA_LENGTH_BYTE_ARRAY", "DELTA_BYTE_ARRAY", "RLE_DICTIONARY", "BYTE_STREAM_SPLIT"}
PAGE_TYPES = {"DATA_PAGE", "INDEX_PAGE", "DICTIONARY_PAGE", "DATA_PAGE_V2"}
CODECS = {"UNCOMPRESSED", "SNAPPY", "GZIP", "LZO", "BROTLI", "LZ4", "ZSTD", "LZ4_RAW"}
TYPES = {"BOOLEAN", "INT32", "INT64", "INT96", "FLOAT", "DOUBLE", "BYTE_ARRAY",
         "FIXED_LEN_BYTE_ARRAY"}
HEX = re.compile(r"^[0-9a-f]*$")
DATA_PAGES = ("DATA_PAGE", "DATA_PAGE_V2")

failures = []


def check(condition, where, message):
    if not condition:
        failures.append(f"{where}: {message}")
    return condition


def is_int(value):
    return isinstance(value, int) and not isinstance(value, bool)


def check_bound(value, physical_type, where):
    if physical_type in ("INT32", "INT64"):
        ok = is_int(value) or (isinstance(value, str) and HEX.match(value))
    elif physical_type in ("FLOAT", "DOUBLE"):
        ok = isinstance(value, (int, float)) and not isinstance(value, bool) or value in (
            "NaN", "Infinity", "-Infinity") or (isinstance(value, str) and HEX.match(value))
    elif physical_type == "BOOLEAN":
        ok = isinstance(value, bool) or (isinstance(value, str) and HEX.match(value))
    else:
        ok = isinstance(value, str) and HEX.match(value) is not None
    check(ok, where, f"bound {value!r} is not what a {physical_type} bound should look like")


def check_statistics(stats, physical_type, where):
    check(isinstance(stats, dict), where, "statistics is not an object")
    for key, value in stats.items():
        if key in ("min_value", "max_value", "legacy_min", "legacy_max"):
            check_bound(value, physical_type, f"{where} {key}")
        elif key in ("null_count", "distinct_count", "nan_count"):
            check(is_int(value) and value >= 0, where, f"{key} {value!r} is not a count")
        else:
            check(False, where, f"unexpected statistics key {key}")


def check_file(path, expectations):
    with open(path, encoding="utf-8") as f:
        doc = json.load(f)
    where = path
    for key in ("file", "file_size", "footer_size", "created_by", "version", "num_rows",
                "num_row_groups", "key_value_metadata", "columns", "row_groups", "problems"):
        check(key in doc, where, f"missing top-level key {key}")
    columns = doc["columns"]
    check(doc["num_row_groups"] == len(doc["row_groups"]), where, "num_row_groups != row groups")
    # Some writers leave the file's num_rows at 0: only files that should be exact are checked.
    if "consistent_rows" in expectations:
        check(sum(rg["num_rows"] for rg in doc["row_groups"]) == doc["num_rows"], where,
              "row group rows do not add up to num_rows")
    check(all(isinstance(k, str) for k in doc["key_value_metadata"]), where,
          "key_value_metadata holds non-strings")
    for c, column in enumerate(columns):
        check(column["index"] == c, where, f"column {c} has index {column['index']}")
        check(column["type"] in TYPES, where, f"column {c} type {column['type']}")
        check(is_int(column["max_def"]) and column["max_def"] >= 0, where, "bad max_def")
        check(is_int(column["max_rep"]) and 0 <= column["max_rep"] <= column["max_def"], where,
              "bad max_rep")

    seen = {"page_types": set(), "encodings": set(), "data_page_types": set(),
            "data_encodings": set(), "crc": [], "dictionary": False, "statistics": False}
    problems = 0
    for rg in doc["row_groups"]:
        check(len(rg["columns"]) == len(columns), where,
              f"row group {rg['index']} has {len(rg['columns'])} chunks")
        for chunk in rg["columns"]:
            cw = f"{path}: row group {rg['index']} column {chunk['column']} ({chunk['path']})"
            column = columns[chunk["column"]]
            check(chunk["path"] == column["path"] and chunk["type"] == column["type"], cw,
                  "chunk path/type differ from the schema's")
            pages = chunk["pages"]
            check(chunk["num_pages"] == len(pages), cw, "num_pages != len(pages)")
            check(chunk.get("codec") in CODECS, cw, f"codec {chunk.get('codec')}")
            for encoding in chunk.get("encodings", []):
                check(encoding in ENCODINGS, cw, f"footer encoding {encoding}")
            for entry in chunk.get("encoding_stats", []):
                check(entry["page_type"] in PAGE_TYPES and entry["encoding"] in ENCODINGS, cw,
                      f"encoding_stats entry {entry}")
            if "statistics" in chunk:
                seen["statistics"] = True
                check_statistics(chunk["statistics"], column["type"], cw + " statistics")
            check(sum(e["count"] for e in chunk["page_encodings"]) == len(pages), cw,
                  "page_encodings counts do not add up to the pages")
            summary = ", ".join(
                (f"{e['page_type']}/{e['encoding']}" if "encoding" in e else e["page_type"]) +
                f" x{e['count']}" for e in chunk["page_encodings"])
            check(chunk["page_encoding_summary"].startswith(summary or "(no pages)"), cw,
                  f"summary {chunk['page_encoding_summary']!r} does not match {summary!r}")
            chunk_errors = len(chunk.get("errors", [])) + sum(1 for p in pages if "error" in p)
            problems += chunk_errors
            # Pages tile the chunk: each starts where the previous ended.
            if pages and "offset" in chunk:
                position = chunk["offset"]
                for i, page in enumerate(pages):
                    check(page["offset"] == position, cw,
                          f"page {i} at {page['offset']}, expected {position}")
                    position = page["offset"] + page["header_size"] + page["compressed_page_size"]
                # The reader widens the chunks of writers known to understate their length, so
                # the pages only have to lie inside it; exact_chunks asks for the footer's size.
                check(position <= chunk["offset"] + chunk["length"], cw,
                      "pages run past the chunk's end")
                if "exact_chunks" in expectations:
                    check(position == chunk["offset"] + chunk["total_compressed_size"], cw,
                          "pages do not end at offset + total_compressed_size")
            values = rows = 0
            counts_known = True
            for i, page in enumerate(pages):
                pw = f"{cw} page {i}"
                check(page["type"] in PAGE_TYPES or page["type"].startswith("UNKNOWN("), pw,
                      f"page type {page['type']}")
                seen["page_types"].add(page["type"])
                check(isinstance(page["crc_present"], bool), pw, "crc_present not a bool")
                if page["crc_present"]:
                    check(isinstance(page["crc_valid"], bool), pw, "crc_valid not a bool")
                    seen["crc"].append(page["crc_valid"])
                else:
                    check(page["crc_valid"] is None, pw, "crc_valid without a CRC")
                    seen["crc"].append(None)
                check(isinstance(page["is_compressed"], bool), pw, "is_compressed not a bool")
                if "statistics" in page:
                    seen["statistics"] = True
                    check_statistics(page["statistics"], column["type"], pw + " statistics")
                if page["type"] == "DICTIONARY_PAGE":
                    seen["dictionary"] = True
                    check(page["encoding"] in ENCODINGS, pw, f"encoding {page['encoding']}")
                    seen["encodings"].add(page["encoding"])
                if page["type"] not in DATA_PAGES:
                    continue
                seen["data_page_types"].add(page["type"])
                check(page["encoding"] in ENCODINGS, pw, f"encoding {page['encoding']}")
                seen["encodings"].add(page["encoding"])
                seen["data_encodings"].add(page["encoding"])
                if page["type"] == "DATA_PAGE":
                    check(page["definition_level_encoding"] in ENCODINGS, pw, "def encoding")
                    check(page["repetition_level_encoding"] in ENCODINGS, pw, "rep encoding")
                else:
                    check(is_int(page["definition_levels_byte_length"]) and
                          is_int(page["repetition_levels_byte_length"]), pw,
                          "v2 level byte lengths missing")
                    check(page["counts_from"] == "header", pw, "v2 counts not from the header")
                values += page["num_values"]
                if page["num_rows"] is None or page["num_nulls"] is None:
                    counts_known = False
                    check(chunk_errors > 0, pw, "counts unknown although nothing failed")
                    continue
                rows += page["num_rows"]
                check(0 <= page["num_nulls"] <= page["num_values"], pw, "nulls outside 0..values")
                if column["max_def"] == 0:
                    check(page["num_nulls"] == 0, pw, "nulls in a required column")
                if column["max_rep"] == 0:
                    check(page["num_rows"] == page["num_values"], pw,
                          "rows != values in a column without repetition")
            if chunk_errors == 0:
                check(values == chunk.get("num_values", values), cw,
                      f"data pages hold {values} values, the chunk {chunk.get('num_values')}")
                check(counts_known and rows == rg["num_rows"], cw,
                      f"data pages hold {rows} rows, the row group {rg['num_rows']}")
    check(problems == doc["problems"], where,
          f"problems is {doc['problems']}, the chunks report {problems}")

    for expectation in expectations:
        name, _, arg = expectation.partition("=")
        ew = f"{path}: expectation {expectation}"
        if name == "clean":
            check(doc["problems"] == 0, ew, f"{doc['problems']} problems")
        elif name == "crc":
            if arg == "bad":
                check(False in seen["crc"], ew, "no page has a bad CRC")
            elif arg == "ok":
                check(seen["crc"] and all(v is True for v in seen["crc"]), ew,
                      f"CRCs: {seen['crc']}")
            else:
                check(all(v is None for v in seen["crc"]), ew, "a page has a CRC")
        elif name == "page_type":
            check(arg in seen["page_types"], ew, f"page types {sorted(seen['page_types'])}")
        elif name == "only_data_page":
            check(seen["data_page_types"] == {arg}, ew,
                  f"data page types {sorted(seen['data_page_types'])}")
        elif name == "encoding":
            check(arg in seen["encodings"], ew, f"encodings {sorted(seen['encodings'])}")
        elif name == "only_encoding":
            check(seen["data_encodings"] <= {arg}, ew,
                  f"data page encodings {sorted(seen['data_encodings'])}")
        elif name == "dictionary":
            check(seen["dictionary"], ew, "no dictionary page")
        elif name == "nested":
            check(any(c["max_rep"] > 0 for c in columns), ew, "no repeated column")
        elif name == "statistics":
            check(seen["statistics"], ew, "no statistics anywhere")
        elif name == "no_statistics":
            check(not seen["statistics"], ew, "statistics present")
        elif name == "same_shape":
            with open(arg, encoding="utf-8") as f:
                other = json.load(f)
            def shape(d):
                return ([rg["num_rows"] for rg in d["row_groups"]], d["columns"],
                        d["key_value_metadata"])
            check(shape(doc) == shape(other), ew, "row groups, columns or key-value keys differ")
        elif name in ("exact_chunks", "consistent_rows"):
            pass  # checked per chunk above
        elif name == "created_by":
            check((doc["created_by"] or "").startswith(arg), ew,
                  f"created_by {doc['created_by']!r}")
        else:
            check(False, ew, "unknown expectation")



def main():
    if sys.argv[1] == "--manifest":
        with open(sys.argv[2], encoding="utf-8") as f:
            entries = [line.rstrip("\n").split("\t") for line in f if line.strip()]
    else:
        entries = [[sys.argv[1]] + sys.argv[1:]]
    for label, path, *expectations in entries:
        before = len(failures)
        try:
            check_file(path, [e for e in expectations if e])
        except (OSError, ValueError, KeyError, TypeError, IndexError) as error:
            failures.append(f"{path}: {type(error).__name__}: {error}")
        if len(failures) > before:
            print(f"FAIL: {label}", file=sys.stderr)
            for failure in failures[before:before + 20]:
                print("  ", failure, file=sys.stderr)
    if failures:
        sys.exit(1)


if __name__ == "__main__":
    main()
