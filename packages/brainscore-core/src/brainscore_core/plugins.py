"""The registries and loaders a domain package exposes: the top of the plugin layer, which finds and loads.

A domain package (brainscore-vision) creates one :class:`Domain` for its entry-point group and names its registries
and loaders in its own namespace, one by one::

    domain = Domain("brainscore_vision")
    benchmark_registry = domain.benchmark_registry
    def load_benchmark(identifier): return domain.load_benchmark(identifier)

Discovery runs once, lazily, the first time a registry is read: every entry point of the group is
loaded (which imports the plugin module and nothing else), modules are registered with a pluggy plugin
manager, ``check_pending`` is run, and every hook implementation is called once to collect factories.
Factories themselves are called only by ``load_*``.

A domain may also have Brain-Score's plugin folders (:mod:`brainscore_core.plugin_folders`): an identifier no plugin
registered is looked for in the folders' ``__init__.py`` text, and the one folder registering it is imported. A
plugin that claims an identifier of a built-in distribution (``builtin_distributions``, e.g. the model zoo's
``alexnet``) replaces it, with a one-line :class:`~brainscore_core.errors.PluginOverrideNotice` naming both; two
other plugins claiming one identifier stay a :class:`~brainscore_core.errors.DuplicateIdentifierError`.

Three layers, each calling only the one below: :class:`Domain` (here: loaders, listing) ->
:class:`~brainscore_core._registry.Registry` (the dict-like registries, Brain-Score's face) ->
:class:`~brainscore_core._catalog.PluginCatalog` (the factories, their origins and discovery). The domain does not
score: :func:`brainscore_core.scoring.score` and :func:`brainscore_core.grid.score_many` sit above it, take a domain
and load through it (the domain package's own ``score`` calls them with its domain).
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from typing import Any

from brainscore_core._catalog import KINDS, PluginCatalog, PluginInfo, normalize_kind
from brainscore_core._domains import find_domain, record_domain
from brainscore_core._registry import Registry
from brainscore_core.config import AUTOLOAD_ENV, PLUGINS_ENV
from brainscore_core.hookspecs import hookimpl

__all__ = ["AUTOLOAD_ENV", "PLUGINS_ENV", "Domain", "PluginInfo", "Registry", "find_domain", "hookimpl"]

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
    catalog : PluginCatalog
        What the registries hold and where it came from.

    Notes
    -----
    Env ``BRAINSCORE_DISABLE_PLUGIN_AUTOLOAD=1`` skips entry-point discovery: only factories registered
    explicitly (assignment, :meth:`register_plugin`) and plugins named in env ``BRAINSCORE_PLUGINS``
    (comma-separated entry-point names of the group, or module paths) are available.
    """

    def __init__(self, entry_point_group: str, *, folders: Any = None, builtin_distributions: Collection[str] = ()):
        self.catalog = PluginCatalog(entry_point_group, folders=folders, builtin_distributions=builtin_distributions)
        self._registries = {kind: Registry(self.catalog, kind) for kind in KINDS}
        record_domain(entry_point_group, self)

    @property
    def entry_point_group(self) -> str:
        return self.catalog.entry_point_group

    @property
    def folders(self) -> Any:
        return self.catalog.folders

    @property
    def builtin_distributions(self) -> frozenset[str]:
        return self.catalog.builtin_distributions

    def __reduce__(self):  # a Dask task carries the domain by its group; the worker finds its own (find_domain)
        return find_domain, (self.entry_point_group,)

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
        return self.catalog.call("data", identifier)

    def load_stimulus_set(self, identifier: str) -> Any:
        """Call the stimulus-set factory registered as ``identifier`` (returns a StimulusSet)."""
        return self.catalog.call("stimulus_set", identifier)

    def load_metric(self, identifier: str, *args: Any, **kwargs: Any) -> Any:
        """Call the metric factory registered as ``identifier`` with ``*args, **kwargs``."""
        return self.catalog.call("metric", identifier, *args, **kwargs)

    def load_ceiling(self, identifier: str, *args: Any, **kwargs: Any) -> Any:
        """Call the ceiling factory ``identifier`` (looked up among ceilings, then among metrics)."""
        for kind in ("ceiling", "metric"):
            if self.catalog.contains(kind, identifier):
                return self.catalog.call(kind, identifier, *args, **kwargs)
        raise self.catalog.unknown("ceiling", identifier)

    def load_benchmark(self, identifier: str) -> Any:
        """Call the benchmark factory registered as ``identifier`` (returns a Benchmark)."""
        return self.catalog.call("benchmark", identifier)

    def load_model(self, identifier: str) -> Any:
        """Call the model factory registered as ``identifier``."""
        return self.catalog.call("model", identifier)

    def data_need(self, kind: str, identifier: str) -> str | None:
        """What data ``identifier`` of ``kind`` needs, as its plugin declares it (:mod:`brainscore_core.data_needs`:
        ``'shipped'``, ``'network'``, ``'local:<folder>'``, ...); None when it declares nothing or is not registered.
        Answered from the plugin index without importing a plugin it knows."""
        return self.catalog.data_need(kind, identifier)

    def list_plugins(self, kind: str | None = None) -> list[PluginInfo]:
        """Registered plugins of ``kind`` (all kinds when None), sorted by kind and identifier.

        Each :class:`PluginInfo` names the identifier, the providing distribution and its version.
        """
        return self.catalog.list_plugins(kind)

    # registration -----------------------------------------------------------------------------------
    def register_plugin(self, plugin: object, name: str | None = None) -> None:
        """Register a plugin object (module or instance with hookimpls) explicitly.

        Works with autoload disabled. If discovery already ran, the plugin's hooks are collected now.
        """
        self.catalog.register_plugin(plugin, name)

    def register_factory(self, kind: str, identifier: str, factory: Callable[..., Any], module: str | None) -> None:
        """Register ``factory`` of ``kind`` as ``identifier``, attributed to the distribution that ``module`` belongs
        to (what ``registry[identifier] = factory`` does)."""
        self.catalog.register_factory(normalize_kind(kind), identifier, factory, module)

    def ensure_loaded(self) -> None:
        """Run plugin discovery once per process (a no-op afterwards); re-raises a discovery error."""
        self.catalog.ensure_loaded()

    def reset(self) -> None:
        """Forget every registration and discovery result (modules stay imported: not re-executed)."""
        self.catalog.reset()

    def __repr__(self) -> str:
        counts = ", ".join(f"{kind}={len(r.registered_origins())}" for kind, r in self._registries.items())
        return f"Domain({self.entry_point_group!r}; {self.catalog.state}; {counts})"
