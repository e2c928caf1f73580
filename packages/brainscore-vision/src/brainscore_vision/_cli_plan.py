"""``brainscore score --dry-run``: the plan of a grid, without building a model or downloading anything.

For every (model, benchmark) pair it says what data the benchmark needs (the marker of ``brainscore list benchmarks``),
whether the store already holds a score of this benchmark version for the
model identifier (the run skips it unless the model's content digest changed, which only building the model shows),
and whether the model can run here: a model factory's ``availability()`` (model-tools' zoo has one; it imports no
torch and reads the file system only) says ``ready`` or, e.g., ``needs weights`` with where they come from. Pairs
whose model is not ready are marked. The benchmarks are constructed (cheap; a few build their data on first use,
from the raw recordings), never scored. Memory is estimated when a pair runs (that needs the built model), and a
pair over the budget is refused then, before scoring.
"""

from __future__ import annotations

import argparse
from typing import Any

__all__ = ["dry_run"]


def _availability(identifier: str) -> tuple[str, str]:
    """``(state, hint)`` of a model without building it: its factory's ``availability()``, else what its plugin's
    files say it needs (weights not on this machine yet, packages not installed; :mod:`._plugin_needs`)."""
    from brainscore_vision._plugin_needs import model_needs, model_plugins

    plugin = next((plugin for plugin in model_plugins() if plugin.identifier == identifier), None)
    return model_needs(plugin) if plugin is not None else ("ready", "")


def _benchmark_version(identifier: str) -> tuple[int | None, str | None]:
    """(version, None), or (None, the one-line reason the benchmark cannot be constructed)."""
    import brainscore_vision

    try:
        version = getattr(brainscore_vision.load_benchmark(identifier), "version", None)
    except Exception as error:  # reported on the pair's line; the plan goes on
        first = str(error).strip().splitlines()[0] if str(error).strip() else ""
        return None, f"{type(error).__name__}: {first}"
    return (1 if version is None else int(version)), None


def dry_run(args: argparse.Namespace, store: Any, say: Any = print) -> int:
    """Print the plan of ``brainscore score`` (``args.models`` x ``args.benchmarks``); returns the exit status 0."""
    from brainscore_core.grid import plan_pairs
    from brainscore_core.memory_plan import format_bytes, memory_budget
    from brainscore_vision.benchmark_data import data_marker

    pairs = plan_pairs(args.models, args.benchmarks)
    budget = memory_budget()
    say(f"memory budget here {format_bytes(budget) if budget else 'unknown'}: each pair's estimate is checked "
        "against it when the pair runs, before scoring")
    models = {identifier: _availability(identifier) for identifier in dict.fromkeys(args.models)}
    versions = {identifier: _benchmark_version(identifier) for identifier in dict.fromkeys(args.benchmarks)}
    not_ready = 0
    for model_identifier, benchmark_identifier in pairs:
        state, hint = models[model_identifier]
        version, problem = versions[benchmark_identifier]
        if problem is not None:
            plan = f"benchmark cannot be loaded: {problem}"
        elif store is not None and not args.rescore and store.rows(
                model_identifier=model_identifier, benchmark_identifier=benchmark_identifier,
                benchmark_version=version):
            plan = "stored: skipped unless the model's weights changed (--rescore scores it again)"
        else:
            plan = "score"
        line = (f"  {model_identifier} on {benchmark_identifier} (v{version if version is not None else '?'}): {plan}"
                f"; data {data_marker(benchmark_identifier)}")
        if state != "ready":
            not_ready += 1
            line += f"; model {state.upper()}: {hint}"
        say(line)
    if not_ready:
        say(f"{not_ready} pair(s) need something before they can run here (marked above)")
    return 0
