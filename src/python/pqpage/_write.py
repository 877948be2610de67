"""Writing Parquet files from Arrow data, and recoding existing ones."""

from __future__ import annotations

import os
from typing import Any, Dict, Mapping, Optional, Tuple, Union

from . import _pqpage
from ._read import PathArg

ColumnCodec = Union[str, Tuple[str, int]]


def _settings(
    compression: Optional[str],
    compression_level: Optional[int],
    encoding: Optional[str],
    page_version: Optional[int],
    column_encoding: Optional[Mapping[str, str]],
    column_compression: Optional[Mapping[str, ColumnCodec]],
    page_index: bool,
    checksums: bool,
    statistics: bool,
    threads: Optional[int],
    **rest: Any,
) -> Dict[str, Any]:
    settings = dict(
        compression=compression,
        compression_level=compression_level,
        encoding=encoding,
        page_version=page_version,
        column_encoding=None if column_encoding is None else dict(column_encoding),
        column_compression=None if column_compression is None else dict(column_compression),
        page_index=page_index,
        checksums=checksums,
        statistics=statistics,
        threads=threads,
    )
    settings.update(rest)
    return settings


def _bloom(options: Optional[Mapping[str, Mapping[str, Any]]]) -> Optional[Dict[str, Any]]:
    return None if options is None else {path: dict(o) for path, o in options.items()}


def _chunking(option: Union[bool, Mapping[str, int]]) -> Union[bool, Dict[str, int]]:
    return option if isinstance(option, bool) else dict(option)


def write_table(
    data: Any,
    path: PathArg,
    *,
    compression: str = "zstd",
    compression_level: Optional[int] = None,
    encoding: str = "auto",
    page_version: int = 2,
    row_group_rows: int = 1 << 20,
    column_encoding: Optional[Mapping[str, str]] = None,
    column_compression: Optional[Mapping[str, ColumnCodec]] = None,
    page_index: bool = True,
    checksums: bool = False,
    statistics: bool = True,
    threads: Optional[int] = None,
    bloom_filter_options: Optional[Mapping[str, Mapping[str, Any]]] = None,
    use_content_defined_chunking: Union[bool, Mapping[str, int]] = False,
) -> None:
    """Writes Arrow data to a Parquet file, each column chunk's encoding chosen by measuring it.

    Args:
        data: anything with ``__arrow_c_stream__`` (a pyarrow Table or RecordBatchReader, a
            polars DataFrame, a DuckDB result, a :class:`ParquetTable`) or ``__arrow_c_array__``
            (a pyarrow RecordBatch, or a struct array whose fields are the columns).
        path: the file to write (replaced if it exists).
        compression: "zstd", "snappy", "gzip", "lz4_raw", "brotli" or "uncompressed".
        compression_level: the codec's level; None: the codec's default.
        encoding: "auto" (measured per chunk), "plain", "dictionary", "delta",
            "delta_length_byte_array" or "byte_stream_split".
        page_version: data page version, 1 or 2.
        row_group_rows: a row group ends once it holds this many rows.
        column_encoding: per-column encodings, by Parquet column path ("tags.list.element").
        column_compression: per-column codecs, a name or (name, level), by column path.
        page_index: write each chunk's OffsetIndex and ColumnIndex.
        checksums: write a CRC in every page header.
        statistics: write page and column chunk statistics.
        threads: threads that encode a batch's columns side by side; None: one per core. The
            file is the same for any count.
        bloom_filter_options: bloom filters, as pyarrow takes them: ``{column path: {"ndv": n,
            "fpp": rate}}``; without ``ndv`` each chunk's filter is sized for its own distinct
            values, without ``fpp`` the rate is 0.05.
        use_content_defined_chunking: cut data pages by content, as pyarrow does (True, or a dict
            of ``min_chunk_size``, ``max_chunk_size`` in bytes and ``norm_level``), so that an
            edit leaves most pages byte for byte as they were.

    The Arrow schema is stored under ARROW:schema as pyarrow stores it, so Arrow readers get the
    same types back.

    Raises:
        ArgumentError: a bad option, a type with no Parquet form, data that does not match its
        schema; FileError: the file cannot be written; TypeError: ``data`` has neither method.
    """
    settings = _settings(
        compression, compression_level, encoding, page_version, column_encoding,
        column_compression, page_index, checksums, statistics, threads,
        row_group_rows=row_group_rows,
        bloom_filter_options=_bloom(bloom_filter_options),
        use_content_defined_chunking=_chunking(use_content_defined_chunking),
    )
    path = os.fspath(path)
    if hasattr(data, "__arrow_c_stream__"):
        _pqpage.write_stream(data.__arrow_c_stream__(), path, settings)
    elif hasattr(data, "__arrow_c_array__"):
        schema, array = data.__arrow_c_array__()
        _pqpage.write_array(schema, array, path, settings)
    else:
        raise TypeError(
            f"write_table takes an object with __arrow_c_stream__ or __arrow_c_array__, "
            f"not {type(data).__name__}"
        )


def recode(
    src: PathArg,
    dst: PathArg,
    *,
    compression: Optional[str] = "zstd",
    compression_level: Optional[int] = None,
    encoding: str = "auto",
    page_version: int = 2,
    column_encoding: Optional[Mapping[str, str]] = None,
    column_compression: Optional[Mapping[str, ColumnCodec]] = None,
    page_index: bool = True,
    checksums: bool = False,
    statistics: bool = True,
    threads: Optional[int] = None,
    verify: bool = False,
    bloom_filters: str = "keep",
    bloom_filter_options: Optional[Mapping[str, Mapping[str, Any]]] = None,
    use_content_defined_chunking: Union[bool, Mapping[str, int]] = False,
) -> Dict[str, Any]:
    """Re-encodes every column chunk of ``src`` into a new file ``dst``.

    The schema, row groups and values are kept; the options are write_table's (row groups stay as
    they are). ``advise(src).options`` gives the options that apply its advice. With ``verify``,
    the output is read back and compared with the input. On any error ``dst`` is removed.
    ``bloom_filters`` says which columns get bloom filters: "keep" those that have one in
    ``src``, "all" or "none"; ``bloom_filter_options`` sets columns apart as write_table's does.

    Returns:
        A report: ``input_bytes``, ``output_bytes``, ``num_row_groups``, ``verified`` and
        ``columns``, one dict per column with its ``path``, ``input_bytes``, ``output_bytes``,
        the ``encodings`` written and whether it is an Arrow dictionary column.

    Raises:
        ArgumentError: a bad option, a column path the file lacks, ``dst`` the same file as
        ``src``; MissingFileError / FileError / DataLossError: ``src`` cannot be read, ``dst``
        cannot be written; DataLossError also when verification finds a difference.
    """
    settings = _settings(
        compression, compression_level, encoding, page_version, column_encoding,
        column_compression, page_index, checksums, statistics, threads,
        bloom_filter_options=_bloom(bloom_filter_options),
        use_content_defined_chunking=_chunking(use_content_defined_chunking),
    )
    return _pqpage.recode(os.fspath(src), os.fspath(dst), settings, verify, bloom_filters)
