"""Stored rows as CSV or JSON, for spreadsheets, pandas and other tools (``brainscore results export``).

CSV: one header line with :data:`~brainscore_core.results.COLUMNS`, one line per row; numbers as Python writes
them (``repr``: they read back to the same float), missing values empty, the JSON-text columns (``layer_map``,
``provenance``, ``attrs``, ``versions``) as their JSON text. JSON: a list of objects with the same keys, missing
values ``null`` and the JSON-text columns decoded into nested objects. Both are plain text; nothing is pickled.
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

__all__ = ["EXPORT_FORMATS", "JSON_TEXT_COLUMNS", "export_format_of", "rows_as_csv", "rows_as_json", "write_rows"]

EXPORT_FORMATS = ("csv", "json")
#: columns that hold JSON text in the store; the JSON export decodes them
JSON_TEXT_COLUMNS = ("layer_map", "provenance", "attrs", "versions")


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


def write_rows(rows: Sequence[Mapping[str, Any]], path: str | os.PathLike, format: str | None = None) -> Path:
    """Write the rows to ``path`` as CSV or JSON (``format``, default from the suffix); returns the path.

    The file is written under a temporary name beside ``path`` and renamed into place, so an interrupted export
    never leaves a half-written file (an existing file at ``path`` is replaced only by a complete one).
    """
    chosen = export_format_of(path, format)
    text = rows_as_csv(rows) if chosen == "csv" else rows_as_json(rows)
    target = Path(path)
    atomic_write(target, lambda temporary: Path(temporary).write_text(text, encoding="utf-8"))
    return target
