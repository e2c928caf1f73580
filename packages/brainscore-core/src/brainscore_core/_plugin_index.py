"""Which identifiers each installed plugin registers, known without importing it: the cached plugin index.

An entry point names a plugin module, not what it registers (a Brain-Score plugin assigns
``model_registry['x'] = ...`` in its ``__init__``; a hook plugin returns a dict computed when called). So the first
time a plugin is imported (the first process that needs it after it was installed or changed), the identifiers it
registered are recorded in ``$BRAINSCORE_HOME/plugin-index/<group>.json``; later processes read them there and import
a plugin only when one of its identifiers is asked for.

A record is used only by the install it describes, and only while its plugin is unchanged: it is keyed by
distribution, version and entry point, then by the plugin module's file (several installs of one version, from
different virtual environments or git worktrees, share one home: each has its own records), and holds a stamp (size
and modification time) of the Python files of the plugin's package folder (for a plugin that is a module of a
package, the files beside it; for a top-level module, its own file). Editing or reinstalling a plugin makes its
record stale, and the plugin is imported again on the next lookup. Nothing is imported to compute a stamp: the
module's file is found through the top-level package's spec and the file system.

The file is a brainio record (JSON with its own digest): a damaged one, or one of an earlier format, is ignored and
rebuilt. A process adds the records it made to the file as it is on disk when it writes, under the file's write lock
(:func:`brainio.files.target_lock`), and replaces it atomically: concurrent processes and other installs keep their
records; a record whose module file no longer exists is dropped then. Nothing is recorded for a plugin whose
registrations this process cannot have seen in full (imported before the catalog asked, or registering into another
catalog of its group: :mod:`brainscore_core._entry_plugins`).
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
_LOCK_SECONDS = 10.0  # how long a writer waits for another to finish writing the index
INDEX_FORMAT = 2  # 2: records keyed by entry point, then by install location


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


def plugin_stamp(module: str, found: Path | None = None) -> str | None:
    """A digest of the size and modification time of the Python files of ``module``'s package folder (recursively),
    of the files beside it when it is a module of a package, or of its own file when it is a top-level module (in
    site-packages, its neighbours are other distributions); None when its file cannot be found. ``found``: its file,
    when the caller has looked it up already (:func:`module_file`)."""
    found = found or module_file(module)
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

    def as_json(self) -> dict:
        return {"stamp": self.stamp, "identifiers": {kind: dict(found) for kind, found in self.identifiers.items()},
                "needs": {kind: dict(found) for kind, found in self.needs.items()}}


def _parse(content: object) -> dict[tuple[str, str], IndexRecord]:
    """The records of an index file's content, by (entry-point key, location); a damaged record, or a file of an
    earlier format (records without their location), is left out (its plugins are imported again)."""
    records: dict[tuple[str, str], IndexRecord] = {}
    if not isinstance(content, dict) or content.get("format") != INDEX_FORMAT or not isinstance(
            content.get("records"), dict):
        return records
    for key, installs in content["records"].items():
        try:
            for location, value in dict(installs).items():
                identifiers, needs = ({str(kind): {str(i): str(m) for i, m in dict(found).items()}
                                       for kind, found in dict(value[field]).items()} for field in ("identifiers", "needs"))
                records[(str(key), str(location))] = IndexRecord(str(value["stamp"]), identifiers, needs)
        except (KeyError, TypeError, ValueError):
            continue
    return records


class PluginIndex:
    """The index file of one entry-point group: (entry-point key, location) -> :class:`IndexRecord`.

    Parameters
    ----------
    group : str
        The entry-point group (the file is ``<home>/plugin-index/<group>.json``).
    """

    def __init__(self, group: str):
        self.group = group
        self.records: dict[tuple[str, str], IndexRecord] = {}
        self._changed: set[tuple[str, str]] = set()

    @property
    def path(self) -> Path:
        from brainscore_core.config import brainscore_home

        return brainscore_home() / "plugin-index" / f"{self.group}.json"

    def _read(self, path: Path) -> dict[tuple[str, str], IndexRecord]:
        from brainio.records import read_record

        try:
            return _parse(read_record(path, "plugin index"))
        except OSError:
            return {}

    def load(self) -> None:
        """Read the file (a missing or damaged one is an empty index)."""
        self.records, self._changed = self._read(self.path), set()

    def valid(self, key: str, location: str | None, stamp: str | None) -> IndexRecord | None:
        """The record of ``key`` installed at ``location`` when its stamp is ``stamp`` (None for a stale or missing
        record, or no location or stamp)."""
        record = self.records.get((key, location)) if location is not None else None
        return record if record is not None and stamp is not None and record.stamp == stamp else None

    def put(self, key: str, location: str | None, stamp: str | None, identifiers: Mapping[str, Mapping[str, str]],
            needs: Mapping[str, Mapping[str, str]]) -> None:
        """Record what the plugin ``key`` installed at ``location`` registered and the data each needs (nothing when
        its files cannot be found or stamped)."""
        if stamp is None or location is None:
            return
        record = IndexRecord(stamp, {kind: dict(found) for kind, found in identifiers.items() if found},
                             {kind: dict(found) for kind, found in needs.items() if found})
        if self.records.get((key, location)) != record:
            self.records[(key, location)] = record
            self._changed.add((key, location))

    def save(self) -> None:
        """Add the records put since the last load or save to the file as it is on disk now, under its write lock
        (other processes, other installs of the same version included, keep theirs; a record whose location no longer
        exists is dropped), written atomically. A home that cannot be written, or a lock held for longer than
        ``_LOCK_SECONDS``, leaves the file as it is (the next process imports those plugins again)."""
        if not self._changed:
            return
        from brainio.files import target_lock
        from brainio.records import write_record

        path = self.path
        try:
            with target_lock(path, timeout=_LOCK_SECONDS):
                merged = {entry: record for entry, record in self._read(path).items() if os.path.exists(entry[1])}
                merged.update({entry: self.records[entry] for entry in self._changed})
                content: dict[str, dict[str, dict]] = {}
                for (key, location), record in sorted(merged.items()):
                    content.setdefault(key, {})[location] = record.as_json()
                write_record(path, {"format": INDEX_FORMAT, "records": content})
            self._changed = set()
        except OSError as error:  # filelock's Timeout is a TimeoutError
            _logger.debug("plugin index %s not written: %s", path, error)
