"""A SQLite results store that checks itself, and the readable rows of a damaged one.

SQLite takes a new row into a file with a zeroed page and reports success; the file stays damaged and the user
believes the row is stored. So :class:`~brainscore_core.results.ResultStore` runs ``PRAGMA quick_check`` (SQLite's
own check of every page, O(file size), without the slower cross-checks of indexes) when it opens a SQLite file, and
refuses a damaged one with :class:`~brainscore_core.errors.DamagedResultStoreError` before writing or reading
anything. A file that is not a database at all keeps its own error ("file is not a database").

:func:`readable_rows` recovers what can be read (``brainscore results export`` on a store opened with
``salvage=True``): it works on a private copy of the file (and of its ``-wal``), shrinks the page count recorded in
the copy's header to the pages the file still has (a truncated file otherwise fails every query), and reads the rows
in order of id, stepping over the ranges of ids whose pages are damaged.
"""

from __future__ import annotations

import shutil
import sqlite3
import struct
import tempfile
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

import sqlalchemy as sa

from brainscore_core.errors import DamagedResultStoreError

__all__ = ["damage_of", "damaged_store_error", "readable_rows", "refuse_if_damaged", "salvaged_rows", "sqlite_file"]

_NOT_DAMAGE = ("not a database", "locked", "busy", "unable to open")
"""SQLite messages that mean something else than a damaged file (not a database, another writer, no access)."""
_BATCH = 500
_MAX_JUMP = 1 << 40


def sqlite_file(url: str) -> Path | None:
    """The database file of a SQLite URL; None for other databases and in-memory SQLite."""
    parsed = sa.make_url(url)
    if parsed.get_backend_name() != "sqlite" or not parsed.database or parsed.database == ":memory:":
        return None
    return Path(parsed.database).expanduser()


def damage_of(database: Path | None) -> str | None:
    """What SQLite's ``PRAGMA quick_check`` finds wrong with the file ``database`` (its first lines), or None when the
    file passes, does not exist yet, or is not SQLite's (other databases check themselves).

    The check runs on a read-only connection of its own, before the store's engine connects (which would set the
    journal mode), so a damaged file is never written to. Errors that are not damage (not a database, locked, no
    access) are left to the store's own opening, which reports them.
    """
    if database is None or not database.is_file():
        return None
    try:
        connection = sqlite3.connect(f"{database.resolve().as_uri()}?mode=ro", uri=True, timeout=60)
        try:
            lines = [str(row[0]) for row in connection.execute("PRAGMA quick_check(5)")]
        finally:
            connection.close()
    except sqlite3.DatabaseError as error:
        return None if any(words in str(error).lower() for words in _NOT_DAMAGE) else str(error)
    return None if lines == ["ok"] else "; ".join(" ".join(line.split()) for line in lines)[:300]


def damaged_store_error(database: Path, damage: str) -> DamagedResultStoreError:
    """The refusal of a damaged store file, with the way to recover its readable rows."""
    copy = database.with_name(database.name + ".copy")
    return DamagedResultStoreError(
        f"the results store {database} is damaged (SQLite's quick_check: {damage}); nothing was read from it or "
        f"written to it. Recover its readable rows from a copy: cp '{database}' '{copy}' && brainscore results "
        f"export rows.csv --results-url 'sqlite:///{copy}'; then move the damaged file away (the next run starts a "
        "new store).")


def refuse_if_damaged(url: str, *, salvage: bool = False) -> str | None:
    """:func:`damage_of` the SQLite file of ``url``: a damaged file is refused (:func:`damaged_store_error`) unless
    ``salvage``, where the damage is returned (None: the file passes, or ``url`` is not a SQLite file)."""
    damage = damage_of(sqlite_file(url))
    if damage is not None and not salvage:
        raise damaged_store_error(sqlite_file(url), damage)
    return damage


def salvaged_rows(url: str, table: sa.Table, restrict: Callable[[Any], Any]) -> list[dict[str, Any]]:
    """:func:`readable_rows` of the SQLite file of ``url``, with a warning naming the ids that could not be read."""
    database = sqlite_file(url)
    rows, lost = readable_rows(database, table, restrict)
    if lost:
        ranges = ", ".join(f"{first}-{last}" if last is not None else f"{first} and above" for first, last in lost)
        warnings.warn(f"the results store {database} is damaged: {len(rows)} row(s) read; ids {ranges} could not be "
                      "read", RuntimeWarning, stacklevel=3)
    return rows


