"""Reading a Parquet file as Arrow data, through the Arrow PyCapsule interface."""

from __future__ import annotations

import os
from typing import Any, Iterable, Optional, Sequence, Tuple, Union

from . import _pqpage
from ._errors import ArgumentError, DataLossError

RowsArg = Union[None, range, Tuple[int, int]]
PathArg = Union[str, "os.PathLike[str]"]


def _row_range(rows: RowsArg) -> Optional[Tuple[int, int]]:
    if rows is None:
        return None
    if isinstance(rows, range):
        if rows.step != 1:
            raise ArgumentError(f"rows must be a range with step 1, not step {rows.step}")
        return (rows.start, rows.stop)
    if isinstance(rows, tuple) and len(rows) == 2 and all(isinstance(r, int) for r in rows):
        return (rows[0], rows[1])
    raise ArgumentError("rows must be None, range(begin, end) or a (begin, end) tuple")


def _paths(columns: Optional[Iterable[str]]) -> Optional[list]:
    if columns is None:
        return None
    if isinstance(columns, str):
        raise ArgumentError("columns must be a list of column paths, not one str")
    return list(columns)


class ParquetTable:
    """A Parquet file's selected columns and rows, read as Arrow record batches when asked.

    The file is opened (and the selection checked against its schema) when the object is made;
    each export (``__arrow_c_stream__``, ``to_pyarrow``) reads the file again from the start, so
    the object can be consumed any number of times. Any library that takes the Arrow PyCapsule
    interface takes it without a copy: ``pyarrow.table(t)``, ``polars.from_arrow(t)``,
    ``duckdb.from_arrow(t)``.
    """

    def __init__(self, source: Any) -> None:
        self._source = source

    @property
    def path(self) -> str:
        """The file read."""
        return self._source.path

    @property
    def num_rows(self) -> int:
        """The rows the stream gives (the selected rows that the file holds)."""
        return self._source.num_rows

    @property
    def row_group_rows(self) -> list:
        """The rows of each of the file's row groups, in order (whatever rows are selected)."""
        return self._source.row_group_rows

    def __len__(self) -> int:
        return self.num_rows

    def __repr__(self) -> str:
        return f"pqpage.ParquetTable({self.path!r}, num_rows={self.num_rows})"

    def __arrow_c_schema__(self) -> Any:
        """The batches' type as an "arrow_schema" PyCapsule (a struct of the selected fields)."""
        return self._source.schema()

    def __arrow_c_stream__(self, requested_schema: Any = None) -> Any:
        """A new "arrow_array_stream" PyCapsule over the selected rows.

        ``requested_schema`` is accepted as the interface asks and ignored: the data comes in the
        types the file maps to (as pyarrow maps them), which the consumer may cast.
        """
        return self._source.stream()

    def to_pyarrow(self) -> Any:
        """Reads every batch into a ``pyarrow.Table`` (needs pyarrow).

        Errors met while reading (damaged pages) are raised as pqpage's exceptions, with the
        library's message.
        """
        import pyarrow as pa

        try:
            return pa.RecordBatchReader.from_stream(self).read_all()
        except pa.ArrowInvalid as error:
            raise ArgumentError(_stream_message(error)) from error
        except (pa.ArrowIOError, pa.ArrowException) as error:
            raise DataLossError(_stream_message(error)) from error


def _stream_message(error: Exception) -> str:
    # pyarrow puts the C stream's errno description before get_last_error's text; keep the
    # library's line.
    message = str(error)
    for prefix in ("C stream error: ", "IOError: ", "Invalid: "):
        if message.startswith(prefix):
            message = message[len(prefix):]
    return message


def read_table(
    path: PathArg,
    columns: Optional[Sequence[str]] = None,
    rows: RowsArg = None,
    threads: Optional[int] = None,
    dictionary: Union[bool, Sequence[str]] = False,
    *,
    batch_rows: int = 64 * 1024,
    batch_bytes: int = 4 << 20,
) -> ParquetTable:
    """Opens a Parquet file for reading as Arrow data.

    Args:
        path: the file.
        columns: fields to read, each a path of names joined by "." ("a", "a.b",
            "tags.list.element"); a group's path selects every leaf under it. None: every field.
        rows: only rows [begin, end) of the file, counted from 0 across row groups, as
            ``range(begin, end)`` or ``(begin, end)``; pages outside them are skipped through the
            page index. None: every row.
        threads: threads that read a batch's columns side by side; None: one per core.
        dictionary: True reads every byte array column as an Arrow dictionary array; a list
            reads the leaves it names so. Columns a stored ARROW:schema makes dictionaries are
            read so in any case.
        batch_rows: rows per record batch at most (a batch never spans two row groups).
        batch_bytes: value bytes per record batch at most, 0 for no bound: a batch holds fewer
            rows when its columns' values would pass this many (batches that stay in the CPU's
            cache while a consumer streams them).

    Returns:
        A :class:`ParquetTable`, which implements ``__arrow_c_stream__``.

    Raises:
        MissingFileError / FileError: the file cannot be opened; DataLossError: its footer is
        damaged; ArgumentError: a column the file lacks, a bad ``rows`` or ``dictionary``.
    """
    if isinstance(dictionary, str):
        raise ArgumentError("dictionary must be a bool or a list of column paths, not one str")
    if not isinstance(dictionary, bool):
        dictionary = list(dictionary)
    source = _pqpage.ArrowTableSource(
        os.fspath(path),
        _paths(columns),
        _row_range(rows),
        threads,
        dictionary,
        batch_rows,
        batch_bytes,
    )
    return ParquetTable(source)
