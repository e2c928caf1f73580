"""Plugin discovery and the registries/loaders a domain package exposes.

A domain package (brainscore-vision) creates one :class:`Domain` for its entry-point group and re-exports
its registries and loaders::

    _domain = Domain("brainscore_vision")
    globals().update(_domain.exports())   # data_registry, ..., load_benchmark, score, list_plugins

Discovery runs once, lazily, the first time a registry is read: every entry point of the group is
loaded (which imports the plugin module and nothing else), modules are registered with a pluggy plugin
manager, ``check_pending`` is run, and every hook implementation is called once to collect factories.
Factories themselves are called only by ``load_*``.

A domain may also have Brain-Score's plugin folders (:mod:`brainscore_core.plugin_folders`): an identifier no plugin
registered is looked for in the folders' ``__init__.py`` text, and the one folder registering it is imported. A
plugin that claims an identifier of a built-in distribution (``builtin_distributions``, e.g. the model zoo's
``alexnet``) replaces it, with a one-line :class:`~brainscore_core.errors.PluginOverrideNotice` naming both; two
other plugins claiming one identifier stay a :class:`~brainscore_core.errors.DuplicateIdentifierError`.
"""

from __future__ import annotations

import importlib
import importlib.metadata
import threading
import warnings
from collections.abc import Callable, Collection, Mapping
from types import ModuleType
from typing import Any

import pluggy

from brainscore_core import hookspecs
from brainscore_core._registry import KINDS, PluginInfo, Registry, normalize_kind
from brainscore_core.config import AUTOLOAD_ENV, PLUGINS_ENV, plugin_autoload_disabled, requested_plugins
from brainscore_core.errors import (
    DuplicateIdentifierError,
    InvalidPluginError,
    PluginLoadError,
    PluginOverrideNotice,
)
from brainscore_core.hookspecs import HOOK_KINDS, PROJECT_NAME, hookimpl

__all__ = ["AUTOLOAD_ENV", "PLUGINS_ENV", "Domain", "PluginInfo", "Registry", "hookimpl"]

_UNLOADED, _LOADING, _LOADED = "unloaded", "loading", "loaded"


class _Source:
    __slots__ = ("distribution", "module", "version")

    def __init__(self, distribution: str | None, version: str | None, module: str | None):
        self.distribution, self.version, self.module = distribution, version, module


