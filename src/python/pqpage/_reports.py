"""What a file holds and how it would best be encoded: inspect, advise and lookup."""

from __future__ import annotations

import datetime
import json
import os
from typing import Any, Dict, List, Optional, Sequence

from . import _pqpage
from ._read import PathArg, _paths


class Advice(list):
    """advise's per-column records (a list), with the totals and the options that apply them.

    Each record is a dict, as ``pqpage advise --json`` lists a column: its ``path``, ``type``,
    ``codec``, ``current_bytes`` and ``current_encodings``, the ``candidates`` (each policy's
    ``bytes``, ``ratio``, ``decode_mb_per_s``, ``encodings`` and the peers that would refuse it),
    the ``advised`` policy and its ``advised_bytes``; plus ``options``, the recode keyword
    arguments that apply this column's advice alone.
    """

    #: recode keyword arguments that apply the whole advice: ``recode(src, dst, **advice.options)``.
    options: Dict[str, Any]
    #: The advised columns' bytes as stored now, and as the advice would store them.
    current_bytes: int
    advised_bytes: int
    #: The pqpage command line that applies the advice.
    command: Optional[str]


def advise(
    path: PathArg,
    columns: Optional[Sequence[str]] = None,
    *,
    compression: Optional[str] = None,
    page_version: int = 2,
) -> Advice:
    """Measures every encoding policy on each column's own data and recommends one per column.

    Each column chunk is written again under every policy (same codec, page version and page size
    a recode uses) and decoded back to time it: the bytes are those recode writes, not estimates.

    Args:
        path: the file.
        columns: the columns to advise on, by path; None: every column.
        compression: the codec to measure with; None: each column's own.
        page_version: the data page version to measure with (recode's default is 2).

    Returns:
        An :class:`Advice`.
    """
    document, options = _pqpage.advise(os.fspath(path), _paths(columns), compression, page_version)
    parsed = json.loads(document)
    advice = Advice()
    for column in parsed["columns"]:
        column["options"] = {
            "page_version": page_version,
            "column_encoding": {column["path"]: column["advised"]},
            "column_compression": {column["path"]: column["codec"]},
        }
        advice.append(column)
    advice.options = options
    advice.current_bytes = parsed["current_bytes"]
    advice.advised_bytes = parsed["advised_bytes"]
    advice.command = parsed.get("command")
    return advice


def inspect(path: PathArg, threads: Optional[int] = None) -> Dict[str, Any]:
    """Everything the file says about its pages, as ``pqpage inspect --json`` prints it.

    The footer's facts, the schema's columns, and per row group and column chunk: the footer
    entry, the encoding mix, every page header (CRCs checked), what decoding adds, and where the
    page index disagrees. Problems of a damaged file are recorded in the report, not raised.

    Args:
        path: the file.
        threads: chunks inspected at once; None: one per core.
    """
    return json.loads(_pqpage.inspect(os.fspath(path), threads))


def _value_text(value: Any) -> str:
    """A Python value as the text pqpage reads for a column (pqpage lookup's VALUE)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (bytes, bytearray)):
        return "0x" + bytes(value).hex()
    if isinstance(value, (datetime.datetime, datetime.date)):
        return value.isoformat()
    return str(value)


def lookup(path: PathArg, column: str, *values: Any, rows: bool = False) -> List[Dict[str, Any]]:
    """Which row groups, pages and rows of ``column`` may hold each value, as ``pqpage lookup``.

    Each row group is tested by its statistics, then its bloom filter, then its page index; what
    is left may hold the value. Values are Python values (numbers, str, bytes, dates, datetimes,
    Decimals) or text as the column's type reads it ("2026-01-31", "12.50").

    Args:
        path: the file.
        column: the column's path, as inspect prints it ("tags.list.element").
        values: the values to look for.
        rows: also read the rows left and list those that hold the value ("found_rows").

    Returns:
        One dict per value: ``row_groups`` (each with ``statistics``, ``bloom_filter`` and
        ``page_index``: "may hold", "ruled out", "none" or "not run", ``pages``,
        ``pages_may_hold`` and the ``rows`` ranges that may hold it) and ``rows_to_read``.

    Raises:
        ArgumentError: a column the file lacks, a value the column cannot hold; DataLossError and
        the file errors of read_table.
    """
    texts = [_value_text(v) for v in values]
    return json.loads(_pqpage.lookup(os.fspath(path), column, texts, rows))
