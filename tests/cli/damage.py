"""Damaged copies of a Parquet file for the tool tests, made at run time (no reference file
needed). The page is found with `pqpage inspect --json`, so the damage lands where it is meant to
whatever the writer's layout.

usage: damage.py TOOL IN OUT WHAT COLUMN [ROW_GROUP]
  WHAT   crc     flips the last byte of the first data page's body (a value of a PLAIN,
                 uncompressed page): the page still decodes, only its CRC disagrees
         levels  sets the 4-byte length prefix of the first data page's definition levels (a v1
                 page of an optional column) to 0x7fffffff: the page does not decode
         header  overwrites the first 6 bytes of the chunk's first page header with 0xff
         bloom   makes the chunk's bloom filter header claim 48 bytes of bitset (not whole
                 32-byte blocks); prints the filter's offset and -1
  COLUMN the column's path; ROW_GROUP defaults to 0.
Prints the damaged page's offset and its index in the chunk (e.g. "49 1").
"""

import json
import subprocess
import sys


def main():
    tool, src, out, what, column = sys.argv[1:6]
    row_group = int(sys.argv[6]) if len(sys.argv) > 6 else 0
    doc = json.loads(subprocess.run([tool, "inspect", src, "--json"], check=True,
                                    capture_output=True, text=True).stdout)
    chunk = next(c for c in doc["row_groups"][row_group]["columns"] if c["path"] == column)
    data = bytearray(open(src, "rb").read())
    if what == "bloom":
        offset = chunk["bloom_filter"]["offset"]
        assert data[offset] == 0x15, "a header starting with numBytes"
        # Rewrite numBytes' varint in as many bytes as it took: zigzag 96 (= 48), padded with
        # continuation bytes so that nothing after it moves.
        end = offset + 1
        while data[end] & 0x80:
            end += 1
        width = end - offset
        data[offset + 1:end + 1] = (bytes([0x60 | (0x80 if width > 1 else 0)]) +
                                    b"\x80" * max(width - 2, 0) + (b"\x00" if width > 1 else b""))
        open(out, "wb").write(data)
        print(offset, -1)
        return
    if what == "header":
        index, page = 0, chunk["pages"][0]
        data[page["offset"]:page["offset"] + 6] = b"\xff" * 6
    else:
        index, page = next((i, p) for i, p in enumerate(chunk["pages"])
                           if p["type"].startswith("DATA_PAGE"))
        body = page["offset"] + page["header_size"]
        if what == "crc":
            assert page["crc_present"] and not page["is_compressed"], page
            data[body + page["compressed_page_size"] - 1] ^= 0x01
        elif what == "levels":
            assert page["type"] == "DATA_PAGE" and page["definition_level_encoding"] == "RLE", page
            data[body:body + 4] = b"\xff\xff\xff\x7f"
        else:
            sys.exit(f"unknown damage {what!r}")
    open(out, "wb").write(data)
    print(page["offset"], index)


if __name__ == "__main__":
    main()
