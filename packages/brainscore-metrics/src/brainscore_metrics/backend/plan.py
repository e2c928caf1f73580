"""One compute plan per metric call: the backend, the precision, the worker threads and the scratch budget, decided
once at the entry of a metric call (or of a public array function) and passed down explicitly.

Why a plan, and why its threads never change a number
    BLAS libraries give different bits on different thread counts: OpenBLAS's float32 products (``sgemm``, ``ssyrk``)
    differ from one thread to two by about 1e-7 relative, its threaded LAPACK (``potrf``, ``trtri``, ``syevd``) by
    1e-16, and a float32 Gram matrix that differs by 1e-7 moves an RDM's near-ties and a ridge fit's predictions
    (a grid score differed by 2e-8 from a direct one under load). So inside a plan the BLAS libraries of numpy
    and scipy run on **one** thread (:func:`compute_plan` sets it on entry and restores it on exit), and the large
    products are cut into tiles of a fixed size that run on up to ``threads`` worker threads (:meth:`ComputePlan.map`):
    each tile is one single-threaded BLAS call whatever the number of workers, so every number is the same for one
    worker or sixteen, on a quiet machine or a loaded one. The workers take tiles as they finish the previous ones, so
    a core that other processes keep busy delays its tiles without making the other workers wait (threaded OpenBLAS
    synchronises its threads at every step, which made it 2-10x slower than one thread on a loaded 2-core machine).

What is decided, and how
    * ``xp``: the backend module (:func:`brainscore_metrics.backend.resolve_backend`: the ``backend`` argument, else
      torch for torch inputs, else the context's default).
    * ``precision``: ``'mixed'`` (float32 block products of a float32 source summed in float64) or ``'float64'``
      (:mod:`brainscore_metrics._gram`). A fallback to float64 products is another plan
      (:meth:`ComputePlan.with_precision`, :func:`with_float64_retry`), never a changed one.
    * ``threads``: 1 below :data:`SMALL_PROBLEM_FLOPS` (workers buy nothing on small products), else one per core this
      process may use (its CPU affinity), whatever the machine's load. Linux shares a busy machine's cores among the
      runnable threads, so fewer workers only mean a smaller share: on the 2-core machine (2026-11-29, the 2,880 x
      10,000 ridge) two workers took 0.94 s against one worker's 1.22 s beside one busy process, and 1.82 s against
      3.16 s beside four (scikit-learn's ``Ridge``, on numpy's two BLAS threads: 1.21 and 2.11 s). An earlier rule
      took one worker per idle core from the machine's load; it also ran on one worker for seconds after a busy
      spell had ended (1.22 s against 0.65 s on the quiet machine). :func:`use_threads` fixes it for a block (tests
      force each choice with it); values never depend on it.
    * ``block_bytes``: scratch per block of converted or centred values (:data:`BLOCK_BYTES`).

No state is kept between calls: a plan lives for one call and decides nothing from earlier ones.
"""

from __future__ import annotations

import collections
import contextlib
import contextvars
import itertools
import os
import threading
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Executor, ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from types import ModuleType

from brainscore_metrics.backend._selection import resolve_backend
from brainscore_metrics.errors import InvalidParameterError

__all__ = ["BLOCK_BYTES", "PRECISIONS", "SMALL_PROBLEM_FLOPS", "ComputePlan", "check_precision", "compute_plan",
           "use_threads", "with_float64_retry"]

#: below this many floating-point operations a call runs on one worker thread
SMALL_PROBLEM_FLOPS = 2e9
#: scratch bytes per block of converted or centred values (float64 feature blocks, float64 row blocks)
BLOCK_BYTES = 16 * 2 ** 20
#: accepted ``precision`` values
PRECISIONS = ("mixed", "float64")

#: name prefix of the plans' worker threads (a map inside a worker runs there)
_WORKER_PREFIX = "brainscore_metrics_plan_worker"

_forced_threads: contextvars.ContextVar[int | None] = contextvars.ContextVar("brainscore_metrics_threads",
                                                                             default=None)


def check_precision(precision: str) -> str:
    """``precision`` itself, or an :class:`~brainscore_metrics.errors.InvalidParameterError` (a ValueError) naming
    the allowed values."""
    if precision not in PRECISIONS:
        raise InvalidParameterError(f"precision must be one of {PRECISIONS}, got {precision!r}")
    return precision


