"""Array backends: the same flat set of functions over numpy and torch.

``numpy`` is the default. Select another for a block with ``with use_backend("torch"):`` or per call
with a metric's ``backend=`` parameter. Kernels receive the backend module (``xp``) and only call its
functions, so the same code runs on numpy arrays and on torch tensors (CPU or CUDA). torch is imported
only by :mod:`brainscore_metrics.backend.torch`, and only when that backend is requested.

Each metric call (and each public array function) decides its backend, precision, worker threads and scratch budget
once, at its entry, in a :class:`~brainscore_metrics.backend.plan.ComputePlan` that it passes down
(:func:`compute_plan`); :func:`use_threads` fixes the worker threads for a block.
"""

from __future__ import annotations

import contextlib
import contextvars
import importlib
from collections.abc import Iterator
from types import ModuleType

from brainscore_metrics.backend.plan import SMALL_PROBLEM_FLOPS, ComputePlan, compute_plan, use_threads
from brainscore_metrics.errors import UnknownBackendError

__all__ = ["AVAILABLE_BACKENDS", "SMALL_PROBLEM_FLOPS", "ComputePlan", "UnknownBackendError", "compute_plan",
           "get_backend", "resolve_backend", "use_backend", "use_threads"]

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
