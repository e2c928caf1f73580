"""On-disk cache of benchmark ceilings, keyed by benchmark identifier, version and a digest of the data.

Layout: ``$BRAINSCORE_HOME/ceilings/<identifier>/v<version>-<data digest>.json``. The JSON holds the
value (a number, for a 0-d ceiling) and the attrs that are plain numbers/strings; array-valued attrs
(e.g. ``raw`` per-split values: DataArrays, and numeric numpy arrays, read back as numpy arrays) and non-0-d
values stay in the JSON too when they are small (at most :data:`INLINE_LIMIT` elements, numbers or strings, no
MultiIndex: they read back identical), else go to netCDF files beside it, whose sha1 the JSON records; lists of
plain values (e.g. subject names) stay in the JSON; other attrs are not kept. Every file is written to a temporary name and renamed; the JSON is written last, so a reader
that finds it finds complete files. Nothing is pickled.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import re
import warnings
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import xarray as xr

from brainio.errors import PathOutsideRootError
from brainio.files import atomic_write, sha1_hash
from brainio.paths import path_inside
from brainio.records import content_sha1
from brainscore_core.config import brainscore_home
from brainscore_core.score import Score

__all__ = ["CeilingCache", "caching_disabled", "data_digest"]

#: arrays of at most this many elements (values and each coordinate) are kept in the JSON record: a netCDF file costs
#: about 7 ms to write (Scialom2024's 24 ceilings: 0.18 s) where the record's few lines cost nothing
INLINE_LIMIT = 4096
FORMAT = 3  # 2: records carry a sha1 of their own content; 3: numeric-array and list attrs kept (older records
#    lack them, so they are misses and the ceiling is computed again)


def caching_disabled() -> bool:
    """True when the ceiling cache is off (:func:`brainscore_core.config.caching_enabled`): env
    ``RESULTCACHING_DISABLE`` is ``1``/``true`` or names ``ceiling``, or ``set_options(caching=False)``."""
    from brainscore_core.config import caching_enabled

    return not caching_enabled("ceiling", "brainscore_core")


def data_digest(data: Any) -> str:
    """Hex sha1 identifying the content of ``data``.

    ``data`` may be a callable (called first), a DataArray (``brainio.digest.assembly_digest``), a
    DataFrame / StimulusSet (``brainio.digest.stimulus_set_digest``), a string or bytes (hashed as is,
    e.g. a file's sha1), a number, or a list/tuple/dict of these.
    """
    if callable(data) and not isinstance(data, (xr.DataArray, pd.DataFrame)):
        data = data()
    sha1 = hashlib.sha1()
    _update(sha1, data)
    return sha1.hexdigest()


def _update(sha1: Any, data: Any) -> None:
    if isinstance(data, xr.DataArray):
        from brainio.digest import assembly_digest
        sha1.update(b"assembly:" + assembly_digest(data).encode())
    elif isinstance(data, pd.DataFrame):
        from brainio.digest import stimulus_set_digest
        sha1.update(b"stimulus_set:" + stimulus_set_digest(data).encode())
    elif isinstance(data, bytes):
        sha1.update(b"bytes:" + data)
    elif isinstance(data, str):
        sha1.update(b"str:" + data.encode())
    elif isinstance(data, (bool, int, float, np.number)):
        sha1.update(f"number:{data!r}".encode())
    elif isinstance(data, np.ndarray):
        sha1.update(f"array:{data.dtype.str}:{data.shape}".encode() + np.ascontiguousarray(data).tobytes())
    elif isinstance(data, dict):
        sha1.update(b"dict:")
        for key in sorted(data, key=str):
            _update(sha1, str(key))
            _update(sha1, data[key])
    elif isinstance(data, (list, tuple)):
        sha1.update(f"sequence:{len(data)}".encode())
        for item in data:
            _update(sha1, item)
    else:
        raise TypeError(f"cannot compute a content digest of {type(data).__name__}; pass an assembly, a "
                        f"stimulus set, a string (e.g. a file sha1) or a list of these as ceiling_data")


def _safe_name(identifier: str) -> str:
    name = re.sub(r"[^A-Za-z0-9._-]", "_", str(identifier)).lstrip(".")
    return name or "_"


def _plain(value: Any) -> Any:
    """JSON-ready value, or None when it is not a plain number/string/bool."""
    if isinstance(value, (bool, np.bool_)):
        return bool(value)
    if isinstance(value, (int, np.integer)):
        return int(value)
    if isinstance(value, (float, np.floating)):
        return float(value) if math.isfinite(value) else str(float(value))
    if isinstance(value, str):
        return value
    return None


class CeilingCache:
    """Ceilings on disk under ``directory`` (default ``$BRAINSCORE_HOME/ceilings``)."""

    def __init__(self, directory: str | os.PathLike | None = None):
        self.directory = Path(directory) if directory is not None else brainscore_home() / "ceilings"

    def path(self, identifier: str, version: Any, digest: str) -> Path:
        return self.directory / _safe_name(identifier) / f"v{_safe_name(str(version))}-{digest}.json"

    def load(self, identifier: str, version: Any, digest: str) -> Score | None:
        """The cached ceiling, or None when absent, unreadable or failing its sha1 checks (the record's own content
        digest, and each array file's); a damaged record, or one naming an array file outside its folder
        (:func:`brainio.paths.path_inside`), is a miss with a warning, and is recomputed."""
        path = self.path(identifier, version, digest)
        try:
            record = json.loads(path.read_text())
            if record.get("format") != FORMAT or record.get("data_digest") != digest:
                return None
            stored = record.pop("record_sha1", None)
            if stored != content_sha1(record):
                warnings.warn(f"ceiling cache record {path} fails its content check (damaged or edited); "
                              "recomputing the ceiling", RuntimeWarning, stacklevel=2)
                return None
            arrays = {key: _from_inline(entry["inline"]) if "inline" in entry else
                      self._read_array(path_inside(path.parent, entry["file"], what="ceiling cache array file"),
                                       entry["sha1"])
                      for key, entry in record["arrays"].items()}
            plain_arrays = {key for key, entry in record["arrays"].items() if entry.get("kind") == "ndarray"}
        except PathOutsideRootError as error:  # a planted record: never read what it points at
            warnings.warn(f"ceiling cache record {path} names a file outside its folder ({error}); recomputing the "
                          "ceiling", RuntimeWarning, stacklevel=2)
            return None
        except (OSError, ValueError, KeyError, TypeError):
            return None
        if any(array is None for array in arrays.values()):
            return None
        value = arrays.pop("__value__", None)
        score = Score(value) if value is not None else Score(_number(record["value"]))
        score.attrs = {key: [_number(entry) for entry in item] if isinstance(item, list) else _number(item)
                       for key, item in record["attrs"].items()}
        score.attrs.update({key: np.asarray(array.values) if key in plain_arrays else Score(array)
                            for key, array in arrays.items()})
        return score

    def save(self, ceiling: Score, identifier: str, version: Any, digest: str) -> Path:
        """Write ``ceiling`` (atomically); returns the JSON path."""
        path = self.path(identifier, version, digest)
        arrays: dict[str, Any] = {}
        record: dict[str, Any] = {"format": FORMAT, "identifier": str(identifier), "version": _plain(version),
                                  "data_digest": digest, "attrs": {}, "arrays": arrays}
        if ceiling.ndim == 0:
            record["value"] = _plain(float(ceiling.values))
        else:
            arrays["__value__"] = self._write_array(ceiling, path, "value")
        for key, item in ceiling.attrs.items():
            if isinstance(item, xr.DataArray):
                arrays[key] = self._write_array(item, path, _safe_name(key))
            elif _plain(item) is not None:
                record["attrs"][key] = _plain(item)
            elif isinstance(item, (list, tuple)) and all(_plain(entry) is not None for entry in item):
                record["attrs"][key] = [_plain(entry) for entry in item]  # e.g. subject names: read back as a list
            elif _numeric_array(item) is not None:  # e.g. per-subject values as a numpy array: read back as one
                arrays[key] = {**self._write_array(xr.DataArray(_numeric_array(item)), path, _safe_name(key)),
                               "kind": "ndarray"}
        record["record_sha1"] = content_sha1(record)
        atomic_write(path, lambda temp: temp.write_text(json.dumps(record, indent=1, sort_keys=True)))
        return path

    @staticmethod
    def _write_array(array: xr.DataArray, json_path: Path, name: str) -> dict[str, Any]:
        """The record's entry for ``array``: the array itself when small (:func:`_inline`), else a netCDF file
        beside the record and its sha1."""
        inline = _inline(array)
        if inline is not None:
            return {"inline": inline}
        from brainio.netcdf import write_netcdf

        plain = array.copy(deep=False)
        plain.attrs = {key: value for key, value in array.attrs.items() if _plain(value) is not None}
        target = json_path.with_name(f"{json_path.stem}.{name}.nc")
        digests: list[str] = []
        atomic_write(target, lambda temp: digests.append(write_netcdf(plain, temp)))
        return {"file": target.name, "sha1": digests[0]}

    @staticmethod
    def _read_array(path: Path, sha1: str) -> xr.DataArray | None:
        from brainio.netcdf import read_netcdf

        if sha1_hash(path) != sha1:
            return None
        return read_netcdf(path, cls="DataAssembly", verified=True)  # its SHA-1 was checked just above


def _numeric_array(value: Any) -> np.ndarray | None:
    """``value`` as a numeric numpy array when it is one (or a nested list / tuple of numbers), else None."""
    if not isinstance(value, (np.ndarray, list, tuple)):
        return None
    try:
        array = np.asarray(value)
    except (ValueError, TypeError):
        return None
    return array if array.dtype.kind in "biuf" else None


def _number(value: Any) -> Any:
    if isinstance(value, str) and value in ("nan", "inf", "-inf"):
        return float(value)
    return value


def _inline(array: xr.DataArray) -> dict[str, Any] | None:
    """A JSON form of ``array`` that reads back identical (:func:`_from_inline`; checked here), or None when it is
    too large (over :data:`INLINE_LIMIT` elements), holds other than numbers, booleans or strings, or has a
    MultiIndex."""
    if array.size > INLINE_LIMIT or any(isinstance(index, pd.MultiIndex) for index in array.indexes.values()):
        return None
    variables = {"__values__": array.variable, **{name: coord.variable for name, coord in array.coords.items()}}
    encoded = {}
    for name, variable in variables.items():
        values = variable.values
        if not isinstance(name, str) or values.size > INLINE_LIMIT:
            return None
        if values.dtype.kind in "biufU":
            dtype = values.dtype.str
        elif values.dtype.kind == "O" and all(isinstance(item, str) for item in values.flat):
            dtype = "object"
        else:
            return None
        encoded[name] = {"dims": list(variable.dims), "dtype": dtype, "values": values.tolist()}
    form = {"name": array.name if isinstance(array.name, str) else None, "variables": encoded,
            "attrs": {key: _plain(value) for key, value in array.attrs.items()
                      if isinstance(key, str) and _plain(value) is not None}}
    try:
        kept = _from_inline(json.loads(json.dumps(form)))
    except (ValueError, TypeError):
        return None
    plain = array.copy(deep=False)
    plain.attrs = {key: _number(value) for key, value in form["attrs"].items()}
    same_dtypes = kept.dtype == array.dtype and all(kept[name].dtype == coord.dtype for name, coord in array.coords.items())
    return form if same_dtypes and kept.identical(plain) else None  # identical() alone lets '<U2' pass for object


def _from_inline(form: dict[str, Any]) -> xr.DataArray:
    """The DataArray of a JSON form written by :func:`_inline`."""
    variables = {name: (entry["dims"], np.asarray(entry["values"], dtype=object if entry["dtype"] == "object" else
                                                   np.dtype(entry["dtype"])))
                 for name, entry in form["variables"].items()}
    dims, values = variables.pop("__values__")
    array = xr.DataArray(values, dims=dims, coords=variables, name=form["name"])
    array.attrs = {key: _number(value) for key, value in form["attrs"].items()}
    return array
