"""What a domain's plugins registered and where each entry came from: the bottom of the plugin layer.

:class:`PluginCatalog` holds, for each kind (``'data'``, ``'benchmark'``, ...), the factories keyed by identifier and
the origin of each (:class:`PluginInfo`), and fills them: discovery through the entry-point group (once per process,
on the first read), attribution of assignments to the distribution being imported, the override rule for built-in
distributions and Brain-Score's plugin folders (:mod:`brainscore_core.plugin_folders`).

It calls nothing above it. The dict-like registries (:mod:`brainscore_core._registry`) and the
:class:`~brainscore_core.plugins.Domain` that exposes them call into it; plugin modules reach it through those
registries while discovery imports them. Scoring lives elsewhere (:mod:`brainscore_core.scoring`).
"""

from __future__ import annotations

import difflib
import importlib
import importlib.metadata
import threading
import warnings
from collections.abc import Callable, Collection, Mapping
from types import ModuleType
from typing import Any

import pluggy

from brainscore_core import hookspecs
from brainscore_core._plugin_info import KINDS, PluginInfo, normalize_kind
from brainscore_core.config import AUTOLOAD_ENV, plugin_autoload_disabled, requested_plugins
from brainscore_core.errors import (
    DuplicateIdentifierError,
    InvalidPluginError,
    PluginLoadError,
    PluginOverrideNotice,
    UnknownIdentifierError,
)
from brainscore_core.hookspecs import HOOK_KINDS, PROJECT_NAME

__all__ = ["KINDS", "PluginCatalog", "PluginInfo", "normalize_kind"]

_UNLOADED, _LOADING, _LOADED = "unloaded", "loading", "loaded"


class _Source:
    __slots__ = ("distribution", "module", "version")

    def __init__(self, distribution: str | None, version: str | None, module: str | None):
        self.distribution, self.version, self.module = distribution, version, module


