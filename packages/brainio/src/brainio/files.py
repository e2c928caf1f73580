"""File primitives shared by every package: SHA-1 of a file, atomic writes, and permissions that honour the umask.

* :func:`sha1_hash` -- hex SHA-1 of a file's bytes, read in chunks.
* :func:`atomic_path` / :func:`atomic_write` -- write to a temporary file beside the target, then ``os.replace``:
  readers see no file or the complete file, never a half-written one; ``durable=True`` also ``fsync``\\ s the file
  before the rename (manifests, stores).
* :func:`apply_umask` -- temporary files (``mkstemp``: 0600) and folders (``mkdtemp``: 0700) get the permissions an
  ordinary ``open`` / ``mkdir`` would give under the process umask, so lab-shared stores and caches stay readable by
  the group.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import tempfile
import threading
from collections.abc import Callable, Iterator
from pathlib import Path

__all__ = ["apply_umask", "atomic_path", "atomic_write", "current_umask", "sha1_hash"]

_CHUNK = 1 << 20
_UMASK_LOCK = threading.Lock()


def sha1_hash(path: str | os.PathLike) -> str:
    """Hex SHA-1 of the bytes of the file at ``path``."""
    digest = hashlib.sha1()
    with open(path, "rb") as file:
        for chunk in iter(lambda: file.read(_CHUNK), b""):
            digest.update(chunk)
    return digest.hexdigest()


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
