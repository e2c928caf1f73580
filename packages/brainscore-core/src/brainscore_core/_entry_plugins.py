"""The plugin modules an entry-point group names, each imported only when needed, and what each registers.

:class:`EntryPlugins` holds one :class:`EntryPlugin` per entry point (read from the installed distributions' metadata:
nothing is imported) with its record in the cached plugin index (:mod:`brainscore_core._plugin_index`), and says which
of them must be imported to answer for an identifier: those whose record lists it, and those without a valid record
(nobody can tell what they register without importing them). The catalog (:mod:`brainscore_core._catalog`) imports
them and hands back what each registered, which is recorded for the next process.

What a catalog records for a plugin must be all the plugin registers in the group. The plugin's assignments go to the
registries its module imports (a domain package's own), which need not be those of the catalog importing it (a second
``Domain`` of the same group): :func:`importing` and :func:`note_registration` tell, per thread, when a registration
made while one catalog imports a plugin reaches another catalog of the group, and then nothing is recorded for it.
"""

from __future__ import annotations

import contextlib
import importlib.metadata
import threading
from collections.abc import Callable, Iterable, Iterator, Mapping

import pluggy

from brainscore_core._distributions import identity
from brainscore_core._plugin_index import IndexRecord, PluginIndex, module_file, plugin_stamp
from brainscore_core._plugin_info import PluginInfo
from brainscore_core.config import AUTOLOAD_ENV
from brainscore_core.errors import DuplicateIdentifierError, InvalidPluginError, PluginLoadError
from brainscore_core.hookspecs import HOOK_KINDS

__all__ = ["FAILED", "LOADED", "LOADING", "UNLOADED", "Attribution", "EntryPlugin", "EntryPlugins", "Source",
           "collect_hooks", "importing", "note_registration"]

UNLOADED, LOADING, LOADED, FAILED = "unloaded", "loading", "loaded", "failed"
_IMPORTS = threading.local()  # .stack: (catalog, group, EntryPlugin) of the imports under way in this thread


@contextlib.contextmanager
def importing(catalog: object, group: str, plugin: EntryPlugin) -> Iterator[None]:
    """While ``catalog`` imports ``plugin`` of ``group`` in this thread (see :func:`note_registration`)."""
    stack = _IMPORTS.__dict__.setdefault("stack", [])
    stack.append((catalog, group, plugin))
    try:
        yield
    finally:
        stack.pop()


def note_registration(catalog: object, group: str) -> None:
    """A registration reached ``catalog`` of ``group``: when another catalog of the same group is importing a plugin
    in this thread (innermost import), that plugin registers where its importer does not see it, and is marked
    :attr:`EntryPlugin.incomplete` (its importer records nothing for it)."""
    stack = getattr(_IMPORTS, "stack", None)
    if stack:
        importer, importer_group, plugin = stack[-1]
        if importer is not catalog and importer_group == group:
            plugin.incomplete = True


class Source:
    """Where registrations come from: a distribution (None for a folder or an explicit registration), its version,
    and the module."""

    __slots__ = ("distribution", "module", "version")

    def __init__(self, distribution: str | None, version: str | None, module: str | None):
        self.distribution, self.version, self.module = distribution, version, module


class Attribution:
    """Which :class:`Source` an assignment (``registry[identifier] = factory``) made by a module belongs to: the
    plugin whose module is the longest prefix of it, else the plugin being imported now, else the module itself.

    Attributes
    ----------
    modules : dict of str -> Source
        Plugin modules (entry-point modules, imported plugin folders) and their sources.
    importing : list of Source
        The plugins being imported, innermost last.
    claims : dict of (kind, identifier) -> Source
        The source each registration was attributed to when it was made (a helper module assigning while a plugin
        is imported belongs to that plugin, which its module name alone does not tell afterwards).
    """

    def __init__(self):
        self.modules: dict[str, Source] = {}
        self.importing: list[Source] = []
        self.claims: dict[tuple[str, str], Source] = {}

    def claim(self, kind: str, identifier: str, source: Source) -> None:
        self.claims[(kind, identifier)] = source

    def claimed_by(self, kind: str, identifier: str) -> Source | None:
        return self.claims.get((kind, identifier))

    def registered_by(self, origins: Mapping[str, Mapping[str, PluginInfo]], module: str, *sources: Source | None
                      ) -> dict[str, dict[str, str]]:
        """kind -> {identifier: module} of every entry of ``origins`` attributed to one of ``sources`` when it was
        registered, or assigned by ``module`` or a module below it (and attributed to nobody)."""
        def belongs(kind: str, info: PluginInfo) -> bool:
            claimed = self.claimed_by(kind, info.identifier)
            if claimed is not None and any(claimed is s for s in sources if s):
                return True
            own = info.module or ""
            return claimed is None and (own == module or own.startswith(module + "."))

        return {kind: {info.identifier: info.module or "" for info in found.values() if belongs(kind, info)}
                for kind, found in origins.items()}

    def reattribute(self, origins: Mapping[str, Mapping[str, PluginInfo]], store: Callable[[PluginInfo], None]) -> None:
        """Entries assigned before discovery by a module that turns out to be a plugin module: ``store`` their new
        origin."""
        for kind, found in origins.items():
            for info in list(found.values()):
                if info.distribution is None and info.module:
                    source = self.of(info.module)
                    if source.distribution is not None:
                        store(PluginInfo(kind, info.identifier, source.distribution, source.version, info.module))
                        self.claim(kind, info.identifier, source)

    def of(self, module: str | None) -> Source:
        """The source of an assignment made by ``module``."""
        if module:
            prefixes = [prefix for prefix in self.modules if module == prefix or module.startswith(prefix + ".")]
            if prefixes:
                return self.modules[max(prefixes, key=len)]
        if self.importing:
            return self.importing[-1]
        return Source(None, None, module)


