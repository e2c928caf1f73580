"""The ``brainscore`` command line.

::

    brainscore score --model randomnet --model pixels --benchmark Cowley2023.V4-pls
    brainscore list benchmarks
    brainscore ceiling Kriegeskorte2008.hIT-rdm
    brainscore data prepare Cowley2023
    brainscore report --out site/

Exit status: 0 on success, 2 for a bad identifier or argument (the message lists close matches), 3 when
raw data is missing (the message names ``BRAINSCORE_RAW_DATA`` and the path), 1 when scoring failed.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from brainscore_vision.errors import EXIT_FAILED, CommandError

__all__ = ["main"]

EXIT_USAGE, EXIT_MISSING_DATA = 2, 3  # EXIT_FAILED (1) lives beside CommandError
LIST_KINDS = {"benchmarks": "benchmark", "models": "model", "metrics": "metric", "ceilings": "ceiling",
              "data": "data", "stimulus_sets": "stimulus_set"}




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
                       help="model identifier (repeat for several)")
    score.add_argument("--benchmark", action="append", required=True, dest="benchmarks", metavar="BENCHMARK",
                       help="benchmark identifier (repeat for several)")
    score.add_argument("--results-url", default=None,
                       help="SQLAlchemy URL of the results store (default: $BRAINSCORE_RESULTS_URL or "
                            "SQLite at $BRAINSCORE_HOME/results.sqlite)")
    score.add_argument("--no-store", action="store_true", help="print the table without storing the rows")
    score.add_argument("--workers", type=int, default=None, metavar="N",
                       help="run the pairs on a Dask LocalCluster of N worker processes on this machine")
    score.add_argument("--scheduler", default=None, metavar="ADDRESS",
                       help="run the pairs on an existing Dask cluster, e.g. tcp://host:8786")
    score.add_argument("--rescore", action="store_true",
                       help="score pairs again although the store holds them (same model content and benchmark "
                            "version); by default they are skipped, so an interrupted grid resumes")
    score.add_argument("--dry-run", action="store_true",
                       help="print the pairs and which of them would be skipped, then exit")

    listing = commands.add_parser("list", help="list registered identifiers")
    listing.add_argument("kind", choices=sorted(LIST_KINDS))

    ceiling = commands.add_parser("ceiling", help="print a benchmark's ceiling")
    ceiling.add_argument("benchmark")

    data = commands.add_parser("data", help="data commands")
    data_commands = data.add_subparsers(dest="data_command", required=True)
    prepare = data_commands.add_parser("prepare", help="package (if needed) and load a data set / stimulus set")
    prepare.add_argument("identifier")

    results = commands.add_parser("results", help="results store commands")
    results_commands = results.add_subparsers(dest="results_command", required=True)
    importing = results_commands.add_parser(
        "import", help="load the rows of a side file (written when the store refused them) into the store")
    importing.add_argument("file", help="a brainscore-unstored-*.jsonl file")
    importing.add_argument("--results-url", default=None, help="SQLAlchemy URL of the results store")

    report = commands.add_parser("report", help="write the static HTML report of the stored results")
    report.add_argument("--out", default="brainscore-report", help="output folder (default: brainscore-report)")
    report.add_argument("--results-url", default=None, help="SQLAlchemy URL of the results store")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status (the console script exits with it)."""
    args = build_parser().parse_args(argv)
    handlers = {"score": _score, "list": _list, "ceiling": _ceiling, "data": _data, "report": _report,
                "results": _results}
    try:
        status = handlers[args.command](args)
    except CommandError as error:
        print(f"brainscore {args.command}: {error}", file=sys.stderr)
        status = error.status
    except KeyboardInterrupt:
        print("brainscore: interrupted", file=sys.stderr)
        status = 130
    return status


