"""Read-only constants: the package's tables (registries, defaults, examples) as mappings and tuples that no caller
can change, so that no module of the package holds mutable state (``tests/test_module_state.py`` checks it)."""

from __future__ import annotations

from collections.abc import Mapping, Set
from types import MappingProxyType
from typing import Any

__all__ = ["frozen"]


def frozen(value: Any) -> Any:
    """``value`` with every mapping, list and set in it made read-only, recursively.

    Parameters
    ----------
    value : any
        A mapping becomes a :class:`types.MappingProxyType` over a fresh dict of frozen values, a list or plain tuple
        a tuple of frozen items, a set a frozenset; anything else is returned as it is.

    Returns
    -------
    The read-only value (it compares equal to ``value``: ``MappingProxyType({'a': 1}) == {'a': 1}``, lists become
    tuples).
    """
    if isinstance(value, Mapping):
        return MappingProxyType({key: frozen(item) for key, item in value.items()})
    if type(value) in (list, tuple):  # not a named tuple: it keeps its type
        return tuple(frozen(item) for item in value)
    if isinstance(value, Set):
        return frozenset(value)
    return value
