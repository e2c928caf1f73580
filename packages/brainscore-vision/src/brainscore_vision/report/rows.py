"""Results-store rows as typed entries: parsing, JSON fields, and the latest row per key.

The report reads the rows of :class:`brainscore_core.results.ResultStore` (a list of dicts) and turns
each one into an :class:`Entry`. Nothing here renders; nothing here fails on odd values: numbers that
cannot be read become ``None``, JSON fields that cannot be parsed become ``{}`` and are listed in
``Entry.problems`` so that a page can say why something is missing. A row the report cannot place at all (a
timestamp that is not a time, no model or benchmark identifier) is named and skipped
(:func:`split_malformed_rows`); :func:`load_rows` reads timestamps as stored, so one bad row cannot stop the read.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

__all__ = ["Entry", "entries_from_rows", "entry_from_row", "latest_entries", "load_rows", "recency_key",
           "split_malformed_rows", "version_key"]


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


def load_rows(results_url: str | None = None, *, failed: bool = False) -> list[dict]:
    """Read every score row (status ``ok`` or none; ``failed=True``: every failed row instead) of the results store
    at ``results_url``, oldest first.

    Unlike ``ResultStore.rows()``, timestamps come back as stored (a ``datetime``, or SQLite's text, which may be
    anything): :func:`split_malformed_rows` parses them and names the rows it cannot use.

    Parameters
    ----------
    results_url : str or None, default=None
        SQLAlchemy URL of the store; ``None`` means the store's own default
        (``$BRAINSCORE_RESULTS_URL`` or ``$BRAINSCORE_HOME/results.sqlite``).

    Returns
    -------
    list of dict
        The store's rows, one dict per stored score, keys as ``ResultStore.rows()``.
    """
    import sqlalchemy as sa

    from brainscore_core.results import ResultStore, ResultStoreError, scores_table

    store = ResultStore(url=results_url, read_only=True)  # reading never creates a store
    try:
        present = {column["name"] for column in sa.inspect(store.engine).get_columns(scores_table.name)}
        columns = [sa.type_coerce(column, sa.String).label(column.name) if isinstance(column.type, sa.DateTime)
                   else column for column in scores_table.c if column.name in present]
        query = sa.select(*columns).order_by(scores_table.c.id)
        if failed and "status" not in present:  # a store older than failed rows
            return []
        if failed:
            query = query.where(scores_table.c.status == "failed")
        elif "status" in present:
            query = query.where(sa.or_(scores_table.c.status == "ok", scores_table.c.status.is_(None)))
        with store.engine.connect() as connection:
            return [dict(row._mapping) for row in connection.execute(query)]
    except sa.exc.SQLAlchemyError as error:
        first = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
        raise ResultStoreError(f"cannot read the results store {store!r}: {type(error).__name__}: {first}") from error
    finally:
        store.dispose()


def _timestamp(value: Any) -> str:
    """ISO 8601 text in UTC, as ``ResultStore.rows()`` gives it; ``ValueError`` when ``value`` is not a time."""
    if value is None:
        raise ValueError("the timestamp is missing")
    try:
        moment = value if isinstance(value, datetime) else datetime.fromisoformat(str(value))
    except ValueError:
        raise ValueError(f"timestamp {value!r} is not an ISO 8601 time") from None
    if moment.tzinfo is None:  # SQLite keeps no time zone; the store always writes UTC
        moment = moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC).isoformat()


def split_malformed_rows(rows: Iterable[Mapping[str, Any]]) -> tuple[list[dict], list[str]]:
    """The rows the report can use, timestamps as ISO 8601 UTC text, and one line per row it cannot.

    A row is malformed when its timestamp is not a time (``'yesterday'``) or it lacks a model or benchmark
    identifier; each line names the row's id, model and benchmark and why, e.g.
    ``"row 17 (pixels on Kiani2007.mIT-rdm): timestamp 'yesterday' is not an ISO 8601 time"``.
    """
    kept, skipped = [], []
    for row in rows:
        row = dict(row)
        model, benchmark = row.get("model_identifier"), row.get("benchmark_identifier")
        try:
            for name, value in (("model_identifier", model), ("benchmark_identifier", benchmark)):
                if not isinstance(value, str) or not value.strip():
                    raise ValueError(f"{name} {value!r} is not an identifier")
            row["timestamp"] = _timestamp(row.get("timestamp"))
        except ValueError as problem:
            skipped.append(f"row {row.get('id')!r} ({model} on {benchmark}): {problem}")
            continue
        kept.append(row)
    return kept, skipped


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
