"""Turning Scores into table rows for the command line."""

from __future__ import annotations

import math
from typing import Any

from brainscore_core.score import score_value
from brainscore_core.scoring import model_layers  # the one definition, re-exported for the CLI

__all__ = ["format_table", "model_layers", "score_row", "store_arguments", "table_row", "to_float"]

COLUMNS = ("model", "benchmark", "raw", "ceiling", "score", "rule", "error", "layers", "elapsed")


to_float = score_value  # a number from a Score, DataArray, numpy scalar or float; NaN when there is none


def normalization_of(score) -> str:
    """How the ceiled score follows from raw and ceiling (the benchmark's ``attrs['normalization']``)."""
    rule = getattr(score, "attrs", {}).get("normalization")
    if rule is None:
        return "-"
    return str(rule).replace("^2", "²")


#: printed under the table: every rule a built-in benchmark uses
NORMALIZATION_NOTE = ("ceiled score = the 'rule' column: raw² / ceiling (neural predictivity, explained variance), "
                      "raw / ceiling (RSA, error consistency), (raw / ceiling)² (Coggan2024 fMRI), none (ceiling 1); "
                      "clipped to [0, 1] where the benchmark clips")


def score_row(model: str, benchmark: str, score, elapsed: float, layer_map=None) -> dict[str, Any]:
    """One table row: model, benchmark, raw, ceiling, ceiled score, error, layer map, elapsed seconds."""
    attrs = getattr(score, "attrs", {})
    return {
        "model": model,
        "benchmark": benchmark,
        "raw": to_float(attrs.get("raw")),
        "ceiling": to_float(attrs.get("ceiling")),
        "score": to_float(score),
        "rule": normalization_of(score),
        "error": to_float(attrs.get("error")),
        "layers": ", ".join(f"{region}: {layer}" for region, layer in dict(layer_map or {}).items()) or "-",
        "elapsed": elapsed,
    }


def table_row(result: dict[str, Any]) -> dict[str, Any]:
    """A table row from one grid result (``brainscore_core.grid``): its stored row's numbers, rule and layers."""
    import json

    row = result.get("row") or {}
    attrs = json.loads(row["attrs"]) if row.get("attrs") else {}
    layers = json.loads(row["layer_map"]) if row.get("layer_map") else {}
    return {"model": result["model"], "benchmark": result["benchmark"], "raw": to_float(row.get("score_raw")),
            "ceiling": to_float(row.get("ceiling")), "score": to_float(row.get("score_ceiled")),
            "rule": str(attrs.get("normalization", "-")).replace("^2", "²"), "error": to_float(row.get("error")),
            "layers": ", ".join(f"{region}: {layer}" for region, layer in layers.items()) or "-",
            "elapsed": to_float(result.get("elapsed_s")),
            "status": result.get("status", "ok")}


def store_arguments(result, *, model, benchmark, model_identifier: str, benchmark_identifier: str,
                    provenance: dict[str, Any] | None = None) -> dict[str, Any]:
    """Keyword arguments of ``ResultStore.add`` for one scored pair; also records the model's layer map
    (``attrs['comment']``) and layer-selection profiles (``attrs['layer_scores']``) on ``result``.

    The benchmark version defaults to 1 when the benchmark has none (the store needs an integer).
    """
    layer_map, layer_scores = model_layers(model)
    result.attrs["model_identifier"] = model_identifier
    result.attrs["benchmark_identifier"] = benchmark_identifier
    if layer_map:
        result.attrs["comment"] = f"layers: {layer_map}"
    if layer_scores:
        result.attrs["layer_scores"] = layer_scores
    version = getattr(benchmark, "version", None)
    return {"model_identifier": model_identifier, "benchmark_identifier": benchmark_identifier,
            "benchmark_version": 1 if version is None else version,
            "benchmark_parent": getattr(benchmark, "parent", None), "layer_map": layer_map or None,
            "comment": result.attrs.get("comment"), "provenance": provenance}


def _cell(value: Any, column: str) -> str:
    if isinstance(value, float):
        if math.isnan(value):
            return "-"
        return f"{value:.1f}s" if column == "elapsed" else f"{value:.4f}"
    return str(value)


def format_table(rows: list[dict[str, Any]]) -> str:
    """Rows as a fixed-width text table (numbers to 4 decimals, NaN shown as '-')."""
    cells = [[_cell(row.get(column), column) for column in COLUMNS] for row in rows]
    headers = ["model", "benchmark", "raw", "ceiling", "ceiled score", "rule", "error", "layer map", "elapsed"]
    widths = [max(len(h), *(len(r[i]) for r in cells)) if cells else len(h) for i, h in enumerate(headers)]
    numeric = {2, 3, 4, 6, 8}

    def line(values):
        return "  ".join(v.rjust(w) if i in numeric else v.ljust(w) for i, (v, w) in enumerate(zip(values, widths)))

    return "\n".join([line(headers), line(["-" * w for w in widths]), *(line(r) for r in cells), "",
                      NORMALIZATION_NOTE])
