"""Names of a package resolved on first use (PEP 562), the one implementation every package's ``__init__`` uses.

``import brainio``, ``import brainscore_core``, ``import brainscore_metrics`` and ``import brainscore_vision`` import
neither pandas, xarray nor SQLAlchemy: their public names map to the module that defines each, imported when the name
is first read. Standard library only, so that it is as light as the packages that use it.
"""

from __future__ import annotations

import importlib
import importlib.util
from collections.abc import Callable, Mapping, MutableMapping
from typing import Any

__all__ = ["lazy_names"]


def lazy_names(namespace: MutableMapping[str, Any], names: Mapping[str, str], *, submodules: bool = False,
               fallback: Callable[[str], Any] | None = None) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """``(__getattr__, __dir__)`` for the module whose ``globals()`` is ``namespace``.

    Parameters
    ----------
    namespace : mapping
        The module's ``globals()``; a resolved name is stored there, so each is imported once.
    names : mapping of str to str
        Public name -> absolute name of the module that defines it.
    submodules : bool, default=False
        Also resolve a submodule read as an attribute (``brainio.netcdf`` after ``import brainio``).
    fallback : callable, optional
        Called with a name found neither in ``names`` nor as a submodule, default=None (AttributeError); it returns
        the value or raises AttributeError itself.
    """
    package = namespace["__name__"]

    def __getattr__(name: str) -> Any:
        module = names.get(name)
        if module is not None:
            value = getattr(importlib.import_module(module), name)
            namespace[name] = value
            return value
        if submodules and not name.startswith("_") and importlib.util.find_spec(f"{package}.{name}") is not None:
            return importlib.import_module(f"{package}.{name}")
        if fallback is not None:
            return fallback(name)
        raise AttributeError(f"module {package!r} has no attribute {name!r}")

    def __dir__() -> list[str]:
        return sorted(set(namespace) | set(names))

    return __getattr__, __dir__
