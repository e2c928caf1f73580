"""Read and write assemblies as netCDF-4 (HDF5) files in Brain-Score's layout.

Layout (written and read): one data variable ``data``; every coordinate, MultiIndex levels flattened, is
a 1-D variable on its dimension (no dimension variable for dims labelled by several coordinates); text
as netCDF strings; global attributes = the assembly's scalar/text attrs (``stimulus_set_identifier``,
``identifier``, ...); attrs that are DataArrays are written as netCDF groups of the same name and read
back as :class:`~brainio.assemblies.MetadataAssembly` into ``attrs``. Reading also accepts the reference
files: variable ``__xarray_dataarray_variable__``, any dim order, legacy ``image_id`` (copied to
``stimulus_id``). Writing is deterministic: the same assembly gives the same bytes (no time stamps).
"""

from __future__ import annotations

import os
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

import h5netcdf
import h5py
import numpy as np
import pandas as pd
import xarray as xr

from ._external import EXTERNAL_EXIT_STATUS, external_data_error, refuse_external_references
from ._probe_child import describe_exit, run_probe
from .assemblies import ASSEMBLY_CLASSES, DataAssembly, MetadataAssembly, resolve_assembly_class
from .coords import flatten_indexes
from .errors import BrainIOError, NetCDFReadError
from .files import atomic_path, sha1_hash
from .linking import column_to_coord_values

__all__ = ["UNTRUSTED_TIMEOUT_S", "probe_netcdf", "read_netcdf", "write_netcdf"]

UNTRUSTED_TIMEOUT_S = 60.0
"""Seconds a child process may take to open a file that did not come through a SHA-1 check (every read but the
verified cache's)."""

_PROBE = """
import sys, h5netcdf, h5py
from brainio._external import EXTERNAL_EXIT_STATUS, external_references
with h5py.File(sys.argv[1], "r") as handle:
    found = external_references(handle)
if found:
    sys.stderr.write("\\n".join(found))
    sys.exit(EXTERNAL_EXIT_STATUS)
def visit(group):
    for variable in group.variables.values():
        variable.dimensions, variable.shape, variable.dtype, dict(variable.attrs)
    dict(group.attrs), dict(group.dimensions)
    for child in group.groups.values():
        visit(child)
with h5netcdf.File(sys.argv[1], "r") as file:
    visit(file)
"""

ENGINE = "h5netcdf"
DATA_VARIABLE = "data"
CLASS_ATTRIBUTE = "brainio_class"
COMPRESSION_LEVEL = 1  # zlib level; 1 compresses spike counts ~as well as 9 at a fraction of the time
CHUNK_BYTES = 4 << 20


