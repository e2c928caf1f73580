"""The ``brainscore`` command line.

::

    brainscore score --model randomnet --model pixels --benchmark Cowley2023.V4-pls
    brainscore list benchmarks
    brainscore ceiling Kriegeskorte2008.hIT-rdm
    brainscore data prepare Cowley2023
    brainscore report [--out DIR]            # default $BRAINSCORE_HOME/report
    brainscore results list | delete | export | import
    brainscore cache [prune --model M | --older-than 30d | --max-size 5GB]
    brainscore config [--package DISTRIBUTION]

Exit status: 0 on success, 2 for a bad identifier or argument (the message lists close matches) or a scheduler that
cannot be reached (no Slurm, an unknown partition), 3 when raw data is missing (the message names ``BRAINSCORE_RAW_DATA`` and the path), 1 when
scoring failed or a deletion was not confirmed. Every error is one line on stderr; so is every warning.
"""

from __future__ import annotations

import argparse
import gc
import sys
import warnings
from collections.abc import Sequence

from brainscore_core.display import display_text, display_url
from brainscore_vision._cli_cache import add_cache_commands, run_cache_command
from brainscore_vision._cli_cluster import add_cluster_arguments, close_quietly, open_client, slurm_request
from brainscore_vision._cli_config import add_config_command, run_config_command
from brainscore_vision._cli_io import print_line
from brainscore_vision._cli_list import LIST_KINDS, run_list_command
from brainscore_vision._cli_results import add_results_commands, run_results_command
from brainscore_vision.errors import EXIT_FAILED, EXIT_MISSING_DATA, EXIT_USAGE, CommandError

__all__ = ["EXIT_FAILED", "EXIT_MISSING_DATA", "EXIT_USAGE", "main"]