# -- identifiers and errors ---------------------------------------------------------------------------
def _check_identifiers(kind: str, identifiers: Sequence[str]) -> None:
    import brainscore_vision

    registry = brainscore_vision.domain.registry(kind)
    for identifier in identifiers:
        if identifier not in registry:
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
def _client(args):
    """The Dask client of ``--workers`` / ``--scheduler`` (None: in this process), with what closes it."""
    if args.workers is None and args.scheduler is None:
        return None, []
    if args.workers is not None and args.scheduler is not None:
        raise CommandError("give --workers or --scheduler, not both", EXIT_USAGE)
    try:
        from distributed import Client, LocalCluster
    except ImportError:
        raise CommandError("--workers / --scheduler need Dask: pip install -c constraints.txt "
                           "'./packages/brainscore-core[dask]' (from the repository root)", EXIT_USAGE) from None
    if args.scheduler is not None:
        client = Client(args.scheduler)
        return client, [client]
    cluster = LocalCluster(n_workers=args.workers, threads_per_worker=1, processes=True, dashboard_address=None,
                           host="127.0.0.1")
    client = Client(cluster)
    return client, [client, cluster]


def _dry_run(args, store) -> int:
    """The plan: every pair, whether the store holds it, and its memory estimate against this machine's budget."""
    import brainscore_vision
    from brainscore_core.grid import plan_pairs
    from brainscore_core.memory_plan import estimate_pair, format_bytes, memory_budget
    from brainscore_core.scoring import model_digest

    pairs = plan_pairs(args.models, args.benchmarks)
    budget = memory_budget()
    print(f"{len(pairs)} pair(s); stored pairs are skipped unless --rescore; memory budget here "
          f"{format_bytes(budget) if budget else 'unknown'}")
    models, benchmarks = {}, {}
    for model_identifier, benchmark_identifier in pairs:
        if benchmark_identifier not in benchmarks:
            benchmarks[benchmark_identifier] = brainscore_vision.load_benchmark(benchmark_identifier)
        if model_identifier not in models:
            models[model_identifier] = brainscore_vision.load_model(model_identifier)
        model, benchmark = models[model_identifier], benchmarks[benchmark_identifier]
        state = "score"
        if store is not None and not args.rescore:
            version = getattr(benchmark, "version", None)
            found = store.find(model_identifier=model_identifier, benchmark_identifier=benchmark_identifier,
                               benchmark_version=1 if version is None else version, model_digest=model_digest(model))
            state = "skip (stored)" if found is not None else "score"
        estimate = estimate_pair(model, benchmark)
        if estimate is None:
            memory = "memory: no estimate (the model or benchmark gives no shapes)"
        else:
            refused = budget is not None and estimate.peak_bytes > budget
            memory = estimate.describe() + (" -> REFUSED: above the budget" if refused else "")
        print(f"  {model_identifier} on {benchmark_identifier}: {state}; {memory}")
    return 0


def _score(args) -> int:
    from brainscore_core.grid import score_many
    from brainscore_core.results import ResultStoreError
    from brainscore_core.scoring import open_store
    from brainscore_vision._cli_rows import format_table, table_row

    _check_identifiers("model", args.models)
    _check_identifiers("benchmark", args.benchmarks)
    try:  # before any scoring: a locked or damaged store fails now, not after the work
        store = open_store(False if args.no_store else (args.results_url or True))
    except ResultStoreError as error:
        raise CommandError(str(error), EXIT_FAILED) from error
    if args.dry_run:
        return _dry_run(args, store)
    client, closers = _client(args)
    rows, problems = [], []

    def show(result: dict) -> None:  # rows as they come
        if result["status"] in ("ok", "skipped", "unstored"):
            row = table_row(result)
            rows.append(row)
            _print_above_bar(f"{row['model']} on {row['benchmark']}: {row['score']:.4f} ceiled "
                             f"({result['status']})")
        if result["status"] == "failed":
            problems.append(_translate_result(result))
            _print_above_bar(f"{result['model']} on {result['benchmark']}: failed: {result['error_type']}: "
                             f"{result['error_message']}")

    try:
        frame = score_many(args.models, args.benchmarks, client, domain="brainscore_vision",
                           store=store if store is not None else False, rescore=args.rescore, on_result=show)
    finally:
        for closer in closers:
            closer.close()
    if rows:
        print(format_table(rows))
    counts = frame["status"].value_counts().to_dict()
    summary = ", ".join(f"{counts.get(status, 0)} {status}" for status in ("ok", "skipped", "failed", "unstored")
                        if counts.get(status, 0))
    unstored = sorted(set(frame["side_file"].dropna()))
    if store is not None:
        print(f"{summary}; rows stored in {store.url}" if not unstored else summary)
    for path in unstored:
        print(f"brainscore score: the results store refused rows; they are in {path} (load them with: "
              f"brainscore results import {path})", file=sys.stderr)
    for problem in problems:
        print(f"brainscore score: {problem}", file=sys.stderr)
    missing = [problem for problem in problems if problem.status == EXIT_MISSING_DATA]
    if missing:
        return EXIT_MISSING_DATA
    if problems or unstored:
        print(f"brainscore score: {summary}", file=sys.stderr)
        return EXIT_FAILED
    return 0


