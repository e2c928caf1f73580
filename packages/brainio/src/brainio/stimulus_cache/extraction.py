"""Extracted stimulus archives that always hold what the archive holds, safe for concurrent readers.

A ZIP is extracted once into a temporary folder beside ``destination`` and renamed into place. While
extracting, the SHA-1 and size of every member are recorded in ``<destination>.members.json`` next to the
folder, with each extracted file's (size, mtime, ctime) stamp. Every later :func:`extract_zip` call
re-checks the folder under the extraction lock:

* a file whose stamp equals the recorded one is trusted without reading it, unless it is *racily clean*
  (its mtime falls within :data:`RACY_WINDOW_NS` of the moment the stamp was recorded, git's rule: a change in
  that window could leave the stamp unchanged), in which case it is hashed;
* a file that fails its SHA-1, or is missing, is extracted again from the archive, member by member, through
  a temporary file and ``os.replace``. The folder itself is never deleted, so paths handed out earlier to any
  process stay valid, and a concurrent reader sees the old or the new complete file, never a partial one;
* files that are not archive members (``.DS_Store``, editor backups) are left alone and ignored;
* leftovers of killed runs (``.*.part`` temporaries of this folder) are removed: only a holder of this lock
  writes them, so under the lock they are stale.

The manifest carries a digest of its own content; a damaged manifest is rebuilt from the archive with a
warning.

The manifest is the folder's verified-extraction marker: it is written (atomically, durably) only after every member
was extracted or checked against its SHA-1, and it records the stamp of the archive it was checked against. A warm
call whose manifest is intact and names the same archive stamp opens no archive: it reads the manifest and stats each
member once (a replaced or damaged file still shows in its stamp); only a member whose stamp differs sends the call
down the full path above. The recorded SHA-1s are the set's per-image content digests
(:func:`member_sha1s`, read by :mod:`brainio.stimulus_cache.digests`).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import logging
import os
import shutil
import tempfile
import time
import zipfile
from pathlib import Path

from filelock import FileLock

from .._home import cache_home
from ..files import apply_umask, atomic_path, remove_path, sha1_hash
from ..files import temporaries_of as _temporaries_of
from .archives import ARCHIVE_ERRORS, naming_archive_errors, open_archive, open_member, safe_members

__all__ = ["ARCHIVE_ERRORS", "RACY_WINDOW_NS", "damaged_files", "extract_zip", "manifest_path", "member_sha1s",
           "open_archive", "record_files", "sweep_stale_temporaries", "temporaries_of"]

_logger = logging.getLogger(__name__)

RACY_WINDOW_NS = 2_000_000_000
"""A file modified less than this (2 s) before its stamp was recorded is re-hashed on the next check:
file-system clocks tick coarsely, so a change in that window may leave (size, mtime, ctime) unchanged."""

_FORMAT = 2
"""2 records the archive's stamp (the warm path); a format-1 manifest is still read, checked the full way and
rewritten as format 2."""
_READABLE_FORMATS = (1, 2)
_CHUNK = 1 << 20


def manifest_path(destination: Path) -> Path:
    """``<destination>.members.json``: member SHA-1s and stamps of an extracted folder."""
    return destination.with_name(destination.name + ".members.json")


def _lock(name: str, home: Path) -> FileLock:
    folder = home / ".locks"
    folder.mkdir(parents=True, exist_ok=True)
    return FileLock(str(folder / f"{name}.lock"))


def _stamp(path: Path) -> dict[str, int]:
    status = path.stat()
    return {"size": status.st_size, "mtime_ns": status.st_mtime_ns, "ctime_ns": status.st_ctime_ns}


def _extract_member(archive: zipfile.ZipFile, info: zipfile.ZipInfo, target: Path) -> str:
    """Write one member to ``target`` atomically; returns the SHA-1 of its bytes."""
    digest = hashlib.sha1()
    with atomic_path(target) as temp, open_member(archive, info) as source, open(temp, "wb") as sink:
        for chunk in iter(lambda: source.read(_CHUNK), b""):
            digest.update(chunk)
            sink.write(chunk)
    return digest.hexdigest()


def _content_digest(members: dict, recorded_ns: int, archive: dict | None = None, fmt: int = _FORMAT) -> str:
    document = {"format": fmt, "recorded_ns": recorded_ns, "members": members}
    if archive is not None:
        document["archive"] = archive
    text = json.dumps(document, sort_keys=True)
    return hashlib.sha1(text.encode()).hexdigest()


def _archive_stamp(zip_path: Path) -> dict[str, int | str]:
    """Name and (size, mtime, ctime) of the archive a folder was checked against."""
    return {"name": zip_path.name, **_stamp(zip_path)}


def _write_manifest(destination: Path, members: dict[str, dict], archive: dict | None) -> None:
    recorded_ns = time.time_ns()
    record = {"format": _FORMAT, "recorded_ns": recorded_ns, "members": members, "archive": archive,
              "digest": _content_digest(members, recorded_ns, archive)}
    with atomic_path(manifest_path(destination), durable=True) as temp:
        temp.write_text(json.dumps(record, sort_keys=True))


_read_manifests: dict[tuple, tuple] = {}
"""Manifests already read and found intact, by (path, device, inode, size, mtime, ctime): a manifest is only ever
replaced (``os.replace``), so a changed one has another key. At most :data:`_MAX_READ_MANIFESTS` kept."""
_MAX_READ_MANIFESTS = 64


def _read_manifest(destination: Path) -> tuple[dict[str, dict], int, dict | None] | None:
    """(members, recorded_ns, archive stamp or None) of an intact manifest, else None (a damaged one is logged)."""
    path = manifest_path(destination)
    try:
        status = os.stat(path)
        key = (str(path), status.st_dev, status.st_ino, status.st_size, status.st_mtime_ns, status.st_ctime_ns)
        if key in _read_manifests:
            return _read_manifests[key]
        record = json.loads(path.read_text())
        members, recorded_ns, fmt = record["members"], int(record["recorded_ns"]), record.get("format")
        archive = record.get("archive") if fmt == _FORMAT else None
        if fmt not in _READABLE_FORMATS or record.get("digest") != _content_digest(members, recorded_ns, archive, fmt):
            raise ValueError("digest mismatch")
        if len(_read_manifests) >= _MAX_READ_MANIFESTS:
            _read_manifests.clear()
        _read_manifests[key] = (members, recorded_ns, archive)
        return members, recorded_ns, archive
    except FileNotFoundError:
        return None
    except (OSError, ValueError, KeyError, TypeError) as error:
        _logger.warning("%s is damaged (%s); checking %s against its archive instead", path, error, destination)
        return None


def member_sha1s(destination: str | os.PathLike) -> dict[str, str]:
    """Member name (as in the archive, ``/``-separated) -> SHA-1 of its bytes, from the folder's verified-extraction
    manifest; empty when the folder has no intact manifest (call :func:`extract_zip` first)."""
    manifest = _read_manifest(Path(destination))
    return {} if manifest is None else {name: record["sha1"] for name, record in manifest[0].items()}


def _warm(zip_path: Path, destination: Path, manifest: tuple | None) -> bool:
    """The manifest is intact, names this archive's stamp, and every member's stamp is trusted: nothing to do."""
    if manifest is None or manifest[2] is None:
        return False
    members, recorded_ns, archive = manifest
    try:
        if archive != _archive_stamp(zip_path):
            return False
    except OSError:
        return False
    folder = os.fspath(destination)
    for name, record in members.items():
        try:
            status = os.stat(os.path.join(folder, name))
        except OSError:
            return False
        if (status.st_size != record.get("size") or status.st_mtime_ns != record.get("mtime_ns")
                or status.st_ctime_ns != record.get("ctime_ns") or status.st_mtime_ns >= recorded_ns - RACY_WINDOW_NS):
            return False
    return True


def _stamp_trusted(path: Path, record: dict, recorded_ns: int | None) -> bool:
    """The file's (size, mtime, ctime) equal the recorded ones and it is not racily clean."""
    try:
        stamp = _stamp(path)
    except OSError:
        return False
    return (recorded_ns is not None and all(stamp[key] == record.get(key) for key in stamp)
            and stamp["mtime_ns"] < recorded_ns - RACY_WINDOW_NS)


