"""Many models x many benchmarks: in this process, or on a Dask cluster (local processes, a scheduler, Slurm).

:func:`score_many` runs every (model, benchmark) pair as one task of :func:`score_task`, which loads both
through the domain it carries (a :class:`~brainscore_core.plugins.Domain`), skips a pair already stored for the same
model content (``model.content_digest()``), benchmark identifier and version (unless ``rescore``), scores it, and
writes its row (scores and failures alike) to the results store itself. So an interrupted grid continues
where it stopped, a failing pair is recorded and the grid goes on, and a task that Dask retries after a
worker died finds its row if it had been written.

What a task holds, it releases: the benchmark when the pair ends, the model too unless the task is told that the
next pair of the plan scores the same model (``keep_model``); then the model waits in a one-model slot of the thread
that ran it, taken by that thread's next task of the same model, replaced by any other, and emptied when the grid
ends. Nothing is kept for the life of the process.

A task carries its domain. In this process that is the domain object itself; to a Dask worker the domain travels by
its entry-point group (``Domain.__reduce__``) and the worker takes its own domain of that group
(:func:`brainscore_core.plugins.find_domain`; a worker that has not met it yet imports the module named like the
group, e.g. ``brainscore_vision``: a domain package names its group after itself). This is the one lookup by name
left: registries, models and data cannot travel, and the plugins that fill a domain register into the domain
package's own instance.

Activations are shared through model-tools' content-addressed disk cache (safe for concurrent processes),
so a model's activations for a stimulus set are computed once, whichever worker needs them next.
"""

from __future__ import annotations

import contextlib
import threading
import time
import warnings
from collections.abc import Callable, Iterable, Sequence
from datetime import UTC, datetime
from typing import Any

from brainscore_core.errors import ModelDigestChangedWarning
from brainscore_core.grid_events import new_topic, report_stage, worker_reporting
from brainscore_core.memory_plan import (
    MemoryBudgetError,
    benchmark_shape,
    estimate_from_shapes,
    estimate_pair,
    format_bytes,
    memory_budget,
    model_shape,
    resident_bytes,
)
from brainscore_core.pair_scope import KEPT_MODEL, pair_memo, pair_scope
from brainscore_core.result_rows import failure_row
from brainscore_core.results import ResultStore, ResultStoreError
from brainscore_core.scoring import (
    digest_change,
    model_digest,
    open_store,
    run_pair,
    side_file_for,
    write_side_file,
)

__all__ = ["COLUMNS", "plan_pairs", "release_models", "score_many", "score_task", "shape_task"]

#: columns of the DataFrame :func:`score_many` returns, one row per pair
COLUMNS = ("model", "benchmark", "status", "score", "raw", "ceiling", "error", "elapsed_s", "error_type",
           "error_message", "side_file")

_held_lock = threading.Lock()
_held: dict[int, tuple[tuple[str, str], Any]] = {}  # thread -> ((group, model identifier), model): one per thread


def _domain_of(domain: Any) -> Any:
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
        return held[1]
    del held  # another model: released before the next is built
    return domain.load_model(identifier)


def _hold_model(domain: Any, identifier: str, model: Any) -> None:
    with _held_lock:
        _held[threading.get_ident()] = ((domain.entry_point_group, identifier), model)


def release_models() -> int:
    """Drop every model kept for a next pair in this process (the grid calls it when it ends, on every worker);
    returns how many were dropped."""
    with _held_lock:
        count = len(_held)
        _held.clear()
    return count


def _result(model: str, benchmark: str, status: str, row: dict | None = None, elapsed: float | None = None,
            side_file: str | None = None) -> dict[str, Any]:
    row = row or {}
    return {"model": model, "benchmark": benchmark, "status": status, "score": row.get("score_ceiled"),
            "raw": row.get("score_raw"), "ceiling": row.get("ceiling"), "error": row.get("error"),
            "elapsed_s": elapsed if elapsed is not None else row.get("elapsed_s"),
            "error_type": row.get("error_type"), "error_message": row.get("error_message"), "side_file": side_file,
            "row": row}


