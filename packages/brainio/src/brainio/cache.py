"""The local cache of fetched files: ``$BRAINIO_HOME/<sha1>/<file name>`` (default ``~/.brainio``).

Every file is downloaded to a temporary file in its cache folder, checked against its SHA-1 and only then
renamed into place, under a per-file lock (``$BRAINIO_HOME/.locks/``), so concurrent processes never see
or produce a partial file. A verified file gets a ``<name>.verified`` marker recording its size, mtime
and ctime; a later load re-hashes the file whenever these differ. A cached file that fails the check is
deleted and downloaded again; a download that fails the check is deleted and raises
:class:`~brainio.errors.Sha1MismatchError`.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import re
import shutil
import tempfile
import zipfile
from pathlib import Path, PurePosixPath

from filelock import FileLock

from ._files import atomic_path, sha1_hash
from .errors import Sha1MismatchError, UnsafeArchiveError
from .files import apply_umask

__all__ = ["cache_home", "extract_zip", "fetch_verified"]

_logger = logging.getLogger(__name__)


def cache_home() -> Path:
    """``$BRAINIO_HOME``, default ``~/.brainio``."""
    return Path(os.environ.get("BRAINIO_HOME", "~/.brainio")).expanduser()


def _lock(name: str, home: Path) -> FileLock:
    folder = home / ".locks"
    folder.mkdir(parents=True, exist_ok=True)
    return FileLock(str(folder / f"{name}.lock"))


def _stamp(path: Path) -> dict:
    status = path.stat()
    return {"size": status.st_size, "mtime_ns": status.st_mtime_ns, "ctime_ns": status.st_ctime_ns}


def _marker(path: Path) -> Path:
    return path.with_name(path.name + ".verified")


def _is_verified(path: Path, sha1: str) -> bool:
    marker = _marker(path)
    try:
        recorded = json.loads(marker.read_text())
    except (OSError, ValueError):
        recorded = None
    if recorded == {"sha1": sha1, **_stamp(path)}:
        return True
    if sha1_hash(path) == sha1:
        _write_marker(path, sha1)
        return True
    return False


def _write_marker(path: Path, sha1: str) -> None:
    with atomic_path(_marker(path)) as temp:
        temp.write_text(json.dumps({"sha1": sha1, **_stamp(path)}))


_SHA1 = re.compile(r"[0-9a-f]{40}")


def check_sha1(sha1: object, what: str) -> None:
    """Raise ``ValueError`` naming ``what`` unless ``sha1`` is 40 lowercase hex digits (it becomes a folder name:
    anything else could point outside the cache)."""
    if not isinstance(sha1, str) or not _SHA1.fullmatch(sha1):
        raise ValueError(f"{what}: the recorded sha1 must be 40 lowercase hex digits, got {sha1!r}")


def fetch_verified(store, key: str, sha1: str, version_id: str | None = None, home: Path | None = None) -> Path:
    """Path of the cached, verified copy of ``key`` from ``store``; downloads it when needed.

    Raises
    ------
    Sha1MismatchError
        When the downloaded bytes do not hash to ``sha1`` (nothing is left in the cache).
    """
    home = Path(home) if home is not None else cache_home()
    check_sha1(sha1, f"{store!r}:{key}")
    target = home / sha1 / PurePosixPath(key).name
    with _lock(f"{sha1}-{target.name}", home):
        if target.exists():
            if _is_verified(target, sha1):
                return target
            _logger.warning("cached %s does not match its SHA-1 %s; downloading it again", target, sha1)
            target.unlink()
            _marker(target).unlink(missing_ok=True)
        created = not target.parent.exists()
        try:
            with atomic_path(target) as temp:
                store.download(key, temp, version_id=version_id)
                actual = sha1_hash(temp)
                if actual != sha1:
                    raise Sha1MismatchError(f"{store!r}:{key}", expected=sha1, actual=actual)
            _write_marker(target, sha1)
        except BaseException:
            if created:
                with contextlib.suppress(OSError):
                    target.parent.rmdir()  # only if empty
            raise
    return target


def _safe_members(archive: zipfile.ZipFile, destination: Path) -> list[zipfile.ZipInfo]:
    root = destination.resolve()
    members = archive.infolist()
    for info in members:
        name = info.filename.replace("\\", "/")
        parts = PurePosixPath(name).parts
        if name.startswith("/") or ".." in parts or (len(name) > 1 and name[1] == ":"):
            raise UnsafeArchiveError(f"{archive.filename}: member {info.filename!r} leaves the extraction folder")
        resolved = (root / name).resolve()
        if resolved != root and root not in resolved.parents:
            raise UnsafeArchiveError(f"{archive.filename}: member {info.filename!r} leaves the extraction folder")
    return members


def extract_zip(zip_path: Path, destination: Path, home: Path | None = None, *, refresh: bool = False) -> Path:
    """Extract ``zip_path`` into ``destination`` once (atomically: temp folder, then rename).

    Members that would land outside ``destination`` (absolute paths, ``..``) raise
    :class:`~brainio.errors.UnsafeArchiveError` before anything is written.
    """
    home = Path(home) if home is not None else cache_home()
    with _lock(f"{zip_path.parent.name}-{destination.name}-extract", home):
        if refresh and destination.exists():
            shutil.rmtree(destination)
        if destination.exists():
            return destination
        temp = Path(tempfile.mkdtemp(prefix=f".{destination.name}.", suffix=".part", dir=destination.parent))
        apply_umask(temp, directory=True)
        try:
            with zipfile.ZipFile(zip_path) as archive:
                members = _safe_members(archive, temp)
                archive.extractall(temp, members=members)
            os.replace(temp, destination)
        except BaseException:
            shutil.rmtree(temp, ignore_errors=True)
            raise
    return destination
