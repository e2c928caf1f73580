"""Results store: one row per score, in SQLite (the embedded default) or any SQLAlchemy database.

Configuration, first match wins: the ``url`` argument; env ``BRAINSCORE_RESULTS_URL`` (any SQLAlchemy URL,
e.g. ``postgresql+psycopg://user@host:5432/db``); the SQLite file ``$BRAINSCORE_HOME/results.sqlite``.
SQLite runs in WAL mode with a busy timeout, so several processes can write at once without losing rows.
"""

from __future__ import annotations

import json
import math
import os
from collections.abc import Mapping
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np
import sqlalchemy as sa
import xarray as xr

from brainscore_core._files import brainscore_home
from brainscore_core.errors import NonScalarScoreError
from brainscore_core.score import score_center_error

__all__ = ["COLUMNS", "RESULTS_URL_ENV", "ResultStore", "default_url", "scores_table", "ResultStoreNotFoundError"]

RESULTS_URL_ENV = "BRAINSCORE_RESULTS_URL"
SQLITE_BUSY_TIMEOUT_S = 60

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
)
COLUMNS: tuple[str, ...] = tuple(column.name for column in scores_table.columns)


def default_url() -> str:
    """``$BRAINSCORE_RESULTS_URL``, else ``sqlite:///$BRAINSCORE_HOME/results.sqlite``."""
    url = os.environ.get(RESULTS_URL_ENV)
    if url:
        return url
    return f"sqlite:///{brainscore_home() / 'results.sqlite'}"


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


class ResultStoreNotFoundError(FileNotFoundError):
    """A read-only use of the results store found no store (or no scores table) at the URL."""


