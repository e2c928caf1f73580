"""Array backends: the same flat set of functions over numpy and torch.

``numpy`` is the default. Select another for a block with ``with use_backend("torch"):`` or per call
with a metric's ``backend=`` parameter. Kernels receive the backend module (``xp``) and only call its
functions, so the same code runs on numpy arrays and on torch tensors (CPU or CUDA). torch is imported
only by :mod:`brainscore_metrics.backend.torch`, and only when that backend is requested.
"""

from __future__ import annotations

import contextlib
import contextvars
import importlib
import time
from collections.abc import Iterator
from types import ModuleType

from brainscore_metrics.errors import UnknownBackendError

__all__ = ["AVAILABLE_BACKENDS", "SMALL_PROBLEM_FLOPS", "UnknownBackendError", "blas_threads_for", "get_backend",
           "factorisation_threads", "one_blas_thread", "record_thread_choice",
           "resolve_backend", "use_backend"]

#: below this many floating-point operations a numpy call runs BLAS on one thread (see blas_threads_for)
SMALL_PROBLEM_FLOPS = 2e9

#: backend name -> module
AVAILABLE_BACKENDS = {
    "numpy": "brainscore_metrics.backend.numpy",
    "torch": "brainscore_metrics.backend.torch",
    "torch_cuda": "brainscore_metrics.backend.torch_cuda",
}

_current: contextvars.ContextVar[str] = contextvars.ContextVar("brainscore_metrics_backend", default="numpy")




def get_backend(name: str | ModuleType | None = None) -> ModuleType:
    """The backend module for ``name`` (default: the current one of this context).

    Parameters
    ----------
    name : {'numpy', 'torch', 'torch_cuda'} or backend module or None, default=None
    """
    if isinstance(name, ModuleType):
        return name
    name = _current.get() if name is None else name
    try:
        module = AVAILABLE_BACKENDS[name]
    except KeyError:
        raise UnknownBackendError(f"unknown backend {name!r}; available: {sorted(AVAILABLE_BACKENDS)}") from None
    return importlib.import_module(module)


def resolve_backend(backend: str | ModuleType | None, *arrays) -> ModuleType:
    """Backend for a call: ``backend`` when given, else torch when any input is a torch tensor,
    else the current context's backend."""
    if backend is not None:
        return get_backend(backend)
    for array in arrays:
        if type(array).__module__.startswith("torch"):
            return get_backend("torch_cuda" if array.is_cuda else "torch")
    return get_backend()


@contextlib.contextmanager
def use_backend(name: str) -> Iterator[ModuleType]:
    """Set the default backend inside a ``with`` block (context-local, restored on exit)."""
    module = get_backend(name)
    token = _current.set(name)
    try:
        yield module
    finally:
        _current.reset(token)


@contextlib.contextmanager
def blas_threads_for(xp: ModuleType, flops: float) -> Iterator[None]:
    """Limit BLAS to one thread inside the block when ``xp`` is numpy and the work is small.

    Small problems (fewer than :data:`SMALL_PROBLEM_FLOPS`) gain nothing from several BLAS threads, and
    when other processes keep the cores busy, OpenBLAS's spinning threads make them 10-50x slower (a
    640 x 300 ridge cross-validation measured 0.08 s on one thread, 1.3-4.5 s on two). Large problems and
    the torch backends are left alone.
    """
    if getattr(xp, "name", None) != "numpy" or flops >= SMALL_PROBLEM_FLOPS:
        yield
        return
    with one_blas_thread():
        yield


#: seconds for which a thread probe's finding (:mod:`brainscore_metrics._thread_probe`) guides the factorisations
#: that follow it (:func:`factorisation_threads`)
THREAD_CHOICE_SECONDS = 30.0
_thread_choice: tuple[str, float] | None = None


def record_thread_choice(choice: str) -> None:
    """Remember what a thread probe found faster just now: ``'one'`` BLAS thread or ``'all'``."""
    global _thread_choice
    _thread_choice = (choice, time.monotonic())


@contextlib.contextmanager
def factorisation_threads() -> Iterator[None]:
    """BLAS threads for an n x n LAPACK factorisation: all of them when the latest thread probe, less than
    :data:`THREAD_CHOICE_SECONDS` ago, found all threads faster on this machine; otherwise one.

    Threaded OpenBLAS Cholesky synchronises often: on a 2-core machine shared with other jobs a 3,200 x 3,200
    ``potrf`` took 2.6-4.6 s on two threads and 0.30 s on one; on the quiet machine 0.18 s on two and 0.29 s on one
    (and ``potri`` 0.26 s against 0.47 s). The Gram product before such a factorisation probes the same machine
    moments earlier.
    """
    choice = _thread_choice
    if choice is not None and choice[0] == "all" and time.monotonic() - choice[1] < THREAD_CHOICE_SECONDS:
        yield
        return
    with one_blas_thread():
        yield


_controller = None


@contextlib.contextmanager
def one_blas_thread() -> Iterator[None]:
    """BLAS (numpy's and scipy's) on one thread inside the block.

    One ``threadpoolctl.ThreadpoolController`` is made on first use (after numpy and scipy.linalg are imported, so
    it knows both BLAS libraries) and reused: ``threadpool_limits`` inspects every loaded library on each call,
    8 ms on a loaded 2-core machine, against 14 us for the kept controller's ``limit``.
    """
    global _controller
    if _controller is None:
        import scipy.linalg  # noqa: F401 - load scipy's BLAS before the controller lists the libraries
        from threadpoolctl import ThreadpoolController

        _controller = ThreadpoolController()
    with _controller.limit(limits=1, user_api="blas"):
        yield
