"""Which backend a call uses: the registry of backends, the context's default (``use_backend``) and the rule that
torch inputs select torch (``resolve_backend``)."""

from __future__ import annotations

import contextlib
import contextvars
import importlib
from collections.abc import Iterator
from types import ModuleType

from brainscore_metrics._frozen import frozen
from brainscore_metrics.errors import UnknownBackendError

__all__ = ["AVAILABLE_BACKENDS", "get_backend", "resolve_backend", "use_backend"]

#: backend name -> module
AVAILABLE_BACKENDS = frozen({
    "numpy": "brainscore_metrics.backend.numpy",
    "torch": "brainscore_metrics.backend.torch",
    "torch_cuda": "brainscore_metrics.backend.torch_cuda",
})

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
