"""What Brain-Score keeps on disk, how big it is, and pruning it (``brainscore cache``).

Kinds, where they live (``$BRAINSCORE_HOME`` defaults to ``~/.brain-score``), and what one entry is:

* ``data``: ``$BRAINSCORE_DATA_STORE`` (default ``$BRAINSCORE_HOME/data_store``), a packaged data plugin's store
  folder; and ``$BRAINIO_HOME`` (default ``~/.brainio``), brainio's verified copy of one fetched file;
* ``stimuli``: ``$BRAINSCORE_HOME/stimuli_on_screen``, a stimulus set placed on one screen size;
* ``activations``: ``$BRAINSCORE_HOME/activations``, one extraction run's ``.nc`` file with the index files that point
  at it (records its model);
* ``layer_selection``: ``$BRAINSCORE_HOME/layer_selection``, one region's layer choice (records its model);
* ``ceilings``: ``$BRAINSCORE_HOME/ceilings``, one ceiling's JSON with its arrays;
* ``weights``: ``$BRAINSCORE_HOME/weights`` (model-tools' zoo) and the folders Brain-Score plugins' weights go to
  (``load_weight_file``: ``$BRAINSCORE_HOME/brainscore-vision/`` for its usual ``folder_name``, and
  ``$BRAINSCORE_HOME/<$BRAINSCORE_S3_WEIGHT_FOLDER, default models>/``), one weight file (with its ``.verified``
  marker) each, found in their sub-folders too.

Every cache is recomputed on its next use after pruning: activations, stimuli, layer choices and ceilings from what
is at hand; packaged data from the raw recordings (``$BRAINSCORE_RAW_DATA``), fetched data and weights over the
network. So :data:`PRUNED_BY_DEFAULT` leaves ``data`` and ``weights`` alone unless they are named.

An entry's last use is the newest of its files' access and modification times (of the ``.nc`` file for activations;
file systems mounted ``relatime`` update access times at most daily); listing reads the JSON records without
updating their access times where the system allows (``O_NOATIME``). Deleting never leaves half an entry under its name: index files go before the
activations file they point at (an index naming a missing file is a cache miss), a ceiling's JSON before its
arrays, and a folder is renamed to a hidden name before it is removed. Deleting an activations file that another
process has mapped is safe (its pages stay readable until unmapped). Symbolic links in a cache are never
followed, neither when listing nor when deleting: a link is an entry of its own (or part of one) and pruning
removes the link itself, never what it points at, and never a path reached through a linked folder. The activations
layout is model-tools' (``model_tools.activations.cache``): ``entries/**/<key>.<run>.nc`` with its ``<key>.<run>.rows.json`` (the stimuli of
its rows), ``index/**/<key>.json`` records whose content names the ``entry`` and the ``model``, and
``rows/**/<content key>.json`` records listing the entries that hold one layer. A rows record belongs to the newest
live entry it lists: pruning that entry removes it, and the other entries it listed are then found by their exact
keys only (a request showing some of their stimuli again computes instead of gathering rows).
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import re
import shutil
import time
import uuid
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from brainio.paths import linked_part, walk_files
from brainscore_core.memory_plan import parse_size
from brainscore_vision._paths import brainscore_home

_logger = logging.getLogger(__name__)

__all__ = ["KINDS", "PRUNED_BY_DEFAULT", "CacheEntry", "cache_entries", "delete_entries", "locations", "parse_age",
           "parse_size", "select_for_pruning"]

KINDS = ("data", "stimuli", "activations", "layer_selection", "ceilings", "weights")
PRUNED_BY_DEFAULT = ("stimuli", "activations", "layer_selection", "ceilings")
UNFINISHED_AGE_S = 3600
"""A temporary file (``*.tmp``) of a run killed mid-write counts as an entry once it is this old."""


@dataclass(frozen=True)
class CacheEntry:
    """Files (or folders) that are used and deleted together.

    Attributes
    ----------
    kind : str
        One of :data:`KINDS`.
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


