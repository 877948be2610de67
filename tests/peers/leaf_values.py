"""A reader's values (an Arrow table) reduced to what `pqpage dump` prints for each leaf column.

Arrow's leaves, taken depth first, correspond one to one to Parquet's leaf columns. Flattening a
list drops null and empty lists, and flattening a struct applies the struct's own nulls to its
fields, which is exactly "the leaf values whose definition level is the maximum". Each present
value is then put in its physical Parquet form (comparable()), so it can be compared with the
dump: integers as stored, floats by their bits, byte arrays as hex, decimals unscaled, INT96 as
its 12 bytes. Used by tests/conformance/nested_pyarrow_test.py and
tests/interop/peer_options_test.py.
"""

import decimal
import math
import struct
import uuid


def arrow_leaves(array):
    import pyarrow as pa
    if isinstance(array, pa.ChunkedArray):
        array = array.combine_chunks()
    kind = array.type
    if isinstance(kind, pa.ExtensionType):
        # arrow.uuid, arrow.json, ...: the storage array is what the file holds.
        return arrow_leaves(array.storage)
    if pa.types.is_dictionary(kind):
        return arrow_leaves(array.dictionary_decode())
    if pa.types.is_map(kind):
        return arrow_leaves(array.keys) + arrow_leaves(array.items)
    if (pa.types.is_list(kind) or pa.types.is_large_list(kind)
            or pa.types.is_fixed_size_list(kind)):
        return arrow_leaves(array.flatten())
    if pa.types.is_struct(kind):
        leaves = []
        for field in array.flatten():
            leaves += arrow_leaves(field)
        return leaves
    if pa.types.is_float16(kind):
        # A Parquet FLOAT16 is a 2-byte little-endian FIXED_LEN_BYTE_ARRAY: Arrow's own bytes.
        return [array.view(pa.binary(2))]
    if pa.types.is_date64(kind):
        return [array.cast(pa.date32()).cast(pa.int32())]  # Parquet DATE is days
    if pa.types.is_interval(kind):
        return [array]  # month_day_nano (DuckDB's read of an INTERVAL): see comparable()
    if pa.types.is_temporal(kind):
        # The stored integers: converting far-out dates to Python objects overflows.
        return [array.cast(pa.int32() if kind.bit_width == 32 else pa.int64())]
    return [array]


def float_bits(value, width):
    if isinstance(value, str):
        if value == "NaN":
            return "NaN"
        value = float(value.replace("Infinity", "inf"))
    if math.isnan(value):
        return "NaN"
    return struct.pack("<f" if width == 4 else "<d", value)


def int96_from_nanos(nanos):
    """An INT96 timestamp's 12 bytes (hex): nanoseconds of the day (LE u64), Julian day (LE u32)."""
    day, of_day = divmod(nanos, 86_400_000_000_000)
    return (struct.pack("<q", of_day) + struct.pack("<i", 2440588 + day)).hex()


