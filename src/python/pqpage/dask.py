"""Many Parquet files on a Dask cluster: read as one Dask DataFrame, or recode file by file.

Dask schedules and pqpage encodes: every partition read and every file recoded is one Dask task,
run wherever the active scheduler (a ``distributed.Client``, or Dask's local one) puts it. Needs
the ``dask`` extra (``pip install 'pqpage[dask]'``).
"""

from __future__ import annotations

import glob
import os
from typing import Any, Dict, List, Optional, Sequence, Tuple, Union

from ._errors import ArgumentError
from ._read import PathArg, read_table
from ._write import recode as _recode_file

Paths = Union[PathArg, Sequence[PathArg]]


def _expand(paths: Paths) -> List[str]:
    """The files named: a directory's *.parquet files, a glob's matches, or the list given."""
    if isinstance(paths, (str, os.PathLike)):
        path = os.fspath(paths)
        if os.path.isdir(path):
            found = sorted(glob.glob(os.path.join(path, "*.parquet")))
        elif glob.has_magic(path):
            found = sorted(glob.glob(path))
        else:
            found = [path]
    else:
        found = [os.fspath(p) for p in paths]
    if not found:
        raise ArgumentError(f"no Parquet files in {paths!r}")
    return found


def _read_part(part: Tuple[str, Optional[Tuple[int, int]]], columns: Optional[List[str]]) -> Any:
    path, rows = part
    return read_table(path, columns=columns, rows=rows, threads=1).to_pyarrow().to_pandas()


def read_parquet(
    paths: Paths,
    columns: Optional[Sequence[str]] = None,
    *,
    split_row_groups: bool = False,
) -> Any:
    """A Dask DataFrame over Parquet files, each partition read by pqpage.

    Args:
        paths: a directory (its ``*.parquet`` files, sorted), a glob pattern, or a list of files.
        columns: the columns to read (paths as read_table takes them); None: every column.
        split_row_groups: one partition per row group instead of one per file.

    Returns:
        A ``dask.dataframe.DataFrame`` made with ``dd.from_map``; its ``meta`` is the first file's
        schema, read with no rows.
    """
    import dask.dataframe as dd

    files = _expand(paths)
    selected = None if columns is None else list(columns)
    parts: List[Tuple[str, Optional[Tuple[int, int]]]] = []
    for path in files:
        if not split_row_groups:
            parts.append((path, None))
            continue
        begin = 0
        for rows in read_table(path, columns=selected, threads=1).row_group_rows:
            parts.append((path, (begin, begin + rows)))
            begin += rows
    meta = _read_part((files[0], (0, 0)), selected)
    return dd.from_map(_read_part, parts, columns=selected, meta=meta, enforce_metadata=False)


def _recode_one(src: str, dst: str, options: Dict[str, Any]) -> Dict[str, Any]:
    report = _recode_file(src, dst, **options)
    return {
        "path": src,
        "output": dst,
        "input_bytes": report["input_bytes"],
        "output_bytes": report["output_bytes"],
    }


def recode(paths: Paths, out_dir: PathArg, **options: Any) -> List[Dict[str, Any]]:
    """Recodes every file into ``out_dir`` (same file names), one Dask task per file.

    Args:
        paths: as read_parquet takes them.
        out_dir: where the recoded files go (made if missing; must not be the input folder).
        options: ``pqpage.recode``'s keyword arguments; ``threads`` defaults to 1 here, since
            Dask runs files side by side.

    Returns:
        One dict per file, in input order: ``path``, ``output``, ``input_bytes``,
        ``output_bytes``.
    """
    import dask

    files = _expand(paths)
    out_dir = os.fspath(out_dir)
    os.makedirs(out_dir, exist_ok=True)
    options.setdefault("threads", 1)
    tasks = []
    for path in files:
        dst = os.path.join(out_dir, os.path.basename(path))
        if os.path.abspath(dst) == os.path.abspath(path):
            raise ArgumentError(f"out_dir {out_dir!r} holds the input {path!r}")
        tasks.append(dask.delayed(_recode_one, pure=False)(path, dst, dict(options)))
    return list(dask.compute(*tasks))
