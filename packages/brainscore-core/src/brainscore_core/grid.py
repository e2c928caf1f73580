"""Many models x many benchmarks: in this process, or on a Dask cluster (local processes, a scheduler, Slurm jobs).

:func:`score_many` runs every (model, benchmark) pair as one task of :func:`~brainscore_core.grid_task.score_task`,
which loads both through the domain it carries (a :class:`~brainscore_core.plugins.Domain`), skips a pair already
stored for the same model content (``model.content_digest()``), benchmark identifier and version (unless
``rescore``), scores it, and writes its row (scores and failures alike, each failure with its kind) to the results
store itself. So an interrupted grid continues where it stopped, a failing pair is recorded and the grid goes on,
and a task run again after its worker died finds its row if it had been written.

``cluster='slurm'`` runs the pairs as Slurm jobs through dask-jobqueue (:class:`~brainscore_core.slurm_cluster.
SlurmJobs`): the grid starts the jobs, their memory from the memory plan unless given, and cancels every one of them
when it ends. How the pairs run on a cluster, how lost workers are told apart and pairs that ran out of memory are
run again with twice the memory, is :mod:`brainscore_core.grid_dask`.

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

import warnings
from collections.abc import Callable, Iterable, Mapping, Sequence
from datetime import UTC, datetime
from typing import Any

from brainscore_core.errors import ModelDigestChangedWarning
from brainscore_core.grid_preflight import preflight
from brainscore_core.grid_task import domain_of, release_models, score_task
from brainscore_core.scoring import open_store

__all__ = ["COLUMNS", "plan_pairs", "preflight", "release_models", "score_many", "score_task"]

#: columns of the DataFrame :func:`score_many` returns, one row per pair
COLUMNS = ("model", "benchmark", "status", "score", "raw", "ceiling", "error", "elapsed_s", "error_type",
           "error_message", "failure_kind", "side_file")


def plan_pairs(models: Sequence[str], benchmarks: Sequence[str]) -> list[tuple[str, str]]:
    """Every (model, benchmark) pair once, model-major: one model's pairs run next to each other, so its activations
    for a stimulus set are still in the disk cache (and its weights in the worker) for the next benchmark. An
    identifier given twice is scored once (two tasks of one pair would both store it)."""
    return [(model, benchmark) for model in dict.fromkeys(models) for benchmark in dict.fromkeys(benchmarks)]


def score_many(models: Iterable[str], benchmarks: Iterable[str], client: Any = None, *, domain: Any,
               store: Any = True, rescore: bool = False, retries: int = 2,
               on_result: Callable[[dict[str, Any]], None] | None = None, progress: bool | None = None,
               on_event: Callable[[dict[str, Any]], None] | None = None, cluster: str | None = None,
               jobs: int | None = None, cluster_options: Mapping[str, Any] | None = None):
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
        Score pairs that are already stored (once each: a task run again after its worker died skips the pair when
        its first attempt stored the row).
    retries : int, default=2
        Times a pair runs again on another worker after the worker running it died for another reason than its
        memory (a Slurm job cancelled or preempted); then it is stored as failed with its kind.
    on_result : callable, optional
        Called with each pair's result dict as it completes (the CLI prints rows as they come).
    progress : bool, optional
        One overall bar (done / failed / skipped / running, and the Slurm jobs pending and running); default shown
        unless ``$BRAINSCORE_PROGRESS=0``.
    on_event : callable, optional
        With a cluster: called with each event of a running pair (started, its progress bars, its notices; see
        :mod:`brainscore_core.grid_events`), the Slurm jobs' states and every pair run again, as they happen.
    cluster : {'slurm'}, optional
        Start the workers as Slurm jobs (dask-jobqueue), one worker per job; not with ``client``.
    jobs : int, optional
        Number of Slurm jobs, default 1.
    cluster_options : mapping, optional
        Slurm options on top of the settings file's ``[cluster.slurm]`` table (``partition``, ``walltime``,
        ``account``, ``memory`` per job as bytes or ``'8GB'``, ``cores``, ``job_extra_directives``, ...; see
        :mod:`brainscore_core.slurm_cluster`). Without ``memory``, each job gets the largest estimate of the memory
        plan (:func:`preflight`, which loads each model and benchmark once in this process) plus headroom.

    Returns
    -------
    pandas.DataFrame with :data:`COLUMNS`, in the order of :func:`plan_pairs`.

    Raises
    ------
    ClusterUnavailableError
        ``cluster='slurm'`` and no Slurm answers here, or its partition is unknown (before anything runs).

    Warns
    -----
    ModelDigestChangedWarning
        Once per model whose content digest differs from its previous load or its newest stored row
        (:func:`~brainscore_core.scoring.digest_change`: e.g. an unseeded network).
    """
    import pandas as pd

    from brainscore_core.progress import progress as progress_bar

    domain = domain_of(domain)
    pairs = plan_pairs(list(models), list(benchmarks))
    keep = [index + 1 < len(pairs) and pairs[index + 1][0] == model for index, (model, _) in enumerate(pairs)]
    opened = open_store(store)
    url = opened.url if opened is not None else None
    started = datetime.now(UTC).isoformat()  # rows stored since: this grid's own
    owned = _owned_cluster(cluster, jobs, cluster_options, client, domain, pairs)
    results: dict[tuple[str, str], dict] = {}
    counts = {"ok": 0, "failed": 0, "skipped": 0, "unstored": 0}
    warned: set[str] = set()
    with progress_bar(total=len(pairs), desc="grid", unit="pair", disable=None if progress is None else not progress,
                      delay=0) as bar:
        jobs_text = [""]

        def show(running: int) -> None:
            bar.set_postfix_str(f"done {counts['ok']} failed {counts['failed']} skipped {counts['skipped']} "
                                f"running {running}{jobs_text[0]}")

        def record(result: dict) -> None:
            results[(result["model"], result["benchmark"])] = result
            if result.get("digest_changed") and result["model"] not in warned:  # once per model, in this process
                warned.add(result["model"])
                warnings.warn(result["digest_changed"], ModelDigestChangedWarning, stacklevel=3)
            counts[result["status"]] += 1
            show(len(pairs) - len(results) if client is not None or owned is not None
                 else min(1, len(pairs) - len(results)))
            bar.update()
            if on_result is not None:
                on_result(result)

        def jobs_changed(job_counts: dict[str, int]) -> None:
            jobs_text[0] = f" | jobs pending {job_counts['pending']} running {job_counts['running']}"
            show(len(pairs) - len(results))

        if client is None and owned is None:
            try:
                for (model, benchmark), keep_model in zip(pairs, keep, strict=True):
                    record(score_task(domain, model, benchmark, url, rescore, keep_model=keep_model, store=opened))
            finally:
                release_models()
                if opened is not None and opened is not store:  # opened here (not the caller's own store object)
                    opened.dispose()
        else:
            from brainscore_core.grid_dask import DaskRun

            DaskRun(domain, url, rescore, started, record, on_event=on_event, on_jobs=jobs_changed,
                    retries=retries).run(pairs, keep, client=client, owned=owned)
    frame = pd.DataFrame([{column: results[pair][column] for column in COLUMNS} for pair in pairs],
                         columns=list(COLUMNS))
    frame.attrs["rows"] = [results[pair]["row"] for pair in pairs]
    return frame


def _owned_cluster(cluster: str | None, jobs: int | None, options: Mapping[str, Any] | None, client: Any,
                   domain: Any, pairs: list[tuple[str, str]]) -> Any:
    """The Slurm jobs of ``cluster='slurm'`` (not started yet), their memory from the plan unless given."""
    if cluster is None:
        if jobs is not None:
            raise ValueError("jobs= needs cluster='slurm'")
        return None
    if cluster != "slurm":
        raise ValueError(f"cluster={cluster!r}: the only batch scheduler is 'slurm'")
    if client is not None:
        raise ValueError("give a client or cluster='slurm', not both")
    from brainscore_core.memory_plan import job_memory
    from brainscore_core.slurm_cluster import SlurmJobs, check_slurm, slurm_settings

    settings = slurm_settings(options)
    partition = check_slurm(settings.get("partition"))  # in seconds, before the plan loads anything
    memory = settings.get("memory")
    if memory is None:
        memory = job_memory(preflight(domain, pairs).values())
    return SlurmJobs(max(1, int(jobs or 1)), int(memory), settings, partition)
