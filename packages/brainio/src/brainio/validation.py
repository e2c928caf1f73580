"""The packaging checklist of the data-packaging tutorial, as functions that list every problem.

``check_*`` return a list of messages (empty when fine); ``validate_*`` raise
:class:`~brainio.errors.ValidationError` carrying all of them. Messages name the offending ids, paths,
coordinates or dims (the first ten of each kind).

:func:`check_stimulus_table` is the one check of a stimulus table's cells, whoever holds it: ``brainio validate``
and ``brainio package`` (through :func:`~brainio.stimuli.read_stimulus_csv` and :func:`check_stimulus_set`),
:meth:`StimulusSet.from_files <brainio.stimuli.StimulusSet.from_files>` and the packaging functions. It refuses
an empty table, duplicate column names, missing (empty or NaN) ids and file names, NUL characters, fields longer than
:data:`MAX_FIELD_CHARS`, and text among the numbers of a numeric column, naming the row and the column.

The last two are judgements about tables being written (``strict=True``, the default). A table that arrives through a
SHA-1 recorded by its author (:func:`brainio.fetch.load_stimulus_set`) is read with ``strict=False``: it gets the
checks that protect the reader (no rows, repeated column names, missing ids, NUL characters) but not the judgements,
so a published stimulus set with, say, one word in a column of numbers stays loadable; its user could not change it.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import xarray as xr

from .assemblies import resolve_assembly_class
from .coords import walk_coords

__all__ = ["MAX_FIELD_CHARS", "NUMERIC_COLUMNS", "TEXT_COLUMNS", "check_assembly", "check_stimulus_set",
           "check_stimulus_table"]

_SHOW = 10
RESERVED_COLUMNS = ("filename",)

MAX_FIELD_CHARS = 4096
"""Longest text a stimulus-table cell may hold (a path's maximum on Linux). Columns are joined onto an assembly's
``presentation`` as fixed-width text, so one 1 MB cell would make every row of that coordinate 4 MB wide."""

TEXT_COLUMNS = ("stimulus_id", "image_id", "filename")
"""Columns read as text (``'0001'`` stays ``'0001'``) that may not hold missing (empty or NaN) values."""

NUMERIC_COLUMNS = ("degrees",)
"""Columns that must hold numbers wherever they hold a value (``degrees`` places stimuli on the screen)."""

_ODD_SHARE = 0.01  # text among numbers: at most this share (or one value) of a column counts as a mistake


def _few(values) -> str:
    values = list(values)
    more = f" (+{len(values) - _SHOW} more)" if len(values) > _SHOW else ""
    return f"{values[:_SHOW]}{more}"


def _safe_member_name(name: str) -> bool:
    """A ZIP entry name every consumer accepts: relative, no ``..`` part, no backslash or drive, not empty."""
    parts = name.split("/")
    return (bool(name.strip()) and not name.startswith("/") and "\\" not in name and name[1:2] != ":"
            and all(part not in ("", ".", "..") for part in parts))


def _rows(positions: np.ndarray, first_row: int) -> str:
    """``row 3`` / ``rows 3, 7, 9 (+2 more)``; rows numbered from ``first_row`` (2 in a CSV: the header is row 1)."""
    numbers = [int(position) + first_row for position in positions[:_SHOW]]
    more = f" (+{len(positions) - _SHOW} more)" if len(positions) > _SHOW else ""
    label = "row" if len(positions) == 1 else "rows"
    return f"{label} {', '.join(map(str, numbers))}{more}" + (" (counted from 0)" if first_row == 0 else "")


# pandas' default NA words (pandas.read_csv, ``na_values``), plus the empty string
_NA_SET = frozenset(["", "#N/A", "#N/A N/A", "#NA", "-1.#IND", "-1.#QNAN", "-NaN", "-nan", "1.#IND", "1.#QNAN", "<NA>",
                     "N/A", "NA", "NULL", "NaN", "None", "n/a", "nan", "null"])


def check_stimulus_table(table: pd.DataFrame, *, first_row: int = 0, text_columns: tuple[str, ...] = TEXT_COLUMNS,
                         numeric_columns: tuple[str, ...] = NUMERIC_COLUMNS,
                         column_names: list[str] | None = None, strict: bool = True) -> list[str]:
    """Problems of the cells of a stimulus table, each naming its column and rows (empty list when it passes).

    Parameters
    ----------
    table : DataFrame
        One row per stimulus (a typed frame, as ``pandas.read_csv`` or a user builds it).
    first_row : int, default=0
        Number of the table's first row in messages: 2 for a CSV (the header is row 1, as in a spreadsheet), 0 for
        a frame (positions, as ``iloc``).
    text_columns : tuple of str, default=TEXT_COLUMNS
        Columns, where present, that may hold no missing value (empty, NaN, 'NA', ...) and are never numeric.
    numeric_columns : tuple of str, default=NUMERIC_COLUMNS
        Columns, where present, whose every value must be a number.
    column_names : list of str, optional
        The names as written in the file, default=None meaning ``table.columns`` (``pandas.read_csv`` renames a
        repeated name ``size`` to ``size.1``; the file's own names show the repetition).
    strict : bool, default=True
        Also refuse fields longer than :data:`MAX_FIELD_CHARS` and words among numbers (see the module docstring);
        False for tables that arrive through a recorded SHA-1.

    Notes
    -----
    A column of numbers with a few words among them (at most one value, or 1 % of the column) is taken for a
    numeric column holding mistakes, and the words are refused; a column with more words is a text column.
    Each column's distinct values are checked once (``pandas.factorize``), so a table costs about one pass of
    pandas' hashing per text column.
    """
    problems = [] if len(table) else ["the table has no rows (one row per stimulus is needed)"]
    names = list(column_names) if column_names is not None else [str(column) for column in table.columns]
    counts = pd.Series(names, dtype=object).value_counts()
    for name in counts.index[counts.to_numpy() > 1]:
        where = [str(position + 1) for position, other in enumerate(names) if other == name]
        problems.append(f"column name {name!r} appears {counts[name]} times (columns {', '.join(where)}); "
                        "every column needs its own name")
    for position, name in enumerate(names):
        if "\x00" in name:
            problems.append(f"column {position + 1} has a NUL character in its name {name!r}")
    for position, name in enumerate(names):
        values = table.iloc[:, position]
        problems += _column_problems(name, values, first_row, name in text_columns, name in numeric_columns, strict)
    return problems


def _per_row(flags: list[bool], codes: np.ndarray) -> np.ndarray:
    """A flag of each distinct value, spread onto the rows (``codes`` from ``pandas.factorize``; -1 is missing)."""
    return np.append(np.asarray(flags, dtype=bool), False)[codes]


def _flags(texts: list[str], codes: np.ndarray, found: bool, test) -> np.ndarray:
    """Per row, ``test(value)`` of its distinct value; computed only when the cheap whole-column ``found`` says some
    value may pass it (the common case, none, costs one C-level pass)."""
    if not found:
        return np.zeros(len(codes), dtype=bool)
    return _per_row([test(value) for value in texts], codes)


def _column_problems(name: str, values: pd.Series, first_row: int, text: bool, numeric: bool,
                     strict: bool = True, what: str = "column") -> list[str]:
    problems = []
    if values.dtype.kind in "biufcmM":  # numbers, booleans, times: only missing values to check
        missing, texts, codes = values.isna().to_numpy(), None, None
    else:
        codes, uniques = pd.factorize(values, use_na_sentinel=True)
        texts = np.asarray(uniques, dtype=object).tolist()
        if values.dtype == object and not all(isinstance(value, str) for value in texts):  # a string dtype: all str
            texts = [value if isinstance(value, str) else str(value) for value in texts]
        # NA words as pandas matches them (whole cell); a CSV's are NaN already, a frame's may be text
        missing = (codes < 0) | _flags(texts, codes, not _NA_SET.isdisjoint(texts), lambda value: value in _NA_SET)
    if text and missing.any():
        problems.append(f"{what} {name!r}: missing value (empty, NaN or a word pandas reads as NaN, such as 'NA') in "
                        f"{_rows(np.flatnonzero(missing), first_row)}")
    if texts is None:
        return problems
    joined = "\x1f".join(texts)
    nul = _flags(texts, codes, "\x00" in joined, lambda value: "\x00" in value)
    if nul.any():
        problems.append(f"{what} {name!r}: NUL character in {_rows(np.flatnonzero(nul), first_row)}")
    if not strict:
        return problems
    longest = max(map(len, texts), default=0)
    long = _flags(texts, codes, longest > MAX_FIELD_CHARS, lambda value: len(value) > MAX_FIELD_CHARS)
    if long.any():
        problems.append(f"{what} {name!r}: a field of {longest:,} characters (at most {MAX_FIELD_CHARS:,}) "
                        f"in {_rows(np.flatnonzero(long), first_row)}")
    if text:
        return problems
    parsed = pd.to_numeric(pd.Series(texts, dtype=object), errors="coerce").notna().to_numpy()
    present = ~missing
    numbers = present & _per_row(list(parsed), codes)
    words = present & ~numbers & ~nul & ~long
    count = int(words.sum())
    mistaken = numeric or (numbers.sum() >= 2 and 0 < count <= max(1, _ODD_SHARE * present.sum()))
    if mistaken and count:
        rows = np.flatnonzero(words)
        shown = ", ".join(repr(texts[codes[row]]) for row in rows[:3])
        why = "must hold numbers" if numeric else f"holds numbers in {int(numbers.sum())} rows"
        problems.append(f"{what} {name!r} {why}, but not in {_rows(rows, first_row)}: {shown}"
                        f"{' ...' if len(rows) > 3 else ''} (leave a cell empty for a missing number)")
    return problems


def check_stimulus_set(stimulus_set: pd.DataFrame, *, require_files: bool = True) -> list[str]:
    """Problems of a stimulus set before packaging (empty list when it passes).

    Checks: the cells (:func:`check_stimulus_table`), a ``stimulus_id`` column of unique strings, no ``filename``
    column (packaging writes it), and, with ``require_files``, a path in ``stimulus_paths`` for every id that points
    to an existing file.
    """
    problems = check_stimulus_table(stimulus_set, text_columns=("stimulus_id",))
    name = getattr(stimulus_set, "identifier", None)
    if "stimulus_id" not in stimulus_set.columns:
        hint = (" (the legacy name 'image_id' is there: rename it with "
                "stimulus_set.rename(columns={'image_id': 'stimulus_id'}))" if "image_id" in stimulus_set.columns else "")
        return problems + [f"stimulus set {name!r} has no 'stimulus_id' column (columns: "
                           f"{[str(c) for c in stimulus_set.columns]}){hint}"]
    if stimulus_set.columns.duplicated().any():
        return problems  # a column name that means two columns: the checks below cannot tell which is meant
    ids = stimulus_set["stimulus_id"].to_numpy(dtype=object)
    not_text = [v for v in ids if not isinstance(v, str) and not pd.isna(v)]  # missing ids: reported above
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


NUMERIC_CLASSES = ("NeuroidAssembly", "NeuronRecordingAssembly", "PropertyAssembly", "SpikeTimesAssembly")
"""Assembly classes whose values must be numbers (a behavioural assembly may hold the chosen labels as text)."""

ID_COORDINATES = ("stimulus_id", "neuroid_id")
"""Coordinates that name entries (metrics align on them): a missing value (empty, NaN, 'NA') is refused."""


def _content_problems(assembly: xr.DataArray, cls: type) -> list[str]:
    """Problems of an assembly's content: no values, dims nothing names, text where numbers belong, missing ids."""
    problems = []
    empty = [f"{dim!r} has 0 entries" for dim, size in assembly.sizes.items() if size == 0]
    if empty:
        problems.append(f"the assembly holds no values: dim {', '.join(empty)}")
    coordinates = [(name, dims, values) for name, dims, values in walk_coords(assembly)]
    labelled = {dim for _, dims, _ in coordinates for dim in dims}
    for dim in assembly.dims:
        if dim not in labelled:
            problems.append(f"dim {dim!r} has no coordinate: nothing names its {assembly.sizes[dim]} entries "
                            f"(add one, e.g. '{dim}_id')")
    if assembly.dtype.kind not in "biuf" and assembly.size:
        if cls.__name__ in NUMERIC_CLASSES:
            flat = np.asarray(assembly.values, dtype=object).ravel()
            first = next((index for index, value in enumerate(flat) if not isinstance(value, (int, float))), 0)
            position = dict(zip(assembly.dims, np.unravel_index(first, assembly.shape)))
            problems.append(f"values of a {cls.__name__} must be numbers, found {assembly.dtype} (e.g. "
                            f"{flat[first]!r} at {', '.join(f'{dim} {int(at)}' for dim, at in position.items())})")
        else:
            problems += _column_problems("values (in C order)", pd.Series(np.asarray(assembly.values).ravel()), 0,
                                         text=False, numeric=False, what="assembly")
    for name, dims, values in coordinates:
        if len(dims) == 1:
            problems += _column_problems(name, pd.Series(np.asarray(values)), 0, text=name in ID_COORDINATES,
                                         numeric=False, what="coordinate")
    return problems


def check_assembly(assembly: xr.DataArray, assembly_class: str | type = "DataAssembly",
                   stimulus_set: pd.DataFrame | None = None, *, allow_nan: bool = False) -> list[str]:
    """Problems of an assembly before packaging as ``assembly_class`` (empty list when it passes).

    Checks: dims fit the class; the assembly holds values (no dim of 0 entries); every dim has a coordinate;
    values are numbers (:data:`NUMERIC_CLASSES`) or, for other classes, not words among numbers; a ``presentation``
    dim has a ``stimulus_id`` coordinate of strings; no missing (empty, NaN) value in :data:`ID_COORDINATES`; no
    words among the numbers of a coordinate; every coordinate lies along one dim; no NaN values unless
    ``allow_nan``; with ``stimulus_set``, every ``stimulus_id`` of the assembly is in the set. Each problem names the
    coordinate and the rows (positions along its dim, counted from 0).
    """
    problems = []
    cls = resolve_assembly_class(assembly_class)
    dimension_problem = cls.dimension_problem(assembly.dims)
    if dimension_problem:
        problems.append(dimension_problem)
    problems += _content_problems(assembly, cls)
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
