"""``brainscore score --dry-run``: the plan of a grid, without building a model or downloading anything.

For every (model, benchmark) pair it says what data the benchmark needs (the marker of ``brainscore list benchmarks``),
whether the store already holds a score of this benchmark version for the
model identifier (the run skips it unless the model's content digest changed, which only building the model shows),
and whether the model can run here: a model factory's ``availability()`` (model-tools' zoo has one; it imports no
torch and reads the file system only) says ``ready`` or, e.g., ``needs weights`` with where they come from. Pairs
whose model is not ready are marked. The benchmarks are constructed (cheap; a few build their data on first use,
from the raw recordings), never scored.

The memory preflight: each pair's estimated peak (:func:`brainscore_core.grid.preflight`: each benchmark and each
ready model is loaded once, here, for the shapes it reports: stimuli, features of the recorded layer), against the
limit of what would run it: a Slurm job (``--job-memory``, else the memory plan's job size), a local worker
(``--workers N``: the machine's memory over N), or this process. A pair over the limit is marked REFUSED: the run
refuses it before anything runs, with the estimate and the limit. A model that is not ready (weights missing) is not
built, so its pairs have no estimate here.
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


def _limit(args: argparse.Namespace, slurm: dict[str, Any], estimates: dict) -> tuple[int | None, str]:
    """What a pair may use where it would run, and where that is."""
    from brainscore_core.memory_plan import TERMINATE_FRACTION, format_bytes, job_memory, memory_budget

    if slurm:
        given = slurm["cluster_options"].get("memory")
        job = given if given is not None else job_memory(estimates.values())
        how = "given" if given is not None else "from the memory plan"
        return int(job * TERMINATE_FRACTION), (f"{slurm['jobs']} Slurm job(s) of {format_bytes(job)} ({how}); a worker "
                                               f"may use {TERMINATE_FRACTION:.0%} of it")
    if getattr(args, "workers", None):
        machine = memory_budget()
        if machine is None:
            return None, f"{args.workers} local worker(s)"
        limit = int(machine / args.workers * TERMINATE_FRACTION)
        return limit, f"{args.workers} local worker(s) of {format_bytes(machine / args.workers)} each"
    if getattr(args, "scheduler", None):
        return None, f"the workers of {args.scheduler} (each checks its own limit when the pair runs)"
    budget = memory_budget()
    return budget, "this process (the machine's memory)"


def _estimates(pairs: list[tuple[str, str]], models: dict[str, tuple[str, str]], versions: dict) -> dict:
    """The preflight estimate of each pair whose model is ready and whose benchmark loads."""
    import brainscore_vision
    from brainscore_core.grid import preflight

    runnable = [(model, benchmark) for model, benchmark in pairs
                if models[model][0] == "ready" and versions[benchmark][1] is None]
    return preflight(brainscore_vision.domain, runnable) if runnable else {}


def dry_run(args: argparse.Namespace, store: Any, say: Any = print, *, slurm: dict[str, Any] | None = None) -> int:
    """Print the plan of ``brainscore score`` (``args.models`` x ``args.benchmarks``) with each pair's memory
    estimate against its limit; returns the exit status 0."""
    from brainscore_core.grid import plan_pairs
    from brainscore_core.memory_plan import format_bytes
    from brainscore_vision.benchmark_data import data_marker

    pairs = plan_pairs(args.models, args.benchmarks)
    models = {identifier: _availability(identifier) for identifier in dict.fromkeys(args.models)}
    versions = {identifier: _benchmark_version(identifier) for identifier in dict.fromkeys(args.benchmarks)}
    estimates = _estimates(pairs, models, versions)
    limit, where = _limit(args, slurm or {}, estimates)
    say(f"memory preflight: each pair's estimated peak against {format_bytes(limit) if limit else 'the limit'} of "
        f"{where}")
    not_ready, refused = 0, 0
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
        estimate = estimates.get((model_identifier, benchmark_identifier))
        if estimate is not None:
            over = limit is not None and estimate.peak_bytes > limit
            refused += over
            line += f"; memory {estimate.describe()}" + (
                f": REFUSED, over the limit of {format_bytes(limit)}" if over else "")
        elif state == "ready" and problem is None:
            line += "; memory: no estimate (the model or benchmark reports no shapes)"
        if state != "ready":
            not_ready += 1
            line += f"; model {state.upper()}: {hint}"
        say(line)
    if not_ready:
        say(f"{not_ready} pair(s) need something before they can run here (marked above)")
    if refused:
        say(f"{refused} pair(s) exceed the memory limit and would be refused (marked REFUSED)")
    return 0
