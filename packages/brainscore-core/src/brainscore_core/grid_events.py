"""What a grid pair running on a Dask worker tells the client while it runs: that it started, its progress bars and
its notices (e.g. the expected time of a wide fit), as Dask events, so the client shows them as they happen.

The worker side is :func:`worker_reporting`, entered by :func:`brainscore_core.grid.score_task`; the client side
subscribes to the run's topic (:func:`new_topic`) in :func:`brainscore_core.grid.score_many`, whose ``on_event``
callback receives each event as a dict:

``{'model', 'benchmark', 'kind': 'started', 'worker'}``
    the pair began on that worker;
``{'model', 'benchmark', 'kind': 'stage', 'stage'}``
    the pair reached a step (:func:`report_stage`: loading, scoring);
``{'model', 'benchmark', 'kind': 'progress', 'desc', 'n', 'total', 'unit', 'elapsed_s', 'done'}``
    a progress bar of the pair started, advanced (at most every 10 s) or ended (:mod:`brainscore_core.progress`);
``{'model', 'benchmark', 'kind': 'notice', 'level', 'message'}``
    a warning logged by a Brain-Score package (loggers :data:`LOGGERS`) while the pair ran.

The grid itself (:mod:`brainscore_core.grid_dask`) adds, in the client:

``{'kind': 'jobs_submitted', 'description'}`` and ``{'kind': 'jobs', 'pending', 'running', 'done', 'total'}``
    the grid's Slurm jobs were submitted; their states changed (pairs ``done`` of ``total``);
``{'model', 'benchmark', 'kind': 'lost', 'reason', 'failure_kind', 'again'}``
    the worker running the pair died (why); ``again``: the pair runs again on another worker;
``{'model', 'benchmark', 'kind': 'memory_retry', 'reason', 'again', 'plan'}``
    the pair ran out of memory; ``again``: it runs once more with twice the memory (``plan``), else why not.

Reporting never fails a pair: an event that cannot be sent is dropped.
"""

from __future__ import annotations

import contextlib
import logging
import threading
import uuid
from collections.abc import Callable, Iterator
from contextvars import ContextVar
from typing import Any

from brainscore_core.progress import forward_progress

__all__ = ["LOGGERS", "PROGRESS_INTERVAL_S", "describe_event", "new_topic", "report_stage", "worker_reporting"]

#: loggers whose warnings travel to the client (their records are not printed by the worker then)
LOGGERS = ("brainio", "brainscore_core", "brainscore_metrics", "brainscore_vision", "model_tools")
PROGRESS_INTERVAL_S = 10.0
"""A running bar reports at most this often (plus when it starts and ends)."""


_SEND: ContextVar[Callable[..., None] | None] = ContextVar("brainscore_grid_event_sender", default=None)


def report_stage(stage: str) -> None:
    """Tell the client which step the pair is at (``'loading the benchmark'``); nothing outside a worker."""
    send = _SEND.get()
    if send is not None:
        send("stage", stage=stage)


def new_topic() -> str:
    """A topic name unique to one grid run (two runs on one cluster do not see each other's events)."""
    return f"brainscore-grid-{uuid.uuid4().hex}"


class _EventHandler(logging.Handler):
    """One handler per process on :data:`LOGGERS`: a warning logged by a thread that reports a pair is sent as that
    pair's notice event; any other thread's record is printed as it would be without a handler
    (``logging.lastResort``). Pairs running side by side in threads of one worker each get their own records."""

    def __init__(self) -> None:
        super().__init__(level=logging.WARNING)
        self.senders: dict[int, Callable[..., None]] = {}

    def emit(self, record: logging.LogRecord) -> None:
        send = self.senders.get(record.thread or 0)
        if send is not None:
            send("notice", level=record.levelname, message=record.getMessage())
        elif logging.lastResort is not None and not _handled_elsewhere(record.name):
            logging.lastResort.handle(record)


def _handled_elsewhere(name: str) -> bool:
    """Whether a handler other than ours sees records of logger ``name`` (else logging would use lastResort)."""
    logger: logging.Logger | None = logging.getLogger(name)
    while logger is not None:
        if any(handler is not _HANDLER for handler in logger.handlers):
            return True
        logger = logger.parent if logger.propagate else None
    return False


_HANDLER = _EventHandler()
_HANDLER_LOCK = threading.Lock()


def _attach_handler() -> None:
    with _HANDLER_LOCK:
        for name in LOGGERS:
            logger = logging.getLogger(name)
            if _HANDLER not in logger.handlers:
                logger.addHandler(_HANDLER)


@contextlib.contextmanager
def worker_reporting(topic: str | None, model: str, benchmark: str) -> Iterator[None]:
    """On a Dask worker, send the pair's start, progress and notices to ``topic``; elsewhere do nothing."""
    worker = _current_worker() if topic is not None else None
    if worker is None:
        yield
        return

    def send(kind: str, **fields: Any) -> None:
        with contextlib.suppress(Exception):  # progress must never fail a pair
            worker.log_event(topic, {"model": model, "benchmark": benchmark, "kind": kind, **fields})

    _attach_handler()
    thread = threading.get_ident()
    _HANDLER.senders[thread] = send
    send("started", worker=str(worker.address))
    token = _SEND.set(send)
    try:
        with forward_progress(lambda state: send("progress", **state), interval=PROGRESS_INTERVAL_S):
            yield
    finally:
        _SEND.reset(token)
        _HANDLER.senders.pop(thread, None)


def _current_worker() -> Any:
    try:
        from distributed import get_worker
    except ImportError:
        return None
    try:
        return get_worker()
    except ValueError:  # not running inside a worker task
        return None


def describe_event(event: dict[str, Any]) -> str | None:
    """One line for an event (``'randomnet on Cowley2023.V4-pls: activations randomnet 3/10 batch, 6 s'``)."""
    pair = f"{event.get('model')} on {event.get('benchmark')}"
    kind = event.get("kind")
    if kind == "jobs_submitted":
        return f"submitting {event.get('description')}"
    if kind == "jobs":
        return (f"Slurm jobs: {event.get('pending')} pending, {event.get('running')} running; "
                f"{event.get('done')} of {event.get('total')} pairs done")
    if kind == "lost":
        then = "; running it again on another worker" if event.get("again") else ""
        return f"{pair}: lost ({event.get('failure_kind')}): {event.get('reason')}{then}"
    if kind == "memory_retry":
        then = (f"; running it once more with twice the memory ({event.get('plan')})" if event.get("again")
                else f"; not run again: {event.get('plan')}")
        return f"{pair}: out of memory: {event.get('reason')}{then}"
    if kind == "started":
        return f"{pair}: started on {event.get('worker')}"
    if kind == "stage":
        return f"{pair}: {event.get('stage')}"
    if kind == "notice":
        return f"{pair}: {event.get('message')}"
    if kind == "progress":
        total = event.get("total")
        count = f"{event.get('n')}/{total}" if total else f"{event.get('n')}"
        state = "done" if event.get("done") else "running"
        return f"{pair}: {event.get('desc') or 'working'} {count} {event.get('unit') or ''} ({state}, " \
               f"{event.get('elapsed_s', 0):.0f} s)".replace("  ", " ")
    return None
