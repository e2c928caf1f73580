"""Stored rows as CSV or JSON, for spreadsheets, pandas and other tools (``brainscore results export``).

CSV: one header line with :data:`~brainscore_core.results.COLUMNS`, one line per row; numbers as Python writes
them (``repr``: they read back to the same float), missing values empty, the JSON-text columns (``layer_map``,
``provenance``, ``attrs``, ``versions``) as their JSON text. JSON: a list of objects with the same keys, missing
values ``null`` and the JSON-text columns decoded into nested objects. Both are plain text; nothing is pickled.

Large arrays in a row's ``attrs`` (an RSA score's model and subject RDMs, 92 x 92 each; per-layer score profiles):
every ``attrs`` entry whose JSON is longer than :data:`ARRAY_CHARS` characters goes to a side file
``<file>.arrays.json`` beside the export (a JSON list of ``{"id", "model_identifier", "benchmark_identifier",
"attrs"}``), and the row's ``attrs`` says where (``{"model_rdm": {"side_file": "results.arrays.json"}}``), so the CSV
reads with the :mod:`csv` module's default field size limit (131,072 characters: ten rows with RDMs made 2.3 MB and
the module refused the field, issue 42). ``arrays='embed'`` (``brainscore results export --with-arrays``) keeps them in
the rows instead.
"""

from __future__ import annotations

import csv
import io
import json
import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from brainio.files import atomic_write
from brainscore_core.results import COLUMNS

__all__ = ["ARRAY_CHARS", "EXPORT_FORMATS", "JSON_TEXT_COLUMNS", "arrays_path", "export_format_of", "rows_as_csv",
           "rows_as_json", "split_arrays", "write_rows"]

EXPORT_FORMATS = ("csv", "json")
#: columns that hold JSON text in the store; the JSON export decodes them
JSON_TEXT_COLUMNS = ("layer_map", "provenance", "attrs", "versions")


#: an ``attrs`` entry whose JSON is longer than this goes to the export's side file (see the module docstring)
ARRAY_CHARS = 1024


def arrays_path(path: str | os.PathLike) -> Path:
    """The side file of an export to ``path``: ``results.csv`` -> ``results.arrays.json``."""
    path = Path(path)
    return path.with_name(f"{path.stem}.arrays.json")


def split_arrays(rows: Sequence[Mapping[str, Any]], side_name: str | None) -> tuple[list[dict], list[dict]]:
    """The rows with every large ``attrs`` entry (longer than :data:`ARRAY_CHARS` characters of JSON) replaced by
    ``{"side_file": side_name}`` (or left out when ``side_name`` is None), and the side file's records (row id,
    identifiers, the entries taken out). Rows without large entries are unchanged."""
    kept, side = [], []
    for row in rows:
        attrs = _decoded(row.get("attrs"))
        if not isinstance(attrs, dict):
            kept.append(dict(row))
            continue
        large = {key: value for key, value in attrs.items() if len(json.dumps(value, default=str)) > ARRAY_CHARS}
        if not large:
            kept.append(dict(row))
            continue
        small = {key: value for key, value in attrs.items() if key not in large}
        if side_name is not None:
            small.update({key: {"side_file": side_name} for key in large})
        kept.append({**row, "attrs": json.dumps(small, sort_keys=True)})
        side.append({"id": row.get("id"), "model_identifier": row.get("model_identifier"),
                     "benchmark_identifier": row.get("benchmark_identifier"), "attrs": large})
    return kept, side


def rows_as_csv(rows: Sequence[Mapping[str, Any]]) -> str:
    """The rows as CSV text (header :data:`COLUMNS`); a missing value is an empty field."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(COLUMNS)
    for row in rows:
        writer.writerow(["" if row.get(column) is None else row[column] for column in COLUMNS])
    return buffer.getvalue()


def _decoded(value: Any) -> Any:
    if not isinstance(value, str):
        return value
    try:
        return json.loads(value)
    except ValueError:  # a hand-written row may hold plain text; keep it
        return value


def rows_as_json(rows: Sequence[Mapping[str, Any]]) -> str:
    """The rows as a JSON list of objects (keys :data:`COLUMNS`), JSON-text columns decoded, 2-space indent."""
    documents = [{column: _decoded(row.get(column)) if column in JSON_TEXT_COLUMNS else row.get(column)
                  for column in COLUMNS} for row in rows]
    return json.dumps(documents, indent=2, default=str) + "\n"


def export_format_of(path: str | os.PathLike, format: str | None = None) -> str:
    """``format`` when given, else the file's suffix (``.csv`` / ``.json``); raises ValueError for anything else."""
    chosen = (format or Path(path).suffix.lstrip(".")).lower()
    if chosen not in EXPORT_FORMATS:
        raise ValueError(f"cannot tell the export format of {os.fspath(path)!r}: name a .csv or .json file, or "
                         f"pass the format ({', '.join(EXPORT_FORMATS)})")
    return chosen


def write_rows(rows: Sequence[Mapping[str, Any]], path: str | os.PathLike, format: str | None = None, *,
               arrays: str = "side") -> Path:
    """Write the rows to ``path`` as CSV or JSON (``format``, default from the suffix); returns the path.

    ``arrays='side'`` (default) writes large ``attrs`` entries to :func:`arrays_path` (only when some row has one);
    ``'embed'`` keeps them in the rows. Each file is written under a temporary name beside it and renamed into place,
    so an interrupted export never leaves a half-written file (an existing file is replaced only by a complete one).
    """
    chosen = export_format_of(path, format)
    if arrays not in ("side", "embed"):
        raise ValueError(f"arrays must be 'side' or 'embed', got {arrays!r}")
    target = Path(path)
    if arrays == "side":
        side_file = arrays_path(target)
        rows, side = split_arrays(rows, side_file.name)
        if side:
            side_text = json.dumps(side, default=str) + "\n"
            atomic_write(side_file, lambda temporary: Path(temporary).write_text(side_text, encoding="utf-8"))
        else:  # a side file of an earlier export to the same name would no longer belong to this one
            side_file.unlink(missing_ok=True)
    text = rows_as_csv(rows) if chosen == "csv" else rows_as_json(rows)
    atomic_write(target, lambda temporary: Path(temporary).write_text(text, encoding="utf-8"))
    return target
