"""What the installed packages keep on disk, how big it is, and pruning it (``brainscore cache``).

This module knows no package's layout. Each package publishes the cache kinds it writes through the entry-point group
``brainscore_caches`` (:mod:`brainscore_core.package_hooks`): a :class:`CacheKind` names the kind, the folders it lives
in and how those folders split into entries (each visible sub-folder is one, or a function of the owner's that groups
the files); this module measures the entries, lists them and deletes them, the same way for every kind.

Every cache is recomputed on its next use after pruning, from what is at hand or over the network; a kind that comes
back only from the raw recordings or the network (packaged data, fetched files, weights) says so
(``pruned_by_default=False``) and is pruned only when named.

An entry's last use is the newest of its files' access and modification times (or of the one file its owner names;
file systems mounted ``relatime`` update access times at most daily). Deleting never leaves half an entry under its
name: an entry's paths are deleted in the order its owner gives (index files before the file they point at), and a
folder is renamed to a hidden name before it is removed. Symbolic links in a cache are never followed, neither when
listing nor when deleting: a link that no entry holds is an entry of its own, pruning removes the link itself, never
what it points at, and never a path reached through a linked folder (:func:`brainio.paths.linked_part`).
"""

from __future__ import annotations

import contextlib
import logging
import os
import re
import shutil
import time
import uuid
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from brainio.paths import linked_part
from brainscore_core.errors import PublicationError, UnknownCacheKindError
from brainscore_core.memory_plan import parse_size
from brainscore_core.package_hooks import CACHES_GROUP, published

_logger = logging.getLogger(__name__)

__all__ = ["FOLDERS", "CacheEntry", "CacheKind", "cache_entries", "cache_kinds", "delete_entries", "entry_of",
           "locations", "parse_age", "parse_size", "pruned_by_default", "select_for_pruning"]

FOLDERS = "folders"
"""The layout in which each visible sub-folder of a cache folder is one entry."""


@dataclass(frozen=True)
class CacheKind:
    """A kind of cache entry one package writes, and where.

    Attributes
    ----------
    kind : str
        Its name in ``brainscore cache`` (``'activations'``); several packages may publish folders of one kind.
    roots : callable
        Returns the folders it lives in now (they may not exist yet): settings change, so it is asked each time.
    entries : str or callable, default='folders'
        :data:`FOLDERS`: each visible sub-folder of a root is one entry. Or a function of one root that returns its
        entries: each a :class:`CacheEntry` (see :func:`entry_of`), a sequence of paths, or a mapping with ``paths``
        and optionally ``model`` (the model it belongs to) and ``used`` (the one file whose last use counts). Symbolic
        links below the root that none of them holds are listed as entries of their own.
    pruned_by_default : bool, default=True
        Whether ``brainscore cache prune`` prunes it without being told (True for what the next use recomputes from
        what is at hand; False for what comes back only from the raw recordings or over the network).
    description : str, default=''
        One line: what one entry is.
    notes : callable, default=None
        Returns lines ``brainscore cache`` prints below the table (a threshold that applies to this kind).
    owner : str, default=None
        The distribution that writes it (filled from its entry point).
    """

    kind: str
    roots: Callable[[], Iterable[str | os.PathLike]]
    entries: str | Callable[[Path], Iterable[Any]] = FOLDERS
    pruned_by_default: bool = True
    description: str = ""
    notes: Callable[[], Iterable[str]] | None = None
    owner: str | None = None


@dataclass(frozen=True)
class CacheEntry:
    """Files (or folders) that are used and deleted together.

    Attributes
    ----------
    kind : str
    paths : tuple of Path
        Deleted in this order.
    size : int
        Bytes on disk (apparent sizes).
    last_used : float
        Seconds since the epoch.
    model : str or None
        The model identifier the entry belongs to, where the kind records one.
    root : Path or None
        The cache folder the paths lie in: deleting refuses a path reached through a symbolic link below it.
    """

    kind: str
    paths: tuple[Path, ...]
    size: int
    last_used: float
    model: str | None = None
    root: Path | None = None


_KIND_NAME = re.compile(r"^[a-z][a-z0-9_]*$")