def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="brainscore", description="Score vision models on brain benchmarks.")
    commands = parser.add_subparsers(dest="command", required=True)

    score = commands.add_parser(
        "score", help="score models on benchmarks and store the results",
        description="Score models on benchmarks. The table shows the raw score, the ceiling and the ceiled score; the "
                    "'rule' column says how the ceiled score follows from them: raw² / ceiling for neural "
                    "predictivity (explained variance), raw / ceiling for RSA and error consistency, "
                    "(raw / ceiling)² for Coggan2024 fMRI, none where the ceiling is 1.")
    score.add_argument("--model", action="append", required=True, dest="models", metavar="MODEL",
                       help="model identifier or shell-style glob, e.g. 'resnet*' (repeat for several)")
    score.add_argument("--benchmark", action="append", required=True, dest="benchmarks", metavar="BENCHMARK",
                       help="benchmark identifier, shell-style glob ('Geirhos2021*', '*.IT-*') or suite: shipped, "
                            "reachable, leaderboard, all (repeat for several)")
    score.add_argument("--results-url", default=None,
                       help="SQLAlchemy URL of the results store (default: $BRAINSCORE_RESULTS_URL or "
                            "SQLite at $BRAINSCORE_HOME/results.sqlite)")
    score.add_argument("--no-store", action="store_true", help="print the table without storing the rows")
    score.add_argument("--workers", type=int, default=None, metavar="N",
                       help="run the pairs on a Dask LocalCluster of N worker processes on this machine")
    score.add_argument("--scheduler", default=None, metavar="ADDRESS",
                       help="run the pairs on an existing Dask cluster, e.g. tcp://host:8786")
    add_cluster_arguments(score)
    score.add_argument("--rescore", action="store_true",
                       help="score pairs again although the store holds them (same model content and benchmark "
                            "version); by default they are skipped, so an interrupted grid resumes")
    score.add_argument("-v", "--verbose", action="store_true",
                       help="print a failing pair's whole traceback (the stored row keeps it too: its provenance)")
    score.add_argument("--dry-run", action="store_true",
                       help="print the pairs, which of them the store holds and which models need weights first, "
                            "and each pair's memory estimate against its limit, then exit (builds only models that are "
                            "ready, for their shapes; downloads nothing, scores nothing)")

    listing = commands.add_parser("list", help="list registered identifiers")
    listing.add_argument("kind", choices=sorted(LIST_KINDS))

    ceiling = commands.add_parser("ceiling", help="print a benchmark's ceiling")
    ceiling.add_argument("benchmark")

    data = commands.add_parser("data", help="data commands")
    data_commands = data.add_subparsers(dest="data_command", required=True)
    prepare = data_commands.add_parser("prepare", help="package (if needed) and load a data set / stimulus set")
    prepare.add_argument("identifier")

    add_results_commands(commands)
    add_cache_commands(commands)
    add_config_command(commands)

    report = commands.add_parser("report", help="write the static HTML report of the stored results")
    report.add_argument("--out", default=None, help="output folder (default: $BRAINSCORE_HOME/report, so that nothing "
                                                    "is written where the command runs, e.g. into a checkout)")
    report.add_argument("--results-url", default=None, help="SQLAlchemy URL of the results store")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status (the console script exits with it)."""
    args = build_parser().parse_args(argv)
    handlers = {"score": _score, "list": run_list_command, "ceiling": _ceiling, "data": _data, "report": _report,
                "results": run_results_command, "cache": run_cache_command, "config": run_config_command}
    try:
        with warnings.catch_warnings():
            warnings.showwarning = _one_line_warning(args.command)
            status = handlers[args.command](args)
    except CommandError as error:
        print(display_text(f"brainscore {args.command}: {error}"), file=sys.stderr)
        status = error.status
    except KeyboardInterrupt:
        print("brainscore: interrupted", file=sys.stderr)
        status = 130
    if argv is None:  # the console script: the process ends next
        # a scoring process holds millions of objects (torch, scikit-learn, data); the interpreter's final garbage
        # collections walked them all for 1-2 s after the last line. Frozen, they are skipped (still freed).
        gc.freeze()
    return status


def _one_line_warning(command: str):
    """``warnings.showwarning`` for the command line: one line on stderr (no file, line number or source line)."""

    def show(message, category, filename, lineno, file=None, line=None) -> None:
        print_line(f"brainscore {command}: {category.__name__}: {message}")

    return show


# -- identifiers and errors ---------------------------------------------------------------------------
def _check_identifiers(kind: str, identifiers: Sequence[str], *, known: Sequence[str] = ()) -> None:
    """Each identifier registered (``known`` ones count without a lookup: a dry run lists plugin models without
    importing them); else one line listing close matches."""
    import brainscore_vision

    registry = brainscore_vision.domain.registry(kind)
    for identifier in identifiers:
        if identifier not in known and identifier not in registry:
            raise CommandError(str(registry.unknown(identifier)).strip("'\""), EXIT_USAGE)


def _translate(error: BaseException, what: str) -> CommandError:
    """A one-line CommandError for an exception raised while loading or scoring ``what``."""
    from brainscore_core.errors import UnknownIdentifierError
    from brainscore_vision.data_helpers import DataIntegrityError, MissingRawDataError

    if isinstance(error, MissingRawDataError):
        return CommandError(f"{what}: {error}", EXIT_MISSING_DATA)
    if isinstance(error, DataIntegrityError):
        return CommandError(f"{what}: {error}", EXIT_MISSING_DATA)
    if isinstance(error, UnknownIdentifierError):
        return CommandError(f"{what}: {str(error).strip(chr(39))}", EXIT_USAGE)
    first_line = str(error).strip().splitlines()[0] if str(error).strip() else ""
    return CommandError(f"{what} failed: {type(error).__name__}: {first_line}", EXIT_FAILED)


# -- commands ---------------------------------------------------------------------------------------
def _select(args) -> None:
    """Expand the globs and suites of ``--model`` / ``--benchmark`` into identifiers (:mod:`brainscore_vision.selection`);
    a word that names nothing is one line with close matches, exit status 2."""
    import brainscore_vision
    from brainscore_vision.errors import SelectionError
    from brainscore_vision.selection import select

    if "leaderboard" in args.benchmarks:
        print_line("reading the benchmarks' parents for the leaderboard suite (builds each benchmark, loads no data)")
    domain = brainscore_vision.domain
    known: set[str] = set()
    if getattr(args, "dry_run", False):  # plugin models are checked by their files: a dry run imports no plugin
        from brainscore_vision._plugin_needs import model_plugins

        known = {plugin.identifier for plugin in model_plugins()}
    try:
        args.models = select("model", args.models, domain, known=known)
        args.benchmarks = select("benchmark", args.benchmarks, domain)
    except SelectionError as error:
        raise CommandError(str(error), EXIT_USAGE) from error


def _score(args) -> int:
    _select(args)
    pairs = len(args.models) * len(args.benchmarks)
    shape = f"{pairs} pair(s): {len(args.models)} model(s) x {len(args.benchmarks)} benchmark(s)"
    if args.dry_run:  # the first line comes before the heavy imports (scoring, xarray, the store)
        print(f"dry run of {shape}; nothing is downloaded or scored", flush=True)
    else:
        print_line(f"scoring {shape}")
    slurm = slurm_request(args)  # Slurm and its partition answer, or one line in seconds
    import brainscore_vision
    from brainscore_core.grid import score_many
    from brainscore_core.grid_events import describe_event
    from brainscore_core.result_rows import failure_traceback
    from brainscore_core.results import ResultStoreError
    from brainscore_core.scoring import open_store
    from brainscore_vision._cli_rows import format_table, table_row

    try:  # before any scoring: a locked or damaged store fails now, not after the work
        store = open_store(False if args.no_store else (args.results_url or True))
    except ResultStoreError as error:
        raise CommandError(str(error), EXIT_FAILED) from error
    if args.dry_run:
        from brainscore_vision._cli_plan import dry_run

        try:
            return dry_run(args, store, slurm=slurm)
        finally:  # closes SQLite cleanly: no results.sqlite-wal / -shm left beside the store
            if store is not None:
                store.dispose()
    print_line(f"rows go to {display_url(store.url)}; stored pairs are skipped (--rescore scores them again)"
               if store is not None else "rows are not stored (--no-store)")
    client, closers = open_client(args.workers, args.scheduler, print_line)
    if slurm and slurm["cluster_options"].get("memory") is None:
        print_line("planning the Slurm jobs' memory: each model and benchmark is loaded once here for its shapes "
                   "(--job-memory skips this)")
    rows, problems = [], []

    def show(result: dict) -> None:  # rows as they come
        if result["status"] in ("ok", "skipped", "unstored"):
            row = table_row(result)
            rows.append(row)
            print_line(f"{row['model']} on {row['benchmark']}: {row['score']:.4f} ceiled ({result['status']})")
        if result["status"] == "failed":  # said once, as it comes; the summary below counts it
            problems.append(_translate_result(result))
            print_line(f"brainscore score: {problems[-1]}")
            trace = failure_traceback(result.get("row") or {}) if args.verbose else None
            for line in (trace or "").splitlines():  # each line escaped: a stored traceback is text from outside
                print_line("    " + line)

    def show_event(event: dict) -> None:  # what the workers report while a pair runs
        line = describe_event(event)
        if line:
            print_line(line)

    from brainscore_core.errors import ClusterUnavailableError

    try:
        frame = score_many(args.models, args.benchmarks, client, domain=brainscore_vision.domain,
                           store=store if store is not None else False, rescore=args.rescore, on_result=show,
                           on_event=show_event if client is not None or slurm else None, **slurm)
    except ClusterUnavailableError as error:  # e.g. the jobs could not be submitted
        raise CommandError(str(error), EXIT_USAGE) from None
    finally:
        close_quietly(closers)
    if rows:
        print(format_table(rows))
    counts = frame["status"].value_counts().to_dict()
    summary = ", ".join(f"{counts.get(status, 0)} {status}" for status in ("ok", "skipped", "failed", "unstored")
                        if counts.get(status, 0))
    unstored = sorted(set(frame["side_file"].dropna()))
    if store is not None:
        print(f"{summary}; rows stored in {display_url(store.url)}" if not unstored else summary)
    for path in unstored:
        print(f"brainscore score: the results store refused rows; they are in {path} (load them with: "
              f"brainscore results import {path})", file=sys.stderr)
    if problems and not args.verbose:
        print("brainscore score: -v prints the traceback of each failed pair", file=sys.stderr)
    missing = [problem for problem in problems if problem.status == EXIT_MISSING_DATA]
    if missing:
        return EXIT_MISSING_DATA
    if problems or unstored:
        print(f"brainscore score: {summary}", file=sys.stderr)
        return EXIT_FAILED
    return 0


def _translate_result(result: dict) -> CommandError:
    """A failed pair's one-line reason; missing raw data keeps its own exit status."""
    what = f"{result['model']} on {result['benchmark']}"
    if result.get("error_type") in ("MissingRawDataError", "DataIntegrityError"):
        return CommandError(f"{what}: {result['error_message']}", EXIT_MISSING_DATA)
    return CommandError(f"{what} failed: {result['error_type']}: {result['error_message']}", EXIT_FAILED)