class ResultStore:
    """Scores in a database table ``scores``.

    Parameters
    ----------
    url : str or None, default=None
        SQLAlchemy URL. None means env ``BRAINSCORE_RESULTS_URL``, else the SQLite file
        ``$BRAINSCORE_HOME/results.sqlite``.

    Notes
    -----
    Create one store per process (engines are not shared across ``fork``). Rows are appended, never
    updated; :meth:`rows` returns them oldest first.
    """

    def __init__(self, url: str | None = None, *, read_only: bool = False):
        self.url = url or default_url()
        self.read_only = read_only
        self._engine: sa.Engine | None = None

    @property
    def engine(self) -> sa.Engine:
        if self._engine is None:
            engine = self._create_engine()
            if self.read_only:
                if not sa.inspect(engine).has_table(scores_table.name):
                    engine.dispose()
                    raise ResultStoreNotFoundError(f"the results store {self.url} has no scores table: nothing has "
                                                   "been stored there (check the URL)")
            else:
                self._create_table(engine)
            self._engine = engine
        return self._engine

    def _create_engine(self) -> sa.Engine:
        url = sa.make_url(self.url)
        if url.get_backend_name() != "sqlite":
            return sa.create_engine(url, pool_pre_ping=True)
        if url.database and url.database != ":memory:":
            database = Path(url.database).expanduser()
            if self.read_only and not database.is_file():
                # a read-only command (the report) never creates a store, nor the folders of a mistyped URL
                raise ResultStoreNotFoundError(f"no results store at {database} (URL {self.url}); score something "
                                               "first, or check the URL")
            if not self.read_only:
                database.parent.mkdir(parents=True, exist_ok=True)
        engine = sa.create_engine(url, connect_args={"timeout": SQLITE_BUSY_TIMEOUT_S})

        @sa.event.listens_for(engine, "connect")
        def _configure(dbapi_connection: Any, _record: Any) -> None:
            cursor = dbapi_connection.cursor()
            cursor.execute(f"PRAGMA busy_timeout = {SQLITE_BUSY_TIMEOUT_S * 1000}")
            cursor.execute("PRAGMA journal_mode = WAL")
            cursor.execute("PRAGMA synchronous = NORMAL")
            cursor.close()

        return engine

    @staticmethod
    def _create_table(engine: sa.Engine) -> None:
        try:
            _metadata.create_all(engine, checkfirst=True)
        except sa.exc.DatabaseError:
            # another process created it between our check and our CREATE: fine if it exists now
            if not sa.inspect(engine).has_table(scores_table.name):
                raise

    def add(self, score: Any, *, model_identifier: str, benchmark_identifier: str, benchmark_version: int,
            comment: str | None = None, provenance: Mapping[str, Any] | None = None,
            benchmark_parent: str | None = None, layer_map: Mapping[str, str] | None = None,
            timestamp: datetime | None = None) -> int:
        """Append one score; returns the new row's id.

        Parameters
        ----------
        score : Score
            Ceiled 0-d score (current or legacy ``aggregation`` form). ``score_ceiled`` = its value,
            ``error`` = its error, ``score_raw`` = value of ``attrs['raw']``, ``ceiling`` and
            ``ceiling_error`` = value and error of ``attrs['ceiling']`` (NULL where absent or NaN).
        model_identifier, benchmark_identifier : str
            What was scored.
        benchmark_version : int
            Version of the benchmark.
        comment : str or None, default=None
            Free text; default ``score.attrs['comment']`` (e.g. ``"layers: {...}"``).
        provenance : mapping or None, default=None
            Digests of what produced the score (data, model weights, code versions); stored as JSON.
            Default ``score.attrs['provenance']`` when that is a mapping.
        benchmark_parent : str or None, default=None
            Leaderboard parent of the benchmark.
        layer_map : mapping or None, default=None
            Region -> layer committed by the model; stored as JSON.
        timestamp : datetime or None, default=None
            When the score was made; default now (UTC).
        """
        try:
            version = int(benchmark_version)
        except (TypeError, ValueError):
            raise ValueError(f"benchmark_version of {benchmark_identifier!r} must be an integer, "
                             f"got {benchmark_version!r}") from None
        ceiled, error = score_center_error(score)
        attrs = getattr(score, "attrs", {})
        raw = attrs.get("raw")
        ceiling = attrs.get("ceiling")
        ceiling_value, ceiling_error = score_center_error(ceiling) if isinstance(ceiling, xr.DataArray) else (
            ceiling, None)
        if provenance is None and isinstance(attrs.get("provenance"), Mapping):
            provenance = attrs["provenance"]
        row = {
            "model_identifier": model_identifier,
            "benchmark_identifier": benchmark_identifier,
            "benchmark_version": version,
            "benchmark_parent": benchmark_parent,
            "score_raw": _number(score_center_error(raw)[0]) if isinstance(raw, xr.DataArray) else _number(raw),
            "score_ceiled": _number(ceiled),
            "error": _number(error),
            "ceiling": _number(ceiling_value),
            "ceiling_error": _number(ceiling_error),
            "comment": comment if comment is not None else attrs.get("comment"),
            "layer_map": _json(dict(layer_map)) if layer_map is not None else None,
            "provenance": _json(dict(provenance)) if provenance is not None else None,
            "attrs": _json(_plain_attrs(attrs)),  # plain data only: raw and ceiling have their columns
            "timestamp": timestamp or datetime.now(UTC),
        }
        with self.engine.begin() as connection:
            result = connection.execute(sa.insert(scores_table).values(**row))
            return int(result.inserted_primary_key[0])

    def rows(self, *, model_identifier: str | None = None, benchmark_identifier: str | None = None,
             benchmark_version: int | None = None) -> list[dict[str, Any]]:
        """Rows matching every given filter, oldest first.

        Returns
        -------
        list of dict
            Keys ``COLUMNS``: id, model_identifier, benchmark_identifier, benchmark_version,
            benchmark_parent, score_raw, score_ceiled, error, ceiling, ceiling_error, comment, layer_map
            (JSON text), provenance (JSON text), attrs (JSON text), timestamp (ISO 8601 string, UTC).
            Missing and NaN numbers are None.
        """
        query = sa.select(scores_table).order_by(scores_table.c.id)
        for column, value in (("model_identifier", model_identifier),
                              ("benchmark_identifier", benchmark_identifier),
                              ("benchmark_version", benchmark_version)):
            if value is not None:
                query = query.where(scores_table.c[column] == value)
        with self.engine.connect() as connection:
            rows = [dict(row._mapping) for row in connection.execute(query)]
        for row in rows:
            stamp = row["timestamp"]
            if stamp.tzinfo is None:  # SQLite keeps no time zone; we always write UTC
                stamp = stamp.replace(tzinfo=UTC)
            row["timestamp"] = stamp.astimezone(UTC).isoformat()
        return rows

    def count(self) -> int:
        """Number of rows."""
        with self.engine.connect() as connection:
            return int(connection.execute(sa.select(sa.func.count()).select_from(scores_table)).scalar_one())

    def dispose(self) -> None:
        """Close the engine's connections."""
        if self._engine is not None:
            self._engine.dispose()

    def __repr__(self) -> str:
        return f"ResultStore({sa.make_url(self.url).render_as_string(hide_password=True)!r})"
