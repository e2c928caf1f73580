"""The local cache of fetched files: ``$BRAINIO_HOME/<sha1>/<file name>`` (default ``~/.brainio``).

Every file is downloaded to a temporary file in its cache folder, checked against its SHA-1 and only then
renamed into place, under a per-file lock (``$BRAINIO_HOME/.locks/``), so concurrent processes never see
or produce a partial file. A verified file gets a ``<name>.verified`` marker recording its size, mtime
and ctime; a later load re-hashes the file whenever these differ. A cached file that fails the check is
deleted and downloaded again; a download that fails the check is deleted and raises
:class:`~brainio.errors.Sha1MismatchError`. A file changed within :data:`~brainio.extraction.RACY_WINDOW_NS` of its
marker is re-hashed (git's racily-clean rule), and temporaries of killed downloads are removed under the lock.
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

from ._files import atomic_path, sha1_hash
from .errors import InvalidIdentifierError, Sha1MismatchError
from .extraction import RACY_WINDOW_NS, extract_zip, sweep_stale_temporaries, temporaries_of

__all__ = ["cache_home", "check_sha1", "extract_zip", "fetch_verified", "sweep_stale_temporaries"]

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
        for leftover in temporaries_of(target.parent, target.name):  # a killed download's; only lock holders write
            leftover.unlink(missing_ok=True)
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
