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
    """Sends the warnings logged by one thread (the task's) as notice events; another thread's records are printed
    as they would be without this handler (``logging.lastResort``)."""

    def __init__(self, send: Callable[..., None], thread: int):
        super().__init__(level=logging.WARNING)
        self._send, self._thread = send, thread

    def emit(self, record: logging.LogRecord) -> None:
        if record.thread == self._thread:
            self._send("notice", level=record.levelname, message=record.getMessage())
        elif logging.lastResort is not None:
            logging.lastResort.handle(record)


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

    handler = _EventHandler(send, threading.get_ident())
    loggers = [logging.getLogger(name) for name in LOGGERS]
    for logger in loggers:
        logger.addHandler(handler)
    send("started", worker=str(worker.address))
    token = _SEND.set(send)
    try:
        with forward_progress(lambda state: send("progress", **state), interval=PROGRESS_INTERVAL_S):
            yield
    finally:
        _SEND.reset(token)
        for logger in loggers:
            logger.removeHandler(handler)


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
