"""The failed pairs of the results store, for the report: which pairs failed last, why (``failure_kind``: oom,
timeout, deterministic, transient), and with what error.

A pair appears when its newest row is a failure (a later score replaces it: a pair run again successfully is not
listed). The rows are what ``ResultStore.rows(status='failed')`` gives.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from .text import esc, format_time

__all__ = ["KIND_MEANING", "failures_section", "open_failures"]

KIND_MEANING = {
    "oom": "out of memory (refused by the preflight, MemoryError, or the worker killed for its memory)",
    "timeout": "out of time (TimeoutError, or the Slurm job reached its time limit)",
    "deterministic": "the same error on two attempts",
    "transient": "another error on the second attempt, or the worker lost for another reason",
}


def open_failures(failed: Iterable[Mapping[str, Any]], scored: Iterable[Mapping[str, Any]]) -> list[dict]:
    """The newest failure of each (model, benchmark) that has no score stored after it, newest first."""
    newest_score: dict[tuple[str, str], str] = {}
    for row in scored:
        key = (row.get("model_identifier"), row.get("benchmark_identifier"))
        newest_score[key] = max(newest_score.get(key, ""), str(row.get("timestamp") or ""))
    newest_failure: dict[tuple[str, str], dict] = {}
    for row in failed:
        key = (row.get("model_identifier"), row.get("benchmark_identifier"))
        if str(row.get("timestamp") or "") >= str(newest_failure.get(key, {}).get("timestamp") or ""):
            newest_failure[key] = dict(row)
    still = [row for key, row in newest_failure.items() if str(row.get("timestamp") or "") > newest_score.get(key, "")]
    return sorted(still, key=lambda row: str(row.get("timestamp") or ""), reverse=True)


def failures_section(rows: list[dict]) -> str:
    """Escaped HTML: a table of the open failures with their kinds and errors, and what each kind means; ``''``
    when there is none."""
    if not rows:
        return ""
    lines = []
    for row in rows:
        kind = row.get("failure_kind") or "-"
        error = f"{row.get('error_type') or ''}: {row.get('error_message') or ''}".strip(": ")
        lines.append(f"<tr data-kind=\"{esc(kind)}\"><td>{esc(row.get('model_identifier'))}</td>"
                     f"<td>{esc(row.get('benchmark_identifier'))}</td><td class=\"kind\">{esc(kind)}</td>"
                     f"<td>{esc(error)}</td><td>{esc(format_time(row.get('timestamp')))}</td></tr>")
    meanings = "".join(f"<dt>{esc(kind)}</dt><dd>{esc(text)}</dd>" for kind, text in KIND_MEANING.items())
    return ("<h2 id=\"failures\">Failed pairs</h2>\n"
            f"<p class=\"rule\">{esc(len(rows))} pair(s) whose newest row is a failure "
            "(brainscore results list --status failed lists every failed row).</p>\n"
            "<table id=\"failed-pairs\"><thead><tr><th>model</th><th>benchmark</th><th>kind</th><th>error</th>"
            "<th>when</th></tr></thead><tbody>" + "".join(lines) + "</tbody></table>\n"
            f"<dl class=\"facts\" id=\"failure-kinds\">{meanings}</dl>")
