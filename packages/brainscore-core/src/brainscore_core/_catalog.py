"""What a domain's plugins registered and where each entry came from: the bottom of the plugin layer.

:class:`PluginCatalog` holds, per kind (``'data'``, ``'benchmark'``, ...), the factories keyed by identifier and the
origin of each (:class:`PluginInfo`), and fills them: discovery through the entry-point group (once per process, on the
first read), attribution of assignments, the override rule for built-in distributions and Brain-Score's plugin folders
(:mod:`brainscore_core.plugin_folders`). Discovery reads the entry points and the plugin index
(:mod:`brainscore_core._plugin_index`, which also keeps each identifier's declared data need:
:mod:`brainscore_core.data_needs`); a plugin module is imported only when one of its identifiers is asked for, when the
index does not know it yet, or when everything is listed. Each import and factory call runs under
:func:`brainscore_core.numeric_state.guarded`: what a plugin's import changed in torch's global state is put back (one
:class:`~brainscore_core.errors.PluginStateNotice` says which) and held again only while its own factories run.

It calls nothing above it: the registries (:mod:`brainscore_core._registry`) and the
:class:`~brainscore_core.plugins.Domain` call into it, plugin modules reach it through those registries. Scoring
lives elsewhere (:mod:`brainscore_core.scoring`)."""

from __future__ import annotations

import difflib
import importlib
import importlib.metadata
import sys
import threading
import warnings
from collections.abc import Callable, Collection
from types import ModuleType
from typing import Any

import pluggy

from brainscore_core import hookspecs
from brainscore_core._entry_plugins import (
    FAILED,
    LOADED,
    LOADING,
    Attribution,
    EntryPlugin,
    EntryPlugins,
    collect_hooks,
)
from brainscore_core._entry_plugins import Source as _Source
from brainscore_core._plugin_info import KINDS, PluginInfo, normalize_kind
from brainscore_core.config import plugin_autoload_disabled, requested_plugins
from brainscore_core.data_needs import declared_need
from brainscore_core.errors import (
    DuplicateIdentifierError,
    InvalidPluginError,
    PluginOverrideNotice,
    UnknownIdentifierError,
)
from brainscore_core.hookspecs import PROJECT_NAME
from brainscore_core.numeric_state import PluginSettings, guarded

__all__ = ["KINDS", "PluginCatalog", "PluginInfo", "normalize_kind"]

