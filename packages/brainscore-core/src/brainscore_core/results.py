"""Results store: one row per score, in SQLite (the embedded default) or any SQLAlchemy database.

Configuration, first match wins: the ``url`` argument; env ``BRAINSCORE_RESULTS_URL`` (any SQLAlchemy URL,
e.g. ``postgresql+psycopg://user@host:5432/db``); the SQLite file ``$BRAINSCORE_HOME/results.sqlite``.
SQLite runs in WAL mode with a busy timeout, so several processes can write at once without losing rows (the switch
to WAL of a new file is tried again while another process writes to it). A damaged
SQLite file is refused when opened (``PRAGMA quick_check``: :mod:`brainscore_core._store_integrity`).
"""

from __future__ import annotations

import contextlib
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import sqlalchemy as sa

from brainscore_core._scores_table import ADDED_COLUMNS, COLUMNS, filtered, scores_table
from brainscore_core._store_integrity import refuse_if_damaged, salvaged_rows
from brainscore_core.config import brainscore_home, results_url
from brainscore_core.display import display_url
from brainscore_core.errors import ResultStoreError, ResultStoreNotFoundError

__all__ = ["COLUMNS", "ResultStore", "ResultStoreError", "ResultStoreNotFoundError", "default_url",
           "scores_table"]

SQLITE_BUSY_TIMEOUT_S = 60

def default_url() -> str:
    """``$BRAINSCORE_RESULTS_URL``, else ``sqlite:///$BRAINSCORE_HOME/results.sqlite``."""
    url = results_url()
    if url:
        return url
    return f"sqlite:///{brainscore_home() / 'results.sqlite'}"


def _driver_install(module: str | None) -> str:
    if module and module.split(".")[0] in ("psycopg", "psycopg2"):
        return "pip install -c constraints.txt './packages/brainscore-core[postgres]' (from the repository root)"
    return f"pip install {module or 'the driver of this URL'}"


def _use_wal(cursor: Any) -> None:
    """Put the SQLite file in WAL mode (it stays so: a file already in it is left alone). Switching needs the file to
    itself, and SQLite answers "database is locked" at once, without its busy timeout, while another process writes
    (two grid workers creating a new store together): tried again until :data:`SQLITE_BUSY_TIMEOUT_S`."""
    import sqlite3
    import time

    deadline, pause = time.monotonic() + SQLITE_BUSY_TIMEOUT_S, 0.01
    while True:
        try:
            # an in-memory database answers 'memory'; a file that could not switch, its old mode: try again
            if cursor.execute("PRAGMA journal_mode").fetchone()[0] in ("wal", "memory") or \
                    cursor.execute("PRAGMA journal_mode = WAL").fetchone()[0] in ("wal", "memory"):
                return
        except sqlite3.OperationalError as error:
            if "locked" not in str(error):
                raise
        if time.monotonic() > deadline:
            raise sqlite3.OperationalError(f"database is locked: still not in WAL mode after {SQLITE_BUSY_TIMEOUT_S} s")
        time.sleep(pause)
        pause = min(pause * 2, 0.5)


def _store_error(store: ResultStore, action: str, error: BaseException) -> ResultStoreError:
    first = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
    return ResultStoreError(f"cannot {action} the results store {store!r}: {type(error).__name__}: {first}")


