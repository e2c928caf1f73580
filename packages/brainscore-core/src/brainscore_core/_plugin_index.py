"""Which identifiers each installed plugin registers, known without importing it: the cached plugin index.

An entry point names a plugin module, not what it registers (a Brain-Score plugin assigns
``model_registry['x'] = ...`` in its ``__init__``; a hook plugin returns a dict computed when called). So the first
time a plugin is imported (the first process that needs it after it was installed or changed), the identifiers it
registered are recorded in ``$BRAINSCORE_HOME/plugin-index/<group>.json``; later processes read them there and import
a plugin only when one of its identifiers is asked for.

A record is used only while its plugin is unchanged: it is keyed by distribution, version and entry point, and holds
a stamp (size and modification time) of the Python files of the plugin's package folder (for a plugin that is a
module of a package, the files beside it; for a top-level module, its own file). Editing or reinstalling a plugin makes its record stale, and the plugin is imported
again on the next lookup. The file is a brainio record (JSON with its own digest): a damaged one is ignored and
rebuilt. Nothing is imported to compute a stamp: the module's file is found through the top-level package's spec and
the file system.
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib.util
import logging
import os
import sys
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

__all__ = ["IndexRecord", "PluginIndex", "module_file", "plugin_stamp"]

_logger = logging.getLogger(__name__)
_MAX_STAMPED_FILES = 5000  # a plugin folder larger than this is stamped by its module file alone


def module_file(module: str) -> Path | None:
    """The source file of ``module`` (``pkg/sub/__init__.py`` or ``pkg/sub.py``), found without importing anything:
    the top-level package's spec, then the folders below it; None when it cannot be found that way."""
    top, *rest = module.split(".")
    try:
        spec = importlib.util.find_spec(top) if top not in sys.modules else None
    except (ImportError, ValueError):
        return None
    if spec is None:
        loaded = sys.modules.get(top)
        locations = list(getattr(loaded, "__path__", []) or [])
        origin = getattr(loaded, "__file__", None)
    else:
        locations = list(spec.submodule_search_locations or [])
        origin = spec.origin
    if not rest:
        return Path(origin) if origin and origin.endswith(".py") else None
    for part in rest[:-1]:
        locations = [os.path.join(location, part) for location in locations
                     if os.path.isdir(os.path.join(location, part))]
    for location in locations:
        for candidate in (os.path.join(location, rest[-1], "__init__.py"), os.path.join(location, rest[-1] + ".py")):
            if os.path.isfile(candidate):
                return Path(candidate)
    return None


def _python_files(folder: Path, recursive: bool) -> Iterable[Path]:
    if not recursive:
        yield from (path for path in folder.glob("*.py") if path.is_file())
        return
    for root, folders, files in os.walk(folder):
        folders[:] = [name for name in folders if not name.startswith((".", "__pycache__"))]
        yield from (Path(root) / name for name in files if name.endswith(".py"))


def plugin_stamp(module: str) -> str | None:
    """A digest of the size and modification time of the Python files of ``module``'s package folder (recursively),
    of the files beside it when it is a module of a package, or of its own file when it is a top-level module (in
    site-packages, its neighbours are other distributions); None when its file cannot be found."""
    found = module_file(module)
    if found is None:
        return None
    package = found.name == "__init__.py"
    files = sorted(_python_files(found.parent, recursive=package)) if package or "." in module else [found]
    if len(files) > _MAX_STAMPED_FILES:
        files = [found]
    digest = hashlib.sha1(module.encode())
    for path in files:
        with contextlib.suppress(OSError):
            status = path.stat()
            digest.update(f"|{path.relative_to(found.parent)}|{status.st_size}|{status.st_mtime_ns}".encode())
    return digest.hexdigest()


@dataclass(frozen=True)
class IndexRecord:
    """What one plugin registered, as recorded when it was imported.

    Attributes
    ----------
    stamp : str
        :func:`plugin_stamp` of its module at that time.
    identifiers : mapping of kind -> mapping of identifier -> module
        Each registered identifier and the module that registered it.
    needs : mapping of kind -> mapping of identifier -> need
        The data each declared it needs (:mod:`brainscore_core.data_needs`; those without a declaration are left out).
    """

    stamp: str
    identifiers: Mapping[str, Mapping[str, str]]
    needs: Mapping[str, Mapping[str, str]]


class PluginIndex:
    """The index file of one entry-point group: entry-point key -> :class:`IndexRecord`.

    Parameters
    ----------
    group : str
        The entry-point group (the file is ``<home>/plugin-index/<group>.json``).
    """

    def __init__(self, group: str):
        self.group = group
        self.records: dict[str, IndexRecord] = {}
        self._dirty = False

    @property
    def path(self) -> Path:
        from brainscore_core.config import brainscore_home

        return brainscore_home() / "plugin-index" / f"{self.group}.json"

    def load(self) -> None:
        """Read the file (a missing or damaged one is an empty index)."""
        from brainio.records import read_record

        self.records, self._dirty = {}, False
        try:
            content = read_record(self.path, "plugin index")
        except OSError:
            content = None
        if not isinstance(content, dict):
            return
        for key, value in content.items():
            try:
                identifiers, needs = ({str(kind): {str(i): str(m) for i, m in dict(found).items()}
                                       for kind, found in dict(value[field]).items()} for field in ("identifiers", "needs"))
                self.records[str(key)] = IndexRecord(str(value["stamp"]), identifiers, needs)
            except (KeyError, TypeError, ValueError):  # damaged, or written before needs were recorded: imported again
                continue

    def valid(self, key: str, stamp: str | None) -> IndexRecord | None:
        """The record of ``key`` when its stamp is ``stamp`` (None for a stale or missing record, or no stamp)."""
        record = self.records.get(key)
        return record if record is not None and stamp is not None and record.stamp == stamp else None

    def put(self, key: str, stamp: str | None, identifiers: Mapping[str, Mapping[str, str]],
            needs: Mapping[str, Mapping[str, str]]) -> None:
        """Record what the plugin ``key`` registered and the data each needs (nothing when its files cannot be
        stamped)."""
        if stamp is None:
            return
        record = IndexRecord(stamp, {kind: dict(found) for kind, found in identifiers.items() if found},
                             {kind: dict(found) for kind, found in needs.items() if found})
        if self.records.get(key) != record:
            self.records[key] = record
            self._dirty = True

    def save(self, keep: Iterable[str]) -> None:
        """Write the records of the entry points ``keep`` (those installed now) when something changed; a home that
        cannot be written is left as it is (the next process imports the plugins again)."""
        keep = set(keep)
        if not self._dirty and set(self.records) <= keep:
            return
        from brainio.records import write_record

        content = {key: {"stamp": record.stamp, "identifiers": {k: dict(v) for k, v in record.identifiers.items()},
                         "needs": {k: dict(v) for k, v in record.needs.items()}}
                   for key, record in sorted(self.records.items()) if key in keep}
        try:
            write_record(self.path, content)
            self._dirty = False
        except OSError as error:
            _logger.debug("plugin index %s not written: %s", self.path, error)
