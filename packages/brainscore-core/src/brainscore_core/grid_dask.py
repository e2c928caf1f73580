"""The grid on a Dask cluster: pairs as tasks, lost workers told apart, pairs out of memory run again with more.

:class:`DaskRun` submits one :func:`~brainscore_core.grid_task.score_task` per pair and records each result as it
comes. When the worker running a pair dies (``KilledWorker``; on the grid's own Slurm jobs at the first death, the
scheduler's ``allowed-failures`` being 0 there), it asks why (:func:`~brainscore_core.grid_deaths.death_report`,
then Slurm's job state) and:

* ``oom``: on the grid's own Slurm jobs, the pair runs once more on new jobs with twice the memory, when the
  partition has nodes that large; otherwise (or when it runs out again) it is stored as failed, kind ``oom``. A pair
  that raised :class:`MemoryError` is treated alike; one the preflight refused is not run again;
* anything else (a job cancelled, preempted, at its time limit): the pair runs again on another worker, at most
  ``retries`` times, then it is stored as failed with the kind of its last loss (``transient``, ``timeout``).

Dask hands a worker more tasks than it has threads, so the pairs queued behind the running one come back with its
death: the grid knows from each pair's ``started`` event (always subscribed) which pairs ran on the dead worker, and
a pair that had not started there is not blamed: it runs again like any lost pair (``transient``), whatever killed
the worker.

Before a lost pair is stored as failed, the store is asked whether its attempt stored a row before dying (then it
counts as stored: no pair is stored twice). When every Slurm job of the grid has ended (the whole allocation
cancelled) while pairs remain, the grid stops: those pairs are reported as not run and nothing is stored for them, so
the next run resumes from the store.
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections import Counter
from collections.abc import Callable, Sequence
from datetime import datetime
from typing import Any

from brainscore_core.errors import WorkerLostError
from brainscore_core.grid_deaths import ReportWorkerExit, death_report
from brainscore_core.grid_events import new_topic
from brainscore_core.grid_preflight import memory_resources
from brainscore_core.grid_task import release_models, result_of, score_task, store_row
from brainscore_core.result_rows import failure_row
from brainscore_core.results import ResultStore

__all__ = ["ALL_JOBS_ENDED_S", "JOB_POLL_S", "DaskRun"]

JOB_POLL_S = 5.0
"""How often the Slurm jobs' states are asked for (``squeue``)."""
ALL_JOBS_ENDED_S = 15.0
"""How long the grid waits, with no job left and no worker, before it stops."""