def _fit_header_to_file(path: Path) -> None:
    """Make the page count in a SQLite file's header (bytes 28-31) no larger than the pages the file holds, and cut
    a trailing partial page: a truncated file then reads up to its end instead of failing every query."""
    size = path.stat().st_size
    with open(path, "r+b") as file:
        header = file.read(100)
        if len(header) < 100 or not header.startswith(b"SQLite format 3\x00"):
            return
        page_size = struct.unpack(">H", header[16:18])[0]
        page_size = 65536 if page_size == 1 else page_size
        pages = size // page_size
        if struct.unpack(">I", header[28:32])[0] > pages:
            file.seek(28)
            file.write(struct.pack(">I", pages))
            file.truncate(pages * page_size)


def readable_rows(database: Path, table: sa.Table, restrict: Callable[[Any], Any]
                  ) -> tuple[list[dict[str, Any]], list[tuple[int, int | None]]]:
    """The rows of ``table`` that can be read from the damaged SQLite file ``database``, oldest first, and the
    ranges of ids (first, last) that could not be read (last None: every id from first on).

    Parameters
    ----------
    database : Path
        The damaged file; it is not changed (the work is done on a copy in a temporary folder).
    table : sqlalchemy.Table
        The scores table (columns that the file lacks are None in every row).
    restrict : callable
        Adds the caller's filters to a select on ``table``.
    """
    with tempfile.TemporaryDirectory(prefix="brainscore-salvage-") as folder:
        copy = Path(folder) / "copy.sqlite"
        shutil.copyfile(database, copy)
        if Path(f"{database}-wal").is_file():  # committed rows not yet moved into the file
            shutil.copyfile(f"{database}-wal", f"{copy}-wal")
        _fit_header_to_file(copy)
        engine = sa.create_engine(f"sqlite:///{copy}")
        try:
            return _read_in_order(engine, table, restrict)
        finally:
            engine.dispose()


def _read_in_order(engine: sa.Engine, table: sa.Table, restrict: Callable[[Any], Any]
                   ) -> tuple[list[dict[str, Any]], list[tuple[int, int | None]]]:
    try:
        present = {column["name"] for column in sa.inspect(engine).get_columns(table.name)}
    except sa.exc.DatabaseError:
        return [], [(1, None)]  # not even the table's definition is readable
    columns = [column for column in table.columns if column.name in present]

    def fetch(condition, limit: int = _BATCH) -> list[dict[str, Any]] | None:
        query = restrict(sa.select(*columns).where(condition).order_by(table.c.id).limit(limit))
        try:
            with engine.connect() as connection:
                return [dict(row._mapping) for row in connection.execute(query)]
        except sa.exc.DatabaseError:
            return None

    rows: list[dict[str, Any]] = []
    lost: list[tuple[int, int | None]] = []
    last, limit = 0, _BATCH
    while True:
        batch = fetch(table.c.id > last, limit)
        if batch is not None:
            if not batch:
                break
            rows += batch
            last = int(batch[-1]["id"])
            limit = min(_BATCH, limit * 2)
            continue
        if limit > 1:  # the damage lies somewhere in the next rows: approach it one row at a time
            limit = 1
            continue
        jump = 1  # the very next row sits on a damaged page: find where the tree reads again
        while jump < _MAX_JUMP and fetch(table.c.id > last + jump, 1) is None:
            jump *= 2
        if jump >= _MAX_JUMP:
            lost.append((last + 1, None))  # nothing reads beyond this point (a truncated file)
            break
        first_readable = last + jump
        if jump <= 1024:  # a damaged leaf: each id of the gap on its own (rows on other pages are kept)
            damaged = []
            for identifier in range(last + 1, first_readable + 1):
                single = fetch(table.c.id == identifier, 1)
                if single is None:
                    damaged.append(identifier)
                else:
                    rows += single
            if damaged:
                lost.append((damaged[0], damaged[-1]))
        else:
            lost.append((last + 1, first_readable))
        last = first_readable
    for row in rows:
        for name in table.columns.keys():  # noqa: SIM118 (a ColumnCollection iterates columns)
            row.setdefault(name, None)
    return rows, lost