class Domain:
    """Registries and loaders for one entry-point group, e.g. ``Domain('brainscore_vision')``.

    Parameters
    ----------
    entry_point_group : str
        Entry-point group whose entry points name plugin modules (``[project.entry-points.<group>]``).
    folders : PluginFolders, default=None
        Brain-Score's plugin folders of the domain package, looked in for identifiers nobody registered (and for
        identifiers a built-in distribution registered, which a folder plugin replaces).
    builtin_distributions : collection of str, default=()
        Distributions whose registrations any other plugin may replace (with a notice) instead of colliding.

    Attributes
    ----------
    data_registry, stimulus_set_registry, metric_registry, ceiling_registry, benchmark_registry, \
model_registry : Registry
        Dict-like ``identifier -> factory``. Reading triggers discovery; assigning registers.

    Notes
    -----
    Env ``BRAINSCORE_DISABLE_PLUGIN_AUTOLOAD=1`` skips entry-point discovery: only factories registered
    explicitly (assignment, :meth:`register_plugin`) and plugins named in env ``BRAINSCORE_PLUGINS``
    (comma-separated entry-point names of the group, or module paths) are available.
    """

    def __init__(self, entry_point_group: str, *, folders: Any = None, builtin_distributions: Collection[str] = ()):
        self.entry_point_group = entry_point_group
        self.folders = folders
        self.builtin_distributions = frozenset(builtin_distributions)
        self._lock = threading.RLock()
        self._state = _UNLOADED
        self._error: BaseException | None = None
        self._registries = {kind: Registry(self, kind) for kind in KINDS}
        self._manager = self._new_manager()
        self._plugin_sources: dict[str, _Source] = {}
        self._module_sources: dict[str, _Source] = {}
        self._importing: list[_Source] = []

    # registries -------------------------------------------------------------------------------------
    @property
    def data_registry(self) -> Registry:
        return self._registries["data"]

    @property
    def stimulus_set_registry(self) -> Registry:
        return self._registries["stimulus_set"]

    @property
    def metric_registry(self) -> Registry:
        return self._registries["metric"]

    @property
    def ceiling_registry(self) -> Registry:
        return self._registries["ceiling"]

    @property
    def benchmark_registry(self) -> Registry:
        return self._registries["benchmark"]

    @property
    def model_registry(self) -> Registry:
        return self._registries["model"]

    def registries(self) -> dict[str, Registry]:
        """Every registry of this domain, keyed by kind (``'data'``, ``'stimulus_set'``, ``'metric'``, ...)."""
        return dict(self._registries)

    def registry(self, kind: str) -> Registry:
        """The registry of ``kind`` (``'benchmark'``, ``'benchmarks'``, ``'data'``, ...)."""
        return self._registries[normalize_kind(kind)]

    # loaders ----------------------------------------------------------------------------------------
    def load_dataset(self, identifier: str) -> Any:
        """Call the data factory registered as ``identifier`` (returns a DataAssembly)."""
        return self.data_registry[identifier]()

    def load_stimulus_set(self, identifier: str) -> Any:
        """Call the stimulus-set factory registered as ``identifier`` (returns a StimulusSet)."""
        return self.stimulus_set_registry[identifier]()

    def load_metric(self, identifier: str, *args: Any, **kwargs: Any) -> Any:
        """Call the metric factory registered as ``identifier`` with ``*args, **kwargs``."""
        return self.metric_registry[identifier](*args, **kwargs)

    def load_ceiling(self, identifier: str, *args: Any, **kwargs: Any) -> Any:
        """Call the ceiling factory ``identifier`` (looked up among ceilings, then among metrics)."""
        self.ensure_loaded()
        self.consult_folders("ceiling", identifier)
        if self.ceiling_registry.is_registered(identifier):
            return self.ceiling_registry[identifier](*args, **kwargs)
        if self.metric_registry.is_registered(identifier):
            return self.metric_registry[identifier](*args, **kwargs)
        raise self.ceiling_registry.unknown(identifier)

    def load_benchmark(self, identifier: str) -> Any:
        """Call the benchmark factory registered as ``identifier`` (returns a Benchmark)."""
        return self.benchmark_registry[identifier]()

    def load_model(self, identifier: str) -> Any:
        """Call the model factory registered as ``identifier``."""
        return self.model_registry[identifier]()

    def score(self, model_identifier: str, benchmark_identifier: str, conda_active: bool = False, *,
              store: Any = True) -> Any:
        """Score model ``model_identifier`` on benchmark ``benchmark_identifier`` and store the result.

        Sets ``attrs['model_identifier']``, ``attrs['benchmark_identifier']`` and, when the model exposes
        a layer map (attribute ``layer_map`` or ``region_layer_map``), ``attrs['comment'] =
        "layers: {region: layer}"``. The row goes to the results store (``store=True``: $BRAINSCORE_RESULTS_URL
        or $BRAINSCORE_HOME/results.sqlite; a URL or ResultStore; ``False`` stores nothing), so it reaches
        ``brainscore report``; see :func:`brainscore_core.scoring.score_pair`. ``conda_active`` is accepted
        for compatibility and ignored.
        """
        from brainscore_core.scoring import score_pair

        model = self.load_model(model_identifier)
        benchmark = self.load_benchmark(benchmark_identifier)
        return score_pair(model, benchmark, model_identifier=model_identifier,
                          benchmark_identifier=benchmark_identifier, store=store)

    def score_many(self, models: Any, benchmarks: Any, client: Any = None, **kwargs: Any) -> Any:
        """Every model on every benchmark, in process or on a Dask ``client``; a DataFrame of one row per pair
        (see :func:`brainscore_core.grid.score_many`, whose keyword arguments this passes on). Workers resolve
        identifiers by importing the module named like the entry-point group (e.g. ``brainscore_vision``)."""
        from brainscore_core.grid import score_many

        return score_many(models, benchmarks, client, domain=self.entry_point_group, **kwargs)

    def list_plugins(self, kind: str | None = None) -> list[PluginInfo]:
        """Registered plugins of ``kind`` (all kinds when None), sorted by kind and identifier.

        Each :class:`PluginInfo` names the identifier, the providing distribution and its version.
        """
        self.ensure_loaded()
        kinds = KINDS if kind is None else (normalize_kind(kind),)
        return [info for k in kinds
                for info in sorted(self._registries[k].registered_origins(), key=lambda info: info.identifier)]

    def exports(self) -> dict[str, Any]:
        """Names a domain package re-exports: the six registries, ``load_*``, ``score``, ``list_plugins``."""
        names = [f"{kind}_registry" for kind in KINDS] + [
            "load_dataset", "load_stimulus_set", "load_metric", "load_ceiling", "load_benchmark",
            "load_model", "score", "score_many", "list_plugins"]
        return {name: getattr(self, name) for name in names}

    # registration -----------------------------------------------------------------------------------
    def register_plugin(self, plugin: object, name: str | None = None) -> None:
        """Register a plugin object (module or instance with hookimpls) explicitly.

        Works with autoload disabled. If discovery already ran, the plugin's hooks are collected now.
        """
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
            for registry in self._registries.values():
                registry.clear()
            self._manager = self._new_manager()
            self._plugin_sources.clear()
            self._module_sources.clear()
            self._state, self._error = _UNLOADED, None

    def register_factory(self, kind: str, identifier: str, factory: Callable[..., Any], module: str | None,
                         source: _Source | None = None) -> None:
        """Register ``factory`` of ``kind`` as ``identifier``, attributed to ``source`` or to the distribution
        that ``module`` belongs to (what ``registry[identifier] = factory`` does)."""
        if not isinstance(identifier, str) or not identifier:
            raise InvalidPluginError(f"{kind} identifier must be a non-empty string, got {identifier!r} "
                                     f"(from module {module!r})")
        if not callable(factory):
            raise InvalidPluginError(f"{kind} {identifier!r} from module {module!r}: factory must be callable, "
                                     f"got {type(factory).__name__}")
        with self._lock:
            source = source or self._attribute(module)
            info = PluginInfo(kind, identifier, source.distribution, source.version, module or source.module)
            registry = self._registries[kind]
            existing = registry.registered_origin(identifier)
            if existing is not None and not existing.same_origin(info):
                builtin_existing, builtin_new = self._is_builtin(existing), self._is_builtin(info)
                if builtin_existing == builtin_new:
                    raise DuplicateIdentifierError(kind, identifier, existing, info)
                kept, replaced = (info, existing) if builtin_existing else (existing, info)
                warnings.warn(f"{kind} {identifier!r} of {kept.describe()} replaces the built-in one of "
                              f"{replaced.describe()}", PluginOverrideNotice, stacklevel=3)
                if not builtin_existing:  # a built-in registered after the installed plugin: keep the plugin
                    return
            registry.store(info, factory)

    def _is_builtin(self, info: PluginInfo) -> bool:
        return info.distribution in self.builtin_distributions

    def consult_folders(self, kind: str, identifier: str) -> None:
        """Import the plugin folder that registers ``identifier`` as ``kind`` when no plugin holds it yet or only a
        built-in distribution does (a no-op without folders, during discovery, with autoload disabled, or for a
        third-party registration).

        Raises
        ------
        DuplicateIdentifierError
            Two plugin folders register ``identifier``.
        PluginLoadError
            The folder fails to import (the message says how to install its requirements, if it lists any).
        """
        if self.folders is None or self._state != _LOADED or plugin_autoload_disabled():
            return
        registry = self._registries[normalize_kind(kind)]
        existing = registry.registered_origin(identifier)
        if existing is not None and not self._is_builtin(existing):
            return
        with self._lock:
            match = self.folders.locate(normalize_kind(kind), identifier)
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
        requested = requested_plugins()
        points = self._entry_points() if (not plugin_autoload_disabled() or requested) else []
        if plugin_autoload_disabled():
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
        for registry in self._registries.values():
            for info in registry.registered_origins():
                if info.distribution is None and info.module:
                    source = self._attribute(info.module)
                    if source.distribution is not None:
                        registry.store(PluginInfo(info.kind, info.identifier, source.distribution, source.version,
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
        counts = ", ".join(f"{kind}={len(r.registered_origins())}" for kind, r in self._registries.items())
        return f"Domain({self.entry_point_group!r}; {self._state}; {counts})"