def cache_kinds() -> dict[str, list[CacheKind]]:
    """Every kind the installed packages publish (entry-point group ``brainscore_caches``), sorted by name, each with
    its publications in the order of their owners.

    Raises
    ------
    PublicationError
        A publication fails to load or is malformed (a kind name that is not lower-case words, roots that are not
        callable, an unknown layout); the message names its distribution.
    """
    found: dict[str, list[CacheKind]] = {}
    for kind in published(CACHES_GROUP, CacheKind):
        problem = ("its name must be lower-case letters, digits and '_'" if not _KIND_NAME.match(str(kind.kind)) else
                   "roots must be callable" if not callable(kind.roots) else
                   f"entries must be {FOLDERS!r} or callable" if not (kind.entries == FOLDERS or callable(kind.entries))
                   else None)
        if problem:
            raise PublicationError(f"cache kind {kind.kind!r} of distribution {kind.owner!r}: {problem}")
        found.setdefault(kind.kind, []).append(kind)
    return dict(sorted(found.items()))


def pruned_by_default(kinds: Mapping[str, Sequence[CacheKind]] | None = None) -> tuple[str, ...]:
    """The kinds ``brainscore cache prune`` prunes when none is named (every publication of them says so)."""
    kinds = cache_kinds() if kinds is None else kinds
    return tuple(name for name, published_kinds in kinds.items()
                 if all(kind.pruned_by_default for kind in published_kinds))


def _roots(kinds: Sequence[CacheKind]) -> list[tuple[Path, CacheKind]]:
    """The folders of one kind, each once (the first publication of a folder describes it)."""
    seen: dict[Path, CacheKind] = {}
    for kind in kinds:
        for root in kind.roots():
            seen.setdefault(Path(root), kind)
    return list(seen.items())


def locations(kinds: Mapping[str, Sequence[CacheKind]] | None = None) -> dict[str, list[Path]]:
    """Where each kind lives now (folders that may not exist yet)."""
    kinds = cache_kinds() if kinds is None else kinds
    return {name: [root for root, _ in _roots(published_kinds)] for name, published_kinds in kinds.items()}


# -- sizes and times ------------------------------------------------------------------------------------------
def _walk(path: Path) -> tuple[int, float]:
    """(bytes, newest access or modification time) of a file or of every file under a folder; links not followed."""
    try:
        if path.is_file() or path.is_symlink():
            info = path.stat(follow_symlinks=False)
            return info.st_size, max(info.st_atime, info.st_mtime)
    except OSError:
        return 0, 0.0
    size, newest = 0, 0.0
    for folder, _, files in os.walk(path):
        for name in files:
            try:
                info = os.stat(os.path.join(folder, name), follow_symlinks=False)
            except OSError:  # removed meanwhile
                continue
            size += info.st_size
            newest = max(newest, info.st_atime, info.st_mtime)
    return size, newest


def entry_of(kind: str, paths: Sequence[str | os.PathLike], model: str | None = None, *,
             used: str | os.PathLike | None = None, root: str | os.PathLike | None = None) -> CacheEntry:
    """The entry of ``paths`` below ``root``, measured now; its last use is that of ``used`` (default: the newest of
    all its files)."""
    paths = tuple(Path(path) for path in paths)
    sizes = [_walk(path) for path in paths]
    last_used = _walk(Path(used))[1] if used is not None else max((t for _, t in sizes), default=0.0)
    return CacheEntry(kind, paths, sum(size for size, _ in sizes), last_used, model,
                      Path(root) if root is not None else None)


def _as_entry(item: Any, kind: CacheKind, root: Path) -> CacheEntry:
    if isinstance(item, CacheEntry):
        return item
    if isinstance(item, Mapping):
        unknown = sorted(set(item) - {"paths", "model", "used"})
        if unknown or "paths" not in item:
            raise PublicationError(f"an entry of cache kind {kind.kind!r} of {kind.owner!r} is a mapping with keys "
                                   f"{sorted(item)}; it takes 'paths' and optionally 'model' and 'used'")
        return entry_of(kind.kind, item["paths"], item.get("model"), used=item.get("used"), root=root)
    if isinstance(item, (str, os.PathLike)):
        return entry_of(kind.kind, [item], root=root)
    return entry_of(kind.kind, list(item), root=root)


def _children(folder: Path) -> list[Path]:
    """Visible sub-folders of ``folder``: lock files and hidden names are bookkeeping, not entries."""
    if not folder.is_dir():
        return []
    return sorted(child for child in folder.iterdir()
                  if not child.name.startswith(".") and child.suffix != ".lock" and child.is_dir())


