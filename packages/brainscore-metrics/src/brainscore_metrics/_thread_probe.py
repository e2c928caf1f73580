"""Which BLAS thread count runs this machine's block products faster right now: measured on the products themselves.

On a machine whose cores other processes keep busy, OpenBLAS's threads wait for each other: a 640 x 37,632 float32
Gram product took 0.61 s on two threads and 0.29 s on one (median of 9, load average 2.3 on 2 cores), 0.15 s on two
threads when the machine was quiet. A loop over equal block products (:mod:`brainscore_metrics._gram`) therefore runs
its first products as a probe: one untimed, then one on a single thread and one on all threads, timed; the rest run on
the faster. The probe products are products the result needs anyway, cut small (:func:`with_probe_blocks`) so that
the slower of the two costs a fraction of one block.

The first product is not timed because it pays one-time costs that say nothing about threads: the first write to
the freshly allocated output (page faults: 82 MB for a 3,200 x 3,200 float64 Gram matrix) and waking the BLAS
threads. Timing it against the second made a quiet machine look busy (a first product of 219 ms on two threads
against 127 ms on one, then 72 ms on two threads once warm), and every block then ran on one thread.
"""

from __future__ import annotations

import contextlib
import os
import time
from collections.abc import Callable, Iterator

import numpy as np

__all__ = ["PROBE_MIN_BLOCKS", "PROBE_PARTS", "ThreadProbe", "fastest_threads", "lapack_single_thread",
           "with_probe_blocks"]

#: from this many blocks on, the loop probes (:class:`ThreadProbe`; the first block is cut in parts, so two blocks
#: make five products)
PROBE_MIN_BLOCKS = 2
#: the first block is cut into this many parts: the untimed product, the single-thread one, the all-threads one,
#: and the rest of the block
PROBE_PARTS = 4


def _probes(count: int) -> bool:
    return count >= PROBE_MIN_BLOCKS and (os.cpu_count() or 1) > 1


def with_probe_blocks(blocks: list) -> list:
    """``blocks`` (column selectors: slices or int index arrays) with the first one cut into :data:`PROBE_PARTS`
    near-equal parts when a probe will run over them; otherwise ``blocks`` itself."""
    if not _probes(len(blocks)):
        return blocks
    first = blocks[0]
    if isinstance(first, slice):
        edges = np.linspace(first.start or 0, first.stop, PROBE_PARTS + 1).round().astype(int)
        parts = [slice(int(start), int(stop)) for start, stop in zip(edges[:-1], edges[1:], strict=True)]
    else:
        parts = np.array_split(np.asarray(first), PROBE_PARTS)
    return [part for part in parts if _width(part)] + list(blocks[1:])


def _width(selector) -> int:
    return selector.stop - selector.start if isinstance(selector, slice) else len(selector)


class ThreadProbe:
    """Runs products: the first untimed, the second on one BLAS thread and the third on all, both timed; every later
    product on whichever of the two was faster. With fewer than :data:`PROBE_MIN_BLOCKS` products, or one core,
    every product runs on all threads.

    Parameters
    ----------
    count : int
        How many products the loop will run.
    """

    def __init__(self, count: int):
        self.probing = _probes(count)
        self.calls = 0
        self.seconds: dict[str, float] = {}
        self.single = None

    def __call__(self, product: Callable):
        from brainscore_metrics.backend import one_blas_thread, record_thread_choice

        self.calls += 1
        if not self.probing or self.calls == 1 or self.calls > 3:
            return product()
        threads = "one" if self.calls == 2 else "all"
        with one_blas_thread() if threads == "one" else contextlib.nullcontext():
            start = time.perf_counter()
            result = product()
            self.seconds[threads] = time.perf_counter() - start
        if threads == "all":
            if self.seconds["one"] < self.seconds["all"]:
                self.single = one_blas_thread()
                self.single.__enter__()
            record_thread_choice(self.chosen)
        return result

    @property
    def chosen(self) -> str | None:
        """'one' or 'all' once the probe has decided, None before (or when not probing)."""
        if len(self.seconds) < 2:
            return None
        return "one" if self.single is not None else "all"

    def close(self) -> None:
        if self.single is not None:
            self.single.__exit__(None, None, None)
            self.single = None


@contextlib.contextmanager
def fastest_threads(count: int) -> Iterator[ThreadProbe]:
    """A :class:`ThreadProbe` for ``count`` products; the thread limit it may set is lifted on exit."""
    probe = ThreadProbe(count)
    try:
        yield probe
    finally:
        probe.close()


@contextlib.contextmanager
def lapack_single_thread(xp) -> Iterator[None]:
    """Run numpy/scipy LAPACK factorisations on one thread.

    OpenBLAS's threaded Cholesky synchronises often: on a 2-core machine shared with other jobs a
    3,200 x 3,200 ``potrf`` took 2.6-4.6 s on two threads and 0.30 s on one.
    """
    if xp.name != "numpy":
        yield
        return
    from brainscore_metrics.backend import one_blas_thread

    with one_blas_thread():
        yield
