"""Dict-like registries of plugin factories: the Brain-Score face of a :class:`~brainscore_core._catalog.PluginCatalog`.

A :class:`Registry` holds nothing itself; it reads and writes one kind of its catalog. It calls only the catalog
(below it), never the :class:`~brainscore_core.plugins.Domain` that creates it.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator, MutableMapping
from typing import Any

from brainscore_core._catalog import PluginCatalog, PluginInfo
from brainscore_core.errors import UnknownIdentifierError

__all__ = ["Registry"]


class Registry(MutableMapping[str, Callable[..., Any]]):
    """Factories of one kind keyed by identifier.

    Reading (``registry[id]``, ``id in registry``, iteration, ``len``) first runs the domain's plugin
    discovery (once per process); ``registry[id]`` and ``id in registry`` also import the domain's plugin folder
    registering ``id`` when no plugin holds it yet. Assigning (``registry[id] = factory``) registers a factory,
    attributed to the distribution whose entry point is being imported at that moment (or to the module that
    assigns); an identifier claimed from two origins raises ``DuplicateIdentifierError``.

    Parameters
    ----------
    catalog : PluginCatalog
        Where the factories and their origins are kept.
    kind : str
        One of :data:`~brainscore_core._catalog.KINDS`.
    """

    def __init__(self, catalog: PluginCatalog, kind: str):
        self._catalog = catalog
        self.kind = kind

    # reading triggers discovery
    def __getitem__(self, identifier: str) -> Callable[..., Any]:
        return self._catalog.factory(self.kind, identifier)

    def __contains__(self, identifier: object) -> bool:
        if not isinstance(identifier, str):
            self._catalog.ensure_loaded()
            return False
        return self._catalog.contains(self.kind, identifier)

    def __iter__(self) -> Iterator[str]:
        return iter(self._catalog.identifiers(self.kind))

    def __len__(self) -> int:
        return len(self._catalog.identifiers(self.kind))

    # writing registers, without discovery (plugin modules assign while discovery imports them)
    def __setitem__(self, identifier: str, factory: Callable[..., Any]) -> None:
        caller = sys._getframe(1).f_globals.get("__name__")
        self._catalog.register_factory(self.kind, identifier, factory, module=caller)

    def __delitem__(self, identifier: str) -> None:
        self._catalog.remove(self.kind, identifier)

    def source(self, identifier: str) -> PluginInfo:
        """Where the factory registered as ``identifier`` came from."""
        return self._catalog.origin(self.kind, identifier)

    def unknown(self, identifier: str) -> UnknownIdentifierError:
        """The error for a missing ``identifier``, listing close matches."""
        return self._catalog.unknown(self.kind, identifier)

    # what is registered so far, without running discovery
    def registered_origin(self, identifier: str) -> PluginInfo | None:
        """Where ``identifier`` was registered from, or None; does not run discovery."""
        return self._catalog.registered_origin(self.kind, identifier)

    def registered_origins(self) -> list[PluginInfo]:
        """Origins of every factory registered so far, in registration order; does not run discovery."""
        return self._catalog.registered_origins(self.kind)

    def is_registered(self, identifier: str) -> bool:
        """Whether ``identifier`` is registered so far; does not run discovery."""
        return self._catalog.is_registered(self.kind, identifier)

    def store(self, info: PluginInfo, factory: Callable[..., Any] | None = None) -> None:
        """Record ``factory`` under ``info.identifier`` (see :meth:`PluginCatalog.store`)."""
        self._catalog.store(info, factory)

    def clear(self) -> None:
        """Forget every factory of this kind (without running discovery)."""
        self._catalog.clear(self.kind)

    def __repr__(self) -> str:
        return (f"<{self.kind} registry of {self._catalog.entry_point_group!r}: "
                f"{len(self._catalog.registered_origins(self.kind))} registered>")