def locations() -> dict[str, list[Path]]:
    """Where each kind lives (folders that may not exist yet)."""
    from brainio.cache import cache_home
    from brainscore_vision.data_helpers.packaged import store_directory

    home = brainscore_home()
    return {"data": [store_directory(), cache_home()], "stimuli": [home / "stimuli_on_screen"],
            "activations": [home / "activations"], "layer_selection": [home / "layer_selection"],
            "ceilings": [home / "ceilings"], "weights": _weight_folders(home)}


def _weight_folders(home: Path) -> list[Path]:
    """The zoo's weights folder and those of Brain-Score plugins' ``load_weight_file`` (see the module docstring)."""
    from brainscore_core.config import weight_folder

    plugin = home / weight_folder().strip("/").split("/")[0]
    return list(dict.fromkeys([home / "weights", home / "brainscore-vision", plugin]))


# -- sizes and times ------------------------------------------------------------------------------------------
def _walk(path: Path) -> tuple[int, float]:
    """(bytes, newest access or modification time) of a file or of every file under a folder."""
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


def _entry(kind: str, paths: Sequence[Path], model: str | None = None, *, used: Path | None = None,
           root: Path | None = None) -> CacheEntry:
    """An entry of ``paths`` below ``root``; its last use is that of ``used`` (default: the newest of all its files)."""
    sizes = [_walk(path) for path in paths]
    last_used = _walk(used)[1] if used is not None else max((t for _, t in sizes), default=0.0)
    return CacheEntry(kind, tuple(paths), sum(size for size, _ in sizes), last_used, model, root)


def _read_json(path: Path) -> object:
    """A JSON file's content, read without updating its access time where the system allows (listing the caches is
    not using them)."""
    try:
        descriptor = os.open(path, os.O_RDONLY | getattr(os, "O_NOATIME", 0))
    except PermissionError:  # O_NOATIME needs the file's owner
        descriptor = os.open(path, os.O_RDONLY)
    with os.fdopen(descriptor, encoding="utf-8") as file:
        return json.load(file)


def _children(folder: Path, *, folders: bool) -> list[Path]:
    """Visible sub-folders (or files) of ``folder``: lock files and hidden names are bookkeeping, not entries."""
    if not folder.is_dir():
        return []
    return sorted(child for child in folder.iterdir()
                  if not child.name.startswith(".") and child.suffix != ".lock" and child.is_dir() == folders)


# -- entries per kind -----------------------------------------------------------------------------------------
def _weight_entries(root: Path) -> list[CacheEntry]:
    """One entry per weight file under ``root`` (sub-folders included: a plugin's ``folder_name`` and relative path),
    with its ``.verified`` marker; locks, markers and hidden temporaries are bookkeeping. Links are never followed
    nor held here (:func:`_stray_links` lists them as links)."""
    found = []
    for folder, folders, files in os.walk(root, followlinks=False) if root.is_dir() and not root.is_symlink() else ():
        folders[:] = sorted(name for name in folders if not name.startswith("."))
        for name in sorted(files):
            path = Path(folder) / name
            if name.startswith(".") or name.endswith((".lock", ".verified")) or path.is_symlink():
                continue
            marker = path.with_name(name + ".verified")
            held = [path, marker] if marker.exists() and not marker.is_symlink() else [path]
            found.append(_entry("weights", held, used=path, root=root))
    return found


