"""The exceptions pqpage raises, and which one each library status code becomes.

Every error carries the library's one-line message. The classes also derive from the built-in
exception a Python caller would catch for the same failure: a bad argument is a ValueError, a file
that cannot be read or written an OSError.
"""


class Error(Exception):
    """Base class of every error pqpage raises."""


class ArgumentError(Error, ValueError):
    """An argument, option or request the file cannot meet (a column it lacks, a bad codec name)."""


class FileError(Error, OSError):
    """A file that cannot be opened, read or written."""


class MissingFileError(FileError, FileNotFoundError):
    """A file that does not exist."""


class DataLossError(FileError):
    """A file whose bytes are damaged: truncated, corrupt pages or metadata, a checksum mismatch."""


class UnsupportedError(Error, NotImplementedError):
    """Something the format allows that pqpage does not handle."""


class ResourceError(Error, MemoryError):
    """A request past what pqpage will allocate."""


# absl::StatusCode values, as the extension passes them.
_BY_CODE = {
    3: ArgumentError,  # INVALID_ARGUMENT
    5: MissingFileError,  # NOT_FOUND
    7: FileError,  # PERMISSION_DENIED
    8: ResourceError,  # RESOURCE_EXHAUSTED
    9: ArgumentError,  # FAILED_PRECONDITION
    11: ArgumentError,  # OUT_OF_RANGE
    12: UnsupportedError,  # UNIMPLEMENTED
    14: FileError,  # UNAVAILABLE (I/O)
    15: DataLossError,  # DATA_LOSS
}


def error_class(code: int) -> type:
    """The exception class for an absl::StatusCode value (Error for the codes not listed)."""
    return _BY_CODE.get(code, Error)