def _content_matches(path: Path, record: dict) -> bool:
    try:
        return path.stat().st_size == record["size"] and sha1_hash(path) == record["sha1"]
    except OSError:
        return False


def record_files(folder: Path, names: list[str]) -> dict[str, dict]:
    """SHA-1, size and (size, mtime, ctime) stamp of each file ``folder / name``, for :func:`damaged_files`."""
    return {name: {"sha1": sha1_hash(folder / name), **_stamp(folder / name)} for name in names}


def damaged_files(folder: Path, members: dict[str, dict], recorded_ns: int, *, force: bool = False) -> list[str]:
    """Names among ``members`` (from :func:`record_files`, recorded at ``recorded_ns``) whose file is missing or
    differs; stamps are trusted unless racily clean or ``force``."""
    return [name for name, record in members.items()
            if (force or not _stamp_trusted(folder / name, record, recorded_ns))
            and not _content_matches(folder / name, record)]


def _members_from_archive(archive: zipfile.ZipFile, members: list[zipfile.ZipInfo]) -> dict[str, dict]:
    expected = {}
    for info in members:
        digest = hashlib.sha1()
        with open_member(archive, info) as source:
            for chunk in iter(lambda: source.read(_CHUNK), b""):
                digest.update(chunk)
        expected[info.filename] = {"sha1": digest.hexdigest(), "size": info.file_size}
    return expected


