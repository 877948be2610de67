"""pqpage: Parquet pages encoded and decoded by measuring the data.

Read a file as Arrow data (any library that takes the Arrow PyCapsule interface takes the result
without a copy), write Arrow data with each column chunk's encoding chosen by measurement, recode
files smaller, see how they are encoded, and learn which encoding suits each column::

    import pqpage, pyarrow as pa
    table = pqpage.read_table("trips.parquet", columns=["fare", "pickup_at"]).to_pyarrow()
    pqpage.write_table(table, "out.parquet", compression="zstd")
    advice = pqpage.advise("trips.parquet")
    pqpage.recode("trips.parquet", "smaller.parquet", **advice.options)

Every call releases the GIL while pqpage works. Errors are :class:`Error` subclasses carrying the
library's one-line message: :class:`ArgumentError` (a ValueError) for bad arguments,
:class:`FileError` (an OSError) for files that cannot be read or written. ``pqpage.dask`` reads
and recodes many files on a Dask cluster.
"""

from ._errors import (
    ArgumentError,
    DataLossError,
    Error,
    FileError,
    MissingFileError,
    ResourceError,
    UnsupportedError,
)
from ._read import ParquetTable, read_table
from ._reports import Advice, advise, inspect, lookup
from ._write import recode, write_table

__version__ = "0.1.0"

__all__ = [
    "Advice",
    "ArgumentError",
    "DataLossError",
    "Error",
    "FileError",
    "MissingFileError",
    "ParquetTable",
    "ResourceError",
    "UnsupportedError",
    "advise",
    "inspect",
    "lookup",
    "read_table",
    "recode",
    "write_table",
]
