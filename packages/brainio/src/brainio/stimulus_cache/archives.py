"""Opening a ZIP archive, and the checks every member passes before anything is written.

* :func:`open_archive` / :func:`open_member` turn what :mod:`zipfile` raises on a damaged archive into
  :class:`~brainio.errors.ArchiveReadError` naming the archive (and the member);
* :func:`safe_members` refuses, before extraction writes a byte, a member whose name leaves the extraction folder (the
  path rule of :func:`brainio.paths.path_inside`), two members of one name, a symbolic-link member, a member under a
  file member (:class:`~brainio.errors.UnsafeArchiveError`), and an archive that would expand beyond the limits of
  :mod:`brainio.settings` (:class:`~brainio.errors.ArchiveLimitError`); every message names the archive and the member.
"""

from __future__ import annotations

import contextlib
import os
import stat
import struct
import zipfile
import zlib
from pathlib import Path, PurePosixPath

from .._home import archive_max_bytes, archive_max_ratio
from ..errors import ArchiveLimitError, ArchiveReadError, PathOutsideRootError, UnsafeArchiveError
from ..paths import path_inside

__all__ = ["ARCHIVE_ERRORS", "naming_archive_errors", "open_archive", "open_member", "safe_members"]


ARCHIVE_ERRORS = (zipfile.BadZipFile, zlib.error, EOFError, NotImplementedError, UnicodeDecodeError, struct.error)
"""What :mod:`zipfile` raises on a damaged archive (besides ``OSError``, which a disk raises too)."""


def open_archive(zip_path: str | os.PathLike) -> zipfile.ZipFile:
    """``zipfile.ZipFile(zip_path)``, raising :class:`ArchiveReadError` naming the file when it is not a readable
    archive (a damaged end record makes ``zipfile`` seek before the file's start: ``OSError`` EINVAL)."""
    try:
        return zipfile.ZipFile(zip_path)
    except FileNotFoundError:
        raise
    except (*ARCHIVE_ERRORS, OSError) as error:
        raise ArchiveReadError(f"{zip_path} cannot be read as a ZIP archive: {type(error).__name__}: "
                               f"{str(error).splitlines()[0] if str(error) else ''}") from error


@contextlib.contextmanager
def naming_archive_errors(zip_path: Path):
    """Turn the errors of reading a damaged ZIP into :class:`ArchiveReadError` naming it."""
    try:
        yield
    except ARCHIVE_ERRORS as error:
        raise ArchiveReadError(f"{zip_path} cannot be read as a ZIP archive: {type(error).__name__}: "
                               f"{str(error).splitlines()[0] if str(error) else ''}") from error


def safe_members(archive: zipfile.ZipFile, destination: Path, *, max_bytes: float | None = None,
                 max_ratio: float | None = None) -> list[zipfile.ZipInfo]:
    """The file members of ``archive``, after every check that must pass before anything is written.

    Refused (:class:`UnsafeArchiveError`, naming the archive and the member): a name that leaves ``destination``
    (absolute, a drive, ``..``; the path rule of :func:`brainio.paths.path_inside`), two members of one name, a
    symbolic-link member, a member under another file member. Refused with :class:`ArchiveLimitError`: a total
    above ``max_bytes`` or an expansion above ``max_ratio`` (:mod:`brainio.settings`). A name that is fine but would
    be written through a symbolic link planted in ``destination`` raises :class:`PathOutsideRootError`.
    """
    label = archive.filename
    max_bytes = archive_max_bytes() if max_bytes is None else max_bytes
    max_ratio = archive_max_ratio() if max_ratio is None else max_ratio
    seen: dict[str, str] = {}
    members = []
    for info in archive.infolist():
        name = info.filename.replace("\\", "/")
        try:
            path_inside(destination, name, what=f"{label}: member", allow_root=info.is_dir())
        except PathOutsideRootError as error:
            if name.startswith("/") or ".." in PurePosixPath(name).parts or (len(name) > 1 and name[1] == ":"):
                raise UnsafeArchiveError(f"{label}: member {info.filename!r} leaves the extraction folder") from error
            raise  # a link planted in the extracted folder, not the archive's doing
        normal = PurePosixPath(name).as_posix()
        if normal in seen:
            raise UnsafeArchiveError(f"{label}: member {info.filename!r} appears twice (also as {seen[normal]!r}); "
                                     "which copy is meant cannot be told")
        seen[normal] = info.filename
        if stat.S_ISLNK(info.external_attr >> 16):
            raise UnsafeArchiveError(f"{label}: member {info.filename!r} is a symbolic link; links are not extracted")
        if not info.is_dir():
            members.append(info)
    files = {PurePosixPath(info.filename.replace("\\", "/")).as_posix(): info for info in members}
    for normal, info in files.items():
        holder = next((str(parent) for parent in PurePosixPath(normal).parents if str(parent) in files), None)
        if holder is not None:
            raise UnsafeArchiveError(f"{label}: member {info.filename!r} lies under the member {holder!r}, which is "
                                     "a file")
    _check_limits(archive, members, max_bytes, max_ratio)
    return members


_LARGE_MEMBER = 1 << 20
"""Members at least this large (uncompressed) are held to the expansion ratio on their own; smaller ones count only in
the archive's total (a 4 KiB text file may well deflate 200 times)."""


def _check_limits(archive: zipfile.ZipFile, members: list[zipfile.ZipInfo], max_bytes: float, max_ratio: float) -> None:
    """Refuse, from the sizes the archive declares (``zipfile`` never yields more than a member's declared size), an
    archive that would write more than ``max_bytes`` or expand more than ``max_ratio`` times."""
    label = archive.filename
    total = 0
    for info in members:
        total += info.file_size
        if total > max_bytes:
            raise ArchiveLimitError(f"{label}: member {info.filename!r} brings the extracted size to {total:,} bytes, "
                                    f"above the limit of {max_bytes:,.0f} (set BRAINIO_ARCHIVE_MAX_GB to raise it)")
        if info.file_size >= _LARGE_MEMBER and info.file_size > max_ratio * max(info.compress_size, 1):
            raise ArchiveLimitError(f"{label}: member {info.filename!r} expands {info.file_size / max(info.compress_size, 1):,.0f} "
                                    f"times ({info.compress_size:,} -> {info.file_size:,} bytes), above the limit of "
                                    f"{max_ratio:g} (set BRAINIO_ARCHIVE_MAX_RATIO to raise it)")
    size = os.path.getsize(label) if isinstance(label, (str, os.PathLike)) else 0
    if members and size and total > max_ratio * size:
        worst = max(members, key=lambda info: info.file_size / max(info.compress_size, 1))
        raise ArchiveLimitError(f"{label}: the archive expands {total / size:,.0f} times ({size:,} -> {total:,} bytes), "
                                f"above the limit of {max_ratio:g}, most of all its member {worst.filename!r} (set "
                                "BRAINIO_ARCHIVE_MAX_RATIO to raise it)")


def open_member(archive: zipfile.ZipFile, info: zipfile.ZipInfo):
    """``archive.open(info)``; a member header that points outside the file (``OSError`` EINVAL) or is damaged raises
    :class:`ArchiveReadError` naming the archive and the member."""
    try:
        return archive.open(info)
    except (*ARCHIVE_ERRORS, OSError) as error:
        raise ArchiveReadError(f"{archive.filename}: member {info.filename!r} cannot be read: {type(error).__name__}: "
                               f"{str(error).splitlines()[0] if str(error) else ''}") from error
