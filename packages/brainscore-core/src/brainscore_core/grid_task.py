"""One pair of the grid, start to end, in whatever process runs it (this one, or a Dask worker).

:func:`score_task` loads the pair through the domain it carries, skips it when the store already holds it, checks its
memory estimate against the process's budget, scores it and writes its row, scores and failures alike. A pair that
raises is tried once more in the same process, with everything loaded again, and its row says why it failed
(:mod:`brainscore_core.failure_kinds`): the same error twice is ``deterministic``, another error ``transient``; a
:class:`MemoryError` is ``oom`` and a :class:`TimeoutError` ``timeout`` at once.

What a task holds, it releases: the benchmark when the pair ends, the model too unless the task is told that the
next pair of the plan scores the same model (``keep_model``); then the model waits in a one-model slot of the thread
that ran it, taken by that thread's next task of the same model, replaced by any other, and emptied when the grid
ends (:func:`release_models`). Nothing is kept for the life of the process. What a step holds for the model's runs
(:func:`~brainscore_core.pair_scope.call_at_model_release`) waits with it and is released with it.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from brainscore_core.errors import MemoryBudgetError
from brainscore_core.failure_kinds import classify_repeat, error_kind
from brainscore_core.grid_events import report_stage, worker_reporting
from brainscore_core.memory_plan import estimate_pair, format_bytes, memory_budget
from brainscore_core.pair_scope import (
    KEPT_MODEL,
    give_model_releases,
    pair_memo,
    pair_scope,
    run_released,
    take_model_releases,
)
from brainscore_core.result_rows import failure_row
from brainscore_core.results import ResultStore, ResultStoreError
from brainscore_core.scoring import digest_change, model_digest, run_pair, side_file_for, write_side_file

__all__ = ["domain_of", "release_models", "result_of", "score_task", "store_row"]

_held_lock = threading.Lock()
#: thread -> ((group, model identifier), model, its release callbacks): one per thread
_held: dict[int, tuple[tuple[str, str], Any, dict]] = {}


def domain_of(domain: Any) -> Any:
    """A Domain from a Domain or an entry-point group."""
    if isinstance(domain, str):
        from brainscore_core._domains import find_domain

        return find_domain(domain)
    return domain


def _take_model(domain: Any, identifier: str) -> Any:
    """The model this thread kept for ``identifier`` after its previous pair (the pair's memo is marked
    :data:`~brainscore_core.pair_scope.KEPT_MODEL`), else a freshly loaded one."""
    key = (domain.entry_point_group, identifier)
    with _held_lock:
        held = _held.pop(threading.get_ident(), None)
    if held is not None and held[0] == key:
        memo = pair_memo()
        if memo is not None:
            memo[KEPT_MODEL] = True
        give_model_releases(held[2])  # what was held for the model's runs stays with it
        return held[1]
    if held is not None:  # another model: released before the next is built
        releases = held[2]
        del held
        run_released(releases)
    return domain.load_model(identifier)


def _hold_model(domain: Any, identifier: str, model: Any) -> None:
    releases = take_model_releases()
    with _held_lock:
        _held[threading.get_ident()] = ((domain.entry_point_group, identifier), model, releases)


def release_models() -> int:
    """Drop every model kept for a next pair in this process (the grid calls it when it ends, on every worker), and
    release what was held for their runs; returns how many were dropped."""
    with _held_lock:
        held = list(_held.values())
        _held.clear()
    for _, _, releases in held:
        run_released(releases)
    return len(held)


def result_of(model: str, benchmark: str, status: str, row: dict | None = None, elapsed: float | None = None,
              side_file: str | None = None) -> dict[str, Any]:
    """A pair's result dict (the grid's columns, plus its stored ``row``)."""
    row = row or {}
    return {"model": model, "benchmark": benchmark, "status": status, "score": row.get("score_ceiled"),
            "raw": row.get("score_raw"), "ceiling": row.get("ceiling"), "error": row.get("error"),
            "elapsed_s": elapsed if elapsed is not None else row.get("elapsed_s"),
            "error_type": row.get("error_type"), "error_message": row.get("error_message"),
            "failure_kind": row.get("failure_kind"), "side_file": side_file, "row": row}


@dataclass
class _Attempt:
    """What one attempt at a pair gave: a result dict, or a failure row with its error (unstored)."""

    result: dict[str, Any] | None = None
    row: dict[str, Any] | None = None
    error: BaseException | None = None
    refused: bool = False  # the preflight refused the pair: nothing ran, a second attempt would refuse it again


def score_task(domain: Any, model_identifier: str, benchmark_identifier: str, store_url: str | None,
               rescore: bool = False, budget_bytes: int | None = None,
               rescored_since: str | None = None, events: str | None = None, keep_model: bool = False, *,
               defer_oom: bool = False, earlier: dict[str, Any] | None = None,
               store: ResultStore | None = None) -> dict[str, Any]:
    """One pair, start to end, in whatever process runs it; returns a plain dict (:func:`result_of`).

    ``domain``: the :class:`~brainscore_core.plugins.Domain` that loads the pair (or its entry-point group).
    ``keep_model``: the next pair of the plan scores the same model: keep it in this thread's slot for it (else it is
    released with the benchmark when the pair ends).

    Status ``'ok'`` (scored and stored), ``'failed'`` (the pair raised on both attempts, or raised a MemoryError or
    TimeoutError, or its memory estimate exceeds the budget: the failure is stored with its ``failure_kind``),
    ``'skipped'`` (already stored), ``'unstored'`` (scored, but the store refused the row: it is in ``side_file``).
    ``budget_bytes`` default: this worker's memory limit, else the machine's memory
    (:func:`~brainscore_core.memory_plan.memory_budget`). ``rescored_since`` (ISO 8601, with ``rescore``): a row
    stored since then is this grid's own, written by an attempt whose worker died before it could report: the retry
    skips the pair instead of storing it twice. ``events``: the Dask event topic of the run; on a worker, the pair's
    start, progress bars and notices go there (:mod:`brainscore_core.grid_events`). ``defer_oom``: a pair that ran
    out of memory (not one the preflight refused) is returned unstored with ``retry_memory=True``, for the grid to
    run again with more memory. ``earlier``: why the pair runs again (a failure of an earlier attempt), kept in the
    row's provenance (``earlier_attempt``). ``store``: an open store to use instead of opening ``store_url`` (the
    in-process grid passes its one store to every pair: an engine per pair, opened, checked and closed, cost 4 ms
    against 0.4 ms for a pair's lookup and row); left open.
    """
    with worker_reporting(events, model_identifier, benchmark_identifier), pair_scope():
        domain = domain_of(domain)
        given = store
        if store is None and store_url is not None:
            store = ResultStore(store_url)
        try:
            first = _attempt(domain, model_identifier, benchmark_identifier, store, rescore, budget_bytes,
                             rescored_since, keep_model, earlier)
            if first.error is None:
                return first.result
            kind, final = error_kind(first.error), first
            if kind is None:  # tried once more, everything loaded again, before saying why it fails
                release_models()
                report_stage("trying the pair again after an error")
                final = _attempt(domain, model_identifier, benchmark_identifier, store, rescore, budget_bytes,
                                 rescored_since, keep_model, earlier)
                if final.error is None:
                    return final.result
                kind = error_kind(final.error) or classify_repeat(
                    (first.row["error_type"], first.row["error_message"]),
                    (final.row["error_type"], final.row["error_message"]))
            final.row["failure_kind"] = kind
            result = result_of(model_identifier, benchmark_identifier, "failed", final.row)
            if kind == "oom" and defer_oom and not final.refused:
                return {**result, "retry_memory": True}
            return store_row(store, final.row, result)
        finally:
            if store is not None and store is not given:
                store.dispose()


def _attempt(domain: Any, model_identifier: str, benchmark_identifier: str, store: ResultStore | None,
             rescore: bool, budget_bytes: int | None, rescored_since: str | None, keep_model: bool,
             earlier: dict[str, Any] | None) -> _Attempt:
    loaded: dict[str, Any] = {}
    try:
        return _run(domain, model_identifier, benchmark_identifier, store, rescore, budget_bytes, rescored_since,
                    loaded, earlier)
    finally:
        if keep_model and "model" in loaded:
            _hold_model(domain, model_identifier, loaded["model"])
        loaded.clear()  # the benchmark (and the model, unless kept) go with this attempt


def _run(domain: Any, model_identifier: str, benchmark_identifier: str, store: ResultStore | None, rescore: bool,
         budget_bytes: int | None, rescored_since: str | None, loaded: dict[str, Any],
         earlier: dict[str, Any] | None) -> _Attempt:
    start = time.perf_counter()
    ids = {"model_identifier": model_identifier, "benchmark_identifier": benchmark_identifier}
    try:
        report_stage("loading the benchmark")
        benchmark = loaded["benchmark"] = domain.load_benchmark(benchmark_identifier)
        report_stage("loading the model")
        model = loaded["model"] = _take_model(domain, model_identifier)
        digest = model_digest(model)
        changed = digest_change(model_identifier, digest, store)
    except Exception as error:  # the benchmark's version when it loaded (the model failed), else unknown (0)
        known = getattr(loaded.get("benchmark"), "version", None) if "benchmark" in loaded else None
        version = None if "benchmark" not in loaded else 1 if known is None else known
        return _Attempt(row=failure_row(error, elapsed_s=time.perf_counter() - start, benchmark_version=version,
                                        **ids), error=error)
    version = getattr(benchmark, "version", None)
    version = 1 if version is None else version
    if store is not None and (not rescore or rescored_since is not None):
        since = datetime.fromisoformat(rescored_since) if rescore and rescored_since is not None else None
        found = store.find(benchmark_version=version, model_digest=digest, since=since, **ids)
        if found is not None:
            return _Attempt(result_of(model_identifier, benchmark_identifier, "skipped", found, elapsed=0.0))
    pair = {**ids, "benchmark_version": version, "model_digest": digest}
    try:
        report_stage("estimating memory (loads the benchmark's data)")
        estimate = estimate_pair(model, benchmark)  # may load the benchmark's data: a failure is the pair's
    except Exception as error:
        return _Attempt(row=failure_row(error, elapsed_s=time.perf_counter() - start, **pair), error=error)
    budget = budget_bytes if budget_bytes is not None else memory_budget()
    if estimate is not None and budget is not None and estimate.peak_bytes > budget:
        refusal = MemoryBudgetError(f"{estimate.describe()} exceeds the memory limit of {format_bytes(budget)}; "
                                    "refused before running: reduce the layer (model_tools RandomProjection / "
                                    "PCAReduction) or give the worker more memory")
        return _Attempt(row=failure_row(refusal, elapsed_s=time.perf_counter() - start, **pair), error=refusal,
                        refused=True)
    provenance = {"memory_estimate": estimate.as_dict()} if estimate is not None else {}
    if earlier:
        provenance["earlier_attempt"] = dict(earlier)
    report_stage("scoring")
    _, row, error = run_pair(model, benchmark, digest=digest, provenance=provenance, **ids)
    if error is not None:
        return _Attempt(row=row, error=error)
    result = result_of(model_identifier, benchmark_identifier, "ok", row)
    result["digest_changed"] = changed
    return _Attempt(store_row(store, row, result))


def store_row(store: ResultStore | None, row: dict, result: dict) -> dict:
    """Insert ``row``; when the store refuses it, append it to a side file (``result['side_file']``, status
    ``'unstored'`` for a score). Returns ``result``."""
    if store is None:
        return result
    try:
        store.insert(row)
    except ResultStoreError as error:
        result["side_file"] = str(write_side_file(side_file_for(store), [row]))
        result["status"] = "unstored" if result["status"] == "ok" else result["status"]
        result["error_message"] = result["error_message"] or str(error)
    return result