def score_task(domain: Any, model_identifier: str, benchmark_identifier: str, store_url: str | None,
               rescore: bool = False, budget_bytes: int | None = None,
               rescored_since: str | None = None, events: str | None = None, keep_model: bool = False
               ) -> dict[str, Any]:
    """One pair, start to end, in whatever process runs it; returns a plain dict (see :data:`COLUMNS`).

    ``domain``: the :class:`~brainscore_core.plugins.Domain` that loads the pair (or its entry-point group).
    ``keep_model``: the next pair of the plan scores the same model: keep it in this thread's slot for it (else it is
    released with the benchmark when the pair ends).

    Status ``'ok'`` (scored and stored), ``'failed'`` (the benchmark or a load raised, or the pair's memory
    estimate exceeds the budget: the failure is stored), ``'skipped'`` (already stored), ``'unstored'``
    (scored, but the store refused the row: it is in ``side_file``). ``budget_bytes`` default: this worker's
    memory limit, else the machine's memory (:func:`~brainscore_core.memory_plan.memory_budget`).
    ``rescored_since`` (ISO 8601, with ``rescore``): a row stored since then is this grid's own, written by an
    attempt whose worker died before it could report: the retry skips the pair instead of storing it twice.
    ``events``: the Dask event topic of the run; on a worker, the pair's start, progress bars and notices go there
    (:mod:`brainscore_core.grid_events`).
    """
    with worker_reporting(events, model_identifier, benchmark_identifier), pair_scope():
        domain = _domain_of(domain)
        loaded: dict[str, Any] = {}
        try:
            return _score_task(domain, model_identifier, benchmark_identifier, store_url, rescore, budget_bytes,
                               rescored_since, loaded)
        finally:
            if keep_model and "model" in loaded:
                _hold_model(domain, model_identifier, loaded["model"])
            loaded.clear()  # the benchmark (and the model, unless kept) go with this task


def _score_task(domain: Any, model_identifier: str, benchmark_identifier: str, store_url: str | None,
                rescore: bool, budget_bytes: int | None, rescored_since: str | None,
                loaded: dict[str, Any]) -> dict[str, Any]:
    start = time.perf_counter()
    store = ResultStore(store_url) if store_url is not None else None
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
        row = failure_row(error, model_identifier=model_identifier, benchmark_identifier=benchmark_identifier,
                          benchmark_version=version, elapsed_s=time.perf_counter() - start)
        return _store(store, row, _result(model_identifier, benchmark_identifier, "failed", row))
    version = getattr(benchmark, "version", None)
    version = 1 if version is None else version
    if store is not None and (not rescore or rescored_since is not None):
        since = datetime.fromisoformat(rescored_since) if rescore and rescored_since is not None else None
        found = store.find(model_identifier=model_identifier, benchmark_identifier=benchmark_identifier,
                           benchmark_version=version, model_digest=digest, since=since)
        if found is not None:
            return _result(model_identifier, benchmark_identifier, "skipped", found, elapsed=0.0)
    try:
        report_stage("estimating memory (loads the benchmark's data)")
        estimate = estimate_pair(model, benchmark)  # may load the benchmark's data: a failure is the pair's
    except Exception as error:
        row = failure_row(error, model_identifier=model_identifier, benchmark_identifier=benchmark_identifier,
                          benchmark_version=version, elapsed_s=time.perf_counter() - start, model_digest=digest)
        return _store(store, row, _result(model_identifier, benchmark_identifier, "failed", row))
    budget = budget_bytes if budget_bytes is not None else memory_budget()
    if estimate is not None and budget is not None and estimate.peak_bytes > budget:
        refusal = MemoryBudgetError(f"{estimate.describe()} exceeds the memory budget of {format_bytes(budget)}; "
                                    "reduce the layer (model_tools RandomProjection / PCAReduction) or give the "
                                    "worker more memory")
        row = failure_row(refusal, model_identifier=model_identifier, benchmark_identifier=benchmark_identifier,
                          benchmark_version=version, elapsed_s=time.perf_counter() - start, model_digest=digest)
        return _store(store, row, _result(model_identifier, benchmark_identifier, "failed", row))
    provenance = {"memory_estimate": estimate.as_dict()} if estimate is not None else None
    report_stage("scoring")
    _, row, error = run_pair(model, benchmark, model_identifier=model_identifier,
                             benchmark_identifier=benchmark_identifier, digest=digest, provenance=provenance)
    result = _result(model_identifier, benchmark_identifier, "failed" if error else "ok", row)
    result["digest_changed"] = changed
    return _store(store, row, result)


