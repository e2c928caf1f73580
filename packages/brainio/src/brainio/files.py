"""File primitives shared by every package: SHA-1 of a file, atomic writes, and permissions that honour the umask.

* :func:`sha1_hash` -- hex SHA-1 of a file's bytes, read in chunks; :func:`remembered_sha1_hash` -- the same,
  remembered in memory per file identity and stamp, so that checking thousands of unchanged files costs one ``stat``
  each.
* :func:`atomic_path` / :func:`atomic_write` -- write to a temporary file beside the target, then ``os.replace``:
  readers see no file or the complete file, never a half-written one; ``durable=True`` also ``fsync``\\ s the file
  before the rename (manifests, stores).
* :func:`apply_umask` -- temporary files (``mkstemp``: 0600) and folders (``mkdtemp``: 0700) get the permissions an
  ordinary ``open`` / ``mkdir`` would give under the process umask, so lab-shared stores and caches stay readable by
  the group.
* :func:`target_lock` -- the write lock of one or more targets (``<folder>/.locks/<name>.lock``); taking it removes
  the temporaries that killed writers left for those targets (:func:`temporaries_of`): only a lock holder writes
  them, so under the lock they are stale.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import re
import shutil
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

from filelock import FileLock

__all__ = ["LOCK_FOLDER", "apply_umask", "atomic_path", "atomic_write", "current_umask", "remembered_sha1_hash",
           "remove_path", "sha1_hash", "target_lock", "temporaries_of"]

LOCK_FOLDER = ".locks"
"""Folder, beside the targets, that holds their lock files."""

_CHUNK = 1 << 20
_UMASK_LOCK = threading.Lock()
#: a digest is remembered only once the file's last change is this old (ns): a later change then shows in its
#: mtime/ctime even on file systems with coarse timestamps (git's "racily clean" rule)
_SETTLED_NS = 2_000_000_000
_MAX_REMEMBERED = 200_000
_remembered: dict[tuple, str] = {}
_remembered_lock = threading.Lock()


def sha1_hash(path: str | os.PathLike) -> str:
    """Hex SHA-1 of the bytes of the file at ``path``."""
    digest = hashlib.sha1()
    with open(path, "rb") as file:
        for chunk in iter(lambda: file.read(_CHUNK), b""):
            digest.update(chunk)
    return digest.hexdigest()


def _stat_key(path: str, status: os.stat_result) -> tuple:
    return (path, status.st_dev, status.st_ino, status.st_size, status.st_mtime_ns, status.st_ctime_ns)


def remembered_sha1_hash(path: str | os.PathLike) -> str:
    """:func:`sha1_hash`, remembered in memory per (path, device, inode, size, mtime, ctime).

    Any write to a file changes its ctime (which user code cannot set), so a changed file is hashed again. A digest
    is remembered only when the file had not changed for 2 s before it was read and its stat is the same after
    reading: a file rewritten within one timestamp tick of being hashed is never served from memory.
    """
    path = os.fspath(path)
    before = os.stat(path)
    key = _stat_key(path, before)
    with _remembered_lock:
        known = _remembered.get(key)
    if known is not None:
        return known
    digest = sha1_hash(path)
    after = os.stat(path)
    settled = time.time_ns() - max(before.st_mtime_ns, before.st_ctime_ns) > _SETTLED_NS
    if settled and _stat_key(path, after) == key:
        with _remembered_lock:
            if len(_remembered) >= _MAX_REMEMBERED:
                _remembered.clear()
            _remembered[key] = digest
    return digest


def current_umask() -> int:
    """The process umask (read by setting and restoring it, under a lock)."""
    with _UMASK_LOCK:
        mask = os.umask(0o022)
        os.umask(mask)
    return mask


def apply_umask(path: str | os.PathLike, *, directory: bool = False) -> None:
    """Give ``path`` the mode ``open`` (0666) or ``mkdir`` (0777) would give it under the current umask."""
    os.chmod(path, (0o777 if directory else 0o666) & ~current_umask())


@contextlib.contextmanager
def atomic_path(target: str | os.PathLike, suffix: str = "", *, durable: bool = False) -> Iterator[Path]:
    """Yield a temporary path next to ``target``; on success it replaces ``target``, on error it is removed.

    Readers therefore only ever see no file or the complete file. The file gets the umask's permissions;
    ``durable=True`` flushes it to disk before the rename.
    """
    target = Path(target)
    target.parent.mkdir(parents=True, exist_ok=True)
    handle, temp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=suffix + ".part", dir=target.parent)
    os.close(handle)
    temp_path = Path(temp)
    try:
        yield temp_path
        apply_umask(temp_path)
        if durable:
            with open(temp_path, "rb") as file:
                os.fsync(file.fileno())
        os.replace(temp_path, target)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            temp_path.unlink()
        raise


def atomic_write(path: str | os.PathLike, write: Callable[[Path], object], *, durable: bool = False) -> None:
    """Call ``write(temp_path)`` on a temporary file beside ``path``, then rename it to ``path`` (see
    :func:`atomic_path`)."""
    with atomic_path(path, durable=durable) as temp:
        write(temp)


def temporaries_of(target: str | os.PathLike) -> list[Path]:
    """Temporaries that :func:`atomic_path` (``mkstemp``) or ``mkdtemp`` made for ``target``, files and folders.

    Their names are ``.<name>.<random>[<suffix>].part``: the random part has no dot, and the optional suffix is
    the target's own (``write_netcdf`` writes ``.<name>.<random>.nc.part``), so the temporaries of
    ``<name>.verified`` or of ``<name>.nc`` are not taken for those of ``<name>``.
    """
    target = Path(target)
    suffix = re.escape(target.suffix) if target.suffix else ""
    pattern = re.compile(rf"\.{re.escape(target.name)}\.[^.]+(?:{suffix})?\.part" if suffix else
                         rf"\.{re.escape(target.name)}\.[^.]+\.part")
    try:
        names = os.listdir(target.parent)
    except FileNotFoundError:
        return []
    return [target.parent / name for name in sorted(names) if pattern.fullmatch(name)]


def remove_path(path: str | os.PathLike) -> None:
    """Remove a file or a folder tree; nothing when it is gone already."""
    path = Path(path)
    if path.is_dir() and not path.is_symlink():
        shutil.rmtree(path, ignore_errors=True)
    else:
        path.unlink(missing_ok=True)


@contextlib.contextmanager
def target_lock(*targets: str | os.PathLike, timeout: float = -1) -> Iterator[None]:
    """Hold the write lock of every target (in sorted order: two writers never deadlock) and remove the temporaries
    that killed writers left for them.

    Parameters
    ----------
    *targets : path-like
        Files (or folders) about to be written; each lock is ``<folder>/.locks/<name>.lock``.
    timeout : float, default=-1
        Seconds to wait for each lock; -1 waits for ever (:class:`filelock.Timeout` when it expires).
    """
    paths = sorted({Path(target).absolute() for target in targets}, key=str)
    with contextlib.ExitStack() as stack:
        for path in paths:
            folder = path.parent / LOCK_FOLDER
            if not folder.is_dir():
                folder.mkdir(parents=True, exist_ok=True)
                apply_umask(folder, directory=True)
            stack.enter_context(FileLock(str(folder / f"{path.name}.lock"), timeout=timeout))
            for leftover in temporaries_of(path):
                remove_path(leftover)
        yield
