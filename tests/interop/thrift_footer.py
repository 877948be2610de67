"""A Parquet footer read and written again in Python, to annotate the schema of a file another
writer made: the logical type matrix needs columns annotated as writers that are not in the
peers' virtualenv annotate them (DECIMAL on BYTE_ARRAY as Impala and parquet-mr write it, ENUM,
BSON, INTERVAL, converted types without a logical type), which no peer here writes.

The footer is decoded with the Thrift compact protocol into a generic tree, without a schema:
a struct is {field id: (type, value)}, a list (element type, [values]). Only the fields named
below are touched; everything else is written back as it was read.
"""

import struct

STOP, TRUE, FALSE, BYTE, I16, I32, I64, DOUBLE, BINARY, LIST, SET, MAP, STRUCT = range(13)


def _varint(data, pos):
    shift = value = 0
    while True:
        byte = data[pos]
        pos += 1
        value |= (byte & 0x7F) << shift
        shift += 7
        if not byte & 0x80:
            return value, pos


def _zigzag(value):
    return (value >> 1) ^ -(value & 1)


def _read_value(data, pos, kind):
    if kind in (TRUE, FALSE):  # a bool inside a list is one byte: 1 true, 2 false
        return data[pos] == TRUE, pos + 1
    if kind == BYTE:
        return struct.unpack_from("<b", data, pos)[0], pos + 1
    if kind in (I16, I32, I64):
        value, pos = _varint(data, pos)
        return _zigzag(value), pos
    if kind == DOUBLE:
        return struct.unpack_from("<d", data, pos)[0], pos + 8
    if kind == BINARY:
        size, pos = _varint(data, pos)
        return bytes(data[pos:pos + size]), pos + size
    if kind in (LIST, SET):
        header = data[pos]
        pos += 1
        size, element = header >> 4, header & 0x0F
        if size == 15:
            size, pos = _varint(data, pos)
        items = []
        for _ in range(size):
            item, pos = _read_value(data, pos, element)
            items.append(item)
        return (element, items), pos
    if kind == MAP:
        size, pos = _varint(data, pos)
        if size == 0:
            return (0, 0, []), pos
        types = data[pos]
        pos += 1
        pairs = []
        for _ in range(size):
            key, pos = _read_value(data, pos, types >> 4)
            value, pos = _read_value(data, pos, types & 0x0F)
            pairs.append((key, value))
        return (types >> 4, types & 0x0F, pairs), pos
    if kind == STRUCT:
        fields, last = {}, 0
        while True:
            header = data[pos]
            pos += 1
            if header == STOP:
                return fields, pos
            delta, field_kind = header >> 4, header & 0x0F
            if delta:
                field = last + delta
            else:
                raw, pos = _varint(data, pos)
                field = _zigzag(raw)
            if field_kind in (TRUE, FALSE):
                fields[field] = (TRUE, field_kind == TRUE)
            else:
                value, pos = _read_value(data, pos, field_kind)
                fields[field] = (field_kind, value)
            last = field
    raise ValueError(f"unknown compact type {kind}")


def _write_varint(out, value):
    while True:
        byte = value & 0x7F
        value >>= 7
        if value:
            out.append(byte | 0x80)
        else:
            out.append(byte)
            return


def _write_value(out, kind, value):
    if kind in (TRUE, FALSE):
        out.append(TRUE if value else FALSE)
    elif kind == BYTE:
        out += struct.pack("<b", value)
    elif kind in (I16, I32, I64):
        _write_varint(out, (value << 1) ^ (value >> 63))
    elif kind == DOUBLE:
        out += struct.pack("<d", value)
    elif kind == BINARY:
        _write_varint(out, len(value))
        out += value
    elif kind in (LIST, SET):
        element, items = value
        if len(items) < 15:
            out.append(len(items) << 4 | element)
        else:
            out.append(0xF0 | element)
            _write_varint(out, len(items))
        for item in items:
            _write_value(out, element, item)
    elif kind == MAP:
        key_kind, value_kind, pairs = value
        _write_varint(out, len(pairs))
        if pairs:
            out.append(key_kind << 4 | value_kind)
            for k, v in pairs:
                _write_value(out, key_kind, k)
                _write_value(out, value_kind, v)
    elif kind == STRUCT:
        last = 0
        for field in sorted(value):
            field_kind, field_value = value[field]
            wire_kind = (TRUE if field_value else FALSE) if field_kind in (TRUE, FALSE) \
                else field_kind
            if 0 < field - last <= 15:
                out.append((field - last) << 4 | wire_kind)
            else:
                out.append(wire_kind)
                _write_varint(out, (field << 1) ^ (field >> 63))
            if field_kind not in (TRUE, FALSE):
                _write_value(out, field_kind, field_value)
            last = field
        out.append(STOP)
    else:
        raise ValueError(f"unknown compact type {kind}")