class EntryPlugin:
    """One plugin module of the group.

    Attributes
    ----------
    key : str
        ``'<distribution>==<version>:<entry-point name>=<target>'``: its index key.
    name : str
        The plugin's name in the pluggy manager (``'<distribution>:<entry-point name>'``).
    target : str
        The entry point's value (``'package.module'`` or ``'package.module:object'``).
    module : str
        The module it imports.
    distribution, version : str or None
    load : callable
        Imports the module and returns the plugin object.
    location : str or None
        Where it is installed: its module's file (:func:`~brainscore_core._plugin_index.module_file`); None when it
        cannot be found without importing.
    stamp : str or None
        :func:`~brainscore_core._plugin_index.plugin_stamp` of its files now.
    record : IndexRecord or None
        What it registered when it was last imported, if its files have not changed since.
    state : str
        ``'unloaded'``, ``'loading'``, ``'loaded'`` or ``'failed'`` (then ``error`` holds why: raised again when it
        is needed again).
    incomplete : bool
        Whether some of what it registered went to another catalog of the group while it was imported
        (:func:`note_registration`).
    """

    __slots__ = ("distribution", "error", "incomplete", "key", "load", "location", "module", "name", "record", "stamp",
                 "state", "target", "version")

    def __init__(self, *, key: str, name: str, target: str, module: str, distribution: str | None,
                 version: str | None, load: Callable[[], object], stamp: str | None, record: IndexRecord | None,
                 location: str | None = None):
        self.key, self.name, self.target, self.module, self.load = key, name, target, module, load
        self.distribution, self.version, self.stamp, self.record = distribution, version, stamp, record
        self.location, self.incomplete = location, False
        self.state = UNLOADED
        self.error: BaseException | None = None

    def needed_for(self, kind: str, identifier: str) -> bool:
        """Whether it must be imported to answer for ``identifier``: not imported yet, and registering it by its
        record, or without a record."""
        return self.state != LOADED and (self.record is None or identifier in self.record.identifiers.get(kind, {}))

    def describe(self) -> str:
        return f"plugin {self.target!r} of distribution {self.distribution!r}"

    def import_module(self, group: str) -> object:
        """Import the module (what :attr:`load` returns); a failure is a PluginLoadError naming the plugin, but for
        the plugin layer's own errors (a duplicate or invalid registration), raised as they are."""
        try:
            return self.load()
        except (DuplicateIdentifierError, InvalidPluginError):
            raise
        except Exception as error:
            raise PluginLoadError(
                f"loading plugin {self.target!r} of distribution {self.distribution!r} (entry-point group {group!r}) "
                f"failed: {type(error).__name__}: {error}; set {AUTOLOAD_ENV}=1 to run without third-party plugins"
            ) from error


