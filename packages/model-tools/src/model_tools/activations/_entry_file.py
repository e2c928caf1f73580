"""One entry file of the activations cache (:mod:`model_tools.activations.cache`): where a cached layer lies, the
stimuli of an entry's rows, writing an entry's rows into its netCDF-4 file, and reading the file's layout.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from brainio.records import read_record

#: Name of the activations variable in an entry file.
VARIABLE = "activations"

@dataclass(frozen=True)
class CachedLayer:
    """Where one cached layer lies: columns ``start:stop`` of the ``activations`` variable of ``entry``.

    ``offset`` is the byte offset of that variable's (contiguous) data in the file, ``shape`` its
    (presentation, neuroid) shape.
    """

    entry: Path
    offset: int
    shape: tuple[int, int]
    start: int
    stop: int

    @property
    def width(self) -> int:
        return self.stop - self.start


@dataclass(frozen=True)
class RowContent:
    """What a new entry's rows show, for requests that share stimuli with it.

    Attributes
    ----------
    keys : mapping of str -> str
        Per layer, its content key (model, weights, preprocessing, reduction and layer; no stimuli).
    digests : sequence of str
        Per row, the content digest of its stimulus.
    """

    keys: Mapping[str, str]
    digests: Sequence[str] = field(repr=False)


class EntryWriter:
    """A new entry being filled in place: a temporary netCDF file whose ``activations`` bytes are written
    either row blocks at a time (:meth:`write_rows`) or through a memory map (:attr:`values`).

    Attributes
    ----------
    columns : dict of str -> (int, int)
        Column range of each layer, in request order.
    """

    def __init__(self, temporary: Path, path: Path, offset: int, shape: tuple[int, int],
                 columns: dict[str, tuple[int, int]]):
        self.temporary = temporary
        self.path = path
        self.offset = offset
        self.shape = shape
        self.columns = columns
        self._values: np.memmap | None = None
        self._descriptor: int | None = None

    @property
    def values(self) -> np.memmap:
        """Read-write map of the variable's bytes, shape (presentation, neuroid), float32."""
        if self._values is None:
            self._values = np.memmap(self.temporary, dtype=np.float32, mode="r+", offset=self.offset,
                                     shape=self.shape)
        return self._values

    def write_rows(self, start: int, rows: np.ndarray) -> None:
        """Write whole rows ``start:start + len(rows)`` (float32, all columns) with one positioned write.

        Whole rows are contiguous in the file, so a batch goes in as one ``pwrite`` into the page cache,
        without the page faults of writing through a fresh memory map.
        """
        if rows.shape[1:] != self.shape[1:] or rows.dtype != np.float32 or not rows.flags.c_contiguous:
            raise ValueError(f"rows of shape {rows.shape} ({rows.dtype}) do not fit entry columns {self.shape[1]}")
        if self._descriptor is None:
            self._descriptor = os.open(self.temporary, os.O_WRONLY)
        data = memoryview(rows).cast("B")
        position = self.offset + 4 * self.shape[1] * int(start)
        while len(data):
            written = os.pwrite(self._descriptor, data, position)
            data, position = data[written:], position + written

    def close(self) -> None:
        """Drop the map and the descriptor (written pages reach the file through the page cache)."""
        self._values = None
        if self._descriptor is not None:
            os.close(self._descriptor)
            self._descriptor = None


def _create_entry_file(path: Path, count: int, widths: Mapping[str, int], attrs: Mapping[str, Any]) -> int:
    """Write a netCDF-4 file whose ``activations`` variable is allocated but not written; return its offset.

    Early allocation gives the contiguous variable its place (and offset) in the file at once; with fill time
    "never" the library writes nothing there, so the file is sparse until the caller fills it.
    """
    import h5netcdf
    import h5py
    from h5py import h5d, h5p

    bounds = np.cumsum([0, *widths.values()], dtype=np.int64)
    dcpl = h5p.create(h5p.DATASET_CREATE)
    dcpl.set_alloc_time(h5d.ALLOC_TIME_EARLY)
    dcpl.set_fill_time(h5d.FILL_TIME_NEVER)
    with h5netcdf.File(path, "w") as handle:
        handle.dimensions = {"presentation": count, "neuroid": int(bounds[-1]), "layer": len(widths)}
        handle.create_variable("layer", ("layer",), dtype=h5py.string_dtype(),
                               data=np.asarray(list(widths), dtype=object))
        handle.create_variable("layer_start", ("layer",), data=bounds[:-1])
        handle.create_variable("layer_stop", ("layer",), data=bounds[1:])
        variable = handle.create_variable(VARIABLE, ("presentation", "neuroid"), dtype=np.float32, dcpl=dcpl)
        for name, value in attrs.items():
            variable.attrs[name] = value
    layout = _entry_layout(path)
    if layout is None or layout[1] != (count, int(bounds[-1])):
        raise OSError(f"{path}: HDF5 did not lay out the activations variable contiguously ({layout})")
    return layout[0]


#: rows files read in this process: path -> ((size, mtime_ns), {digest: first row})
_ROWS_READ: dict[Path, tuple[tuple[int, int], dict[str, int]]] = {}


def _rows_found(rows_file: Path, digests: Sequence[str]) -> np.ndarray | None:
    """The row of each of ``digests`` in the entry of ``rows_file`` (-1 where the entry lacks it), or None when the
    file cannot be read."""
    try:
        status = rows_file.stat()
    except OSError:
        return None
    stamp = (status.st_size, status.st_mtime_ns)
    known = _ROWS_READ.get(rows_file)
    if known is None or known[0] != stamp:
        record = read_record(rows_file, "activations rows file")
        listed = record.get("digests") if isinstance(record, dict) else None
        if not isinstance(listed, list):
            return None
        positions: dict[str, int] = {}
        for row, digest in enumerate(listed):
            positions.setdefault(str(digest), row)
        known = (stamp, positions)
        if len(_ROWS_READ) > 256:
            _ROWS_READ.clear()
        _ROWS_READ[rows_file] = known
    positions = known[1]
    return np.fromiter((positions.get(digest, -1) for digest in digests), dtype=np.int64, count=len(digests))


def _rows_of(rows_file: Path, digests: Sequence[str]) -> np.ndarray | None:
    """The row of each of ``digests`` in the entry of ``rows_file``, or None when one is missing (or the file is)."""
    rows = _rows_found(rows_file, digests)
    return None if rows is None or (rows < 0).any() else rows


def _entry_layout(path: Path) -> tuple[int, tuple[int, int]] | None:
    """(offset, shape) of an entry's contiguous float32 ``activations`` variable; None if it cannot be mapped."""
    import h5py

    try:
        with h5py.File(path, "r", locking=False) as handle:
            dataset = handle.get(VARIABLE)
            if dataset is None or dataset.ndim != 2 or dataset.dtype != np.float32 or dataset.chunks is not None:
                return None
            offset = dataset.id.get_offset()
            shape = (int(dataset.shape[0]), int(dataset.shape[1]))
    except OSError:  # missing, truncated, not HDF5
        return None
    if offset is None or os.path.getsize(path) < offset + 4 * shape[0] * shape[1]:
        return None
    return int(offset), shape
