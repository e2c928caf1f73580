"""The local cache of fetched files: ``$BRAINIO_HOME/<sha1>/<file name>`` (default ``~/.brainio``).

Every file is downloaded to a temporary file in its cache folder, checked against its SHA-1 and only then
renamed into place, under a per-file lock (``$BRAINIO_HOME/.locks/``), so concurrent processes never see
or produce a partial file. A verified file gets a ``<name>.verified`` marker recording its size, mtime
and ctime; a later load re-hashes the file whenever these differ. A cached file that fails the check is
deleted and downloaded again; a download that fails the check is deleted and raises
:class:`~brainio.errors.Sha1MismatchError`. A file changed within :data:`~brainio.stimulus_cache.extraction.RACY_WINDOW_NS` of its
marker is re-hashed (git's racily-clean rule), and temporaries of killed downloads are removed under the lock.

:func:`fetch_to` applies the same rules to a file at a path of the caller's choosing (model weights under
``$BRAINSCORE_HOME``, a plugin's own folder), with its lock beside the file, but for one: a file there that fails
the check is never deleted (someone put it there): it is moved aside, renamed with its own SHA-1. A file already there
is used without contacting the store, so it works offline; when it is absent and the store cannot be reached, the
error names the file, its URL and the folder to put it in (:class:`~brainio.errors.FileUnavailableError`).
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import re
import time
from pathlib import Path, PurePosixPath

from filelock import FileLock

from ._home import cache_home
from .errors import FileUnavailableError, InvalidIdentifierError, Sha1MismatchError, StoreUnreachableError
from .files import atomic_path, sha1_hash
from .stimulus_cache.extraction import RACY_WINDOW_NS, temporaries_of

__all__ = ["cache_home", "check_sha1", "fetch_to", "fetch_verified", "store_url", "verified_files"]

_logger = logging.getLogger(__name__)


def _lock(name: str, home: Path) -> FileLock:
    folder = home / ".locks"
    folder.mkdir(parents=True, exist_ok=True)
    return FileLock(str(folder / f"{name}.lock"))


def _stamp(path: Path) -> dict:
    status = path.stat()
    return {"size": status.st_size, "mtime_ns": status.st_mtime_ns, "ctime_ns": status.st_ctime_ns}


def _marker(path: Path) -> Path:
    return path.with_name(path.name + ".verified")


def verified_files(root: str | os.PathLike) -> list[dict]:
    """The files :func:`fetch_to` placed under ``root`` (sub-folders included), as cache entries for ``brainscore
    cache``: ``{'paths': [file, its .verified marker], 'used': file}`` (the marker only when there is one).

    Locks, markers and hidden names (temporaries, files moved aside) are bookkeeping, not entries; symbolic links are
    neither followed nor listed here (whoever lists the folder lists them as links), and neither is a linked root.
    """
    root = Path(root)
    found: list[dict] = []
    if not root.is_dir() or root.is_symlink():
        return found
    for folder, folders, files in os.walk(root, followlinks=False):
        folders[:] = sorted(name for name in folders if not name.startswith("."))
        for name in sorted(files):
            path = Path(folder) / name
            if name.startswith(".") or name.endswith((".lock", ".verified")) or path.is_symlink():
                continue
            marker = _marker(path)
            found.append({"paths": [path, marker] if marker.exists() and not marker.is_symlink() else [path],
                          "used": path})
    return found


def _is_verified(path: Path, sha1: str) -> bool:
    marker = _marker(path)
    try:
        recorded = json.loads(marker.read_text())
    except (OSError, ValueError):
        recorded = None
    stamp = _stamp(path)
    if (isinstance(recorded, dict) and recorded.get("sha1") == sha1
            and all(recorded.get(key) == value for key, value in stamp.items())
            and stamp["mtime_ns"] < int(recorded.get("recorded_ns", 0)) - RACY_WINDOW_NS):
        return True
    if sha1_hash(path) == sha1:
        _write_marker(path, sha1)
        return True
    return False


def _write_marker(path: Path, sha1: str) -> None:
    with atomic_path(_marker(path)) as temp:
        temp.write_text(json.dumps({"sha1": sha1, **_stamp(path), "recorded_ns": time.time_ns()}))


_SHA1 = re.compile(r"[0-9a-f]{40}")


def check_sha1(sha1: object, what: str) -> None:
    """Raise :class:`InvalidIdentifierError` (a ``ValueError``) naming ``what`` unless ``sha1`` is 40 lowercase hex
    digits (it becomes a folder name: anything else could point outside the cache)."""
    if not isinstance(sha1, str) or not _SHA1.fullmatch(sha1):
        raise InvalidIdentifierError(f"{what}: the recorded sha1 must be 40 lowercase hex digits, got {sha1!r}")


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
        created = not target.parent.exists()
        try:
            return _fetch_locked(store, key, target, sha1, version_id)
        except BaseException:
            if created:
                with contextlib.suppress(OSError):
                    target.parent.rmdir()  # only if empty
            raise


def fetch_to(store, key: str, target: str | os.PathLike, sha1: str | None = None,
             version_id: str | None = None) -> Path:
    """``target``, holding the object ``key`` of ``store``: used as it is when already there (and matching ``sha1``),
    else downloaded, checked and renamed into place under a lock beside it (``.<name>.lock``).

    Parameters
    ----------
    store : Store
        Anything with ``download(key, path, version_id=None)`` (``S3Store``, ``LocalStore``).
    key : str
        The object's key in the store.
    target : path-like
        Where the file goes; its folder is created.
    sha1 : str, default=None
        Expected SHA-1 (40 lowercase hex digits). None: the file is not verified (Brain-Score's ``load_file``
        records none); it is still written atomically.
    version_id : str, default=None

    A file already at ``target`` that does not match ``sha1`` (weights placed there by hand, another version) is
    never deleted: it is moved aside to ``<stem>.sha1-<its SHA-1><suffix>`` and the expected file is downloaded; one
    warning line names both files and both digests.

    Raises
    ------
    Sha1MismatchError
        The downloaded bytes do not hash to ``sha1``; nothing is left at ``target``.
    FileUnavailableError
        ``target`` is absent (or was moved aside) and the store cannot be reached: one line naming the file, its URL
        and the folder (for a moved file: both files and both digests).
    """
    target = Path(target)
    if sha1 is not None:
        check_sha1(sha1, f"{store!r}:{key}")
    target.parent.mkdir(parents=True, exist_ok=True)
    with FileLock(str(target.parent / f".{target.name}.lock")):
        aside = _move_aside_if_mismatched(target, sha1)
        try:
            path = _fetch_locked(store, key, target, sha1, version_id)
        except StoreUnreachableError as error:
            reason = error.__cause__ or error
            where = store_url(store, key, version_id)
            if aside is not None:
                raise FileUnavailableError(
                    f"{target} has SHA-1 {aside[1]}, not the expected {sha1}: it was moved aside to {aside[0]} (kept, "
                    f"not deleted) and {where} cannot be reached ({type(reason).__name__}: {reason}); put the file "
                    f"with SHA-1 {sha1} at {target}") from error
            raise FileUnavailableError(
                f"{target.name} is not in {target.parent} and {where} cannot be reached ({type(reason).__name__}: "
                f"{reason}); download it on a machine with network access and put it in {target.parent}") from error
    if aside is not None:
        _logger.warning("%s had SHA-1 %s, not the expected %s: moved aside to %s (kept); the expected file was "
                        "downloaded in its place", target, aside[1], sha1, aside[0])
    return path


def _move_aside_if_mismatched(target: Path, sha1: str | None) -> tuple[Path, str] | None:
    """A file at ``target`` that does not hash to ``sha1`` is someone's file (weights a user placed there, perhaps
    another version): it is renamed ``<stem>.sha1-<its SHA-1><suffix>`` beside it, never deleted; returns the new path
    and its SHA-1, or None when there is nothing to move. Its marker goes (it described another file)."""
    if sha1 is None or not target.is_file() or _is_verified(target, sha1):
        return None
    actual = sha1_hash(target)
    aside = target.with_name(f"{target.stem}.sha1-{actual}{target.suffix}")
    os.replace(target, aside)  # the same bytes moved aside earlier: replaced by themselves
    _marker(target).unlink(missing_ok=True)
    return aside, actual


def store_url(store, key: str, version_id: str | None = None) -> str:
    """Where ``key`` lives, as a URL when the store can say (``S3Store.url``), else ``<store>:<key>``."""
    url = getattr(store, "url", None)
    return url(key, version_id) if callable(url) else f"{store!r}:{key}"


def _fetch_locked(store, key: str, target: Path, sha1: str | None, version_id: str | None) -> Path:
    """The body of :func:`fetch_verified` and :func:`fetch_to`; the caller holds the file's lock."""
    for leftover in temporaries_of(target.parent, target.name):  # a killed download's; only lock holders write
        leftover.unlink(missing_ok=True)
    if target.exists():
        if sha1 is None or _is_verified(target, sha1):
            return target
        _logger.warning("cached %s does not match its SHA-1 %s; downloading it again", target, sha1)
        target.unlink()
        _marker(target).unlink(missing_ok=True)
    with atomic_path(target) as temp:
        store.download(key, temp, version_id=version_id)
        if sha1 is not None:
            actual = sha1_hash(temp)
            if actual != sha1:
                raise Sha1MismatchError(f"{store_url(store, key, version_id)}", expected=sha1, actual=actual)
    if sha1 is not None:
        _write_marker(target, sha1)
    return target