def _print_above_bar(line: str) -> None:
    """One result line on stderr as soon as the pair is done (above the progress bar; the table goes to stdout)."""
    from tqdm import tqdm

    tqdm.write(line, file=sys.stderr)


def _translate_result(result: dict) -> CommandError:
    """A failed pair's one-line reason; missing raw data keeps its own exit status."""
    what = f"{result['model']} on {result['benchmark']}"
    if result.get("error_type") in ("MissingRawDataError", "DataIntegrityError"):
        return CommandError(f"{what}: {result['error_message']}", EXIT_MISSING_DATA)
    return CommandError(f"{what} failed: {result['error_type']}: {result['error_message']}", EXIT_FAILED)


def _results(args) -> int:
    from pathlib import Path

    from brainscore_core.result_rows import row_from_json
    from brainscore_core.results import ResultStore, ResultStoreError

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
    try:
        store.check()
        for row in rows:
            store.insert(row)
    except ResultStoreError as error:
        raise CommandError(str(error), EXIT_FAILED) from error
    print(f"imported {len(rows)} row(s) from {path} into {store.url}")
    return 0


def _list(args) -> int:
    import brainscore_vision

    kind = LIST_KINDS[args.kind]
    infos = brainscore_vision.list_plugins(kind)
    width = max((len(info.identifier) for info in infos), default=10)
    registry = brainscore_vision.domain.registry(kind)
    for info in infos:
        origin = info.distribution or info.module or "-"
        line = f"{info.identifier.ljust(width)}  {origin}"
        availability = getattr(registry[info.identifier], "availability", None) if kind == "model" else None
        if callable(availability):  # a model plugin may say whether it can run here, and how to make it
            state, hint = availability()
            line += f"  [{state}] {hint}"
        if kind == "benchmark":  # what it needs: shipped data, the public bucket, local files
            from brainscore_vision.benchmark_data import data_marker

            line += f"  {data_marker(info.identifier)}"
        print(line)
    return 0


def _ceiling(args) -> int:
    import brainscore_vision
    from brainscore_vision._cli_rows import to_float

    _check_identifiers("benchmark", [args.benchmark])
    try:
        benchmark = brainscore_vision.load_benchmark(args.benchmark)
        ceiling = benchmark.ceiling
    except Exception as error:
        raise _translate(error, f"ceiling of {args.benchmark}") from error
    parts = [f"{args.benchmark}  ceiling {to_float(ceiling):.4f}"]
    for key in ("error", "lower_bound_loo"):
        if key in ceiling.attrs:
            parts.append(f"{key} {to_float(ceiling.attrs[key]):.4f}")
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
    from brainscore_vision.report import build_report

    try:
        path = build_report(args.out, results_url=args.results_url)
    except Exception as error:
        raise _translate(error, "report") from error
    print(f"report written to {path or args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