def _store(store: ResultStore | None, row: dict, result: dict) -> dict:
    if store is None:
        return result
    try:
        store.insert(row)
    except ResultStoreError as error:
        result["side_file"] = str(write_side_file(side_file_for(store), [row]))
        result["status"] = "unstored" if result["status"] == "ok" else result["status"]
        result["error_message"] = result["error_message"] or str(error)
    finally:
        store.dispose()
    return result


def _workers_declare_memory(client: Any) -> bool:
    """Whether every worker declares a ``MEMORY`` resource (``dask worker --resources MEMORY=64e9``): only then
    may tasks ask for it (a task asking for a resource no worker has would never run)."""
    workers = client.scheduler_info().get("workers", {}).values()
    return bool(workers) and all("MEMORY" in (worker.get("resources") or {}) for worker in workers)


def shape_task(domain: Any, kind: str, identifier: str, regions: Sequence[str] = ()) -> dict[str, Any]:
    """In a worker: load one benchmark (``kind='benchmark'``) or model, read what a memory estimate needs
    (:func:`~brainscore_core.memory_plan.benchmark_shape` / :func:`~brainscore_core.memory_plan.model_shape` for
    ``regions``) and the resident memory before and after loading, then release it. A failure gives ``{}``: the pair's
    own task records why loading fails."""
    domain, before = _domain_of(domain), resident_bytes()
    try:
        if kind == "benchmark":
            shape = benchmark_shape(domain.load_benchmark(identifier))
        else:
            shape = model_shape(domain.load_model(identifier), list(regions))
    except Exception:
        return {}
    return {**shape, "before_bytes": before, "loaded_bytes": max(0, resident_bytes() - before)}


def _memory_resources(client: Any, domain: Any, pairs: list[tuple[str, str]]) -> dict[tuple[str, str], dict]:
    """Each pair's estimated peak as a Dask resource annotation, from shapes the workers report (one task per
    benchmark, then one per model for the benchmarks' regions); this process loads nothing. A pair without an
    estimate gets no annotation (its task still checks its estimate against its worker's budget)."""
    benchmarks = list(dict.fromkeys(benchmark for _, benchmark in pairs))
    models = list(dict.fromkeys(model for model, _ in pairs))
    benchmark_shapes = dict(zip(benchmarks, client.gather(
        [client.submit(shape_task, domain, "benchmark", b, pure=False) for b in benchmarks]), strict=True))
    regions = sorted({shape["region"] for shape in benchmark_shapes.values() if shape})
    model_shapes = dict(zip(models, client.gather(
        [client.submit(shape_task, domain, "model", m, regions, pure=False) for m in models]), strict=True))
    resources = {}
    for model, benchmark in pairs:
        model_info, benchmark_info = model_shapes[model], benchmark_shapes[benchmark]
        if not model_info or not benchmark_info:
            continue
        baseline = (max(model_info["before_bytes"], benchmark_info["before_bytes"]) + model_info["loaded_bytes"]
                    + benchmark_info["loaded_bytes"])
        estimate = estimate_from_shapes(benchmark_info["stimulus_count"],
                                        model_info["feature_counts"].get(benchmark_info["region"]), baseline)
        if estimate is not None:
            resources[(model, benchmark)] = {"MEMORY": float(estimate.peak_bytes)}
    return resources


def plan_pairs(models: Sequence[str], benchmarks: Sequence[str]) -> list[tuple[str, str]]:
    """Every (model, benchmark) pair once, model-major: one model's pairs run next to each other, so its activations
    for a stimulus set are still in the disk cache (and its weights in the worker) for the next benchmark. An
    identifier given twice is scored once (two tasks of one pair would both store it)."""
    return [(model, benchmark) for model in dict.fromkeys(models) for benchmark in dict.fromkeys(benchmarks)]


