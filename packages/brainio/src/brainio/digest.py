"""Content digests (hex SHA-1) of assemblies and stimulus sets, stable across runs and processes."""

from __future__ import annotations

import hashlib

import numpy as np
import pandas as pd
import xarray as xr

from .coords import flatten_indexes, walk_coords
from .files import remembered_sha1_hash
from .linking import column_to_coord_values

__all__ = ["assembly_digest", "stimulus_set_digest"]


def _array_bytes(values: np.ndarray) -> bytes:
    values = np.asarray(values)
    if values.dtype == object:
        values = column_to_coord_values(values)
    if values.dtype == object:  # mixed types: their text
        return "\x1f".join(repr(v) for v in values.ravel().tolist()).encode()
    if values.dtype.kind == "U":
        return "\x1f".join(values.ravel().tolist()).encode()
    if values.dtype.kind == "M":
        values = values.astype("datetime64[ns]").view(np.int64)
    return np.ascontiguousarray(values).tobytes()


def _update(digest, label: str, values: np.ndarray) -> None:
    values = np.asarray(values)
    kind = "U" if values.dtype.kind in "OU" else values.dtype.str
    digest.update(f"\x1e{label}|{kind}|{values.shape}|".encode())
    digest.update(_array_bytes(values))


def assembly_digest(assembly: xr.DataArray) -> str:
    """SHA-1 over dims, values (dtype, shape, bytes) and every coordinate (name, dims, values).

    Independent of coordinate storage (plain or MultiIndex) and coordinate order; attrs are not included.
    """
    assembly = flatten_indexes(assembly)
    digest = hashlib.sha1()
    digest.update(repr(tuple(map(str, assembly.dims))).encode())
    _update(digest, "__values__", assembly.values)
    for name, dims, values in sorted(walk_coords(assembly), key=lambda item: str(item[0])):
        _update(digest, f"{name}{tuple(map(str, dims))}", values)
    return digest.hexdigest()


def stimulus_set_digest(stimulus_set: pd.DataFrame) -> str:
    """SHA-1 over the metadata (columns and values in row order) and the bytes of every stimulus file.

    Files are hashed through ``stimulus_paths`` in row order; rows without a path contribute their id only. A file's
    digest is remembered per file identity and stamp (:func:`brainio.files.remembered_sha1_hash`), so digesting an
    unchanged set again costs one ``stat`` per file.
    """
    digest = hashlib.sha1()
    for column in stimulus_set.columns:
        _update(digest, str(column), stimulus_set[column].to_numpy())
    paths = getattr(stimulus_set, "stimulus_paths", None) or {}
    if "stimulus_id" in stimulus_set.columns:
        for stimulus_id in stimulus_set["stimulus_id"].tolist():
            path = paths.get(stimulus_id)
            digest.update(f"\x1e{stimulus_id}:{remembered_sha1_hash(path) if path is not None else ''}".encode())
    return digest.hexdigest()
