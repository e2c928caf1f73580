"""``brainscore results``: list, delete, export and import the rows of a results store.

::

    brainscore results list [--model M] [--benchmark B] [--status ok|failed|all]
    brainscore results delete (--id N | --model M | --benchmark B)... [--yes]
    brainscore results export FILE.csv|FILE.json|- [--format csv|json] [--model M] [--benchmark B]
    brainscore results import brainscore-unstored-*.jsonl

Every subcommand takes ``--results-url`` (default ``$BRAINSCORE_RESULTS_URL``, else the SQLite file
``$BRAINSCORE_HOME/results.sqlite``). Filters of one kind are alternatives (``--model a --model b``: either),
filters of different kinds all apply. ``delete`` shows the rows and asks before deleting (``--yes`` does not ask);
it needs at least one filter. The store operations themselves live in :mod:`brainscore_core.results`.

What is printed shows the store's URL through :func:`~brainscore_core.display.display_url` (password as ``***``)
and stored text through :func:`~brainscore_core.display.display_text` (control characters escaped): a stored
identifier cannot rewrite the table or the question ``delete`` asks. ``export -`` writes the rows as data, exactly;
only when standard output is a terminal are their control characters escaped too.
"""

from __future__ import annotations

import argparse
import difflib
import sys
from typing import Any

from brainscore_core.display import display_text, display_url
from brainscore_vision._cli_io import confirmed
from brainscore_vision.errors import EXIT_FAILED, EXIT_USAGE, CommandError

__all__ = ["add_results_commands", "run_results_command"]

STATUSES = {"ok": "ok", "failed": "failed", "all": None}
LIST_COLUMNS = (("id", "id"), ("model", "model_identifier"), ("benchmark", "benchmark_identifier"),
                ("version", "benchmark_version"), ("ceiled", "score_ceiled"), ("raw", "score_raw"),
                ("ceiling", "ceiling"), ("status", "status"), ("kind", "failure_kind"), ("timestamp", "timestamp"))
_URL_HELP = ("SQLAlchemy URL of the results store (default: $BRAINSCORE_RESULTS_URL or SQLite at "
             "$BRAINSCORE_HOME/results.sqlite)")


def _add_filters(parser: argparse.ArgumentParser, *, ids: bool) -> None:
    if ids:
        parser.add_argument("--id", type=int, action="append", dest="ids", metavar="N", help="row id (repeatable)")
    parser.add_argument("--model", action="append", dest="models", metavar="MODEL",
                        help="model identifier (repeatable)")
    parser.add_argument("--benchmark", action="append", dest="benchmarks", metavar="BENCHMARK",
                        help="benchmark identifier (repeatable)")
    parser.add_argument("--results-url", default=None, help=_URL_HELP)


def add_results_commands(commands: Any) -> None:
    """Add ``results`` and its subcommands to the command line's subparsers."""
    results = commands.add_parser("results", help="list, delete, export or import the rows of the results store")
    sub = results.add_subparsers(dest="results_command", required=True)

    listing = sub.add_parser("list", help="print the stored rows (id, model, benchmark, scores, status, the kind of "
                                          "a failure: oom, timeout, deterministic or transient, time)")
    _add_filters(listing, ids=True)
    listing.add_argument("--status", choices=sorted(STATUSES), default="all",
                         help="only scores (ok), only failed pairs (failed), or every row (all, the default)")

    delete = sub.add_parser("delete", help="delete rows by id, model or benchmark (asks first)")
    _add_filters(delete, ids=True)
    delete.add_argument("--yes", "-y", action="store_true", help="delete without asking")

    export = sub.add_parser("export", help="write the stored rows to a CSV or JSON file")
    export.add_argument("file", help="a .csv or .json file, or - for standard output")
    export.add_argument("--format", choices=("csv", "json"), default=None,
                        help="default: from the file's suffix (csv for -)")
    _add_filters(export, ids=False)
    export.add_argument("--status", choices=sorted(STATUSES), default="all", help="as for list")
    export.add_argument("--with-arrays", action="store_true",
                        help="keep large arrays (RDMs, per-layer scores) in the rows; by default they go to "
                             "FILE.arrays.json beside the export (left out on standard output), so that the CSV reads "
                             "with the csv module's defaults")

    importing = sub.add_parser(
        "import", help="load the rows of a side file (written when the store refused them) into the store")
    importing.add_argument("file", help="a brainscore-unstored-*.jsonl file")
    importing.add_argument("--results-url", default=None, help=_URL_HELP)


def run_results_command(args: argparse.Namespace) -> int:
    """Run ``brainscore results <subcommand>``; returns the exit status (errors are CommandErrors)."""
    from brainscore_core.results import ResultStoreError

    handlers = {"list": _list, "delete": _delete, "export": _export, "import": _import}
    try:
        return handlers[args.results_command](args)
    except ResultStoreError as error:
        raise CommandError(str(error), EXIT_FAILED) from error


# -- shared ---------------------------------------------------------------------------------------------------
def _filters(args: argparse.Namespace) -> dict[str, Any]:
    return {"ids": getattr(args, "ids", None), "model_identifier": args.models,
            "benchmark_identifier": args.benchmarks}


def _no_match(store: Any, args: argparse.Namespace) -> str:
    """Why nothing matched: the filters, and the stored identifiers that look like a mistyped one."""
    stored = store.identifiers()
    parts = [f"no stored row matches {_describe_filters(args)} in {display_url(store.url)}"]
    for kind, asked in (("model", args.models), ("benchmark", args.benchmarks)):
        for identifier in asked or []:
            if identifier not in stored[kind]:
                close = difflib.get_close_matches(identifier, stored[kind], n=3)
                hint = f"; did you mean {', '.join(repr(name) for name in close)}?" if close else ""
                parts.append(f"no {kind} {identifier!r} is stored{hint}")
    return "; ".join(parts)