def _activation_entries(root: Path) -> list[CacheEntry]:
    indexes: dict[str, list[Path]] = {}
    models: dict[str, str] = {}
    for index in walk_files(root / "index", ".json"):
        try:
            if index.is_symlink():
                raise ValueError("a link")  # never read through: an orphan, pruned as the link itself
            content = _read_json(index).get("content", {})
            entry, model = str(content["entry"]), content.get("model")
        except (OSError, ValueError, KeyError, AttributeError, TypeError):
            entry, model = "", None  # damaged: an orphan, pruned with the others
        indexes.setdefault(entry, []).append(index)
        if model and entry:
            models[entry] = str(model)
    entries = list(walk_files(root / "entries", ".nc"))
    live = {path.relative_to(root).as_posix() for path in entries}
    for rows_index in walk_files(root / "rows", ".json"):
        try:
            if rows_index.is_symlink():
                raise ValueError("a link")
            listed = [str(item["entry"]) for item in _read_json(rows_index)["content"]["entries"]]
        except (OSError, ValueError, KeyError, AttributeError, TypeError):
            listed = []  # damaged: an orphan, pruned with the others
        owner = next((entry for entry in reversed(listed) if entry in live), listed[-1] if listed else "")
        indexes.setdefault(owner, []).append(rows_index)
    found = []
    for path in entries:
        relative = path.relative_to(root).as_posix()
        rows = path.with_suffix(".rows.json")
        sidecar = [rows] if rows.is_file() or rows.is_symlink() else []
        found.append(_entry("activations", [*indexes.pop(relative, []), *sidecar, path], models.get(relative),
                            used=path, root=root))
    for relative, orphans in indexes.items():  # index files whose entry is gone (or unreadable)
        found.append(_entry("activations", orphans, models.get(relative), root=root))
    return found + _unfinished("activations", root / "entries", root)


def _unfinished(kind: str, folder: Path, root: Path) -> list[CacheEntry]:
    """Temporary files left by runs killed while writing (older than :data:`UNFINISHED_AGE_S`)."""
    cutoff = time.time() - UNFINISHED_AGE_S
    return [_entry(kind, [path], root=root) for path in walk_files(folder, ".tmp")
            if path.lstat().st_mtime < cutoff]


def _layer_selection_entries(root: Path) -> list[CacheEntry]:
    found = []
    for path in sorted(root.glob("*.json")) if root.is_dir() else []:
        try:
            model = None if path.is_symlink() else _read_json(path).get("content", {}).get("model")
        except (OSError, ValueError, AttributeError):
            model = None
        found.append(_entry("layer_selection", [path], model, root=root))
    return found


def _ceiling_entries(root: Path) -> list[CacheEntry]:
    found = []
    for record in walk_files(root, ".json"):
        if record.parent.parent != root:
            continue  # the layout is <identifier>/<record>.json
        arrays = sorted(path for path in walk_files(record.parent, ".nc")
                        if path.parent == record.parent and path.name.startswith(f"{record.stem}."))
        found.append(_entry("ceilings", [record, *arrays], root=root))
    return found


#: kinds whose entries are files: a symbolic link found anywhere in their folders that no entry holds is an entry of
#: its own, pruned as the link itself (the folder kinds, data and stimuli, remove links with their folders)
_FILE_KINDS = ("activations", "layer_selection", "ceilings", "weights")


def _stray_links(kind: str, root: Path, found: list[CacheEntry]) -> list[CacheEntry]:
    """Entries of the symbolic links below ``root`` that no entry of ``found`` holds: never followed, and pruned
    as links (a link planted in a cache must not make pruning delete what it points at)."""
    held = {path for entry in found for path in entry.paths}
    links = []
    for folder, folders, files in os.walk(root, followlinks=False):
        for name in sorted([*folders, *files]):
            path = Path(folder) / name
            if path.is_symlink() and path not in held:
                links.append(_entry(kind, [path], root=root))
    return links


def cache_entries(kinds: Iterable[str] = KINDS) -> list[CacheEntry]:
    """Every entry of ``kinds`` on disk now."""
    where = locations()
    found: list[CacheEntry] = []
    for kind in kinds:
        if kind not in KINDS:
            raise ValueError(f"unknown cache kind {kind!r}; kinds: {', '.join(KINDS)}")
        for root in where[kind]:
            if kind == "activations":
                entries = _activation_entries(root)
            elif kind == "layer_selection":
                entries = _layer_selection_entries(root)
            elif kind == "ceilings":
                entries = _ceiling_entries(root)
            elif kind == "weights":
                entries = _weight_entries(root)
            else:  # data (a plugin's store, a fetched file's folder), stimuli (a placed stimulus set)
                entries = [_entry(kind, [path], root=root) for path in _children(root, folders=True)]
            found += entries + (_stray_links(kind, root, entries) if kind in _FILE_KINDS else [])
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
    folder below ``root`` is left alone with a warning (:func:`brainio.paths.linked_part`)."""
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
