"""The results store's table: its columns (the schema of every format) and the row filters of its queries.

:mod:`brainscore_core.results` creates, migrates and reads it; the report reads rows through it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import sqlalchemy as sa

__all__ = ["ADDED_COLUMNS", "COLUMNS", "filtered", "scores_table"]

_metadata = sa.MetaData()
scores_table = sa.Table(
    "scores", _metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("model_identifier", sa.String(512), nullable=False, index=True),
    sa.Column("benchmark_identifier", sa.String(512), nullable=False, index=True),
    sa.Column("benchmark_version", sa.Integer, nullable=False),
    sa.Column("benchmark_parent", sa.String(512)),
    sa.Column("score_raw", sa.Float),
    sa.Column("score_ceiled", sa.Float),
    sa.Column("error", sa.Float),
    sa.Column("ceiling", sa.Float),
    sa.Column("ceiling_error", sa.Float),
    sa.Column("comment", sa.Text),
    sa.Column("layer_map", sa.Text),
    sa.Column("provenance", sa.Text),
    sa.Column("attrs", sa.Text),
    sa.Column("timestamp", sa.DateTime(timezone=True), nullable=False),
    # added in format 2 (older stores gain them on first write): one scoring path stores timings, versions,
    # the model's content digest (for resuming grids) and failed pairs
    sa.Column("status", sa.String(16)),
    sa.Column("error_type", sa.String(256)),
    sa.Column("error_message", sa.Text),
    sa.Column("elapsed_s", sa.Float),
    sa.Column("model_digest", sa.String(128), index=True),
    sa.Column("versions", sa.Text),
    # added in format 3 (issue 40): why a failed pair failed (oom, timeout, deterministic, transient)
    sa.Column("failure_kind", sa.String(16)),
)
#: columns a store created before format 2 (or 3) lacks; added with ALTER TABLE on first write. A store opened read
#: only is not changed: its missing columns read as None.
ADDED_COLUMNS = ("status", "error_type", "error_message", "elapsed_s", "model_digest", "versions", "failure_kind")
COLUMNS: tuple[str, ...] = tuple(column.name for column in scores_table.columns)


def filtered(statement: Any, *, model_identifier: str | Sequence[str] | None,
           benchmark_identifier: str | Sequence[str] | None, benchmark_version: int | None, status: str | None,
           ids: Sequence[int] | None, present: frozenset[str] = frozenset(COLUMNS)) -> Any:
    """``statement`` (a select or delete on the scores table) restricted by the filters of :meth:`ResultStore.rows`
    (``present``: the columns the table has; a store written before format 2 has no status: every row is a score)."""
    for column, value in (("model_identifier", model_identifier), ("benchmark_identifier", benchmark_identifier)):
        if isinstance(value, str):
            statement = statement.where(scores_table.c[column] == value)
        elif value is not None:
            statement = statement.where(scores_table.c[column].in_(list(value)))
    if benchmark_version is not None:
        statement = statement.where(scores_table.c.benchmark_version == int(benchmark_version))
    if ids is not None:
        statement = statement.where(scores_table.c.id.in_([int(identifier) for identifier in ids]))
    if "status" not in present:
        return statement if status in (None, "ok") else statement.where(sa.false())
    if status == "ok":
        statement = statement.where(sa.or_(scores_table.c.status == "ok", scores_table.c.status.is_(None)))
    elif status is not None:
        statement = statement.where(scores_table.c.status == status)
    return statement
