"""Typed exceptions of brainio; each subclasses a builtin so callers can catch either."""

from __future__ import annotations


class BrainIOError(Exception):
    """Base class of every brainio error."""


class ValidationError(BrainIOError, ValueError):
    """Input that fails the packaging checklist; ``problems`` lists every failed check."""

    def __init__(self, problems: list[str] | str):
        self.problems = [problems] if isinstance(problems, str) else list(problems)
        super().__init__("; ".join(self.problems))


class DimensionError(ValidationError):
    """An assembly whose dims do not fit its class (names the class and the dims)."""


class Sha1MismatchError(BrainIOError, ValueError):
    """A file whose SHA-1 differs from the expected one; the file has been deleted."""

    def __init__(self, path, expected: str, actual: str):
        self.path, self.expected, self.actual = str(path), expected, actual
        super().__init__(f"SHA-1 of {path} is {actual}, expected {expected}; the file was deleted")


class UnsafeArchiveError(BrainIOError, ValueError):
    """A ZIP member whose path would leave the extraction folder."""


class StoreKeyError(BrainIOError, KeyError):
    """A key (file name) that a store does not hold."""

    def __str__(self) -> str:  # KeyError quotes its argument; keep the message readable
        return str(self.args[0]) if self.args else ""


class UnknownAssemblyClassError(BrainIOError, KeyError):
    """An assembly class name that brainio does not know."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else ""


class NetCDFReadError(BrainIOError, ValueError):
    """A file that cannot be read as an assembly (damaged, not netCDF-4/HDF5, or opening it did not end);
    the message names the file."""


class MissingExtraError(BrainIOError, ImportError):
    """An optional dependency is not installed; the message gives the pip command of the extra that brings it
    (``name`` is the missing module, as for any ImportError)."""
