"""One results-store row as plain data: what :class:`~brainscore_core.results.ResultStore` inserts, what a side
file holds when the store cannot be written, and what ``brainscore results import`` reads back."""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any

import numpy as np
import xarray as xr

from brainscore_core.errors import NonScalarScoreError
from brainscore_core.score import score_center_error

__all__ = ["TRACEBACK_CHARS", "failure_row", "failure_traceback", "row_from_json", "row_to_json", "score_row"]

TRACEBACK_CHARS = 20_000
"""A failed row keeps at most this many characters of its traceback (the end: where it failed)."""

def _number(value: Any) -> float | None:
    """A finite float, or None (SQL NULL) for None / NaN / inf."""
    if value is None:
        return None
    if isinstance(value, xr.DataArray):
        if value.size != 1:
            raise NonScalarScoreError(f"expected a single value, got an array of shape {value.shape}")
        value = value.values.reshape(-1)[0]
    number = float(value)
    return number if math.isfinite(number) else None


def _json(value: Any) -> str | None:
    return None if value is None else json.dumps(value, sort_keys=True, default=_json_default)


def _json_default(value: Any) -> Any:
    if isinstance(value, np.generic):
        return value.item()
    if isinstance(value, (np.ndarray, xr.DataArray)):
        return np.asarray(value).tolist()
    return str(value)


_SKIP = object()


def _jsonable(value: Any) -> Any:
    """``value`` as plain JSON (numbers, strings, lists, dicts; NaN/inf -> None), or ``_SKIP`` when it is
    not plain data (DataArrays such as the raw Score or the ceiling, arbitrary objects)."""
    if value is None or isinstance(value, (str, bool)):
        return value
    if isinstance(value, (int, float, np.number, np.bool_)):
        value = value.item() if isinstance(value, np.generic) else value
        return None if isinstance(value, float) and not math.isfinite(value) else value
    if isinstance(value, np.ndarray):
        value = value.tolist()
    if isinstance(value, (list, tuple)):
        items = [_jsonable(item) for item in value]
        return _SKIP if any(item is _SKIP for item in items) else items
    if isinstance(value, Mapping):
        entries = {str(key): _jsonable(item) for key, item in value.items()}
        return _SKIP if any(item is _SKIP for item in entries.values()) else entries
    return _SKIP


def _plain_attrs(attrs: Mapping[str, Any]) -> dict[str, Any]:
    """The attrs that are plain JSON data (numbers, strings, lists, dicts); Scores and objects are left out."""
    plain = {}
    for key, value in attrs.items():
        converted = _jsonable(value)
        if converted is not _SKIP:
            plain[str(key)] = converted
    return plain


def _common(model_identifier: str, benchmark_identifier: str, benchmark_version: Any, *,
            benchmark_parent: str | None, layer_map: Mapping[str, str] | None, provenance: Mapping[str, Any] | None,
            elapsed_s: float | None, model_digest: str | None, versions: Mapping[str, str] | None,
            timestamp: datetime | None) -> dict[str, Any]:
    try:
        version = int(benchmark_version)
    except (TypeError, ValueError):
        raise ValueError(f"benchmark_version of {benchmark_identifier!r} must be an integer, "
                         f"got {benchmark_version!r}") from None
    return {"model_identifier": model_identifier, "benchmark_identifier": benchmark_identifier,
            "benchmark_version": version, "benchmark_parent": benchmark_parent,
            "layer_map": _json(dict(layer_map)) if layer_map is not None else None,
            "provenance": _json(dict(provenance)) if provenance is not None else None,
            "elapsed_s": _number(elapsed_s), "model_digest": model_digest,
            "versions": _json(dict(versions)) if versions is not None else None,
            "timestamp": timestamp or datetime.now(UTC)}


