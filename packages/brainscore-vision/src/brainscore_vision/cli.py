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
import time
from collections.abc import Sequence

from brainscore_core.progress import progress as progress_bar

__all__ = ["main"]

EXIT_FAILED, EXIT_USAGE, EXIT_MISSING_DATA = 1, 2, 3
LIST_KINDS = {"benchmarks": "benchmark", "models": "model", "metrics": "metric", "ceilings": "ceiling",
              "data": "data", "stimulus_sets": "stimulus_set"}


class CommandError(Exception):
    """A one-line reason to stop, with the exit status to stop with."""

    def __init__(self, message: str, status: int = EXIT_FAILED):
        super().__init__(message)
        self.status = status


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

    listing = commands.add_parser("list", help="list registered identifiers")
    listing.add_argument("kind", choices=sorted(LIST_KINDS))

    ceiling = commands.add_parser("ceiling", help="print a benchmark's ceiling")
    ceiling.add_argument("benchmark")

    data = commands.add_parser("data", help="data commands")
    data_commands = data.add_subparsers(dest="data_command", required=True)
    prepare = data_commands.add_parser("prepare", help="package (if needed) and load a data set / stimulus set")
    prepare.add_argument("identifier")

    report = commands.add_parser("report", help="write the static HTML report of the stored results")
    report.add_argument("--out", default="brainscore-report", help="output folder (default: brainscore-report)")
    report.add_argument("--results-url", default=None, help="SQLAlchemy URL of the results store")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status (the console script exits with it)."""
    args = build_parser().parse_args(argv)
    handlers = {"score": _score, "list": _list, "ceiling": _ceiling, "data": _data, "report": _report}
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
def _score(args) -> int:
    import brainscore_vision
    from brainscore_core.benchmarks import score_benchmark
    from brainscore_vision._cli_rows import format_table, score_row, store_arguments

    _check_identifiers("model", args.models)
    _check_identifiers("benchmark", args.benchmarks)
    store = None
    if not args.no_store:
        from brainscore_core.results import ResultStore

        store = ResultStore(args.results_url)

    rows, failures = [], []
    pairs = [(m, b) for m in args.models for b in args.benchmarks]
    benchmarks: dict[str, object] = {}
    models: dict[str, object] = {}
    with progress_bar(total=len(pairs), desc="scoring", unit="score") as progress:
        for model_identifier, benchmark_identifier in pairs:
            progress.set_postfix_str(f"{model_identifier} on {benchmark_identifier}")
            what = f"{model_identifier} on {benchmark_identifier}"
            start = time.perf_counter()
            try:
                if benchmark_identifier not in benchmarks:
                    benchmarks[benchmark_identifier] = brainscore_vision.load_benchmark(benchmark_identifier)
                if model_identifier not in models:
                    models[model_identifier] = brainscore_vision.load_model(model_identifier)
                benchmark, model = benchmarks[benchmark_identifier], models[model_identifier]
                result = score_benchmark(benchmark, model)
            except Exception as error:
                translated = _translate(error, what)
                if translated.status == EXIT_MISSING_DATA:
                    raise translated from error
                failures.append(translated)
                progress.update()
                continue
            elapsed = time.perf_counter() - start
            provenance = {"elapsed_s": round(elapsed, 3), "command": "brainscore score",
                          "brainscore_vision": brainscore_vision.__version__}
            arguments = store_arguments(result, model=model, benchmark=benchmark, provenance=provenance,
                                        model_identifier=model_identifier, benchmark_identifier=benchmark_identifier)
            rows.append(score_row(model_identifier, benchmark_identifier, result, elapsed, arguments["layer_map"]))
            if store is not None:
                store.add(result, **arguments)
            progress.update()
    if rows:
        print(format_table(rows))
    if store is not None and rows:
        print(f"stored {len(rows)} row(s) in {getattr(store, 'url', args.results_url or 'the default results store')}")
    for failure in failures:
        print(f"brainscore score: {failure}", file=sys.stderr)
    return failures[0].status if failures else 0


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