class ResultStore:
    """Scores in a database table ``scores``.

    Parameters
    ----------
    url : str or None, default=None
        SQLAlchemy URL. None means env ``BRAINSCORE_RESULTS_URL``, else the SQLite file
        ``$BRAINSCORE_HOME/results.sqlite``.
    read_only : bool, default=False
        Never create a store or its table (the report, listing, export).
    salvage : bool, default=False
        Read-only; a damaged SQLite file is read from a copy (``rows`` gives its readable rows, with a warning naming
        the ids lost) instead of refused (``brainscore results export``).

    Notes
    -----
    Create one store per process (engines are not shared across ``fork``). Rows are appended, never
    updated; :meth:`rows` returns them oldest first.
    """

    def __init__(self, url: str | None = None, *, read_only: bool = False, salvage: bool = False):
        self.url = url or default_url()
        self.read_only = read_only or salvage
        self.salvage = salvage
        self._damage: str | None = None
        self._engine: sa.Engine | None = None
        self._present: frozenset[str] = frozenset(COLUMNS)  # the table's columns (fewer in an old store read only)

    @property
    def engine(self) -> sa.Engine:
        if self._engine is None:
            try:
                engine = self._create_engine()
                self._damage = refuse_if_damaged(self.url, salvage=self.salvage)  # salvage: rows() reads a copy
                if self._damage is None and self.read_only:
                    if not sa.inspect(engine).has_table(scores_table.name):
                        engine.dispose()
                        raise ResultStoreNotFoundError(f"the results store {display_url(self.url)} has no scores "
                                                       "table: nothing has been stored there (check the URL)")
                    self._present = frozenset(column["name"] for column in
                                              sa.inspect(engine).get_columns(scores_table.name))
                elif self._damage is None:
                    self._create_table(engine)
            except ResultStoreError:
                raise
            except ImportError as error:  # the database's driver is an optional dependency
                raise ResultStoreError(f"the results store {self!r} needs the database driver {error.name!r}, which "
                                       f"is not installed: {_driver_install(error.name)}") from error
            except (sa.exc.SQLAlchemyError, OSError) as error:
                raise _store_error(self, "open", error) from error
            self._engine = engine
        return self._engine

    def check(self) -> None:
        """Open the store and prove it can be read and written (a transaction that writes nothing): call before
        long work, so that a locked or damaged store fails before scoring, not after.

        Raises
        ------
        ResultStoreError
            Naming the URL and the database's reason.
        """
        try:
            with self.engine.connect() as connection:
                connection.execute(sa.select(sa.func.count()).select_from(scores_table)).scalar_one()
            if not self.read_only:  # takes the write lock, changes nothing
                with self.engine.begin() as connection:
                    connection.execute(sa.delete(scores_table).where(scores_table.c.id < 0))
        except ResultStoreError:
            raise
        except sa.exc.SQLAlchemyError as error:
            raise _store_error(self, "check", error) from error

    def _create_engine(self) -> sa.Engine:
        url = sa.make_url(self.url)
        if url.get_backend_name() != "sqlite":
            return sa.create_engine(url, pool_pre_ping=True)
        if url.database and url.database != ":memory:":
            database = Path(url.database).expanduser()
            if self.read_only and not database.is_file():
                # a read-only command (the report) never creates a store, nor the folders of a mistyped URL
                raise ResultStoreNotFoundError(f"no results store at {database} (URL {display_url(self.url)}); "
                                               "score something first, or check the URL")
            if not self.read_only:
                database.parent.mkdir(parents=True, exist_ok=True)
        engine = sa.create_engine(url, connect_args={"timeout": SQLITE_BUSY_TIMEOUT_S})

        @sa.event.listens_for(engine, "connect")
        def _configure(dbapi_connection: Any, _record: Any) -> None:
            cursor = dbapi_connection.cursor()
            cursor.execute(f"PRAGMA busy_timeout = {SQLITE_BUSY_TIMEOUT_S * 1000}")
            _use_wal(cursor)
            cursor.execute("PRAGMA synchronous = NORMAL")
            cursor.close()

        return engine

    @staticmethod
    def _create_table(engine: sa.Engine) -> None:
        try:
            scores_table.metadata.create_all(engine, checkfirst=True)
        except sa.exc.DatabaseError:
            # another process created it between our check and our CREATE: fine if it exists now
            if not sa.inspect(engine).has_table(scores_table.name):
                raise
        present = {column["name"] for column in sa.inspect(engine).get_columns(scores_table.name)}
        for name in ADDED_COLUMNS:
            if name not in present:  # a store written before format 2
                column_type = scores_table.c[name].type.compile(engine.dialect)
                with contextlib.suppress(sa.exc.DatabaseError), engine.begin() as connection:  # or another process
                    connection.execute(sa.text(f"ALTER TABLE {scores_table.name} ADD COLUMN {name} {column_type}"))

    def add(self, score: Any, *, model_identifier: str, benchmark_identifier: str, benchmark_version: int,
            comment: str | None = None, provenance: Mapping[str, Any] | None = None,
            benchmark_parent: str | None = None, layer_map: Mapping[str, str] | None = None,
            timestamp: datetime | None = None, elapsed_s: float | None = None, model_digest: str | None = None,
            versions: Mapping[str, str] | None = None) -> int:
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
        elapsed_s : float or None, default=None
            Seconds the scoring took.
        model_digest : str or None, default=None
            Digest of the model's content (weights, preprocessing); grids skip pairs already stored with it.
        versions : mapping or None, default=None
            Package versions that produced the score; stored as JSON.

        Raises
        ------
        ResultStoreError
            The store cannot be written (locked beyond the busy timeout, damaged, unreachable).
        """
        # imported here: reading, listing and deleting rows need no numpy or xarray
        from brainscore_core.result_rows import score_row

        return self.insert(score_row(score, model_identifier=model_identifier,
                                     benchmark_identifier=benchmark_identifier, benchmark_version=benchmark_version,
                                     comment=comment, provenance=provenance, benchmark_parent=benchmark_parent,
                                     layer_map=layer_map, timestamp=timestamp, elapsed_s=elapsed_s,
                                     model_digest=model_digest, versions=versions))

    def insert(self, row: Mapping[str, Any]) -> int:
        """Insert a prepared row (:mod:`brainscore_core.result_rows`); returns its id. Raises ResultStoreError."""
        values = {key: value for key, value in row.items() if key in scores_table.c and key != "id"}
        try:
            with self.engine.begin() as connection:
                result = connection.execute(sa.insert(scores_table).values(**values))
                return int(result.inserted_primary_key[0])
        except ResultStoreError:
            raise
        except sa.exc.SQLAlchemyError as error:
            raise _store_error(self, "write to", error) from error

    def find(self, *, model_identifier: str, benchmark_identifier: str, benchmark_version: int,
             model_digest: str | None, since: datetime | None = None) -> dict[str, Any] | None:
        """The newest successful row for this model content and benchmark version, or None (grids resume).

        ``since`` keeps only rows stored at or after that time (a rescoring grid's retried task finds the row its
        killed first attempt wrote).
        """
        query = (sa.select(scores_table).where(scores_table.c.model_identifier == model_identifier)
                 .where(scores_table.c.benchmark_identifier == benchmark_identifier)
                 .where(scores_table.c.benchmark_version == int(benchmark_version))
                 .where(sa.or_(scores_table.c.status == "ok", scores_table.c.status.is_(None)))
                 .order_by(scores_table.c.id.desc()))
        query = query.where(scores_table.c.model_digest.is_(None) if model_digest is None
                            else scores_table.c.model_digest == model_digest)
        if since is not None:
            query = query.where(scores_table.c.timestamp >= since)
        try:
            with self.engine.connect() as connection:
                found = connection.execute(query).first()
        except sa.exc.SQLAlchemyError as error:
            raise _store_error(self, "read", error) from error
        return dict(found._mapping) if found is not None else None

    def rows(self, *, model_identifier: str | Sequence[str] | None = None,
             benchmark_identifier: str | Sequence[str] | None = None, benchmark_version: int | None = None,
             status: str | None = "ok", ids: Sequence[int] | None = None) -> list[dict[str, Any]]:
        """Rows matching every given filter, oldest first.

        Parameters
        ----------
        model_identifier, benchmark_identifier : str or sequence of str, optional
            One identifier, or several (a row matches any of them).
        benchmark_version : int, optional
        status : {'ok', 'failed'} or None, default='ok'
            ``'ok'`` gives the scores (rows written before failures were stored count as ok), ``'failed'`` the
            failed pairs, None every row.
        ids : sequence of int, optional
            Row ids.

        Returns
        -------
        list of dict
            Keys ``COLUMNS``: id, model_identifier, benchmark_identifier, benchmark_version,
            benchmark_parent, score_raw, score_ceiled, error, ceiling, ceiling_error, comment, layer_map
            (JSON text), provenance (JSON text), attrs (JSON text), timestamp (ISO 8601 string, UTC), status,
            error_type, error_message, elapsed_s, model_digest, versions (JSON text), failure_kind (``'oom'``,
            ``'timeout'``, ``'deterministic'``, ``'transient'`` for a failed pair). Missing and NaN numbers are None.
        """
        engine = self.engine  # opened first: a read-only store learns its columns
        filters = {"model_identifier": model_identifier, "benchmark_identifier": benchmark_identifier,
                   "benchmark_version": benchmark_version, "status": status, "ids": ids}
        try:
            if self._damage is not None:  # salvage=True on a damaged file
                rows = salvaged_rows(self.url, scores_table, lambda query: filtered(query, **filters))
            else:
                selected = [column for column in scores_table.columns if column.name in self._present]
                query = filtered(sa.select(*selected).order_by(scores_table.c.id), present=self._present, **filters)
                with engine.connect() as connection:
                    rows = [dict(row._mapping) for row in connection.execute(query)]
            rows = [dict.fromkeys(COLUMNS) | row for row in rows]
        except sa.exc.SQLAlchemyError as error:
            raise _store_error(self, "read", error) from error
        for row in rows:
            stamp = row["timestamp"]
            if stamp.tzinfo is None:  # SQLite keeps no time zone; we always write UTC
                stamp = stamp.replace(tzinfo=UTC)
            row["timestamp"] = stamp.astimezone(UTC).isoformat()
        return rows

    def delete(self, *, ids: Sequence[int] | None = None, model_identifier: str | Sequence[str] | None = None,
               benchmark_identifier: str | Sequence[str] | None = None, status: str | None = None) -> int:
        """Delete the rows matching every given filter (the filters of :meth:`rows`), in one transaction.

        At least one of ``ids``, ``model_identifier`` and ``benchmark_identifier`` must be given: deleting every
        row is never an accident. Returns the number of rows deleted.

        Raises
        ------
        ValueError
            No filter given.
        ResultStoreError
            The store cannot be written (locked, damaged, unreachable); nothing is deleted then.
        """
        if ids is None and model_identifier is None and benchmark_identifier is None:
            raise ValueError("delete needs ids, model_identifier or benchmark_identifier: refusing to delete "
                             f"every row of {self!r}")
        statement = filtered(sa.delete(scores_table), model_identifier=model_identifier,
                           benchmark_identifier=benchmark_identifier, benchmark_version=None, status=status, ids=ids,
                           present=self._present)
        try:
            with self.engine.begin() as connection:
                return int(connection.execute(statement).rowcount)
        except sa.exc.SQLAlchemyError as error:
            raise _store_error(self, "delete from", error) from error

    def latest_digest(self, model_identifier: str) -> str | None:
        """The content digest of the newest row of ``model_identifier`` that has one (any benchmark), or None."""
        query = (sa.select(scores_table.c.model_digest).where(scores_table.c.model_identifier == model_identifier)
                 .where(scores_table.c.model_digest.is_not(None)).order_by(scores_table.c.id.desc()).limit(1))
        try:
            with self.engine.connect() as connection:
                return connection.execute(query).scalar()
        except sa.exc.SQLAlchemyError as error:
            raise _store_error(self, "read", error) from error

    def identifiers(self) -> dict[str, list[str]]:
        """The distinct stored identifiers: ``{'model': [...], 'benchmark': [...]}``, sorted (for messages)."""
        try:
            with self.engine.connect() as connection:
                return {kind: sorted(connection.execute(sa.select(scores_table.c[f"{kind}_identifier"]).distinct())
                                     .scalars())
                        for kind in ("model", "benchmark")}
        except sa.exc.SQLAlchemyError as error:
            raise _store_error(self, "read", error) from error

    def count(self) -> int:
        """Number of rows."""
        with self.engine.connect() as connection:
            return int(connection.execute(sa.select(sa.func.count()).select_from(scores_table)).scalar_one())

    def dispose(self) -> None:
        """Close the engine's connections (SQLite then removes its ``-wal`` and ``-shm`` side files)."""
        if self._engine is not None:
            self._engine.dispose()

    def __enter__(self) -> ResultStore:
        return self

    def __exit__(self, *exc_info: object) -> None:
        """``with ResultStore(url) as store:`` closes the connections at the end of the block."""
        self.dispose()

    def __repr__(self) -> str:
        return f"ResultStore({display_url(self.url)!r})"