class DaskRun:
    """One grid on a Dask client (see the module docstring); ``record(result)`` is called once per pair."""

    def __init__(self, domain: Any, url: str | None, rescore: bool, started: str,
                 record: Callable[[dict[str, Any]], None], *, on_event: Callable[[dict], None] | None = None,
                 on_jobs: Callable[[dict[str, int]], None] | None = None, retries: int = 2):
        self.domain = domain
        self.url = url
        self.rescore = rescore
        self.started = started
        self.record = record
        self.on_event = on_event
        self.on_jobs = on_jobs
        self.retries = retries
        self.earlier: dict[tuple[str, str], dict] = {}  # why a pair runs again (kept in its row's provenance)
        self.deaths: dict[str, tuple[str, str]] = {}  # worker address -> (kind, reason) of its death
        # worker address -> the pairs that started there and have not finished (their 'started' events, which come
        # on the client's event loop: guarded by the lock)
        self.running: dict[str, set[tuple[str, str]]] = {}
        self._running_lock = threading.Lock()
        self.ran_when_died: dict[str, frozenset[tuple[str, str]]] = {}  # dead worker -> the pairs running on it

    # -- the run ------------------------------------------------------------------------------------------------
    def run(self, pairs: Sequence[tuple[str, str]], keep: Sequence[bool], *, client: Any = None,
            owned: Any = None) -> None:
        """Run ``pairs`` on ``client``, or on ``owned`` Slurm jobs (started here, cancelled at the end)."""
        try:
            if owned is not None:
                self._event({"kind": "jobs_submitted", "description": owned.describe()})
                client = owned.start()
            retry = self._run_on(client, pairs, keep, owned, defer_oom=owned is not None)
        finally:
            if owned is not None:
                owned.close()  # before larger jobs are asked for: the allocation is free for them
        if retry:
            self._with_more_memory(retry, owned)

    def _run_on(self, client: Any, pairs: Sequence[tuple[str, str]], keep: Sequence[bool], owned: Any,
                defer_oom: bool) -> list[tuple[tuple[str, str], str, dict | None]]:
        """Run ``pairs`` on ``client`` until each is recorded or out of memory; returns the latter (pair, reason,
        its unstored failure row or None) when ``defer_oom``."""
        from distributed import wait

        topic = new_topic()  # always: the 'started' events say which pairs ran on a worker that died
        client.subscribe_topic(topic, lambda event: self._on_worker_event(event[1]))
        with contextlib.suppress(Exception):  # workers without a nanny have nothing to report
            client.register_plugin(ReportWorkerExit())
        resources = memory_resources(client, self.domain, pairs)
        keeps = dict(zip(pairs, keep, strict=True))

        def submit(pair: tuple[str, str], keep_model: bool) -> Any:
            model, benchmark = pair
            return client.submit(score_task, self.domain, model, benchmark, self.url, self.rescore, None,
                                 rescored_since=self.started, events=topic, keep_model=keep_model, pure=False,
                                 retries=self.retries, key=f"score-{model}-{benchmark}-{time.time_ns()}",
                                 resources=resources.get(pair), defer_oom=defer_oom,
                                 earlier=self.earlier.get(pair))

        futures = {submit(pair, keeps[pair]): pair for pair in pairs}
        losses: Counter = Counter()
        out_of_memory: list[tuple[tuple[str, str], str, dict | None]] = []
        watch = _JobWatch(owned, client, self.on_jobs, self._event, total=len(pairs))
        try:
            while futures:
                try:
                    done, _ = wait(list(futures), timeout=1.0, return_when="FIRST_COMPLETED")
                except TimeoutError:  # nothing finished within the second: look at the jobs, wait again
                    done = set()
                for future in done:
                    pair = futures.pop(future)
                    again = self._settle(client, owned, future, pair, losses, out_of_memory, defer_oom)
                    future.release()  # its result is recorded: a lost worker must not make Dask compute it again
                    if again:
                        futures[submit(pair, False)] = pair
                if watch.all_jobs_ended(len(futures)):
                    self._abandon(client, futures, watch.reason)
        finally:
            client.unsubscribe_topic(topic)
            with contextlib.suppress(Exception):  # a worker that left has nothing to release
                client.run(release_models)
        return out_of_memory

    def _settle(self, client: Any, owned: Any, future: Any, pair: tuple[str, str], losses: Counter,
                out_of_memory: list, defer_oom: bool) -> bool:
        """Record a finished task's pair; True when it must run again."""
        from distributed.scheduler import KilledWorker

        model, benchmark = pair
        try:
            result = future.result()
        except KilledWorker as error:
            kind, reason = self._why_lost(client, owned, error.last_worker)
            if self._only_queued(pair, error.last_worker):  # not its death: it runs again, not counted as a loss
                address = getattr(error.last_worker, "address", error.last_worker)
                self._event({"kind": "lost", "model": model, "benchmark": benchmark, "failure_kind": "transient",
                             "again": True, "reason": f"it had not started on its worker {address}, which died "
                                                      f"running another pair ({reason})"})
                return True
            losses[pair] += 1
            if kind == "oom" and defer_oom:
                out_of_memory.append((pair, reason, None))
                return False
            if kind != "oom" and losses[pair] <= self.retries:
                self._event({"kind": "lost", "model": model, "benchmark": benchmark, "reason": reason,
                             "failure_kind": kind, "again": True})
                return True
            self._store_loss(pair, kind, reason)
            return False
        except Exception as error:  # the task itself raised past its own handling (an unreachable store)
            self._finished(pair)
            first = str(error).strip().splitlines()
            self._store_loss(pair, "transient", f"{type(error).__name__}: {first[0] if first else ''}")
            return False
        self._finished(pair)
        if result.get("retry_memory"):
            out_of_memory.append((pair, f"{result['error_type']}: {result['error_message']}", result["row"]))
            return False
        self.record(result)
        return False

    def _only_queued(self, pair: tuple[str, str], worker: Any) -> bool:
        """Whether ``pair`` was only queued on ``worker`` when it died: other pairs had started there, not this one
        (False when no pair is known to have started there: then each pair that comes back is blamed)."""
        address = str(getattr(worker, "address", worker))
        with self._running_lock:  # what ran on it when it died, kept for every pair that comes back with it
            there = self.ran_when_died.setdefault(address, frozenset(self.running.pop(address, set())))
        return bool(there) and pair not in there

    def _finished(self, pair: tuple[str, str]) -> None:
        with self._running_lock:
            for pairs in self.running.values():
                pairs.discard(pair)

    def _on_worker_event(self, event: dict[str, Any]) -> None:
        if event.get("kind") == "started":
            with self._running_lock:
                self.running.setdefault(str(event.get("worker")), set()).add((event.get("model"), event.get("benchmark")))
        self._event(event)

    def _why_lost(self, client: Any, owned: Any, worker: Any) -> tuple[str, str]:
        """Why ``worker`` died, asked once per worker (every pair queued on it comes back with it)."""
        address, name = getattr(worker, "address", str(worker)), getattr(worker, "name", None)
        if address not in self.deaths:
            report = death_report(client, address)
            if report is None and owned is not None and name is not None:
                report = owned.death(name)
            self.deaths[address] = report or (
                "transient", f"its worker {address} was lost (neither its nanny nor the scheduler said why)")
        return self.deaths[address]

    # -- out of memory: once more with twice the memory ---------------------------------------------------------
    def _with_more_memory(self, retry: list[tuple[tuple[str, str], str, dict | None]], owned: Any) -> None:
        larger, why = owned.larger(2.0, jobs=len(retry))
        for (model, benchmark), reason, _ in retry:
            self._event({"kind": "memory_retry", "model": model, "benchmark": benchmark, "reason": reason,
                         "again": larger is not None, "plan": why})
        if larger is None:
            for pair, reason, row in retry:
                self._store_loss(pair, "oom", f"{reason}; not run again: {why}", row)
            return
        self.earlier = {pair: {"failure_kind": "oom", "reason": reason, "job_memory_bytes": owned.memory_bytes}
                        for pair, reason, _ in retry}
        try:
            self._event({"kind": "jobs_submitted", "description": larger.describe()})
            client = larger.start()
            self._run_on(client, [pair for pair, _, _ in retry], [False] * len(retry), larger, defer_oom=False)
        finally:
            larger.close()
            self.earlier = {}

    # -- rows the grid stores itself ----------------------------------------------------------------------------
    def _store_loss(self, pair: tuple[str, str], kind: str, reason: str, row: dict | None = None) -> None:
        """Store ``pair`` as failed with ``kind`` (its unstored ``row``, else one for the lost worker), unless an
        attempt stored a row for it since the grid started: then it counts as stored."""
        model, benchmark = pair
        store = ResultStore(self.url) if self.url is not None else None
        try:
            if store is not None:
                start = datetime.fromisoformat(self.started)
                since = [found for found in store.rows(model_identifier=model, benchmark_identifier=benchmark,
                                                       status=None) if datetime.fromisoformat(found["timestamp"]) >= start]
                if since:
                    self.record(result_of(model, benchmark, "skipped", since[-1], elapsed=0.0))
                    return
            if row is None:
                row = failure_row(WorkerLostError(reason), model_identifier=model, benchmark_identifier=benchmark)
            row["failure_kind"] = kind
            self.record(store_row(store, row, result_of(model, benchmark, "failed", row)))
        finally:
            if store is not None:
                store.dispose()

    def _abandon(self, client: Any, futures: dict, reason: str) -> None:
        """Every job ended: report the pairs left as not run (nothing stored; the next run resumes them)."""
        client.cancel(list(futures))
        for pair in futures.values():
            row = failure_row(WorkerLostError(f"not run: {reason}; run the grid again to resume it"),
                              model_identifier=pair[0], benchmark_identifier=pair[1], failure_kind="transient")
            self.record(result_of(*pair, "failed", row))
        futures.clear()

    def _event(self, event: dict[str, Any]) -> None:
        if self.on_event is not None:
            with contextlib.suppress(Exception):  # showing progress never fails the grid
                self.on_event(event)


