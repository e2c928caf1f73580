"""Results-store rows as typed entries: parsing, JSON fields, and the latest row per key.

The report reads the rows of :class:`brainscore_core.results.ResultStore` (a list of dicts) and turns
each one into an :class:`Entry`. Nothing here renders; nothing here fails on odd values: numbers that
cannot be read become ``None``, JSON fields that cannot be parsed become ``{}`` and are listed in
``Entry.problems`` so that a page can say why something is missing.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

__all__ = ["Entry", "entries_from_rows", "entry_from_row", "latest_entries", "load_rows", "recency_key",
           "version_key"]


@dataclass(frozen=True)
class Entry:
    """One scored (model, benchmark, version) as the report sees it.

    Scores are floats (``nan`` kept as ``nan``) or ``None`` when the store has no value.
    """

    id: Any
    model: str
    benchmark: str
    version: Any
    parent: str | None
    raw: float | None
    ceiled: float | None
    error: float | None
    ceiling: float | None
    ceiling_error: float | None
    comment: str | None
    layer_map: dict = field(default_factory=dict)
    provenance: dict = field(default_factory=dict)
    attrs: dict = field(default_factory=dict)
    timestamp: Any = None
    problems: tuple[str, ...] = ()


def load_rows(results_url: str | None = None) -> list[dict]:
    """Read every row of the results store at ``results_url``.

    Parameters
    ----------
    results_url : str or None, default=None
        SQLAlchemy URL of the store; ``None`` means the store's own default
        (``$BRAINSCORE_RESULTS_URL`` or ``$BRAINSCORE_HOME/results.sqlite``).

    Returns
    -------
    list of dict
        The store's rows, one dict per stored score.
    """
    from brainscore_core.results import ResultStore

    store = ResultStore(url=results_url, read_only=True)  # reading never creates a store
    try:
        return list(store.rows())
    finally:
        dispose = getattr(store, "dispose", None)
        if callable(dispose):
            dispose()


def _number(value: Any) -> float | None:
    """A float from a stored value; ``None`` for missing or unreadable values (``nan`` stays ``nan``)."""
    if value is None:
        return None
    if isinstance(value, bool):
        return float(value)
    try:
        return float(value)
    except (TypeError, ValueError):
        return None


def _json_object(text: Any, name: str, problems: list[str]) -> dict:
    """Parse a JSON column holding an object; record a problem instead of raising."""
    if text is None or text == "":
        return {}
    if isinstance(text, Mapping):
        return dict(text)
    try:
        value = json.loads(text)
    except (TypeError, ValueError) as error:
        problems.append(f"{name} is not valid JSON ({error})")
        return {}
    if value is None:
        return {}
    if not isinstance(value, dict):
        problems.append(f"{name} is JSON but not an object ({type(value).__name__})")
        return {}
    return value


def entry_from_row(row: Mapping[str, Any]) -> Entry:
    """Turn one store row (dict with the ResultStore keys) into an :class:`Entry`."""
    problems: list[str] = []
    parent = row.get("benchmark_parent")
    return Entry(
        id=row.get("id"),
        model=str(row.get("model_identifier")),
        benchmark=str(row.get("benchmark_identifier")),
        version=row.get("benchmark_version"),
        parent=str(parent) if parent not in (None, "") else None,
        raw=_number(row.get("score_raw")),
        ceiled=_number(row.get("score_ceiled")),
        error=_number(row.get("error")),
        ceiling=_number(row.get("ceiling")),
        ceiling_error=_number(row.get("ceiling_error")),
        comment=row.get("comment"),
        layer_map=_json_object(row.get("layer_map"), "layer_map", problems),
        provenance=_json_object(row.get("provenance"), "provenance", problems),
        attrs=_json_object(row.get("attrs"), "attrs", problems),
        timestamp=row.get("timestamp"),
        problems=tuple(problems),
    )


def entries_from_rows(rows: Iterable[Mapping[str, Any]]) -> list[Entry]:
    """Parse store rows into entries, in the order given."""
    return [entry_from_row(row) for row in rows]


def version_key(version: Any) -> tuple:
    """Sort key for benchmark versions: numbers numerically, then other text; ``None`` first."""
    if version is None:
        return (0, 0.0, "")
    number = _number(version)
    if number is not None and not math.isnan(number):
        return (1, number, "")
    return (2, 0.0, str(version))


def recency_key(entry: Entry) -> tuple:
    """Sort key: later timestamp, then higher row id, sorts last."""
    # Timestamps may be datetimes or ISO strings depending on the store backend; str() of both sorts
    # chronologically for ISO-8601. Row ids break ties (later insert wins).
    stamp = "" if entry.timestamp is None else str(entry.timestamp)
    row_id = _number(entry.id)
    return (stamp, row_id if row_id is not None and not math.isnan(row_id) else -math.inf)


def latest_entries(entries: Iterable[Entry]) -> list[Entry]:
    """Keep the latest entry per (model, benchmark, benchmark version).

    Latest = greatest timestamp, then greatest row id. The result is sorted by benchmark, version
    and model so that pages come out in a stable order.
    """
    latest: dict[tuple, Entry] = {}
    for entry in entries:
        key = (entry.model, entry.benchmark, str(entry.version))
        if key not in latest or recency_key(entry) >= recency_key(latest[key]):
            latest[key] = entry
    return sorted(latest.values(), key=lambda e: (e.benchmark, version_key(e.version), e.model))