def _chunks(shape: tuple[int, ...], itemsize: int) -> tuple[int, ...]:
    """Chunks that span all but the first dim, ~4 MiB each: few, large, contiguous reads."""
    if not shape:
        return ()
    row = itemsize * int(np.prod(shape[1:], dtype=np.int64))
    rows = max(1, min(shape[0], CHUNK_BYTES // max(row, 1)))
    if row > CHUNK_BYTES and len(shape) > 1:  # a single row is already large: split the second dim too
        return (1, *_chunks(shape[1:], itemsize))
    return (rows, *shape[1:])


def _serialisable_attrs(attrs: dict) -> tuple[dict, dict]:
    plain, groups = {}, {}
    for key, value in attrs.items():
        if isinstance(value, xr.DataArray):
            groups[key] = value
        elif key == "stimulus_set" or value is None or isinstance(value, (pd.DataFrame, pd.Series, dict)):
            continue  # objects (stimulus sets, ...) that are not part of the file format
        elif isinstance(value, (bool, np.bool_)):
            plain[key] = int(value)
        else:
            plain[key] = value
    return plain, groups


def _recorded_name(cls: type) -> str:
    """The name recorded as ``brainio_class``: the nearest brainio assembly class among ``cls``'s bases (a
    ``Score``, a plugin's own subclass: reading refuses names it does not know), else ``'DataAssembly'``."""
    return next((base.__name__ for base in cls.__mro__ if ASSEMBLY_CLASSES.get(base.__name__) is base), "DataAssembly")


def _to_dataset(assembly: xr.DataArray, compress: bool) -> tuple[xr.Dataset, dict, dict]:
    assembly = flatten_indexes(assembly)
    plain, groups = _serialisable_attrs(dict(assembly.attrs))
    if not isinstance(assembly, DataAssembly) or type(assembly) is not DataAssembly:
        plain.setdefault(CLASS_ATTRIBUTE, _recorded_name(type(assembly)))
    data = xr.DataArray(assembly.variable.copy(deep=False), coords=assembly.coords, name=DATA_VARIABLE)
    data.attrs = {}
    dataset = data.to_dataset()
    dataset.attrs = plain
    encoding = {}
    for name, variable in dataset.variables.items():
        variable.attrs.clear()
        if compress and variable.dtype.kind in "biuf" and variable.size:
            encoding[name] = {"zlib": True, "complevel": COMPRESSION_LEVEL, "shuffle": True,
                              "chunksizes": _chunks(variable.shape, variable.dtype.itemsize)}
    return dataset, encoding, groups


def write_netcdf(assembly: xr.DataArray, path: str | os.PathLike, *, compress: bool = True,
                 check: Callable[[Path], None] | None = None) -> str:
    """Write ``assembly`` to ``path`` atomically and return the file's SHA-1.

    Parameters
    ----------
    assembly : DataArray
        Any dims; coordinates may be plain or MultiIndex levels.
    path : path-like
        Target file; written to a temporary file in the same folder, then renamed.
    compress : bool, default=True
        zlib (with byte shuffle) on numeric variables.
    check : callable, optional
        Called with the complete temporary file before it replaces ``path``; raising leaves ``path`` as it was.

    Returns
    -------
    str
        Hex SHA-1 of the written file.
    """
    path = Path(path)
    with atomic_path(path, suffix=".nc") as temp:
        _write_tree(assembly, temp, group=None, compress=compress, label=path)
        if check is not None:
            check(temp)
    return sha1_hash(path)


def _write_tree(assembly: xr.DataArray, path: Path, group: str | None, compress: bool, label: Path) -> None:
    dataset, encoding, groups = _to_dataset(assembly, compress)
    mode = "w" if group is None else "a"
    try:
        dataset.to_netcdf(path, mode=mode, group=group, engine=ENGINE, encoding=encoding, invalid_netcdf=False)
    except (TypeError, ValueError) as error:
        where = f"{label}" + (f" group {group!r}" if group else "")
        raise type(error)(f"cannot write assembly to {where}: {error}") from error
    for name, extra in sorted(groups.items()):
        _write_tree(extra, path, group=f"{group}/{name}" if group else str(name), compress=compress, label=label)


def _list_groups(path: Path) -> list[str]:
    with h5netcdf.File(path, "r") as file:
        found: list[str] = []

        def visit(node, prefix: str) -> None:
            for name, child in node.groups.items():
                found.append(prefix + name)
                visit(child, prefix + name + "/")

        visit(file, "")
    return found


def _data_variable(dataset: xr.Dataset, path: Path) -> xr.DataArray:
    names = list(dataset.data_vars)
    if DATA_VARIABLE in names:
        return dataset[DATA_VARIABLE]
    if len(names) == 1:
        return dataset[names[0]]
    raise ValueError(f"{path} must hold exactly one data variable (or one named {DATA_VARIABLE!r}), found {names}")


def _normalise(array: xr.DataArray) -> xr.DataArray:
    """Text coordinates as fixed-width unicode, legacy ``image_id`` copied to ``stimulus_id``."""
    updates = {}
    for name, coord in array.coords.items():
        if coord.dtype == object and coord.ndim == 1:
            updates[name] = (coord.dims, column_to_coord_values(coord.values))
    if updates:
        array = array.assign_coords(updates)
    if "image_id" in array.coords and "stimulus_id" not in array.coords:
        array = array.assign_coords(stimulus_id=array["image_id"].variable)
    return array


def _read_group(path: Path, group: str | None) -> xr.DataArray:
    with xr.open_dataset(path, engine=ENGINE, group=group) as dataset:
        array = _data_variable(dataset, path).load()
        attrs = dict(dataset.attrs)
    array = _normalise(array)
    array.name = None
    array.attrs = attrs
    return array


def probe_netcdf(path: str | os.PathLike, timeout: float = UNTRUSTED_TIMEOUT_S, *,
                 cpu_seconds: float | None = None) -> None:
    """Open ``path`` in a child process that looks for references to other files, then walks every group, variable,
    dimension and attribute.

    Some damaged HDF5 files make the HDF5 library loop forever in C code that holds the GIL (Ctrl-C is
    ignored); a child process can be killed. The child dies with its caller and bounds its own CPU time
    (:mod:`brainio._probe_child`), so a caller killed mid-probe leaves nothing running.

    Parameters
    ----------
    path : path-like
    timeout : float, default=UNTRUSTED_TIMEOUT_S (60 s)
        Wall-clock seconds the child may take.
    cpu_seconds : float, optional
        CPU seconds the child may use, default=None meaning ``timeout``.

    Raises
    ------
    NetCDFReadError
        Naming the file, when the child fails, uses its CPU time or does not finish within ``timeout``.
    ExternalDataError
        The file refers to other files (:mod:`brainio._external`).
    """
    path = Path(path)
    if not path.is_file():
        raise NetCDFReadError(f"{path}: not a regular file" if path.exists() else f"{path}: no such file")
    cpu_seconds = timeout if cpu_seconds is None else cpu_seconds
    try:
        result = run_probe(_PROBE, [str(path)], timeout=timeout, cpu_seconds=cpu_seconds)
    except subprocess.TimeoutExpired:
        raise NetCDFReadError(f"{path}: opening it did not finish within {timeout:g} s; the file is damaged") from None
    if result.returncode < 0:
        raise NetCDFReadError(f"{path}: the process opening it {describe_exit(result.returncode, cpu_seconds)}; "
                              "the file is damaged")
    if result.returncode == EXTERNAL_EXIT_STATUS:
        raise external_data_error(path, result.stderr.strip().splitlines())
    if result.returncode != 0:
        last = (result.stderr.strip().splitlines() or ["unknown error"])[-1]
        raise NetCDFReadError(f"{path} cannot be read as a netCDF-4 (HDF5) file: {last}")


def read_netcdf(path: str | os.PathLike, cls: type | str | None = None, *, timeout: float | None = None,
                verified: bool = False) -> DataAssembly:
    """Read an assembly file written by brainio or by Brain-Score.

    Parameters
    ----------
    path : path-like
    cls : DataAssembly subclass or its name, optional
        Class of the result; default=None, meaning the class recorded in the file (``DataAssembly`` for
        Brain-Score files, which do not record it).
    timeout : float, optional
        Seconds the child process that opens the file first (:func:`probe_netcdf`) may take; default=None meaning
        :data:`UNTRUSTED_TIMEOUT_S` (60 s).
    verified : bool, default=False
        True only when the caller has checked the file's bytes against a SHA-1 recorded by its author (brainio's
        verified cache, a cache record's digest): the file is then opened in this process, without the child. A
        file that did not come through such a check may be damaged in ways that make the HDF5 library loop forever
        in C code, which only a child process can be stopped from; the child costs about a third of a second.

    Returns
    -------
    DataAssembly (or ``cls``) with all coordinates as plain coordinates and the file's attributes.

    Raises
    ------
    NetCDFReadError
        The file is missing, damaged, not an assembly file, its opening did not end within ``timeout``, or its
        ``brainio_class`` attribute names no assembly class (names the file and the reason).
    ExternalDataError
        The file keeps data in, or links to, other files (HDF5 external storage, external links, virtual datasets),
        which no SHA-1 covers (a :class:`NetCDFReadError`).
    """
    path = Path(path)
    if not verified:
        probe_netcdf(path, UNTRUSTED_TIMEOUT_S if timeout is None else timeout)
    try:
        return _read_assembly(path, cls)
    except BrainIOError:
        raise
    except (OSError, ValueError, KeyError, IndexError, TypeError, RuntimeError, AttributeError) as error:
        raise NetCDFReadError(f"{path} cannot be read as an assembly: {type(error).__name__}: {error}") from error


def _recorded_class(path: Path, value: Any) -> type | None:
    """The assembly class the file's ``brainio_class`` attribute names (None when absent); refused when unknown."""
    if value is None:
        return None
    try:
        return resolve_assembly_class(value)
    except (KeyError, TypeError, ValueError):
        raise NetCDFReadError(f"{path}: its attribute {CLASS_ATTRIBUTE!r} names no assembly class: {value!r}") from None


def _read_assembly(path: Path, cls: type | str | None) -> DataAssembly:
    with h5py.File(path, "r") as handle:  # not HDF5: fail here, before h5netcdf's File half-builds and complains
        refuse_external_references(handle, path)  # before any value is read
    array = _read_group(path, None)
    recorded = _recorded_class(path, array.attrs.pop(CLASS_ATTRIBUTE, None))
    target = resolve_assembly_class(cls) if cls is not None else recorded or DataAssembly
    extras: dict[str, Any] = {}
    for group in _list_groups(path):
        extras[group] = _read_group(path, group)
        extras[group].attrs.pop(CLASS_ATTRIBUTE, None)
    for group in sorted(extras, key=lambda g: -g.count("/")):  # nest deepest first
        parent, _, name = group.rpartition("/")
        value = MetadataAssembly(extras[group])
        if parent:
            extras[parent].attrs[name] = value
        else:
            array.attrs[name] = value
    return target(array)
