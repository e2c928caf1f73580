"""The domain of each entry-point group in this process, and how a worker finds it by its group.

Every :class:`~brainscore_core.plugins.Domain` records itself here when it is created (the last one of a group wins),
without being kept alive by it. A Dask task carries its domain by the group (``Domain.__reduce__``) and the worker
takes its own domain of that group with :func:`find_domain`, so neither the grid nor the plugin layer imports the
other to turn a group into a domain.
"""

from __future__ import annotations

import importlib
import weakref
from typing import Any

from brainscore_core.errors import UnknownDomainError

__all__ = ["find_domain", "record_domain"]

_DOMAINS: weakref.WeakValueDictionary[str, Any] = weakref.WeakValueDictionary()


def record_domain(entry_point_group: str, domain: Any) -> None:
    """Make ``domain`` the one :func:`find_domain` gives for ``entry_point_group`` in this process."""
    _DOMAINS[entry_point_group] = domain


def find_domain(entry_point_group: str) -> Any:
    """The :class:`~brainscore_core.plugins.Domain` of ``entry_point_group`` in this process.

    A worker that has not met the domain yet imports the module named like the group: a domain package names its
    group after itself (``brainscore_vision``), and importing it creates its domain. This is the one lookup by name
    a task needs: registries, models and data cannot travel, and the plugins that fill a domain register into the
    domain package's own instance.

    Raises
    ------
    UnknownDomainError
        No module of that name creates a domain for the group.
    """
    domain = _DOMAINS.get(entry_point_group)
    if domain is None:
        try:
            importlib.import_module(entry_point_group)
        except ImportError as error:
            raise UnknownDomainError(f"no domain for entry-point group {entry_point_group!r}: importing the module of "
                                     f"that name failed ({type(error).__name__}: {error})") from error
        domain = _DOMAINS.get(entry_point_group)
    if domain is None:
        raise UnknownDomainError(f"no domain for entry-point group {entry_point_group!r}: module "
                                 f"{entry_point_group!r} creates no brainscore_core.plugins.Domain of that group")
    return domain