def temporaries_of(folder: Path, name: str) -> list[Path]:
    """Temporaries made for ``name`` in ``folder`` (:func:`brainio.files.temporaries_of`)."""
    return _temporaries_of(Path(folder) / name)


def _remove_leftovers(destination: Path) -> None:
    """Temporaries of ``destination`` (extraction folder, manifest, member files) left by killed runs."""
    leftovers = temporaries_of(destination.parent, destination.name)
    leftovers += temporaries_of(destination.parent, manifest_path(destination).name)
    if destination.is_dir():
        leftovers += [path for path in destination.rglob(".*.part") if path.is_file()]
    for leftover in leftovers:
        remove_path(leftover)  # a link is removed itself, never what it points at


def _repair(zip_path: Path, destination: Path, force: bool, limits: dict) -> None:
    manifest = _read_manifest(destination)
    if not force and _warm(zip_path, destination, manifest):
        return
    with open_archive(zip_path) as archive:
        members = safe_members(archive, destination, **limits)
        if manifest is not None and set(manifest[0]) == {info.filename for info in members}:
            expected, recorded_ns, recorded_archive = manifest
        else:
            expected, recorded_ns, recorded_archive = _members_from_archive(archive, members), None, None
        archive_stamp = _archive_stamp(zip_path)
        rewrite = recorded_ns is None or recorded_archive != archive_stamp
        for info in members:
            target, record = destination / info.filename, expected[info.filename]
            if not force and _stamp_trusted(target, record, recorded_ns):
                continue
            rewrite = True  # verified by content below: record the new stamp
            if _content_matches(target, record):
                continue
            _logger.warning("%s differs from its archive %s; extracting it again", target, zip_path)
            target.parent.mkdir(parents=True, exist_ok=True)
            _extract_member(archive, info, target)
    if rewrite:
        _write_manifest(destination, {info.filename: {"sha1": expected[info.filename]["sha1"],
                                                      "size": expected[info.filename]["size"],
                                                      **_stamp(destination / info.filename)} for info in members},
                        archive_stamp)