def _ceiling(args) -> int:
    import brainscore_vision
    from brainscore_core.score import score_value

    _check_identifiers("benchmark", [args.benchmark])
    try:
        benchmark = brainscore_vision.load_benchmark(args.benchmark)
        ceiling = benchmark.ceiling
    except Exception as error:
        raise _translate(error, f"ceiling of {args.benchmark}") from error
    parts = [f"{args.benchmark}  ceiling {score_value(ceiling):.4f}"]
    for key in ("error", "lower_bound_loo"):
        if key in ceiling.attrs:
            parts.append(f"{key} {score_value(ceiling.attrs[key]):.4f}")
    print("  ".join(parts))
    return 0


def _data(args) -> int:
    import brainscore_vision

    identifier = args.identifier
    is_stimulus_set = identifier in brainscore_vision.stimulus_set_registry
    is_data = identifier in brainscore_vision.data_registry
    if not (is_stimulus_set or is_data):
        raise CommandError(str(brainscore_vision.data_registry.unknown(identifier)).strip("'\""), EXIT_USAGE)
    try:
        if is_stimulus_set:
            stimulus_set = brainscore_vision.load_stimulus_set(identifier)
            print(f"stimulus set {identifier}: {len(stimulus_set)} stimuli, columns {list(stimulus_set.columns)}")
        if is_data:
            assembly = brainscore_vision.load_dataset(identifier)
            shape = " x ".join(f"{dim} {size}" for dim, size in assembly.sizes.items())
            print(f"data {identifier}: {type(assembly).__name__} ({shape})")
    except Exception as error:
        raise _translate(error, f"preparing {identifier}") from error
    return 0


def _report(args) -> int:
    import warnings

    from brainscore_vision._paths import brainscore_home

    out = args.out if args.out is not None else brainscore_home() / "report"
    print_line(f"reading the stored rows and drawing the figures into {out} ...")
    from brainscore_vision.report import build_report  # matplotlib, pandas: seconds, so after the first line

    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            path = build_report(out, results_url=args.results_url)
    except Exception as error:
        raise _translate(error, "report") from error
    for warning in caught:  # one plain line each (skipped malformed rows, ...), stored text escaped
        print(display_text(f"brainscore report: {warning.message}"), file=sys.stderr)
    print(f"report written to {path or out}")
    from brainscore_vision.report.plots import matplotlib_missing

    missing = matplotlib_missing()
    if missing:  # the pages say so too, in place of each figure
        print(f"brainscore report: the report has no figures. {missing}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
