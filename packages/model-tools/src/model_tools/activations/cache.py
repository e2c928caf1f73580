"""Content-addressed on-disk cache of activations: one netCDF-4 entry per extraction run, one index file per layer.

Layout under the root (default ``$BRAINSCORE_HOME/activations``):

* ``entries/<base[:2]>/<base>.<random>.nc``: one netCDF-4 (HDF5) file per extraction run. Its variable
  ``activations`` (presentation x neuroid, float32, contiguous, uncompressed) holds every layer computed in
  that run side by side, in request order; the variables ``layer_start`` and ``layer_stop`` along the
  dimension ``layer`` (coordinate ``layer``: the layer names) give each layer's columns. Any netCDF reader
  opens it (``xarray.open_dataset(path, engine='h5netcdf')``).
* ``index/<key[:2]>/<key>.json``: one small file per layer key: the entry (relative to the root) and the
  layer's column range in it.
* ``entries/<base[:2]>/<base>.<random>.rows.json``: the content digest of each row's stimulus (a record), so that
  another request showing some of the same stimuli can read their rows from this entry.
* ``rows/<key[:2]>/<key>.json``: per layer *content key* (the model, weights, preprocessing, reduction and layer,
  without the stimuli) the entries that hold that layer, with their rows files: a request whose exact key misses
  but whose every stimulus has a row in one of them is answered from it (rows gathered, nothing computed).
* ``locks/<base>.lock``: a file lock serialising writers of one base key (``rows-<key>.lock`` for a rows index).

Nothing is ever half-written: an entry is filled in a temporary file in the same folder and renamed into place
(``os.replace``), and the index files, each written the same way, only after that. A killed run leaves at most
a ``*.tmp`` file; an index that names a missing or unreadable entry is a miss, never an error, and so is one that names
a file outside the cache (``../../x.nc``, an absolute path, a link out: brainio's path rule, warned). Entries are
never overwritten (each run's file name is new), so a reader's memory map never sees a file change under it.
No pickle anywhere. How ``brainscore cache`` lists and prunes this layout: :mod:`model_tools.publications`.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import uuid
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
from filelock import FileLock

from brainio.errors import PathOutsideRootError
from brainio.paths import path_inside
from brainio.records import read_record, write_record
from model_tools.activations._entry_file import (
    CachedLayer,
    EntryWriter,
    RowContent,
    _create_entry_file,
    _entry_layout,
    _rows_found,
)

_logger = logging.getLogger(__name__)
#: rows of one cached layer: (where the layer lies, the entry's row per piece or None, the request positions or None)
RowsPart = tuple[CachedLayer, np.ndarray | None, np.ndarray | None]
_NOTICED: set[Path] = set()  # cache folders whose size was already noticed in this process


def cache_size(directory: Path) -> int:
    """Bytes of the complete entry files under ``directory/entries``."""
    total = 0
    for folder, _, files in os.walk(directory / "entries"):
        for name in files:
            if name.endswith(".nc"):
                with contextlib.suppress(OSError):
                    total += os.stat(os.path.join(folder, name)).st_size
    return total


def notice_cache_size(directory: Path) -> bool:
    """Log one line (once per process and folder) when the cache holds more than the configured threshold
    (:func:`model_tools.settings.activation_cache_notice_bytes`, default 5 GB); returns whether it did."""
    from brainscore_core.memory_plan import format_bytes
    from model_tools.settings import activation_cache_notice_bytes

    threshold = activation_cache_notice_bytes()
    if threshold is None or directory in _NOTICED:
        return False
    size = cache_size(directory)
    if size <= threshold:
        return False
    _NOTICED.add(directory)
    _logger.warning("the activation cache %s holds %s (notice above %s, $BRAINSCORE_CACHE_NOTICE_GB): `brainscore "
                    "cache` shows every cache's size; `brainscore cache prune --kind activations --max-size %s` "
                    "deletes the least recently used entries", directory, format_bytes(size), format_bytes(threshold),
                    format_bytes(threshold).replace(" ", "").replace(".0", ""))
    return True


def default_cache_root() -> Path:
    """``$BRAINSCORE_HOME/activations`` (``BRAINSCORE_HOME`` defaults to ``~/.brain-score``)."""
    from brainscore_core.config import brainscore_home

    return brainscore_home() / "activations"


def caching_enabled(parameter: bool | None = None) -> bool:
    """Whether to use the cache: ``parameter`` if given, else off when env ``RESULTCACHING_DISABLE`` is set.

    ``RESULTCACHING_DISABLE`` (same name as the reference) disables it when it is ``1``/``true`` or names
    ``model_tools`` / ``activations`` in a comma-separated list.
    """
    if parameter is not None:
        return bool(parameter)
    from brainscore_core.config import caching_enabled as configured

    return configured("activations", "model_tools")



class ActivationsCache:
    """Entries, per-layer index files and locks under one root folder (see the module docstring).

    Parameters
    ----------
    root : path-like, default=None
        None means :func:`default_cache_root` at the time of use.
    """

    def __init__(self, root: str | os.PathLike | None = None):
        self.root = root

    @property
    def directory(self) -> Path:
        return Path(self.root) if self.root is not None else default_cache_root()

    def index_path(self, key: str) -> Path:
        return self.directory / "index" / key[:2] / f"{key}.json"

    def rows_index_path(self, content_key: str) -> Path:
        return self.directory / "rows" / content_key[:2] / f"{content_key}.json"

    def entries(self) -> list[Path]:
        """Every complete entry file (temporary files excluded), sorted."""
        folder = self.directory / "entries"
        return sorted(folder.rglob("*.nc")) if folder.is_dir() else []

    def inside(self, name: object, what: str) -> Path | None:
        """``directory / name`` when a record's ``name`` lies inside the cache (:func:`brainio.paths.path_inside`),
        else None with a warning naming the name and the folder: a record is never trusted to point elsewhere."""
        try:
            return path_inside(self.directory, str(name), what=what)
        except PathOutsideRootError as error:
            _logger.warning("activations cache: %s; treated as a miss", error)
            return None

    def lock(self, name: str, timeout: float = -1) -> FileLock:
        """A file lock serialising writers of ``name`` across processes."""
        folder = self.directory / "locks"
        folder.mkdir(parents=True, exist_ok=True)
        return FileLock(str(folder / f"{name}.lock"), timeout=timeout)

    # -- reading --------------------------------------------------------------------------------------------
    def locate(self, keys: Mapping[str, str], rows: int) -> dict[str, CachedLayer]:
        """The cached layers among ``keys`` (layer -> key) whose entry exists and has ``rows`` presentations.

        Missing layers are left out: no index file, an index naming a missing or unreadable entry, or a column
        range outside the entry are all misses. Each entry's header is read once.
        """
        layouts: dict[Path, tuple[int, tuple[int, int]] | None] = {}
        found = {}
        for layer, key in keys.items():
            record = read_record(self.index_path(key), "activations index")  # damaged: a miss, warned
            try:
                entry = self.inside(record["entry"], f"activations index entry (of {self.index_path(key).name})")
                start, stop = int(record["start"]), int(record["stop"])
            except (ValueError, KeyError, TypeError):
                continue
            if entry is None:
                continue
            if entry not in layouts:
                layouts[entry] = _entry_layout(entry)
            layout = layouts[entry]
            if layout is None or layout[1][0] != rows or not 0 <= start <= stop <= layout[1][1]:
                continue
            found[layer] = CachedLayer(entry, layout[0], layout[1], start, stop)
        return found

    @staticmethod
    def map_entry(layer: CachedLayer) -> np.memmap:
        """The whole ``activations`` variable of ``layer``'s entry, mapped copy-on-write.

        Pages are read when touched; writing into the array changes only the caller's memory, never the file.
        """
        return np.memmap(layer.entry, dtype=np.float32, mode="c", offset=layer.offset, shape=layer.shape)

    def load(self, layers: Sequence[CachedLayer]) -> np.ndarray:
        """Cached layers side by side, in order: an array of shape (presentation, sum of widths), float32.

        When all layers lie adjacent and in this order in one entry, the result is a view of that entry's
        copy-on-write map (the whole map, or a strided column slice of it): nothing is copied or read until
        touched. Otherwise the columns are copied once into one new array (adjacent runs in one block).
        """
        first = layers[0]
        adjacent = all(after.entry == first.entry and after.start == before.stop
                       for before, after in zip(layers, layers[1:]))
        if adjacent:
            return np.asarray(self.map_entry(first)[:, first.start:layers[-1].stop])
        runs: list[list[Any]] = []  # [entry layer, start, stop]: adjacent columns of one entry merged
        for layer in layers:
            if runs and runs[-1][0].entry == layer.entry and runs[-1][2] == layer.start:
                runs[-1][2] = layer.stop
            else:
                runs.append([layer, layer.start, layer.stop])
        values = np.empty((first.shape[0], sum(layer.width for layer in layers)), dtype=np.float32)
        maps: dict[Path, np.memmap] = {}
        column = 0
        for layer, start, stop in runs:
            if layer.entry not in maps:
                maps[layer.entry] = self.map_entry(layer)
            values[:, column:column + stop - start] = maps[layer.entry][:, start:stop]
            column += stop - start
        return values

    def locate_rows(self, content_keys: Mapping[str, str], digests: Sequence[str]
                    ) -> tuple[dict[str, list[RowsPart]], dict[str, np.ndarray]]:
        """Where earlier entries hold the rows of ``digests`` (one content digest per requested row, duplicates
        allowed), per layer of ``content_keys`` (layer -> content key): each requested row from the newest entry
        that holds its stimulus, so the rows may come from several entries.

        Returns ``(found, missing)``: ``found[layer]`` is a list of ``(cached layer, entry rows, request
        positions)`` for a layer every requested row of which is held; ``missing[layer]`` is the boolean mask of
        the requested rows no entry holds, for the other layers. Unreadable entries and rows files are skipped.
        """
        wanted = [str(digest) for digest in digests]
        found: dict[str, list[RowsPart]] = {}
        missing: dict[str, np.ndarray] = {}
        layouts: dict[Path, tuple[int, tuple[int, int]] | None] = {}
        for layer, content_key in content_keys.items():
            record = read_record(self.rows_index_path(content_key), "activations rows index") or {}
            open_rows = np.ones(len(wanted), dtype=bool)
            parts: list[RowsPart] = []
            width = None
            for listed in reversed(record.get("entries", [])):
                try:
                    entry = self.inside(listed["entry"], "activations rows index entry")
                    rows_file = self.inside(listed["rows"], "activations rows index rows file")
                    start, stop = int(listed["start"]), int(listed["stop"])
                except (KeyError, TypeError, ValueError):
                    continue
                if entry is None or rows_file is None:
                    continue
                rows = _rows_found(rows_file, wanted)
                if rows is None:
                    continue
                take = open_rows & (rows >= 0)
                if not take.any():
                    continue
                if entry not in layouts:
                    layouts[entry] = _entry_layout(entry)
                layout = layouts[entry]
                if (layout is None or not 0 <= start <= stop <= layout[1][1] or int(rows.max()) >= layout[1][0]
                        or (width is not None and stop - start != width)):
                    continue
                width = stop - start
                positions = np.flatnonzero(take)
                parts.append((CachedLayer(entry, layout[0], layout[1], start, stop), rows[positions], positions))
                open_rows &= ~take
                if not open_rows.any():
                    break
            if open_rows.any():
                missing[layer] = open_rows
            else:
                found[layer] = parts
        return found, missing

    def load_parts(self, parts: Sequence[Sequence[RowsPart]], count: int) -> np.ndarray:
        """Layers side by side in one new array of shape (count, sum of widths), float32: each layer is a list of
        ``(cached layer, entry rows, request positions)`` pieces (``None`` rows: the entry's rows in order; ``None``
        positions: every requested row)."""
        widths = [pieces[0][0].width for pieces in parts]
        values = np.empty((count, sum(widths)), dtype=np.float32)
        maps: dict[Path, np.memmap] = {}
        column = 0
        for pieces, width in zip(parts, widths, strict=True):
            for layer, rows, positions in pieces:
                if layer.entry not in maps:
                    maps[layer.entry] = self.map_entry(layer)
                source = maps[layer.entry]
                block = source[:, layer.start:layer.stop] if rows is None else source[rows, layer.start:layer.stop]
                if positions is None:
                    values[:, column:column + width] = block
                else:
                    values[positions, column:column + width] = block
            column += width
        return values

    # -- writing --------------------------------------------------------------------------------------------
    def new_entry(self, base: str, count: int, widths: Mapping[str, int],
                  attrs: Mapping[str, Any] | None = None) -> EntryWriter:
        """A new entry for layers of ``widths`` (layer -> n_features, in order), to be filled then committed.

        Parameters
        ----------
        base : str
            The activations key without layers (names the entry file and its folder).
        count : int
            Number of presentations (rows).
        widths : mapping of str -> int
            Features per layer; layers are laid out side by side in this order.
        attrs : mapping, default=None
            netCDF attributes of the ``activations`` variable (str, numbers or lists of them).
        """
        folder = self.directory / "entries" / base[:2]
        folder.mkdir(parents=True, exist_ok=True)
        stem = f"{base}.{uuid.uuid4().hex[:12]}"
        temporary = folder / f".{stem}.{os.getpid()}.tmp"
        try:
            offset = _create_entry_file(temporary, count, widths, dict(attrs or {}))
        except BaseException:
            self._unlink(temporary)
            raise
        bounds = np.cumsum([0, *widths.values()]).tolist()
        columns = {layer: (bounds[i], bounds[i + 1]) for i, layer in enumerate(widths)}
        return EntryWriter(temporary, folder / f"{stem}.nc", offset, (count, int(bounds[-1])), columns)

    def commit(self, writer: EntryWriter, keys: Mapping[str, str], description: Mapping[str, Any], *,
               content: RowContent | None = None) -> None:
        """Rename the filled entry into place, then write one index file per layer (layer -> key in ``keys``) and,
        with ``content``, the entry's rows file and its line in each layer's rows index (so that later requests
        showing some of these stimuli find them)."""
        writer.close()
        rows_file = writer.path.with_name(writer.path.name[:-len(".nc")] + ".rows.json")
        if content is not None:
            write_record(rows_file, {"digests": list(content.digests)})
        os.replace(writer.temporary, writer.path)
        relative = writer.path.relative_to(self.directory).as_posix()
        for layer, (start, stop) in writer.columns.items():
            record = {**description, "layer": layer, "entry": relative, "start": start, "stop": stop}
            write_record(self.index_path(keys[layer]), json.loads(json.dumps(record, default=str)))
        notice_cache_size(self.directory)
        if content is None:
            return
        rows_relative = rows_file.relative_to(self.directory).as_posix()
        for layer, (start, stop) in writer.columns.items():
            content_key = content.keys[layer]
            with self.lock(f"rows-{content_key}"):
                path = self.rows_index_path(content_key)
                listed = (read_record(path, "activations rows index") or {}).get("entries", [])
                listed = [item for item in listed if isinstance(item, dict) and item.get("entry")
                          and (entry := self.inside(item["entry"], "activations rows index entry")) is not None
                          and entry.is_file()]  # deleted (or planted) entries leave
                listed.append({"entry": relative, "rows": rows_relative, "start": start, "stop": stop})
                write_record(path, {"entries": listed})

    def discard(self, writer: EntryWriter | None) -> None:
        """Remove an uncommitted entry's temporary file (nothing happens after :meth:`commit`)."""
        if writer is not None:
            writer.close()
            self._unlink(writer.temporary)

    @staticmethod
    def _unlink(path: Path) -> None:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(path)
