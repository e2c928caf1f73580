"""Typed exceptions of brainio; each subclasses a builtin so callers can catch either.

:class:`BrainScoreError` is the root of every error the project raises, in every package. It lives here, in the
package at the bottom of the dependency chain, so that every package can derive from it without importing "up";
``brainscore_core.errors.BrainScoreError`` is the same class.
"""

from __future__ import annotations


class BrainScoreError(Exception):
    """Root of every error raised on purpose by brainio, brainscore-core, -metrics, -vision and model-tools."""


class BrainIOError(BrainScoreError):
    """Base class of every brainio error."""


class ValidationError(BrainIOError, ValueError):
    """Input that fails the packaging checklist; ``problems`` lists every failed check."""

    def __init__(self, problems: list[str] | str):
        self.problems = [problems] if isinstance(problems, str) else list(problems)
        super().__init__("; ".join(self.problems))


class InvalidIdentifierError(ValidationError):
    """An identifier (or a recorded SHA-1) that cannot name a file: empty, with a path separator, a control
    character or an unencodable character, or too long; the message names it."""


class DimensionError(ValidationError):
    """An assembly whose dims do not fit its class (names the class and the dims)."""


class Sha1MismatchError(BrainIOError, ValueError):
    """A file whose SHA-1 differs from the expected one; the file has been deleted."""

    def __init__(self, path, expected: str, actual: str):
        self.path, self.expected, self.actual = str(path), expected, actual
        super().__init__(f"SHA-1 of {path} is {actual}, expected {expected}; the file was deleted")


class PathOutsideRootError(BrainIOError, ValueError):
    """A file name from outside the code (a plugin's argument, a cache record, an archive member, an identifier) that
    resolves outside the folder it belongs in (:func:`brainio.paths.path_inside`); ``name`` and ``root`` name both."""

    def __init__(self, name: str, root, what: str = "file name", reason: str = ""):
        self.name, self.root = str(name), str(root)
        super().__init__(f"{what} {self.name!r} lies outside its folder {self.root}" + (f": {reason}" if reason else "")
                         + "; refused")


class UnsafeArchiveError(BrainIOError, ValueError):
    """A ZIP archive refused before anything is written: a member whose path would leave the extraction folder, two
    members of one name, a symbolic-link member (or a member under one); the message names the archive and the
    member."""


class ArchiveLimitError(UnsafeArchiveError):
    """A ZIP archive that would expand beyond the extraction limits (total size, expansion ratio; see
    :mod:`brainio.settings`); the message names the archive, the member, the limit and the setting that raises it."""


class ArchiveReadError(BrainIOError, ValueError):
    """A ZIP archive that cannot be read (damaged, truncated, an unsupported compression); names the file."""


class StoreKeyError(BrainIOError, KeyError):
    """A key (file name) that a store does not hold."""

    def __str__(self) -> str:  # KeyError quotes its argument; keep the message readable
        return str(self.args[0]) if self.args else ""


class StoreUnreachableError(BrainIOError, ConnectionError):
    """A store that cannot be reached (no network, endpoint down, timeout); the message names the URL."""


class StoreAccessDeniedError(BrainIOError, PermissionError):
    """An object that a store refused to read both without credentials and with the credentials found (or none were
    found); the message names the object's URL and what each read was told. ``url`` is that URL."""

    def __init__(self, message: str, *, url: str = ""):
        super().__init__(message)
        self.url = url


class FileUnavailableError(BrainIOError, FileNotFoundError):
    """A file that is neither in its local folder nor downloadable now; the message names the file, its URL and
    the folder to put it in."""


class UnknownAssemblyClassError(BrainIOError, KeyError):
    """An assembly class name that brainio does not know."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else ""


class NetCDFReadError(BrainIOError, ValueError):
    """A file that cannot be read as an assembly (damaged, not netCDF-4/HDF5, or opening it did not end);
    the message names the file."""


class ExternalDataError(NetCDFReadError):
    """A netCDF (HDF5) file whose data lives in, or links to, other files (HDF5 external storage, external links,
    virtual datasets): reading it would read those files, which no SHA-1 check covers. Names the file, the
    variable and the file it refers to."""


class SubsetError(BrainIOError, KeyError, ValueError):
    """``subset`` cannot select: a dim or coordinate is missing, or target entries are absent from the source."""

    def __str__(self) -> str:  # KeyError would quote the message
        return str(self.args[0]) if self.args else ""


class MissingExtraError(BrainIOError, ImportError):
    """An optional dependency is not installed; the message gives the pip command of the extra that brings it
    (``name`` is the missing module, as for any ImportError)."""