class _JobWatch:
    """The Slurm jobs' states, asked for every :data:`JOB_POLL_S` seconds: reported when they change, and whether
    every job has ended while pairs remain."""

    def __init__(self, owned: Any, client: Any, on_jobs: Callable | None, event: Callable, total: int):
        self.owned, self.client, self.on_jobs, self.event, self.total = owned, client, on_jobs, event, total
        self.polled = 0.0
        self.last: dict[str, int] | None = None
        self.empty_since: float | None = None
        self.reason = "every Slurm job of the grid ended (cancelled, preempted or at its time limit)"

    def all_jobs_ended(self, remaining: int) -> bool:
        if self.owned is None or time.monotonic() - self.polled < JOB_POLL_S:
            return False
        self.polled = time.monotonic()
        counts = self.owned.counts()
        if counts != self.last:
            self.last = counts
            if self.on_jobs is not None:
                self.on_jobs(counts)
            self.event({"kind": "jobs", **counts, "done": self.total - remaining, "total": self.total})
        workers = len(self.client.scheduler_info().get("workers", {}))
        if counts["pending"] + counts["running"] or workers or not remaining:
            self.empty_since = None
            return False
        self.empty_since = self.empty_since or time.monotonic()
        return time.monotonic() - self.empty_since >= ALL_JOBS_ENDED_S