def _describe_filters(args: argparse.Namespace) -> str:
    named = [f"--id {n}" for n in getattr(args, "ids", None) or []]
    named += [f"--model {m}" for m in args.models or []] + [f"--benchmark {b}" for b in args.benchmarks or []]
    return " ".join(named) if named else "(no filter)"


def _cell(value: Any) -> str:
    if value is None:
        return "-"
    if isinstance(value, float):
        return f"{value:.4f}"
    return display_text(value)


def format_rows(rows: list[dict[str, Any]]) -> str:
    """Stored rows as a fixed-width table: id, model, benchmark, version, ceiled, raw, ceiling, status, the failure's
    kind (oom, timeout, deterministic, transient), time; then, under each failed row, its error."""
    cells = [[_cell(row.get(key) if key != "status" else (row.get("status") or "ok")) for _, key in LIST_COLUMNS]
             for row in rows]
    for line in cells:
        line[-1] = line[-1][:19].replace("T", " ")  # to the second, UTC
    headers = [header for header, _ in LIST_COLUMNS]
    widths = [max(len(header), *(len(line[i]) for line in cells)) for i, header in enumerate(headers)]
    numeric = {0, 3, 4, 5, 6}

    def line(values: list[str]) -> str:
        return "  ".join(v.rjust(w) if i in numeric else v.ljust(w)
                         for i, (v, w) in enumerate(zip(values, widths))).rstrip()

    lines = [line(headers)]
    for row, values in zip(rows, cells):
        lines.append(line(values))
        if row.get("status") == "failed" and row.get("error_type"):
            lines.append(f"    {row['error_type']}: {row.get('error_message') or ''}")
    return "\n".join(lines)


# -- subcommands ----------------------------------------------------------------------------------------------
def _list(args: argparse.Namespace) -> int:
    from brainscore_core.results import ResultStore, ResultStoreNotFoundError

    store = ResultStore(args.results_url, read_only=True)
    try:
        rows = store.rows(status=STATUSES[args.status], **_filters(args))
    except ResultStoreNotFoundError:
        print(f"no results store at {display_url(store.url)} yet: nothing has been stored there")
        return 0
    if rows:
        print(format_rows(rows))
    print(f"{len(rows)} row(s) in {display_url(store.url)}")
    return 0


def _delete(args: argparse.Namespace) -> int:
    from brainscore_core.results import ResultStore

    if not (args.ids or args.models or args.benchmarks):
        raise CommandError("name the rows to delete: --id N, --model MODEL or --benchmark BENCHMARK (repeatable)",
                           EXIT_USAGE)
    store = ResultStore(args.results_url, read_only=True)
    rows = store.rows(status=None, **_filters(args))
    if not rows:
        raise CommandError(_no_match(store, args), EXIT_USAGE)
    print(format_rows(rows))
    if not args.yes and not confirmed(f"delete these {len(rows)} row(s) from {display_url(store.url)}? [y/N] "):
        raise CommandError("nothing deleted (not confirmed; --yes deletes without asking)", EXIT_FAILED)
    # delete exactly the rows shown, not whatever matches by now
    deleted = ResultStore(args.results_url).delete(ids=[row["id"] for row in rows])
    print(f"deleted {deleted} row(s) from {display_url(store.url)}")
    return 0


def _export(args: argparse.Namespace) -> int:
    from brainscore_core.result_export import (
        arrays_path,
        export_format_of,
        rows_as_csv,
        rows_as_json,
        split_arrays,
        write_rows,
    )
    from brainscore_core.results import ResultStore

    try:
        chosen = export_format_of(args.file, args.format) if args.file != "-" else (args.format or "csv")
    except ValueError as error:
        raise CommandError(str(error), EXIT_USAGE) from error
    store = ResultStore(args.results_url, salvage=True)  # a damaged SQLite file: its readable rows, from a copy
    rows = store.rows(status=STATUSES[args.status], **_filters(args))
    if args.file == "-":
        shown, left_out = (rows, []) if args.with_arrays else split_arrays(rows, None)
        text = rows_as_csv(shown) if chosen == "csv" else rows_as_json(shown)
        if sys.stdout.isatty():  # read by a person, not a program: stored text must not drive the terminal
            text = "\n".join(display_text(line) for line in text.split("\n"))
        sys.stdout.write(text)
        if left_out:
            print(f"brainscore results export: large arrays of {len(left_out)} row(s) left out (--with-arrays keeps "
                  "them; an export to a file puts them in FILE.arrays.json)", file=sys.stderr)
        return 0
    path = write_rows(rows, args.file, chosen, arrays="embed" if args.with_arrays else "side")
    side = arrays_path(path)
    extra = f"; large arrays in {side}" if not args.with_arrays and side.is_file() else ""
    print(f"exported {len(rows)} row(s) from {display_url(store.url)} to {path} ({chosen}){extra}")
    return 0


def _import(args: argparse.Namespace) -> int:
    from pathlib import Path

    from brainscore_core.result_rows import row_from_json
    from brainscore_core.results import ResultStore

    path = Path(args.file)
    if not path.is_file():
        raise CommandError(f"no side file at {path}", EXIT_USAGE)
    rows = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if line.strip():
            try:
                rows.append(row_from_json(line))
            except ValueError as error:
                raise CommandError(f"{path} line {number}: {error}", EXIT_USAGE) from error
    store = ResultStore(args.results_url)
    store.check()
    for row in rows:
        store.insert(row)
    print(f"imported {len(rows)} row(s) from {path} into {display_url(store.url)}")
    return 0