def comparable(arrow_value, physical_type, type_length=None):
    """The dump's form of a reader's value, or None when it cannot be derived from the value
    (a logical type the reader applied that this function does not undo). type_length: a
    FIXED_LEN_BYTE_ARRAY column's width (needed for decimals)."""
    if isinstance(arrow_value, bool):
        return arrow_value if physical_type == "BOOLEAN" else None
    if isinstance(arrow_value, int) and physical_type in ("INT32", "INT64"):
        return arrow_value
    if isinstance(arrow_value, int) and physical_type == "INT96":
        return int96_from_nanos(arrow_value)  # readers give INT96 timestamps as nanoseconds
    if isinstance(arrow_value, float) and physical_type in ("FLOAT", "DOUBLE"):
        return float_bits(arrow_value, 4 if physical_type == "FLOAT" else 8)
    if isinstance(arrow_value, decimal.Decimal):
        # The unscaled integer: the reader's Decimal carries the column's scale as its exponent
        # (digits read exactly: Decimal arithmetic would round at 28 digits).
        sign, digits, exponent = arrow_value.as_tuple()
        unscaled = int("".join(map(str, digits)) or "0") * 10 ** max(exponent, 0)
        unscaled = -unscaled if sign else unscaled
        if physical_type in ("INT32", "INT64"):
            return unscaled
        if physical_type == "FIXED_LEN_BYTE_ARRAY" and type_length:
            return unscaled.to_bytes(type_length, "big", signed=True).hex()
        return None  # BYTE_ARRAY decimals: the writer chooses the length
    if isinstance(arrow_value, uuid.UUID):
        return arrow_value.bytes.hex()
    if isinstance(arrow_value, bytes):
        return arrow_value.hex()
    if physical_type == "FIXED_LEN_BYTE_ARRAY" and type_length == 16 and isinstance(arrow_value, str):
        try:  # DuckDB's Arrow export gives a UUID as its text
            return uuid.UUID(arrow_value).bytes.hex()
        except ValueError:
            return None
    if (physical_type == "FIXED_LEN_BYTE_ARRAY" and type_length == 12
            and hasattr(arrow_value, "nanoseconds")):
        # A Parquet INTERVAL from an Arrow month_day_nano value: months, days, milliseconds
        # (little-endian u32 each); only when the nanoseconds are whole milliseconds.
        millis, rest = divmod(arrow_value.nanoseconds, 1_000_000)
        if rest or min(arrow_value.months, arrow_value.days, millis) < 0:
            return None
        return struct.pack("<III", arrow_value.months, arrow_value.days, millis).hex()
    if isinstance(arrow_value, str) and physical_type == "BYTE_ARRAY":
        return arrow_value.encode("utf-8").hex()
    return None


def leaf_rows(column):
    """The rows a dumped column holds: repetition levels 0, or one per level/value."""
    if column["max_rep"] > 0:
        return sum(1 for level in column["rep"] if level == 0)
    return len(column.get("def", column["values"]))


def compare_leaves(columns, table, type_lengths=None):
    """Dumped columns against an Arrow table's leaves: (problems, compared, not_compared) where
    compared counts the leaves checked value by value and not_compared lists
    (path, reader's value) of leaves only checked by count (no physical form derivable)."""
    leaves = []
    for column in table.columns:
        leaves += arrow_leaves(column)
    if len(leaves) != len(columns):
        return [f"the reader has {len(leaves)} leaves, pqpage dumped {len(columns)} columns"], 0, []
    problems, compared, not_compared = [], 0, []
    for column, leaf in zip(columns, leaves):
        name = column["path"]
        rows = leaf_rows(column)
        if rows != table.num_rows:
            problems.append(f"{name}: {rows} rows, the reader {table.num_rows}")
        listed = leaf.to_pylist()
        if column["max_rep"] == 0 and "def" in column:
            # Without repetition every level is a row: the nulls must fall on the reader's rows.
            ours = [level == column["max_def"] for level in column["def"]]
            theirs = [v is not None for v in listed]
            if ours != theirs:
                row = next((i for i, (a, b) in enumerate(zip(ours, theirs)) if a != b),
                           min(len(ours), len(theirs)))
                word = {True: "present", False: "null", None: "missing"}
                problems.append(f"{name}: row {row} is {word[ours[row] if row < len(ours) else None]}"
                                f" in pqpage, {word[theirs[row] if row < len(theirs) else None]}"
                                " in the reader")
        expected = [v for v in listed if v is not None]
        values = column["values"]
        if len(expected) != len(values):
            problems.append(f"{name}: {len(values)} values, the reader {len(expected)}")
            continue
        physical_type = column["type"]
        width = (type_lengths or {}).get(name)
        for i, (want, got) in enumerate(zip(expected, values)):
            form = comparable(want, physical_type, width)
            if form is None:
                not_compared.append((name, f"{type(want).__name__} {str(want)[:40]}"))
                break
            if physical_type in ("FLOAT", "DOUBLE"):
                got = float_bits(got, 4 if physical_type == "FLOAT" else 8)
            if form != got:
                problems.append(f"{name}: value {i} is {str(got)[:80]!r}, the reader "
                                f"{str(form)[:80]!r}")
                break
        else:
            compared += 1
    return problems, compared, not_compared
