"""The packaging checklist of the data-packaging tutorial, as functions that list every problem.

``check_*`` return a list of messages (empty when fine); ``validate_*`` raise
:class:`~brainio.errors.ValidationError` carrying all of them. Messages name the offending ids, paths,
coordinates or dims (the first ten of each kind).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import xarray as xr

from .assemblies import resolve_assembly_class
from .coords import walk_coords

__all__ = ["check_assembly", "check_stimulus_set"]

_SHOW = 10
RESERVED_COLUMNS = ("filename",)


def _few(values) -> str:
    values = list(values)
    more = f" (+{len(values) - _SHOW} more)" if len(values) > _SHOW else ""
    return f"{values[:_SHOW]}{more}"


def _safe_member_name(name: str) -> bool:
    """A ZIP entry name every consumer accepts: relative, no ``..`` part, no backslash or drive, not empty."""
    parts = name.split("/")
    return (bool(name.strip()) and not name.startswith("/") and "\\" not in name and name[1:2] != ":"
            and all(part not in ("", ".", "..") for part in parts))


def check_stimulus_set(stimulus_set: pd.DataFrame, *, require_files: bool = True) -> list[str]:
    """Problems of a stimulus set before packaging (empty list when it passes).

    Checks: a ``stimulus_id`` column of unique strings, no ``filename`` column (packaging writes it),
    and, with ``require_files``, a path in ``stimulus_paths`` for every id that points to an existing file.
    """
    problems = []
    name = getattr(stimulus_set, "identifier", None)
    if len(stimulus_set) == 0:
        problems.append(f"stimulus set {name!r} is empty")
    if "stimulus_id" not in stimulus_set.columns:
        hint = (" (the legacy name 'image_id' is there: rename it with "
                "stimulus_set.rename(columns={'image_id': 'stimulus_id'}))" if "image_id" in stimulus_set.columns else "")
        return problems + [f"stimulus set {name!r} has no 'stimulus_id' column (columns: "
                           f"{[str(c) for c in stimulus_set.columns]}){hint}"]
    ids = stimulus_set["stimulus_id"].to_numpy(dtype=object)
    not_text = [v for v in ids if not isinstance(v, str)]
    if not_text:
        problems.append(f"stimulus_id values must be strings; not strings: {_few(not_text)} "
                        "(convert with df['stimulus_id'].astype(str))")
    duplicated = pd.Series(ids)[pd.Series(ids).duplicated()].unique().tolist()
    if duplicated:
        problems.append(f"duplicate stimulus_id: {_few(duplicated)}")
    within = (stimulus_set["stimulus_path_within_store"].astype(str).tolist()
              if "stimulus_path_within_store" in stimulus_set.columns else [v for v in ids if isinstance(v, str)])
    unsafe = [name for name in within if not _safe_member_name(name)]
    if unsafe:
        what = ("stimulus_path_within_store" if "stimulus_path_within_store" in stimulus_set.columns
                else "stimulus_id")
        problems.append(f"{what} values name ZIP entries and must be relative paths without '..', '\\' or a drive; "
                        f"unsafe: {_few(unsafe)}")
    for column in RESERVED_COLUMNS:
        if column in stimulus_set.columns:
            problems.append(f"stimulus set has a {column!r} column, which packaging writes; rename it "
                            "(e.g. to 'image_filename')")
    if require_files:
        paths = getattr(stimulus_set, "stimulus_paths", None) or {}
        no_path = list(dict.fromkeys(sid for sid in ids if sid not in paths))  # each id once
        if no_path:
            problems.append(f"stimulus_id without an entry in stimulus_paths: {_few(no_path)}")
        missing = list(dict.fromkeys(f"{sid} -> {paths[sid]}" for sid in ids
                                     if sid in paths and not Path(paths[sid]).is_file()))  # each id once
        if missing:
            problems.append(f"stimulus files not found: {_few(missing)}")
    return problems


def check_assembly(assembly: xr.DataArray, assembly_class: str | type = "DataAssembly",
                   stimulus_set: pd.DataFrame | None = None, *, allow_nan: bool = False) -> list[str]:
    """Problems of an assembly before packaging as ``assembly_class`` (empty list when it passes).

    Checks: dims fit the class; a ``presentation`` dim has a ``stimulus_id`` coordinate of strings; every
    coordinate lies along one dim; no NaN values unless ``allow_nan``; with ``stimulus_set``, every
    ``stimulus_id`` of the assembly is in the set.
    """
    problems = []
    cls = resolve_assembly_class(assembly_class)
    dimension_problem = cls.dimension_problem(assembly.dims)
    if dimension_problem:
        problems.append(dimension_problem)
    for name, dims, _ in walk_coords(assembly):
        if len(dims) > 1:
            problems.append(f"coordinate {name!r} spans dims {dims}; coordinates must lie along one dim")
    if "presentation" in assembly.dims:
        if "stimulus_id" not in assembly.coords:
            hint = (" (the legacy name 'image_id' is there: rename it with assembly.rename({'image_id': "
                    "'stimulus_id'}))" if "image_id" in assembly.coords else "")
            problems.append(f"dim 'presentation' has no 'stimulus_id' coordinate{hint}")
        else:
            ids = np.asarray(assembly["stimulus_id"].values)
            if ids.dtype.kind != "U":
                not_text = pd.unique(np.asarray([v for v in ids.astype(object) if not isinstance(v, str)],
                                                dtype=object))
                if len(not_text):
                    problems.append(f"coordinate 'stimulus_id' must hold strings; not strings: {_few(not_text)}")
            if stimulus_set is not None and "stimulus_id" in stimulus_set.columns:
                known = pd.Index(stimulus_set["stimulus_id"].to_numpy(dtype=object))
                absent = pd.unique(ids[~pd.Index(ids.astype(object)).isin(known)])
                if len(absent):
                    problems.append(f"stimulus_id not in stimulus set "
                                    f"{getattr(stimulus_set, 'identifier', None)!r}: {_few(absent.tolist())}")
    if not allow_nan and np.issubdtype(assembly.dtype, np.floating):
        nan = np.isnan(assembly.values)
        if nan.any():
            where = []
            for axis, dim in enumerate(assembly.dims):
                other = tuple(a for a in range(nan.ndim) if a != axis)
                hit = np.flatnonzero(nan.any(axis=other)) if other else np.flatnonzero(nan)
                label = "stimulus_id" if dim == "presentation" and "stimulus_id" in assembly.coords else (
                    "neuroid_id" if dim == "neuroid" and "neuroid_id" in assembly.coords else None)
                shown = assembly[label].values[hit].tolist() if label else hit.tolist()
                where.append(f"{dim} {label or 'positions'} {_few(shown)}")
            problems.append(f"{int(nan.sum())} NaN values (pass allow_nan=True if they are expected), at "
                            + "; ".join(where))
    return problems
