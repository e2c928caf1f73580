"""What model-tools writes to disk and what it reads from the environment, published for ``brainscore cache`` and
``brainscore config`` (entry-point groups ``brainscore_caches`` and ``brainscore_settings``:
``brainscore_core.package_hooks``).

The cache layouts listed here are the ones this package writes (moved here from brainscore-vision, which described
them before issue 44):

* ``activations`` (:mod:`model_tools.activations.cache`): ``entries/**/<key>.<run>.nc`` with its
  ``<key>.<run>.rows.json`` (the stimuli of its rows), ``index/**/<key>.json`` records whose content names the
  ``entry`` and the ``model``, and ``rows/**/<content key>.json`` records listing the entries that hold one layer. One
  entry is an ``.nc`` file with its rows file and the index files that point at it; the index files go first when
  deleting (an index naming a missing file is a cache miss). A rows record belongs to the newest live entry it lists:
  pruning that entry removes it, and the other entries it listed are then found by their exact keys only. Index files
  whose entry is gone (or unreadable) are an entry of their own, and so is a temporary (``*.tmp``) of a run killed
  mid-write once it is :data:`UNFINISHED_AGE_S` old. An entry's last use is that of its ``.nc`` file.
* ``layer_selection`` (:mod:`model_tools.brain_transformation.layer_selection`): one JSON record per choice, whose
  content names the ``model``.
* ``weights`` (:mod:`model_tools.zoo.weights`): one file per checkpoint in ``$BRAINSCORE_HOME/weights``.

Listing reads the JSON records without updating their access times where the system allows (``O_NOATIME``): listing
the caches is not using them. Light on purpose: neither torch nor numpy is imported.
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path
from typing import Any

from brainscore_core.caches import CacheEntry, CacheKind, entry_of
from brainscore_core.package_hooks import Setting
from model_tools import settings

__all__ = ["UNFINISHED_AGE_S", "activation_entries", "layer_selection_entries", "published_caches",
           "published_settings"]

UNFINISHED_AGE_S = 3600
"""A temporary file (``*.tmp``) of a run killed mid-write counts as an entry once it is this old."""


def _read_json(path: Path) -> Any:
    """A JSON file's content, read without updating its access time where the system allows."""
    try:
        descriptor = os.open(path, os.O_RDONLY | getattr(os, "O_NOATIME", 0))
    except PermissionError:  # O_NOATIME needs the file's owner
        descriptor = os.open(path, os.O_RDONLY)
    with os.fdopen(descriptor, encoding="utf-8") as file:
        return json.load(file)


def _unreadable(path: Path) -> bool:
    return path.is_symlink()  # never read through a link: it is an orphan, pruned as the link itself


def activation_entries(root: Path) -> list[CacheEntry]:
    """The activation cache's entries under ``root`` (the layout in the module docstring)."""
    from brainio.paths import walk_files

    indexes: dict[str, list[Path]] = {}
    models: dict[str, str] = {}
    for index in walk_files(root / "index", ".json"):
        try:
            if _unreadable(index):
                raise ValueError("a link")
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
            if _unreadable(rows_index):
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
        found.append(entry_of("activations", [*indexes.pop(relative, []), *sidecar, path], models.get(relative),
                              used=path, root=root))
    for relative, orphans in indexes.items():  # index files whose entry is gone (or unreadable)
        found.append(entry_of("activations", orphans, models.get(relative), root=root))
    cutoff = time.time() - UNFINISHED_AGE_S  # temporaries left by runs killed while writing
    found += [entry_of("activations", [path], root=root) for path in walk_files(root / "entries", ".tmp")
              if path.lstat().st_mtime < cutoff]
    return found


def layer_selection_entries(root: Path) -> list[CacheEntry]:
    """One entry per layer choice (``<key>.json``), with the model its record names."""
    found = []
    for path in sorted(root.glob("*.json")) if root.is_dir() else []:
        try:
            model = None if path.is_symlink() else _read_json(path).get("content", {}).get("model")
        except (OSError, ValueError, AttributeError):
            model = None
        found.append(entry_of("layer_selection", [path], model, root=root))
    return found


def _home() -> Path:
    from brainscore_core.config import brainscore_home

    return brainscore_home()


def _weight_files(root: Path) -> list[dict]:
    from brainio.cache import verified_files  # the same rule: locks and hidden temporaries are bookkeeping

    return verified_files(root)


def _activation_notice() -> list[str]:
    from brainscore_core.memory_plan import format_bytes

    threshold = settings.activation_cache_notice_bytes()
    return [f"a notice is printed when the activation cache passes {format_bytes(threshold)} "
            f"(${settings.CACHE_NOTICE_ENV})" if threshold else "the activation cache notice is off"]


def published_caches() -> list[CacheKind]:
    """Activations, layer choices and the zoo's weight files."""
    return [
        CacheKind("activations", lambda: [_home() / "activations"], activation_entries,
                  description="one extraction run's .nc file with the index files that point at it (records its model)",
                  notes=_activation_notice),
        CacheKind("layer_selection", lambda: [_home() / "layer_selection"], layer_selection_entries,
                  description="one region's layer choice (records its model)"),
        CacheKind("weights", lambda: [_home() / "weights"], _weight_files, pruned_by_default=False,
                  description="one checkpoint of the model zoo"),
    ]


def published_settings() -> list[Setting]:
    """Every variable :mod:`model_tools.settings` reads."""
    return [
        Setting("cache_notice_gb", (settings.CACHE_NOTICE_ENV,), f"{settings.DEFAULT_CACHE_NOTICE_GB:g}",
                "activation-cache size (GB) above which one notice says so (0 or a false word: never)",
                lambda: (settings.activation_cache_notice_bytes() or 0) / 1024**3 or "off", option="cache_notice_gb"),
        Setting("reuse_memory", (settings.REUSE_MEMORY_ENV,), "on", "model-tools keeps freed memory for the next "
                "batch (glibc; a flag)", settings.reuse_memory_enabled),
        Setting("malloc_tuned", (*settings.MALLOC_SETTINGS, "GLIBC_TUNABLES"), "untuned", "the user tuned malloc "
                "(GLIBC_TUNABLES naming malloc): model-tools leaves it alone",
                lambda: "tuned by the user" if settings.malloc_tuned_by_user() else "untuned"),
        Setting("torch_hub", ("TORCH_HOME", "XDG_CACHE_HOME"), "~/.cache/torch/hub", "torch hub's folder, where "
                "model-tools also looks for weight files", settings.torch_hub_dir),
    ]