def score_row(score: Any, *, model_identifier: str, benchmark_identifier: str, benchmark_version: int,
              comment: str | None = None, provenance: Mapping[str, Any] | None = None,
              benchmark_parent: str | None = None, layer_map: Mapping[str, str] | None = None,
              timestamp: datetime | None = None, elapsed_s: float | None = None, model_digest: str | None = None,
              versions: Mapping[str, str] | None = None) -> dict[str, Any]:
    """The row of a successful score (``status='ok'``); see :meth:`ResultStore.add` for the columns."""
    ceiled, error = score_center_error(score)
    attrs = getattr(score, "attrs", {})
    raw = attrs.get("raw")
    ceiling = attrs.get("ceiling")
    ceiling_value, ceiling_error = score_center_error(ceiling) if isinstance(ceiling, xr.DataArray) else (
        ceiling, None)
    if provenance is None and isinstance(attrs.get("provenance"), Mapping):
        provenance = attrs["provenance"]
    row = _common(model_identifier, benchmark_identifier, benchmark_version, benchmark_parent=benchmark_parent,
                  layer_map=layer_map, provenance=provenance, elapsed_s=elapsed_s, model_digest=model_digest,
                  versions=versions, timestamp=timestamp)
    row.update({
        "score_raw": _number(score_center_error(raw)[0]) if isinstance(raw, xr.DataArray) else _number(raw),
        "score_ceiled": _number(ceiled), "error": _number(error),
        "ceiling": _number(ceiling_value), "ceiling_error": _number(ceiling_error),
        "comment": comment if comment is not None else attrs.get("comment"),
        "attrs": _json(_plain_attrs(attrs)),  # plain data only: raw and ceiling have their columns
        "status": "ok", "error_type": None, "error_message": None, "failure_kind": None})
    return row


def failure_row(error: BaseException, *, model_identifier: str, benchmark_identifier: str,
                benchmark_version: int | None = None, benchmark_parent: str | None = None,
                elapsed_s: float | None = None, model_digest: str | None = None,
                versions: Mapping[str, str] | None = None, timestamp: datetime | None = None,
                failure_kind: str | None = None) -> dict[str, Any]:
    """The row of a pair that failed (``status='failed'``, the error's type and first line, ``failure_kind``: one of
    :data:`~brainscore_core.failure_kinds.FAILURE_KINDS`; no numbers). Its ``provenance`` keeps the error's whole
    traceback (``{"traceback": ...}``, the last :data:`TRACEBACK_CHARS` characters), which ``brainscore score -v``
    prints. ``benchmark_version`` None (the benchmark did not load) is stored as 0."""
    import traceback

    trace = "".join(traceback.format_exception(error)).rstrip()[-TRACEBACK_CHARS:]
    row = _common(model_identifier, benchmark_identifier, 0 if benchmark_version is None else benchmark_version,
                  benchmark_parent=benchmark_parent, layer_map=None, provenance={"traceback": trace},
                  elapsed_s=elapsed_s, model_digest=model_digest, versions=versions, timestamp=timestamp)
    message = str(error).strip()
    row.update({"score_raw": None, "score_ceiled": None, "error": None, "ceiling": None, "ceiling_error": None,
                "comment": None, "attrs": None, "status": "failed", "error_type": type(error).__name__,
                "error_message": message.splitlines()[0][:2000] if message else "", "failure_kind": failure_kind})
    return row


def failure_traceback(row: Mapping[str, Any]) -> str | None:
    """The traceback a failed row keeps (:func:`failure_row`), or None."""
    provenance = row.get("provenance")
    if isinstance(provenance, str):
        try:
            provenance = json.loads(provenance)
        except ValueError:
            return None
    trace = provenance.get("traceback") if isinstance(provenance, Mapping) else None
    return trace if isinstance(trace, str) else None


def row_to_json(row: Mapping[str, Any]) -> str:
    """One line of JSON (a side file's line); the timestamp as ISO 8601."""
    return json.dumps({key: value.isoformat() if isinstance(value, datetime) else value
                       for key, value in row.items() if key != "id"}, sort_keys=True)


def row_from_json(line: str) -> dict[str, Any]:
    """The row of :func:`row_to_json`'s line, ready to insert."""
    row = json.loads(line)
    if not isinstance(row, dict) or "model_identifier" not in row or "benchmark_identifier" not in row:
        raise ValueError("not a results row (needs model_identifier and benchmark_identifier)")
    row["timestamp"] = datetime.fromisoformat(row["timestamp"]) if row.get("timestamp") else datetime.now(UTC)
    return row
