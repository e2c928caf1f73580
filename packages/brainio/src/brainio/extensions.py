"""What other distributions add to brainio: extra names and packaging adapters, found through entry points.

brainio imports no package of ours. A distribution that adds spellings to brainio (brainscore-legacy adds brainio
2021's) declares them in its metadata, in two entry-point groups, and brainio looks them up when they are asked for.
What brainio offers therefore depends on what is installed, never on which package was imported first, and no
function of brainio is ever replaced.

``brainio.names``
    Entry point name ``<module>.<name>`` (e.g. ``brainio.get_assembly``, ``brainio.fetch.get_assembly``); it points
    at the object that module serves under that name. Only names the module lacks are looked up, so an extension
    can add names but never shadow brainio's own.
``brainio.packaging_adapters``
    Each points at a callable ``adapt(function_name, args, kwargs) -> (args, kwargs)``, called with the arguments of
    every call of a packaging function (``package_stimulus_set``, ``package_data_assembly`` and their ``_locally``
    forms) before the function binds them: an old keyword can be renamed, an old input form rewritten. Adapters run
    in the order of their entry-point names. An adapter runs two frames below the caller of the packaging function:
    a warning it gives itself with ``warnings.warn(..., stacklevel=3)`` points at the caller's line.

Entry points are read on every lookup (a packaging call, or a missing name); nothing is remembered between calls.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from importlib.metadata import entry_points
from typing import Any, TypeVar

__all__ = ["NAMES_GROUP", "PACKAGING_ADAPTERS_GROUP", "extension_name", "packaging_adapters", "with_adapters"]

NAMES_GROUP = "brainio.names"
PACKAGING_ADAPTERS_GROUP = "brainio.packaging_adapters"

F = TypeVar("F", bound=Callable[..., Any])


def extension_name(module: str, name: str) -> Any:
    """The object an installed distribution adds to brainio's ``module`` as ``name``.

    Raises
    ------
    AttributeError
        When no installed distribution adds it (the message names the module and the name).
    """
    matches = entry_points(group=NAMES_GROUP, name=f"{module}.{name}")
    for entry_point in sorted(matches, key=lambda point: point.value):
        return entry_point.load()
    raise AttributeError(f"module {module!r} has no attribute {name!r}")


def packaging_adapters() -> list[Callable[[str, tuple, dict], tuple[tuple, dict]]]:
    """The packaging adapters of the installed distributions, in the order of their entry-point names."""
    return [point.load() for point in sorted(entry_points(group=PACKAGING_ADAPTERS_GROUP), key=lambda p: p.name)]


def with_adapters(function: F) -> F:
    """``function`` (a packaging function of brainio) called with its arguments passed through every packaging
    adapter first; without adapters installed it is called as it is. ``inspect.signature`` sees ``function``'s."""

    @functools.wraps(function)
    def adapted(*args: Any, **kwargs: Any) -> Any:
        for adapt in packaging_adapters():
            args, kwargs = adapt(function.__name__, args, kwargs)
        return function(*args, **kwargs)

    return adapted  # type: ignore[return-value]