def _stray_links(kind: str, root: Path, found: list[CacheEntry]) -> list[CacheEntry]:
    """Entries of the symbolic links below ``root`` that no entry of ``found`` holds: never followed, and pruned
    as links (a link planted in a cache must not make pruning delete what it points at)."""
    held = {path for entry in found for path in entry.paths}
    links = []
    for folder, folders, files in os.walk(root, followlinks=False):
        for name in sorted([*folders, *files]):
            path = Path(folder) / name
            if path.is_symlink() and path not in held:
                links.append(entry_of(kind, [path], root=root))
    return links


def cache_entries(kinds: Iterable[str] | None = None, *,
                  published_kinds: Mapping[str, Sequence[CacheKind]] | None = None) -> list[CacheEntry]:
    """Every entry of ``kinds`` (default: every published kind) on disk now.

    Raises
    ------
    UnknownCacheKindError
        A kind no installed package publishes; the message lists those that are.
    """
    published_kinds = cache_kinds() if published_kinds is None else published_kinds
    found: list[CacheEntry] = []
    for name in published_kinds if kinds is None else kinds:
        if name not in published_kinds:
            raise UnknownCacheKindError(f"unknown cache kind {name!r}; kinds: {', '.join(published_kinds)}")
        for root, kind in _roots(published_kinds[name]):
            if kind.entries == FOLDERS:  # folders: a link among them is an entry, removed as a link
                found += [entry_of(name, [path], root=root) for path in _children(root)]
                continue
            entries = [_as_entry(item, kind, root) for item in kind.entries(root)]
            found += entries + _stray_links(name, root, entries)
    return found


# -- pruning --------------------------------------------------------------------------------------------------
def select_for_pruning(entries: Sequence[CacheEntry], *, models: Sequence[str] | None = None,
                       older_than_s: float | None = None, max_bytes: int | None = None,
                       now: float | None = None) -> list[CacheEntry]:
    """The entries to delete, least recently used first.

    ``models`` and ``older_than_s`` narrow the candidates (an entry must match every one given); without
    ``max_bytes`` every candidate is deleted, with it only as many candidates, least recently used first, as bring
    the total of ``entries`` down to ``max_bytes``.
    """
    now = time.time() if now is None else now
    candidates = [entry for entry in entries
                  if (models is None or entry.model in models)
                  and (older_than_s is None or entry.last_used < now - older_than_s)]
    candidates.sort(key=lambda entry: entry.last_used)
    if max_bytes is None:
        return candidates
    excess = sum(entry.size for entry in entries) - max_bytes
    chosen = []
    for entry in candidates:
        if excess <= 0:
            break
        chosen.append(entry)
        excess -= entry.size
    return chosen


def _remove(path: Path, root: Path | None) -> None:
    """Remove a file, a folder (renamed to a hidden name first) or a link itself; a path reached through a linked
    folder below ``root`` is left alone with a warning."""
    if root is not None and (link := linked_part(root, path)) is not None:
        _logger.warning("not deleting %s: it is reached through the symbolic link %s", path, link)
        return
    if path.is_dir() and not path.is_symlink():
        hidden = path.with_name(f".{path.name}.deleting-{uuid.uuid4().hex[:8]}")
        try:
            os.replace(path, hidden)  # gone from its name at once; removed below
        except OSError:
            hidden = path
        shutil.rmtree(hidden, ignore_errors=True)
    else:
        with contextlib.suppress(FileNotFoundError):
            path.unlink()


def delete_entries(entries: Iterable[CacheEntry]) -> int:
    """Delete the entries (each entry's paths in order); returns the bytes freed."""
    freed = 0
    for entry in entries:
        for path in entry.paths:
            _remove(path, entry.root)
        freed += entry.size
    return freed


_AGE = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*([smhdw])\s*$", re.IGNORECASE)


def parse_age(text: str) -> float:
    """Seconds of ``'30d'``, ``'12h'``, ``'90m'``, ``'2w'``, ``'45s'``; ValueError otherwise."""
    match = _AGE.match(text)
    if not match:
        raise ValueError(f"{text!r} is not an age (examples: 30d, 12h, 2w)")
    unit = {"s": 1, "m": 60, "h": 3600, "d": 86400, "w": 604800}[match.group(2).lower()]
    return float(match.group(1)) * unit