class EntryPlugins:
    """The entry points of one group, found in the installed distributions' metadata, and the group's index.

    Parameters
    ----------
    group : str
        The entry-point group.
    """

    def __init__(self, group: str):
        self.group = group
        self.plugins: list[EntryPlugin] = []
        self.index = PluginIndex(group)

    def read(self, points: Iterable[importlib.metadata.EntryPoint]) -> None:
        """One :class:`EntryPlugin` per entry point, sorted by distribution and name, matched with the index."""
        self.index.load()
        self.plugins = []
        for point, (distribution, version) in sorted(((point, identity(point.dist)) for point in points),
                                                     key=lambda item: (item[1][0] or "", item[0].name)):
            key = f"{distribution}=={version}:{point.name}={point.value}"
            found = module_file(point.module)
            location = str(found.absolute()) if found is not None else None
            stamp = plugin_stamp(point.module, found)
            self.plugins.append(EntryPlugin(key=key, name=f"{distribution}:{point.name}", target=point.value,
                                            module=point.module, distribution=distribution, version=version,
                                            load=point.load, stamp=stamp, location=location,
                                            record=self.index.valid(key, location, stamp)))

    def needed_for(self, kind: str, identifier: str) -> list[EntryPlugin]:
        """The plugins to import before ``identifier`` of ``kind`` can be answered for (see
        :meth:`EntryPlugin.needed_for`), in entry-point order."""
        return [plugin for plugin in self.plugins if plugin.needed_for(kind, identifier)]

    def unindexed(self) -> list[EntryPlugin]:
        """Plugins not imported yet whose registrations nobody knows (no valid record)."""
        return [plugin for plugin in self.plugins if plugin.state != LOADED and plugin.record is None]

    def indexed_only(self, kind: str) -> list[PluginInfo]:
        """What plugins not imported yet register as ``kind``, by their records, as :class:`PluginInfo`."""
        return [PluginInfo(kind, identifier, plugin.distribution, plugin.version, module)
                for plugin in self.plugins if plugin.state != LOADED and plugin.record is not None
                for identifier, module in plugin.record.identifiers.get(kind, {}).items()]

    def indexed_need(self, kind: str, identifier: str) -> tuple[bool, str | None]:
        """``(listed, need)``: whether a plugin not imported yet registers ``identifier`` of ``kind`` by its record,
        and the data need recorded for it (None: not declared)."""
        for plugin in self.plugins:
            if plugin.state != LOADED and plugin.record is not None and identifier in plugin.record.identifiers.get(
                    kind, {}):
                return True, plugin.record.needs.get(kind, {}).get(identifier)
        return False, None

    def record(self, plugin: EntryPlugin, identifiers: Mapping[str, Mapping[str, str]],
               need_of: Callable[[str, str], str | None]) -> None:
        """Remember what ``plugin`` registered and the data each needs, ``need_of(kind, identifier)`` (for this process
        and, through the index file, the next)."""
        needs = {kind: {identifier: need for identifier in found if (need := need_of(kind, identifier)) is not None}
                 for kind, found in identifiers.items()}
        self.index.put(plugin.key, plugin.location, plugin.stamp, identifiers, needs)
        if plugin.stamp is not None:
            plugin.record = self.index.valid(plugin.key, plugin.location, plugin.stamp)

    def importing(self, catalog: object, plugin: EntryPlugin) -> contextlib.AbstractContextManager[None]:
        """While ``catalog`` imports ``plugin`` (:func:`importing`)."""
        return importing(catalog, self.group, plugin)

    def note_registration(self, catalog: object) -> None:
        """A registration reached ``catalog`` (:func:`note_registration`)."""
        note_registration(catalog, self.group)

    def save(self) -> None:
        """Add what was recorded since the last save to the index file."""
        self.index.save()

    def __iter__(self) -> Iterator[EntryPlugin]:
        return iter(self.plugins)

    def __repr__(self) -> str:
        states: dict[str, int] = {}
        for plugin in self.plugins:
            states[plugin.state] = states.get(plugin.state, 0) + 1
        return f"EntryPlugins({self.group!r}; {states})"


def collect_hooks(manager: pluggy.PluginManager, sources: Mapping[str, Source],
                  register: Callable[..., None], only: set[str] | None = None) -> None:
    """Call every hook implementation of the plugins ``only`` (all when None) and ``register(kind, identifier,
    factory, module=..., source=...)`` each factory it returns, attributed to its plugin's source.

    Raises InvalidPluginError for a hook that returns something other than a mapping of identifier -> factory."""
    for kind, hook_name in HOOK_KINDS.items():
        for impl in getattr(manager.hook, hook_name).get_hookimpls():
            if only is not None and impl.plugin_name not in only:
                continue
            factories = impl.function()
            if not isinstance(factories, Mapping):
                raise InvalidPluginError(f"hook {hook_name} of plugin {impl.plugin_name!r} must return a mapping of "
                                         f"identifier -> factory, got {type(factories).__name__}")
            source = sources.get(impl.plugin_name) or Source(None, None, impl.plugin_name)
            for identifier, factory in factories.items():
                register(kind, identifier, factory, module=source.module, source=source)
