"""Lazy module-level re-export of other modules (PEP 562), so a missing optional part fails only on use."""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any


def lazy_module(*targets: str) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """``(__getattr__, __dir__)`` for a module that re-exports every public name of ``targets`` (the first module
    that has a name provides it).

    A target is imported on the first attribute access that needs it, not when the re-exporting module is imported.
    """

    def public_names(module: Any) -> list[str]:
        return list(getattr(module, "__all__", [n for n in vars(module) if not n.startswith("_")]))

    def __getattr__(name: str) -> Any:
        if name.startswith("__") and name != "__all__":
            raise AttributeError(name)
        if name == "__all__":
            return list(dict.fromkeys(n for target in targets for n in public_names(importlib.import_module(target))))
        for target in targets:
            module = importlib.import_module(target)
            if hasattr(module, name):
                return getattr(module, name)
        raise AttributeError(f"{' / '.join(targets)} (re-exported here for compatibility) has no attribute {name!r}")

    def __dir__() -> list[str]:
        return sorted(__getattr__("__all__"))

    return __getattr__, __dir__
