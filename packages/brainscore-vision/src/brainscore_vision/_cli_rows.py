"""Turning Scores into table rows for the command line."""

from __future__ import annotations

import math
from typing import Any

from brainscore_core.deprecation import deprecated_alias
from brainscore_core.display import display_text
from brainscore_core.score import score_value

__all__ = ["format_table", "score_table_row", "table_row", "to_float"]

COLUMNS = ("model", "benchmark", "raw", "ceiling", "score", "rule", "error", "layers", "elapsed")

to_float = deprecated_alias(score_value, "brainscore_vision._cli_rows.to_float", "brainscore_core.score.score_value")


def normalization_of(score) -> str:
    """How the ceiled score follows from raw and ceiling (the benchmark's ``attrs['normalization']``)."""
    rule = getattr(score, "attrs", {}).get("normalization")
    if rule is None:
        return "-"
    return str(rule).replace("^2", "²")


#: printed under the table: every rule a built-in benchmark uses
NORMALIZATION_NOTE = ("ceiled score = the 'rule' column: raw² / ceiling (neural predictivity, explained variance), "
                      "raw / ceiling (RSA, error consistency, accuracy distance and delta, confusion similarity), "
                      "(raw / ceiling)² (Coggan2024 fMRI and behaviour), (raw - 1/3) / (ceiling - 1/3) (Hebart2023 "
                      "odd-one-out), none (ceiling 1); clipped to [0, 1] where the benchmark clips")


def score_table_row(model: str, benchmark: str, score, elapsed: float, layer_map=None) -> dict[str, Any]:
    """One row of the command line's table from a Score: model, benchmark, raw, ceiling, ceiled score, error, layer
    map, elapsed seconds (the stored row of a score is :func:`brainscore_core.result_rows.score_row`)."""
    attrs = getattr(score, "attrs", {})
    return {
        "model": model,
        "benchmark": benchmark,
        "raw": score_value(attrs.get("raw")),
        "ceiling": score_value(attrs.get("ceiling")),
        "score": score_value(score),
        "rule": normalization_of(score),
        "error": score_value(attrs.get("error")),
        "layers": ", ".join(f"{region}: {layer}" for region, layer in dict(layer_map or {}).items()) or "-",
        "elapsed": elapsed,
    }


def table_row(result: dict[str, Any]) -> dict[str, Any]:
    """A table row from one grid result (``brainscore_core.grid``): its stored row's numbers, rule and layers."""
    import json

    row = result.get("row") or {}
    attrs = json.loads(row["attrs"]) if row.get("attrs") else {}
    layers = json.loads(row["layer_map"]) if row.get("layer_map") else {}
    return {"model": result["model"], "benchmark": result["benchmark"], "raw": score_value(row.get("score_raw")),
            "ceiling": score_value(row.get("ceiling")), "score": score_value(row.get("score_ceiled")),
            "rule": str(attrs.get("normalization", "-")).replace("^2", "²"), "error": score_value(row.get("error")),
            "layers": ", ".join(f"{region}: {layer}" for region, layer in layers.items()) or "-",
            "elapsed": "skipped" if result.get("status") == "skipped" else score_value(result.get("elapsed_s")),
            "status": result.get("status", "ok")}


def _cell(value: Any, column: str) -> str:
    if isinstance(value, float):
        if math.isnan(value):
            return "-"
        return f"{value:.1f}s" if column == "elapsed" else f"{value:.4f}"
    return display_text(value)  # layer names come from the store: no control character reaches the terminal


def format_table(rows: list[dict[str, Any]]) -> str:
    """Rows as a fixed-width text table (numbers to 4 decimals, NaN shown as '-', control characters escaped)."""
    cells = [[_cell(row.get(column), column) for column in COLUMNS] for row in rows]
    headers = ["model", "benchmark", "raw", "ceiling", "ceiled score", "rule", "error", "layer map", "elapsed"]
    widths = [max(len(h), *(len(r[i]) for r in cells)) if cells else len(h) for i, h in enumerate(headers)]
    numeric = {2, 3, 4, 6, 8}

    def line(values):
        return "  ".join(v.rjust(w) if i in numeric else v.ljust(w) for i, (v, w) in enumerate(zip(values, widths)))

    return "\n".join([line(headers), line(["-" * w for w in widths]), *(line(r) for r in cells), "",
                      NORMALIZATION_NOTE])