@dataclass(frozen=True)
class ComputePlan:
    """What one metric call computes with: decided at its entry (:func:`compute_plan`), passed down explicitly.

    Parameters
    ----------
    xp : module
        The backend (:mod:`brainscore_metrics.backend.numpy`, ``.torch``, ``.torch_cuda``).
    precision : {'mixed', 'float64'}, default='mixed'
        Products of a float32 source (:mod:`brainscore_metrics._gram`).
    threads : int, default=1
        Worker threads for the tiled products of the numpy backend (values do not depend on it).
    block_bytes : int, default=BLOCK_BYTES
        Scratch per block of converted or centred values.
    pool : concurrent.futures.Executor or None, default=None
        The call's worker threads (:func:`compute_plan` starts them once per call and stops them at its end); None:
        :meth:`map` starts its own for each map.
    """

    xp: ModuleType
    precision: str = "mixed"
    threads: int = 1
    block_bytes: int = BLOCK_BYTES
    pool: Executor | None = field(default=None, compare=False, repr=False)

    def with_precision(self, precision: str) -> ComputePlan:
        """The same plan with another precision (e.g. the float64 retry of :func:`with_float64_retry`)."""
        return replace(self, precision=check_precision(precision))

    def float32_products(self, X) -> bool:
        """Whether products of the source ``X`` run in float32 under this plan (a float32 source, ``'mixed'``)."""
        return self.precision == "mixed" and str(X.dtype).endswith("float32")

    def map(self, function: Callable, items: Iterable) -> list:
        """``[function(item) for item in items]``, the calls spread over up to :attr:`threads` worker threads.

        ``function`` must not depend on which worker runs it (each call one BLAS call on its own output tile). A map
        inside a worker (a tile that maps again) runs in that worker, one call after the other.
        """
        items = list(items)
        if self.threads <= 1 or len(items) <= 1 or threading.current_thread().name.startswith(_WORKER_PREFIX):
            return [function(item) for item in items]
        if self.pool is not None:
            return list(self.pool.map(function, items))
        with ThreadPoolExecutor(max_workers=min(self.threads, len(items)), thread_name_prefix=_WORKER_PREFIX) as pool:
            return list(pool.map(function, items))

    def imap(self, function: Callable, items: Iterable, window: int | None = None) -> Iterator:
        """``function(item)`` for each item, yielded in the items' order, the calls on the plan's worker threads with
        at most ``window`` (default :attr:`threads`) of them started and not yet yielded: the next call starts when
        the caller has taken a result, so a caller may hand each result's buffers back before they are needed again.
        """
        items = list(items)
        if self.threads <= 1 or len(items) <= 1 or threading.current_thread().name.startswith(_WORKER_PREFIX):
            for item in items:
                yield function(item)
            return
        with contextlib.ExitStack() as stack:
            pool = self.pool if self.pool is not None else stack.enter_context(
                ThreadPoolExecutor(max_workers=self.threads, thread_name_prefix=_WORKER_PREFIX))
            waiting = iter(items)
            started = collections.deque(pool.submit(function, item)
                                        for item in itertools.islice(waiting, max(1, window or self.threads)))
            while started:
                result = started.popleft().result()
                yield result
                for item in itertools.islice(waiting, 1):
                    started.append(pool.submit(function, item))


def _available_cores() -> int:
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


@contextlib.contextmanager
def use_threads(threads: int) -> Iterator[None]:
    """Every plan made inside the block uses ``threads`` worker threads (context-local, restored on exit).

    Values never depend on it (module docstring): the tests run each metric with every choice and compare bits.
    """
    if isinstance(threads, bool) or not isinstance(threads, int) or threads < 1:
        raise InvalidParameterError(f"threads must be a positive int, got {threads!r}")
    token = _forced_threads.set(threads)
    try:
        yield
    finally:
        _forced_threads.reset(token)


@contextlib.contextmanager
def compute_plan(backend=None, *arrays, precision: str = "mixed", flops: float = 0.0) -> Iterator[ComputePlan]:
    """The plan of one call, with the backend's BLAS on one thread for its duration (numpy; module docstring).

    Parameters
    ----------
    backend : {'numpy', 'torch', 'torch_cuda'}, backend module or None, default=None
        None: torch when an input is a torch tensor, else the context's default.
    *arrays
        The call's inputs (to follow their array type).
    precision : {'mixed', 'float64'}, default='mixed'
    flops : float, default=0.0
        An estimate of the call's floating-point operations: below :data:`SMALL_PROBLEM_FLOPS` one worker thread, else
        one per core this process may use (module docstring).

    Yields
    ------
    ComputePlan
    """
    xp = resolve_backend(backend, *arrays)
    threads = _forced_threads.get()
    if threads is None:
        threads = 1 if flops < SMALL_PROBLEM_FLOPS else _available_cores()
    with contextlib.ExitStack() as stack:
        # the workers start when a map first needs them (ThreadPoolExecutor's own rule) and serve every map of the call
        pool = stack.enter_context(ThreadPoolExecutor(max_workers=threads, thread_name_prefix=_WORKER_PREFIX)) \
            if threads > 1 else None
        stack.enter_context(xp.single_threaded_blas())
        yield ComputePlan(xp=xp, precision=check_precision(precision), threads=threads, pool=pool)


def with_float64_retry(plan: ComputePlan, X, attempt: Callable[[ComputePlan], object], *,
                       retry_on: tuple[type[BaseException], ...]):
    """``attempt(plan)``; when it raises one of ``retry_on`` and the plan multiplies the float32 source ``X`` in
    float32, ``attempt(plan.with_precision('float64'))``.

    The one float32-to-float64 retry of the package: float32 products round a Gram matrix by about 6e-8 of its
    largest entries, and on a low-rank source of large scale that exceeds ridge's alpha, so that ``G + alpha I`` is
    no longer positive definite (issue 31's quantised activations); float64 products keep it definite.
    """
    try:
        return attempt(plan)
    except retry_on:
        if not plan.float32_products(X):
            raise
    return attempt(plan.with_precision("float64"))
