"""Dict-like registries of plugin factories and where each entry came from."""

from __future__ import annotations

import difflib
import sys
from collections.abc import Callable, Iterator, MutableMapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from brainscore_core.errors import UnknownIdentifierError, UnknownKindError
from brainscore_core.hookspecs import HOOK_KINDS

if TYPE_CHECKING:
    from brainscore_core.plugins import Domain

__all__ = ["KINDS", "PluginInfo", "Registry", "normalize_kind"]

KINDS: tuple[str, ...] = tuple(HOOK_KINDS)
_KIND_ALIASES = {
    **{kind: kind for kind in KINDS},
    **{f"{kind}s": kind for kind in KINDS},
    **{f"{kind}_registry": kind for kind in KINDS},
    "dataset": "data",
    "datasets": "data",
    "assembly": "data",
    "assemblies": "data",
    "stimulus_sets": "stimulus_set",
    "stimuli": "stimulus_set",
}


def normalize_kind(kind: str) -> str:
    """Map ``kind`` (``'benchmark'``, ``'benchmarks'``, ``'dataset'``, ...) to a registry kind.

    Raises
    ------
    UnknownKindError
        If ``kind`` names no registry; the message lists the valid kinds.
    """
    normalized = _KIND_ALIASES.get(str(kind).strip().lower().replace("-", "_").replace(" ", "_"))
    if normalized is None:
        raise UnknownKindError(f"unknown plugin kind {kind!r}; valid kinds are {', '.join(KINDS)}")
    return normalized


@dataclass(frozen=True)
class PluginInfo:
    """One registry entry: what is registered and which distribution provides it.

    Attributes
    ----------
    kind : str
        Registry kind (one of ``KINDS``).
    identifier : str
        Identifier under which the factory is registered.
    distribution : str or None
        Name of the installed distribution whose entry point registered it; None when it was registered
        explicitly (not through an entry point).
    version : str or None
        Version of that distribution.
    module : str or None
        Module that registered the factory.
    """

    kind: str
    identifier: str
    distribution: str | None
    version: str | None
    module: str | None

    def describe(self) -> str:
        """Human-readable origin, used in error messages."""
        if self.distribution:
            origin = f"distribution {self.distribution!r} {self.version or ''}".rstrip()
        else:
            origin = "an explicit registration (no distribution)"
        return f"{origin} (module {self.module!r})"

    def same_origin(self, other: PluginInfo) -> bool:
        return self.module == other.module and self.distribution == other.distribution


class Registry(MutableMapping[str, Callable[..., Any]]):
    """Factories of one kind keyed by identifier.

    Reading (``registry[id]``, ``id in registry``, iteration, ``len``) first runs the domain's plugin
    discovery (once per process); ``registry[id]`` and ``id in registry`` also import the domain's plugin folder
    registering ``id`` when no plugin holds it yet. Assigning (``registry[id] = factory``) registers a factory, attributed
    to the distribution whose entry point is being imported at that moment (or to the module that
    assigns); an identifier claimed from two origins raises ``DuplicateIdentifierError``.
    """

    def __init__(self, domain: Domain, kind: str):
        self._domain = domain
        self.kind = kind
        self._factories: dict[str, Callable[..., Any]] = {}
        self._sources: dict[str, PluginInfo] = {}

    # reading triggers discovery
    def __getitem__(self, identifier: str) -> Callable[..., Any]:
        self._domain.ensure_loaded()
        self._domain.consult_folders(self.kind, identifier)
        try:
            return self._factories[identifier]
        except KeyError:
            raise self.unknown(identifier) from None

    def __contains__(self, identifier: object) -> bool:
        self._domain.ensure_loaded()
        if isinstance(identifier, str):
            self._domain.consult_folders(self.kind, identifier)
        return identifier in self._factories

    def __iter__(self) -> Iterator[str]:
        self._domain.ensure_loaded()
        return iter(list(self._factories))

    def __len__(self) -> int:
        self._domain.ensure_loaded()
        return len(self._factories)

    # writing registers, without discovery (plugin modules assign while discovery imports them)
    def __setitem__(self, identifier: str, factory: Callable[..., Any]) -> None:
        caller = sys._getframe(1).f_globals.get("__name__")
        self._domain.register_factory(self.kind, identifier, factory, module=caller)

    def __delitem__(self, identifier: str) -> None:
        if identifier not in self._factories:
            raise self.unknown(identifier)
        del self._factories[identifier]
        del self._sources[identifier]

    def source(self, identifier: str) -> PluginInfo:
        """Where the factory registered as ``identifier`` came from."""
        self._domain.ensure_loaded()
        try:
            return self._sources[identifier]
        except KeyError:
            raise self.unknown(identifier) from None

    def unknown(self, identifier: str) -> UnknownIdentifierError:
        """The error for a missing ``identifier``, listing close matches."""
        matches = difflib.get_close_matches(str(identifier), list(self._factories), n=5, cutoff=0.6)
        other_kinds = [kind for kind, registry in self._domain.registries().items()
                       if registry is not self and registry.is_registered(identifier)]
        return UnknownIdentifierError(self.kind, identifier, matches, group=self._domain.entry_point_group,
                                      n_registered=len(self._factories), other_kinds=other_kinds)

    # the domain's view: read and write without running discovery (the domain runs it)
    def registered_origin(self, identifier: str) -> PluginInfo | None:
        """Where ``identifier`` was registered from, or None; does not run discovery."""
        return self._sources.get(identifier)

    def registered_origins(self) -> list[PluginInfo]:
        """Origins of every factory registered so far, in registration order; does not run discovery."""
        return list(self._sources.values())

    def is_registered(self, identifier: str) -> bool:
        """Whether ``identifier`` is registered so far; does not run discovery."""
        return identifier in self._factories

    def store(self, info: PluginInfo, factory: Callable[..., Any] | None = None) -> None:
        """Record ``factory`` under ``info.identifier`` with its origin ``info``, replacing any entry; with
        ``factory=None`` only the origin of an existing entry is updated. The domain checks duplicates first."""
        if factory is not None:
            self._factories[info.identifier] = factory
        elif info.identifier not in self._factories:
            raise self.unknown(info.identifier)
        self._sources[info.identifier] = info

    def clear(self) -> None:
        """Forget every factory of this kind (without running discovery)."""
        self._factories.clear()
        self._sources.clear()

    def __repr__(self) -> str:
        return (f"<{self.kind} registry of {self._domain.entry_point_group!r}: "
                f"{len(self._factories)} registered>")