def extract_zip(zip_path: str | os.PathLike, destination: str | os.PathLike, home: str | os.PathLike | None = None,
                *, refresh: bool = False, max_bytes: float | None = None, max_ratio: float | None = None) -> Path:
    """Extract ``zip_path`` into ``destination`` once, and keep it intact on every later call.

    Parameters
    ----------
    zip_path : path-like
        A (SHA-1 verified) archive.
    destination : path-like
        The folder to create; its parent must exist.
    home : path-like, optional
        Folder of the ``.locks`` directory, default=None meaning ``$BRAINIO_HOME``.
    refresh : bool, default=False
        Hash every extracted file instead of trusting the recorded (size, mtime, ctime) stamps. Damaged or
        missing files are re-extracted one by one; the folder is never deleted.
    max_bytes : float, optional
        Most bytes the archive may expand to, default=None meaning ``$BRAINIO_ARCHIVE_MAX_GB`` (64 GiB).
    max_ratio : float, optional
        Most the archive (or a member of 1 MiB or more) may expand relative to its compressed size, default=None
        meaning ``$BRAINIO_ARCHIVE_MAX_RATIO`` (100).

    Returns
    -------
    Path of ``destination``.

    Raises
    ------
    UnsafeArchiveError
        A member would land outside ``destination`` (absolute path, ``..``), two members share a name, a member is a
        symbolic link or lies under a file member; :class:`ArchiveLimitError` (a subclass): the archive would expand
        beyond ``max_bytes`` or ``max_ratio``. Nothing is written.
    PathOutsideRootError
        A member would be written through a symbolic link planted in the extracted folder.
    ArchiveReadError
        The archive is damaged (names it); nothing is written.
    """
    zip_path, destination = Path(zip_path), Path(destination)
    home = Path(home) if home is not None else cache_home()
    limits = {"max_bytes": max_bytes, "max_ratio": max_ratio}
    with _lock(f"{zip_path.parent.name}-{destination.name}-extract", home), naming_archive_errors(zip_path):
        _remove_leftovers(destination)
        if destination.exists():
            _repair(zip_path, destination, force=refresh, limits=limits)
            return destination
        temp = Path(tempfile.mkdtemp(prefix=f".{destination.name}.", suffix=".part", dir=destination.parent))
        apply_umask(temp, directory=True)
        try:
            with open_archive(zip_path) as archive:
                members = safe_members(archive, temp, **limits)
                sha1s = {}
                for info in members:
                    (temp / info.filename).parent.mkdir(parents=True, exist_ok=True)
                    sha1s[info.filename] = _extract_member(archive, info, temp / info.filename)
            os.replace(temp, destination)
            _write_manifest(destination, {info.filename: {"sha1": sha1s[info.filename], "size": info.file_size,
                                                          **_stamp(destination / info.filename)}
                                          for info in members}, _archive_stamp(zip_path))
        except BaseException:
            shutil.rmtree(temp, ignore_errors=True)
            raise
    return destination


def sweep_stale_temporaries(home: str | os.PathLike, older_than_s: float = 3600.0) -> list[Path]:
    """Remove ``.*.part`` files and folders that killed runs left in the cache folders ``home/<sha1>/``.

    Only temporaries older than ``older_than_s`` (default one hour) are touched, and only while the locks of
    the file or folder they were written for are free (nobody is writing it). A folder of ``home`` that is a
    symbolic link is not entered, and a temporary that is a link is removed itself. Returns the removed paths.
    """
    home = Path(home)
    removed = []
    cutoff = time.time() - older_than_s
    for leftover in home.glob("*/.*.part"):
        if leftover.parent.is_symlink():
            continue  # a linked folder: what it holds lies outside the cache
        try:
            if leftover.lstat().st_mtime > cutoff:
                continue
        except OSError:
            continue
        target = leftover.name[1:].rsplit(".", 2)[0]  # ".<target>.<random>.part"
        base = f"{leftover.parent.name}-{target}"
        with contextlib.ExitStack() as stack:
            try:
                for lock in (_lock(base, home), _lock(f"{base}-extract", home)):
                    stack.enter_context(lock.acquire(timeout=0))
            except TimeoutError:
                continue
            remove_path(leftover)
            removed.append(leftover)
    return removed