class PluginCatalog:
    """Factories and their origins for one entry-point group, filled by discovery on the first read.

    Parameters
    ----------
    entry_point_group : str
        Entry-point group whose entry points name plugin modules.
    folders : PluginFolders, default=None
        Brain-Score's plugin folders, looked in for identifiers nobody registered (or only a built-in distribution).
    builtin_distributions : collection of str, default=()
        Distributions whose registrations any other plugin may replace (with a notice) instead of colliding.
    """

    def __init__(self, entry_point_group: str, *, folders: Any = None, builtin_distributions: Collection[str] = ()):
        self.entry_point_group = entry_point_group
        self.folders = folders
        self.builtin_distributions = frozenset(builtin_distributions)
        self._lock = threading.RLock()
        self._state = _UNLOADED
        self._error: BaseException | None = None
        self._factories: dict[str, dict[str, Callable[..., Any]]] = {kind: {} for kind in KINDS}
        self._origins: dict[str, dict[str, PluginInfo]] = {kind: {} for kind in KINDS}
        self._manager = self._new_manager()
        self._plugin_sources: dict[str, _Source] = {}
        self._module_sources: dict[str, _Source] = {}
        self._importing: list[_Source] = []

    @property
    def state(self) -> str:
        """``'unloaded'``, ``'loading'`` (discovery is importing plugin modules) or ``'loaded'``."""
        return self._state

    # reading: discovery first -----------------------------------------------------------------------
    def factory(self, kind: str, identifier: str) -> Callable[..., Any]:
        """The factory registered as ``identifier`` (after discovery and, where needed, its plugin folder).

        Raises UnknownIdentifierError listing close matches."""
        self.ensure_loaded()
        self.consult_folders(kind, identifier)
        try:
            return self._factories[kind][identifier]
        except KeyError:
            raise self.unknown(kind, identifier) from None

    def contains(self, kind: str, identifier: str) -> bool:
        """Whether ``identifier`` is registered as ``kind`` (after discovery and its plugin folder)."""
        self.ensure_loaded()
        self.consult_folders(kind, identifier)
        return identifier in self._factories[kind]

    def identifiers(self, kind: str) -> list[str]:
        """Every identifier of ``kind``, in registration order (after discovery)."""
        self.ensure_loaded()
        return list(self._factories[kind])

    def origin(self, kind: str, identifier: str) -> PluginInfo:
        """Where the factory registered as ``identifier`` came from (after discovery)."""
        self.ensure_loaded()
        try:
            return self._origins[kind][identifier]
        except KeyError:
            raise self.unknown(kind, identifier) from None

    def list_plugins(self, kind: str | None = None) -> list[PluginInfo]:
        """Origins of ``kind`` (every kind when None), sorted by kind and identifier (after discovery)."""
        self.ensure_loaded()
        kinds = KINDS if kind is None else (normalize_kind(kind),)
        return [info for k in kinds for info in sorted(self._origins[k].values(), key=lambda info: info.identifier)]

    def unknown(self, kind: str, identifier: str) -> UnknownIdentifierError:
        """The error for a missing ``identifier`` of ``kind``, listing close matches and other kinds holding it."""
        matches = difflib.get_close_matches(str(identifier), list(self._factories[kind]), n=5, cutoff=0.6)
        other_kinds = [other for other in KINDS if other != kind and identifier in self._factories[other]]
        return UnknownIdentifierError(kind, identifier, matches, group=self.entry_point_group,
                                      n_registered=len(self._factories[kind]), other_kinds=other_kinds)

    # reading without discovery (what has been registered so far) ------------------------------------
    def registered_origin(self, kind: str, identifier: str) -> PluginInfo | None:
        return self._origins[kind].get(identifier)

    def registered_origins(self, kind: str) -> list[PluginInfo]:
        return list(self._origins[kind].values())

    def is_registered(self, kind: str, identifier: str) -> bool:
        return identifier in self._factories[kind]

    # writing ----------------------------------------------------------------------------------------
    def store(self, info: PluginInfo, factory: Callable[..., Any] | None = None) -> None:
        """Record ``factory`` under ``info.identifier`` with its origin, replacing any entry; with ``factory=None``
        only the origin of an existing entry is updated. Callers check duplicates first (:meth:`register_factory`)."""
        if factory is not None:
            self._factories[info.kind][info.identifier] = factory
        elif info.identifier not in self._factories[info.kind]:
            raise self.unknown(info.kind, info.identifier)
        self._origins[info.kind][info.identifier] = info

    def remove(self, kind: str, identifier: str) -> None:
        if identifier not in self._factories[kind]:
            raise self.unknown(kind, identifier)
        del self._factories[kind][identifier]
        del self._origins[kind][identifier]

    def clear(self, kind: str) -> None:
        """Forget every factory of ``kind`` (without running discovery)."""
        self._factories[kind].clear()
        self._origins[kind].clear()

    def register_factory(self, kind: str, identifier: str, factory: Callable[..., Any], module: str | None,
                         source: _Source | None = None) -> None:
        """Register ``factory`` of ``kind`` as ``identifier``, attributed to ``source`` or to the distribution
        that ``module`` belongs to (what ``registry[identifier] = factory`` does).

        Raises InvalidPluginError (no identifier, or a factory that is not callable), DuplicateIdentifierError (two
        origins that are both built-in or both not); a non-built-in replacing a built-in warns PluginOverrideNotice.
        """
        if not isinstance(identifier, str) or not identifier:
            raise InvalidPluginError(f"{kind} identifier must be a non-empty string, got {identifier!r} "
                                     f"(from module {module!r})")
        if not callable(factory):
            raise InvalidPluginError(f"{kind} {identifier!r} from module {module!r}: factory must be callable, "
                                     f"got {type(factory).__name__}")
        with self._lock:
            source = source or self._attribute(module)
            info = PluginInfo(kind, identifier, source.distribution, source.version, module or source.module)
            existing = self._origins[kind].get(identifier)
            if existing is not None and not existing.same_origin(info):
                builtin_existing, builtin_new = self._is_builtin(existing), self._is_builtin(info)
                if builtin_existing == builtin_new:
                    raise DuplicateIdentifierError(kind, identifier, existing, info)
                kept, replaced = (info, existing) if builtin_existing else (existing, info)
                warnings.warn(f"{kind} {identifier!r} of {kept.describe()} replaces the built-in one of "
                              f"{replaced.describe()}", PluginOverrideNotice, stacklevel=3)
                if not builtin_existing:  # a built-in registered after the installed plugin: keep the plugin
                    return
            self.store(info, factory)

    def register_plugin(self, plugin: object, name: str | None = None) -> None:
        """Register a plugin object (module or instance with hookimpls) explicitly; works with autoload disabled.
        If discovery already ran, the plugin's hooks are collected now."""
        with self._lock:
            name = name or getattr(plugin, "__name__", None) or repr(plugin)
            self._manager.register(plugin, name=name)
            self._plugin_sources[name] = _Source(None, None, getattr(plugin, "__name__", name))
            if self._state == _LOADED:
                self._manager.check_pending()
                self._collect_hooks(only={name})

    def reset(self) -> None:
        """Forget every registration and discovery result (modules stay imported: not re-executed)."""
        with self._lock:
            for kind in KINDS:
                self.clear(kind)
            self._manager = self._new_manager()
            self._plugin_sources.clear()
            self._module_sources.clear()
            self._state, self._error = _UNLOADED, None

    def _is_builtin(self, info: PluginInfo) -> bool:
        return info.distribution in self.builtin_distributions

    # plugin folders ---------------------------------------------------------------------------------
    def consult_folders(self, kind: str, identifier: str) -> None:
        """Import the plugin folder that registers ``identifier`` as ``kind`` when no plugin holds it yet or only a
        built-in distribution does (a no-op without folders, during discovery, with autoload disabled, or for a
        third-party registration).

        Raises DuplicateIdentifierError (two folders register it) or PluginLoadError (the folder fails to import;
        the message says how to install its requirements, if it lists any).
        """
        if self.folders is None or self._state != _LOADED or plugin_autoload_disabled():
            return
        kind = normalize_kind(kind)
        existing = self._origins[kind].get(identifier)
        if existing is not None and not self._is_builtin(existing):
            return
        with self._lock:
            match = self.folders.locate(kind, identifier)
            if match is None:
                return
            source = _Source(None, None, match.module)
            self._module_sources[match.module] = source  # later registrations of its modules belong to it too
            self._importing.append(source)
            try:
                self.folders.import_folder(match)
            finally:
                self._importing.pop()

    def _attribute(self, module: str | None) -> _Source:
        """The distribution an assignment made by ``module`` belongs to."""
        if module:
            best = None
            for prefix, source in self._module_sources.items():
                if (module == prefix or module.startswith(prefix + ".")) and (
                        best is None or len(prefix) > len(best[0])):
                    best = (prefix, source)
            if best is not None:
                return best[1]
        if self._importing:
            return self._importing[-1]
        return _Source(None, None, module)

    # discovery --------------------------------------------------------------------------------------
    def _new_manager(self) -> pluggy.PluginManager:
        manager = pluggy.PluginManager(PROJECT_NAME)
        manager.add_hookspecs(hookspecs)
        return manager

    def ensure_loaded(self) -> None:
        """Run plugin discovery once per process (a no-op afterwards); re-raises a discovery error."""
        if self._state == _LOADED and self._error is None:
            return
        with self._lock:
            if self._state == _LOADING:  # re-entrant read from a plugin module being imported: partial view
                return
            if self._state == _UNLOADED:
                self._state = _LOADING
                try:
                    self._discover()
                except Exception as error:  # sticky: every later read raises it too
                    self._error = error
                except BaseException:  # interrupted (e.g. KeyboardInterrupt): the next read tries again
                    self._state = _UNLOADED
                    raise
                self._state = _LOADED
            if self._error is not None:
                raise self._error

    def _entry_points(self) -> list[importlib.metadata.EntryPoint]:
        points = importlib.metadata.entry_points(group=self.entry_point_group)
        return sorted(points, key=lambda ep: ((ep.dist.name if ep.dist else "") or "", ep.name))

    def _discover(self) -> None:
        requested, disabled = requested_plugins(), plugin_autoload_disabled()
        points = self._entry_points() if (not disabled or requested) else []
        if disabled:
            points = [ep for ep in points if ep.name in requested or ep.value in requested]
        loaded_names = {ep.name for ep in points} | {ep.value for ep in points}
        for ep in points:
            dist = ep.dist
            source = _Source(dist.name if dist else None, dist.version if dist else None, ep.module)
            self._module_sources.setdefault(ep.module, source)
        for ep in points:
            source = self._module_sources[ep.module]
            self._load_plugin(f"{source.distribution}:{ep.name}", source, ep.load, ep.value)
        for module_name in requested:
            if module_name not in loaded_names:
                source = _Source(None, None, module_name)
                self._load_plugin(module_name, source, lambda m=module_name: importlib.import_module(m),
                                  module_name)
        self._reattribute()
        self._manager.check_pending()
        self._collect_hooks()

    def _load_plugin(self, name: str, source: _Source, load: Callable[[], object], target: str) -> None:
        self._importing.append(source)
        try:
            plugin = load()
        except (DuplicateIdentifierError, InvalidPluginError):
            raise
        except Exception as error:
            raise PluginLoadError(
                f"loading plugin {target!r} of distribution {source.distribution!r} (entry-point group "
                f"{self.entry_point_group!r}) failed: {type(error).__name__}: {error}; set "
                f"{AUTOLOAD_ENV}=1 to run without third-party plugins") from error
        finally:
            self._importing.pop()
        if plugin is None or self._manager.is_registered(plugin) or self._manager.has_plugin(name):
            return
        self._manager.register(plugin, name=name)
        plugin_module = plugin.__name__ if isinstance(plugin, ModuleType) else getattr(plugin, "__module__", None)
        self._plugin_sources[name] = _Source(source.distribution, source.version, plugin_module or target)

    def _reattribute(self) -> None:
        """Entries assigned before discovery by a module that turns out to be a plugin module."""
        for kind in KINDS:
            for info in list(self._origins[kind].values()):
                if info.distribution is None and info.module:
                    source = self._attribute(info.module)
                    if source.distribution is not None:
                        self.store(PluginInfo(info.kind, info.identifier, source.distribution, source.version,
                                              info.module))

    def _collect_hooks(self, only: set[str] | None = None) -> None:
        for kind, hook_name in HOOK_KINDS.items():
            for impl in getattr(self._manager.hook, hook_name).get_hookimpls():
                if only is not None and impl.plugin_name not in only:
                    continue
                factories = impl.function()
                if not isinstance(factories, Mapping):
                    raise InvalidPluginError(
                        f"hook {hook_name} of plugin {impl.plugin_name!r} must return a mapping of identifier "
                        f"-> factory, got {type(factories).__name__}")
                source = self._plugin_sources.get(impl.plugin_name) or _Source(None, None, impl.plugin_name)
                for identifier, factory in factories.items():
                    self.register_factory(kind, identifier, factory, module=source.module, source=source)

    def __repr__(self) -> str:
        counts = ", ".join(f"{kind}={len(self._origins[kind])}" for kind in KINDS)
        return f"PluginCatalog({self.entry_point_group!r}; {self._state}; {counts})"