def score_many(models: Iterable[str], benchmarks: Iterable[str], client: Any = None, *, domain: Any,
               store: Any = True, rescore: bool = False, retries: int = 2,
               on_result: Callable[[dict[str, Any]], None] | None = None, progress: bool | None = None,
               on_event: Callable[[dict[str, Any]], None] | None = None):
    """Score every model on every benchmark; returns a pandas DataFrame with one row per pair.

    Parameters
    ----------
    models, benchmarks : iterable of str
        Identifiers.
    client : dask.distributed.Client, optional
        Run each pair as a Dask task on this client's cluster (``LocalCluster``, a remote scheduler,
        dask-jobqueue's ``SLURMCluster``); default None runs the pairs one after another in this process.
    domain : Domain or str
        The :class:`~brainscore_core.plugins.Domain` whose ``load_model`` / ``load_benchmark`` resolve identifiers
        (e.g. ``brainscore_vision.domain``), or its entry-point group (``'brainscore_vision'``). Tasks carry it; on a
        Dask worker it is that worker's domain of the same group (importable there).
    store : bool, str or ResultStore, default=True
        Where rows go (:func:`~brainscore_core.scoring.open_store`; checked before anything runs); False: none
        (and no resuming).
    rescore : bool, default=False
        Score pairs that are already stored (once each: a task retried after its worker died skips the pair when
        its first attempt stored the row).
    retries : int, default=2
        Dask retries of a task whose worker died (a retry finds the row its first attempt stored: no pair is
        stored twice).
    on_result : callable, optional
        Called with each pair's result dict as it completes (the CLI prints rows as they come).
    progress : bool, optional
        One overall bar (done / failed / skipped / running); default shown unless ``$BRAINSCORE_PROGRESS=0``.
    on_event : callable, optional
        With a client: called with each event of a running pair (started, its progress bars, its notices; see
        :mod:`brainscore_core.grid_events`) as the workers send them. The workers' own bars then draw nothing.

    Returns
    -------
    pandas.DataFrame with :data:`COLUMNS`, in the order of :func:`plan_pairs`.

    Warns
    -----
    ModelDigestChangedWarning
        Once per model whose content digest differs from its previous load or its newest stored row
        (:func:`~brainscore_core.scoring.digest_change`: e.g. an unseeded network).
    """
    import pandas as pd

    from brainscore_core.progress import progress as progress_bar

    domain = _domain_of(domain)
    pairs = plan_pairs(list(models), list(benchmarks))
    keep = [index + 1 < len(pairs) and pairs[index + 1][0] == model for index, (model, _) in enumerate(pairs)]
    opened = open_store(store)
    url = opened.url if opened is not None else None
    started = datetime.now(UTC).isoformat() if rescore else None  # rows stored since: this grid's own
    results: dict[tuple[str, str], dict] = {}
    counts = {"ok": 0, "failed": 0, "skipped": 0, "unstored": 0}
    warned: set[str] = set()
    with progress_bar(total=len(pairs), desc="grid", unit="pair", disable=None if progress is None else not progress,
                      delay=0) as bar:
        def record(result: dict) -> None:
            results[(result["model"], result["benchmark"])] = result
            if result.get("digest_changed") and result["model"] not in warned:  # once per model, in this process
                warned.add(result["model"])
                warnings.warn(result["digest_changed"], ModelDigestChangedWarning, stacklevel=3)
            counts[result["status"]] += 1
            running = len(pairs) - len(results) if client is not None else min(1, len(pairs) - len(results))
            bar.set_postfix_str(f"done {counts['ok']} failed {counts['failed']} skipped {counts['skipped']} "
                                f"running {running}")
            bar.update()
            if on_result is not None:
                on_result(result)

        if client is None:
            try:
                for (model, benchmark), keep_model in zip(pairs, keep, strict=True):
                    record(score_task(domain, model, benchmark, url, rescore, keep_model=keep_model))
            finally:
                release_models()
        else:
            from distributed import as_completed

            topic = new_topic() if on_event is not None else None
            if topic is not None:
                client.subscribe_topic(topic, lambda event: on_event(event[1]))
            try:
                resources = _memory_resources(client, domain, pairs) if _workers_declare_memory(client) else {}
                futures = [client.submit(score_task, domain, model, benchmark, url, rescore, None,
                                         rescored_since=started, events=topic, keep_model=keep_model, pure=False,
                                         retries=retries, key=f"score-{model}-{benchmark}-{time.time_ns()}",
                                         resources=resources.get((model, benchmark)))
                           for (model, benchmark), keep_model in zip(pairs, keep, strict=True)]
                for future in as_completed(futures):
                    record(future.result())
            finally:
                if topic is not None:
                    client.unsubscribe_topic(topic)
                with contextlib.suppress(Exception):  # a worker that left has nothing to release
                    client.run(release_models)
    frame = pd.DataFrame([{column: results[pair][column] for column in COLUMNS} for pair in pairs],
                         columns=list(COLUMNS))
    frame.attrs["rows"] = [results[pair]["row"] for pair in pairs]
    return frame