_UNLOADED, _LOADING, _LOADED = "unloaded", "loading", "loaded"


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
        self._attribution = Attribution()  # which plugin an assignment belongs to
        self._explicit: set[str] = set()  # plugins registered explicitly before discovery
        self._entries = EntryPlugins(entry_point_group)
        self._settings = PluginSettings()  # what each plugin's import changed in torch's global state

    @property
    def state(self) -> str:
        """``'unloaded'``, ``'loading'`` (discovery is reading the entry points) or ``'loaded'``."""
        return self._state

    # reading: discovery first -----------------------------------------------------------------------
    def factory(self, kind: str, identifier: str) -> Callable[..., Any]:
        """The factory registered as ``identifier`` (after importing the plugins that may register it and, where
        needed, its plugin folder).

        Raises UnknownIdentifierError listing close matches."""
        self.resolve(kind, identifier)
        try:
            return self._factories[kind][identifier]
        except KeyError:
            raise self.unknown(kind, identifier) from None

    def call(self, kind: str, identifier: str, *args: Any, **kwargs: Any) -> Any:
        """Call the factory of ``identifier`` with torch's global settings guarded: the settings its plugin's import
        made are held while it runs, and whatever it changes is put back afterwards (one
        :class:`PluginStateNotice` names what it changed)."""
        factory = self.factory(kind, identifier)
        info = self._origins[kind][identifier]
        with guarded(apply=self._settings.of(info.module)) as changes:
            result = factory(*args, **kwargs)
        self._settings.announce(changes, f"{kind} {identifier!r} of {info.describe()}", "while it was built")
        return result

    def contains(self, kind: str, identifier: str) -> bool:
        """Whether ``identifier`` is registered as ``kind`` (after its plugins and its plugin folder)."""
        self.resolve(kind, identifier)
        return identifier in self._factories[kind]

    def resolve(self, kind: str, identifier: str) -> None:
        """Import what may register ``identifier`` as ``kind``: the entry-point plugins whose index record lists it
        or that have no record yet, then its plugin folder (:meth:`consult_folders`)."""
        self.ensure_loaded()
        with self._lock:
            self._import_entries(self._entries.needed_for(kind, identifier))
        self.consult_folders(kind, identifier)

    def identifiers(self, kind: str) -> list[str]:
        """Every identifier of ``kind``: those registered, in registration order, then those of plugins not imported
        yet (by their index records)."""
        self._import_unindexed()
        names = list(self._factories[kind])
        return names + [info.identifier for info in self._entries.indexed_only(kind) if info.identifier not in
                        self._factories[kind]]

    def origin(self, kind: str, identifier: str) -> PluginInfo:
        """Where the factory registered as ``identifier`` came from (after importing its plugins)."""
        self.resolve(kind, identifier)
        try:
            return self._origins[kind][identifier]
        except KeyError:
            raise self.unknown(kind, identifier) from None

    def list_plugins(self, kind: str | None = None) -> list[PluginInfo]:
        """Origins of ``kind`` (every kind when None), sorted by kind and identifier; a plugin that is not imported
        yet is described by its index record (and stays unimported)."""
        self._import_unindexed()
        kinds = KINDS if kind is None else (normalize_kind(kind),)
        found = []
        for k in kinds:
            infos = dict(self._origins[k])
            infos.update({info.identifier: info for info in self._entries.indexed_only(k) if info.identifier not in
                          infos})
            found += sorted(infos.values(), key=lambda info: info.identifier)
        return found

    def data_need(self, kind: str, identifier: str) -> str | None:
        """The data ``identifier`` of ``kind`` declared it needs (:mod:`brainscore_core.data_needs`; None: not
        declared, or not registered); a plugin not imported yet is answered for by its index record, unimported."""
        kind = normalize_kind(kind)
        self.ensure_loaded()
        if identifier not in self._factories[kind]:
            listed, need = self._entries.indexed_need(kind, identifier)
            if listed:
                return need
            self.resolve(kind, identifier)
        return self._declared_need(kind, identifier) if identifier in self._factories[kind] else None

    def _declared_need(self, kind: str, identifier: str) -> str | None:
        """What the factory declares, else the module that registered it, else its plugin's module."""
        source = self._attribution.claimed_by(kind, identifier)
        return declared_need(kind, identifier, self._factories[kind][identifier],
                             self._origins[kind][identifier].module, source.module if source is not None else None)

    def unknown(self, kind: str, identifier: str) -> UnknownIdentifierError:
        """The error for a missing ``identifier`` of ``kind``, listing close matches and other kinds holding it."""
        known = {k: set(self._factories[k]) | {info.identifier for info in self._entries.indexed_only(k)}
                 for k in KINDS}
        matches = difflib.get_close_matches(str(identifier), sorted(known[kind]), n=5, cutoff=0.6)
        other_kinds = [other for other in KINDS if other != kind and identifier in known[other]]
        return UnknownIdentifierError(kind, identifier, matches, group=self.entry_point_group,
                                      n_registered=len(known[kind]), other_kinds=other_kinds)

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
        self._entries.note_registration(self)
        with self._lock:
            source = source or self._attribution.of(module)
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
            self._attribution.claim(kind, identifier, source)

    def register_plugin(self, plugin: object, name: str | None = None) -> None:
        """Register a plugin object (module or instance with hookimpls) explicitly; works with autoload disabled.
        If discovery already ran, the plugin's hooks are collected now."""
        with self._lock:
            name = name or getattr(plugin, "__name__", None) or repr(plugin)
            self._manager.register(plugin, name=name)
            self._plugin_sources[name] = _Source(None, None, getattr(plugin, "__name__", name))
            if self._state == _LOADED:
                self._manager.check_pending()
                collect_hooks(self._manager, self._plugin_sources, self.register_factory, only={name})
            else:  # its hooks are collected when discovery runs
                self._explicit.add(name)

    def reset(self) -> None:
        """Forget every registration and discovery result (modules stay imported: not re-executed)."""
        with self._lock:
            for kind in KINDS:
                self.clear(kind)
            self._manager = self._new_manager()
            self._plugin_sources.clear()
            self._explicit.clear()
            self._attribution, self._settings = Attribution(), PluginSettings()
            self._entries = EntryPlugins(self.entry_point_group)
            self._state, self._error = _UNLOADED, None

    def _is_builtin(self, info: PluginInfo) -> bool:
        return info.distribution in self.builtin_distributions

    # plugin folders ---------------------------------------------------------------------------------
    def consult_folders(self, kind: str, identifier: str) -> None:
        """Import the plugin folder that registers ``identifier`` as ``kind`` when no plugin holds it yet or only a
        built-in distribution does (a no-op without folders, during discovery or with autoload disabled).

        Raises DuplicateIdentifierError (two folders register it, or a folder and an installed third-party plugin:
        the folder's edits would be ignored otherwise) or PluginLoadError (the folder fails to import; the message
        says how to install its requirements, if it lists any).
        """
        if self.folders is None or self._state != _LOADED or plugin_autoload_disabled():
            return
        kind = normalize_kind(kind)
        with self._lock:
            match = self.folders.locate(kind, identifier)
            if match is None:
                return
            existing = self._origins[kind].get(identifier)
            if existing is not None and not self._is_builtin(existing):
                raise DuplicateIdentifierError(kind, identifier, existing, match)
            source = _Source(None, None, match.module)
            self._attribution.modules[match.module] = source  # later registrations of its modules belong to it too
            self._attribution.importing.append(source)
            try:
                with guarded() as changes:
                    self.folders.import_folder(match)
            finally:
                self._attribution.importing.pop()
            self._settings.remember(match.module, changes, f"plugin folder {match.path}")

    # discovery --------------------------------------------------------------------------------------
    def _new_manager(self) -> pluggy.PluginManager:
        manager = pluggy.PluginManager(PROJECT_NAME)
        manager.add_hookspecs(hookspecs)
        return manager

    def ensure_loaded(self) -> None:
        """Run plugin discovery once per process (a no-op afterwards); re-raises a discovery error. Discovery reads
        the entry points and the plugin index, and imports no plugin (but those named in ``$BRAINSCORE_PLUGINS``)."""
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

    def _discover(self) -> None:
        requested, disabled = requested_plugins(), plugin_autoload_disabled()
        points = importlib.metadata.entry_points(group=self.entry_point_group) if (not disabled or requested) else []
        if disabled:
            points = [ep for ep in points if ep.name in requested or ep.value in requested]
        loaded_names = {ep.name for ep in points} | {ep.value for ep in points}
        self._entries.read(points)
        for plugin in self._entries:
            self._attribution.modules.setdefault(plugin.module, _Source(plugin.distribution, plugin.version, plugin.module))
        for module_name in requested:
            if module_name not in loaded_names:
                source = _Source(None, None, module_name)
                plugin = EntryPlugin(key=module_name, name=module_name, target=module_name, module=module_name,
                                     distribution=None, version=None, stamp=None, record=None,
                                     load=lambda m=module_name: importlib.import_module(m))
                self._import_entry(plugin, source)
        self._attribution.reattribute(self._origins, self.store)
        self._manager.check_pending()
        collect_hooks(self._manager, self._plugin_sources, self.register_factory, only=self._explicit)
        self._explicit.clear()

    def _import_unindexed(self) -> None:
        self.ensure_loaded()
        with self._lock:
            self._import_entries(self._entries.unindexed())

    def _import_entries(self, plugins: list[EntryPlugin]) -> None:
        """Import ``plugins`` not imported yet (not one being imported: a re-entrant read sees a partial view), then
        save the index; one that failed before raises its error again."""
        try:
            for plugin in plugins:
                if plugin.state == FAILED:
                    raise plugin.error
                if plugin.state not in (LOADED, LOADING):
                    self._import_entry(plugin, self._attribution.modules[plugin.module])
        finally:
            self._entries.save()

    def _import_entry(self, plugin: EntryPlugin, source: _Source) -> None:
        """Import one plugin module, register it with the plugin manager and collect its hooks, under
        :func:`guarded`; record what it registered."""
        plugin.state, plugin.incomplete = LOADING, False
        imported_before = plugin.module in sys.modules  # its assignments were made outside this import
        self._attribution.importing.append(source)
        try:
            with guarded() as changes, self._entries.importing(self, plugin):
                loaded = plugin.import_module(self.entry_point_group)
                if loaded is not None and not self._manager.is_registered(loaded) and not self._manager.has_plugin(
                        plugin.name):
                    self._manager.register(loaded, name=plugin.name)
                    module = loaded.__name__ if isinstance(loaded, ModuleType) else getattr(loaded, "__module__", None)
                    self._plugin_sources[plugin.name] = _Source(source.distribution, source.version,
                                                                module or plugin.target)
                    self._manager.check_pending()
                    collect_hooks(self._manager, self._plugin_sources, self.register_factory, only={plugin.name})
        except BaseException as error:
            plugin.state, plugin.error = (FAILED, error) if isinstance(error, Exception) else (_UNLOADED, None)
            raise
        finally:
            self._attribution.importing.pop()
        plugin.state = LOADED
        self._settings.remember(plugin.module, changes, plugin.describe())
        if imported_before or plugin.incomplete:  # what it registered then, or elsewhere, cannot be told (a helper
            return  # module's assignments are nobody's): nothing is recorded; the next process imports it again
        self._entries.record(plugin, self._attribution.registered_by(
            self._origins, plugin.module, source, self._plugin_sources.get(plugin.name)), self._declared_need)

    def __repr__(self) -> str:
        counts = ", ".join(f"{kind}={len(self._origins[kind])}" for kind in KINDS)
        return f"PluginCatalog({self.entry_point_group!r}; {self._state}; {counts})"