def read_footer(path):
    """(the bytes before the footer, FileMetaData as a struct tree)."""
    with open(path, "rb") as handle:
        data = handle.read()
    size = struct.unpack_from("<I", data, len(data) - 8)[0]
    start = len(data) - 8 - size
    footer, _ = _read_value(data, start, STRUCT)
    return data[:start], footer


def write_footer(path, body, footer):
    out = bytearray()
    _write_value(out, STRUCT, footer)
    with open(path, "wb") as handle:
        handle.write(body + bytes(out) + struct.pack("<I", len(out)) + b"PAR1")


# ---- the schema's annotations (parquet.thrift's SchemaElement and LogicalType) ----

SCHEMA_ELEMENTS = 2  # FileMetaData.schema
NAME, CONVERTED_TYPE, SCALE, PRECISION, LOGICAL_TYPE = 4, 6, 7, 8, 10
CONVERTED = {"UTF8": 0, "ENUM": 4, "DECIMAL": 5, "DATE": 6, "TIME_MILLIS": 7, "TIME_MICROS": 8,
             "TIMESTAMP_MILLIS": 9, "TIMESTAMP_MICROS": 10, "UINT_8": 11, "UINT_16": 12,
             "UINT_32": 13, "UINT_64": 14, "INT_8": 15, "INT_16": 16, "INT_32": 17, "INT_64": 18,
             "JSON": 19, "BSON": 20, "INTERVAL": 21}
# LogicalType union members without parameters, by field id.
PLAIN_LOGICAL = {"STRING": 1, "ENUM": 4, "DATE": 6, "JSON": 12, "BSON": 13, "UUID": 14,
                 "FLOAT16": 15}
UNITS = {"MILLIS": 1, "MICROS": 2, "NANOS": 3}


def logical_struct(logical):
    """The LogicalType union for a logical type in the words of pqpage inspect's schema
    ("DECIMAL(20,4)", "TIMESTAMP(NANOS,UTC)", "INTEGER(8,unsigned)", "UUID", ...)."""
    name, _, args = logical.partition("(")
    params = args.rstrip(")").split(",") if args else []
    if name in PLAIN_LOGICAL:
        return {PLAIN_LOGICAL[name]: (STRUCT, {})}
    if name == "DECIMAL":
        return {5: (STRUCT, {1: (I32, int(params[1])), 2: (I32, int(params[0]))})}
    if name in ("TIME", "TIMESTAMP"):
        unit = {UNITS[params[0]]: (STRUCT, {})}
        return {7 if name == "TIME" else 8: (STRUCT, {1: (TRUE, params[1] == "UTC"),
                                                      2: (STRUCT, unit)})}
    if name == "INTEGER":
        return {10: (STRUCT, {1: (BYTE, int(params[0])), 2: (TRUE, params[1] == "signed")})}
    raise ValueError(f"no logical type {logical}")


def _set_annotation(element, logical=None, converted=None, precision=None, scale=None):
    for field in (CONVERTED_TYPE, SCALE, PRECISION, LOGICAL_TYPE):
        element.pop(field, None)
    if logical is not None:
        element[LOGICAL_TYPE] = (STRUCT, logical_struct(logical))
    if converted is not None:
        element[CONVERTED_TYPE] = (I32, CONVERTED[converted])
    if precision is not None:
        element[PRECISION] = (I32, precision)
        element[SCALE] = (I32, scale)


def annotate(path, annotations):
    """Rewrites the file at `path` with leaves annotated: {leaf index (depth first, from 0):
    annotation}, an annotation being keyword arguments: `logical` as logical_struct takes it,
    `converted` a ConvertedType name, `precision` and `scale` (decimals); what is not given is
    left unset (the leaf's own annotations are dropped first)."""
    body, footer = read_footer(path)
    elements = footer[SCHEMA_ELEMENTS][1][1]
    leaves = [e for e in elements if 1 in e]  # field 1, the physical type: a leaf
    for index, annotation in annotations.items():
        _set_annotation(leaves[index], **annotation)
    write_footer(path, body, footer)
