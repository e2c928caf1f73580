"""Brain-Score's plugin folders: ``<package>/models/<folder>/__init__.py`` (and ``benchmarks/``, ``data/``,
``metrics/``) assigning into a registry, found by identifier on demand.

A Brain-Score user adds a model by dropping a folder whose ``__init__.py`` says ``model_registry['my-model'] = ...``
into ``brainscore_vision/models/``. :class:`PluginFolders` finds such a folder when a registry is asked for an
identifier it does not hold, the way Brain-Score does: by reading the text of each folder's ``__init__.py`` (never
importing the others), then importing the one folder that registers the identifier, as
``<package>.<kind folder>.<folder>``.

Where folders are looked for: every entry of the kind package's ``__path__`` (``brainscore_vision.models.__path__``),
which holds the package's own folder, a ``brainscore_vision/models`` folder into which an installed distribution put
files (a pip-installed plugin package, ``brainscore_vision/models/<folder>``: its ``RECORD`` lists them), and
``<user folder>/models`` for each user folder of :func:`brainscore_core.config.plugin_folders`
(``$BRAINSCORE_PLUGIN_FOLDERS``, option ``plugin_folders``), so nobody needs to write into site-packages. No other
``sys.path`` entry and never the working directory: a stray folder there is not imported (issue 41). Because the
user folders join the package path, a plugin's relative imports
(``from .model import get_model``) and absolute ones (``from brainscore_vision.models.my_model.model import ...``)
both work.

A folder's ``requirements.txt`` is never installed: when something it lists is not installed, one line on stderr
gives the pip command (with a constraints file that keeps torch where it is); ``BS_INSTALL_DEPENDENCIES=no`` (Brain-
Score's switch) silences it.
"""

from __future__ import annotations

import importlib
import importlib.metadata
import os
import re
import sys
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from brainscore_core.config import install_advice_enabled, pip_constraint
from brainscore_core.errors import DuplicateIdentifierError, PluginLoadError

__all__ = ["BRAINSCORE_LAYOUT", "FolderMatch", "PluginFolders", "extend_package_path",
           "requirements_command"]

#: a folder listing taken this soon after the folder's modification time is listed again next time
_RACY_NS = 2_000_000_000

BRAINSCORE_LAYOUT: Mapping[str, tuple[str, tuple[str, ...]]] = {
    "model": ("models", ("model_registry",)),
    "benchmark": ("benchmarks", ("benchmark_registry",)),
    "data": ("data", ("data_registry",)),
    "stimulus_set": ("data", ("stimulus_set_registry",)),
    "metric": ("metrics", ("metric_registry",)),
    "ceiling": ("metrics", ("ceiling_registry", "metric_registry")),  # Brain-Score registers ceilings as metrics
}
"""Registry kind -> (folder of its plugins, registry names whose assignments register it): Brain-Score's layout."""

# an assignment ``<name>_registry['<identifier>'] = ...`` on a line that is not a comment
_ASSIGNMENT = re.compile(r"^[^#\n]*?\b(\w+_registry)\s*\[\s*(['\"])(.+?)\2\s*\]\s*=(?!=)", re.MULTILINE)


@dataclass(frozen=True)
class _Origin:
    """A plugin origin that is not a distribution, as :class:`~brainscore_core.errors.DuplicateIdentifierError`
    names it."""

    text: str

    def describe(self) -> str:
        return self.text


@dataclass(frozen=True)
class FolderMatch:
    """A plugin folder whose ``__init__.py`` registers ``identifier``.

    Attributes
    ----------
    kind : str
    identifier : str
    module : str
        The module it is imported as, e.g. ``'brainscore_vision.models.my_model'``.
    path : pathlib.Path
        The folder.
    """

    kind: str
    identifier: str
    module: str
    path: Path

    def describe(self) -> str:
        """How :class:`~brainscore_core.errors.DuplicateIdentifierError` names it."""
        return f"plugin folder {self.path} (module {self.module!r})"


def _installed_here(entry: str, relative: str) -> bool:
    """Whether a distribution installed in the ``sys.path`` entry ``entry`` put files under ``relative`` (its
    ``*.dist-info/RECORD`` lists one): pip installs a Brain-Score plugin package as ``brainscore_vision/models/<x>``."""
    prefix = relative.replace(os.sep, "/").rstrip("/") + "/"
    try:
        infos = [name for name in os.listdir(entry) if name.endswith(".dist-info")]
    except OSError:
        return False
    for info in infos:
        try:
            with open(os.path.join(entry, info, "RECORD"), encoding="utf-8") as record:
                if any(line.startswith(prefix) for line in record):
                    return True
        except OSError:
            continue
    return False


def extend_package_path(path: Sequence[str], name: str) -> list[str]:
    """A kind package's ``__path__`` (``brainscore_vision.models``): its own folder, the folder of that dotted name
    under a ``sys.path`` entry where an installed distribution put files into it (pip installs a Brain-Score plugin
    package as ``brainscore_vision/models/<folder>``; its ``RECORD`` says so), and ``<user folder>/<last part of
    name>`` for every configured user folder.

    No other ``sys.path`` entry, so never the working directory (issue 41): an unpacked Brain-Score submission in the
    folder a command runs from (``python -m brainscore_vision`` puts it on ``sys.path``), or a folder on
    ``PYTHONPATH``, is not imported unasked, nor does it claim an identifier such as ``pixels``.
    """
    from brainscore_core.config import plugin_folders

    extended = list(path)
    seen = {os.path.realpath(entry) for entry in extended}
    relative = os.path.join(*name.split("."))
    # a folder's real path only where the folder exists: most sys.path entries have none, and realpath walks every
    # part of a path (Scialom2024's 222 plugin lookups: 2,230 calls, most of the lookups' time)
    for entry in (entry for entry in sys.path if isinstance(entry, str) and entry):
        candidate = os.path.join(entry, relative)
        if not os.path.isdir(candidate):
            continue
        real = os.path.realpath(candidate)
        if real not in seen and _installed_here(entry, relative):
            extended.append(os.path.abspath(candidate))
            seen.add(real)
    for folder in plugin_folders():
        candidate = str(folder / name.rsplit(".", 1)[-1])
        if not os.path.isdir(candidate):
            continue
        real = os.path.realpath(candidate)
        if real not in seen:
            extended.append(os.path.abspath(candidate))
            seen.add(real)
    return extended


class PluginFolders:
    """Plugin folders of one domain package, found by the identifiers their ``__init__.py`` registers.

    Parameters
    ----------
    package : str
        The domain package, e.g. ``'brainscore_vision'``.
    layout : mapping, default=:data:`BRAINSCORE_LAYOUT`
        Registry kind -> (folder of its plugins, registry names).
    """

    def __init__(self, package: str, layout: Mapping[str, tuple[str, tuple[str, ...]]] = BRAINSCORE_LAYOUT):
        self.package = package
        self.layout = layout
        self._registrations: dict[Path, tuple[tuple[int, int], frozenset[tuple[str, str]]]] = {}
        self._listings: dict[Path, tuple[int, list[Path]]] = {}  # root -> (its mtime, its plugin folders)

    def kind_package(self, kind: str):
        """The package holding ``kind``'s folders (``brainscore_vision.models``), its path extended with the user
        folders configured now; None when the domain package has no such subpackage."""
        name = f"{self.package}.{self.layout[kind][0]}"
        try:
            package = importlib.import_module(name)
        except ModuleNotFoundError as error:
            if error.name == name:
                return None
            raise
        path = getattr(package, "__path__", None)
        if isinstance(path, list):
            path[:] = extend_package_path(path, name)
        return package

    def find(self, kind: str, identifier: str) -> list[FolderMatch]:
        """Folders that register ``identifier`` as ``kind`` and are not imported yet, in package-path order."""
        package = self.kind_package(kind)
        if package is None:
            return []
        names = self.layout[kind][1]
        matches = []
        for root in map(Path, package.__path__):
            for folder in self._folders_of(root):
                registered = self._registered_in(folder / "__init__.py")
                if any((name, identifier) in registered for name in names):
                    module = f"{package.__name__}.{folder.name}"
                    if module not in sys.modules:  # already imported (e.g. through an entry point): registered then
                        matches.append(FolderMatch(kind, identifier, module, folder))
        return matches

    def registrations(self, kind: str) -> list[FolderMatch]:
        """Every identifier the folders register as ``kind``, read from their ``__init__.py`` (nothing is imported),
        in package-path order: what ``brainscore list`` shows of them."""
        package = self.kind_package(kind)
        if package is None:
            return []
        names, found = self.layout[kind][1], []
        for root in map(Path, package.__path__):
            for folder in self._folders_of(root):
                found += [FolderMatch(kind, identifier, f"{package.__name__}.{folder.name}", folder)
                          for name, identifier in sorted(self._registered_in(folder / "__init__.py"))
                          if name in names]
        return found

    def locate(self, kind: str, identifier: str) -> FolderMatch | None:
        """The one folder to import for ``identifier``, or None.

        Raises
        ------
        DuplicateIdentifierError
            Two folders register it, or the folder's name is taken by an earlier folder of the package path (which
            the import would load instead).
        """
        matches = self.find(kind, identifier)
        if not matches:
            return None
        if len(matches) > 1:
            raise DuplicateIdentifierError(kind, identifier, _Origin(f"plugin folder {matches[0].path}"),
                                           _Origin(f"plugin folder {matches[1].path}"))
        match = matches[0]
        for root in map(Path, self.kind_package(kind).__path__):
            first = root / match.path.name
            if first == match.path:
                break
            if (first / "__init__.py").is_file():
                raise DuplicateIdentifierError(kind, identifier, _Origin(f"plugin folder {match.path}"),
                                               _Origin(f"the plugin folder of the same name {first}, which "
                                                       f"'import {match.module}' would load instead"))
        return match

    def import_folder(self, match: FolderMatch) -> None:
        """Import the folder (after saying how to install its requirements, when some are missing)."""
        command = requirements_command(match.path)
        if command is not None and install_advice_enabled():
            print(f"brainscore: plugin folder {match.path} needs packages that are not installed "
                  f"({', '.join(command[1])}); nothing is installed automatically, install them with: {command[0]}",
                  file=sys.stderr)
        try:
            importlib.import_module(match.module)
        except ImportError as error:
            hint = f"; install its requirements with: {command[0]}" if command is not None else ""
            raise PluginLoadError(f"plugin folder {match.path} (registering {match.kind} {match.identifier!r}) failed "
                                  f"to import: {type(error).__name__}: {error}{hint}") from error

    def _folders_of(self, root: Path) -> list[Path]:
        """The plugin folders in ``root`` (sorted; names starting with ``.`` or ``_`` left out), listed again only when
        ``root`` changed: adding, removing or renaming an entry changes a folder's modification time. A listing taken
        within :data:`_RACY_NS` of that time is not kept (a change in the same clock tick, on a file system with coarse
        timestamps, would not change it). A scored grid looks up every benchmark, data set and metric it loads here
        (Scialom2024's 44 pairs: 222 lookups)."""
        try:
            stamp = root.stat().st_mtime_ns
        except OSError:
            return []
        cached = self._listings.get(root)
        if cached is not None and cached[0] == stamp:
            return cached[1]
        folders = [entry for entry in sorted(root.iterdir()) if entry.name[0] not in "._" and entry.is_dir()]
        if time.time_ns() - stamp > _RACY_NS:
            self._listings[root] = (stamp, folders)
        return folders

    def _registered_in(self, init_file: Path) -> frozenset[tuple[str, str]]:
        """(registry name, identifier) pairs assigned in ``init_file``, re-read only when the file changed."""
        try:
            status = init_file.stat()
        except OSError:
            return frozenset()
        stamp = (status.st_mtime_ns, status.st_size)
        cached = self._registrations.get(init_file)
        if cached is None or cached[0] != stamp:
            text = init_file.read_text(encoding="utf-8", errors="replace")
            cached = (stamp, frozenset((name, identifier) for name, _, identifier in _ASSIGNMENT.findall(text)))
            self._registrations[init_file] = cached
        return cached[1]


def _unmet(requirement_line: str) -> str | None:
    """The requirement of one ``requirements.txt`` line when it is not installed (or not a plain requirement)."""
    line = requirement_line.split(" #", 1)[0].strip()
    if not line or line.startswith("#"):
        return None
    try:
        from packaging.requirements import Requirement
    except ImportError:  # without packaging: installed by name is enough
        name = re.split(r"[\s\[<>=!~;@]", line, maxsplit=1)[0]
        try:
            importlib.metadata.version(name)
        except importlib.metadata.PackageNotFoundError:
            return line
        return None
    try:
        requirement = Requirement(line)
    except ValueError:  # an option, URL or path: pip knows what to do with it
        return line
    if requirement.marker is not None and not requirement.marker.evaluate():
        return None
    try:
        installed = importlib.metadata.version(requirement.name)
    except importlib.metadata.PackageNotFoundError:
        return line
    return None if requirement.specifier.contains(installed, prereleases=True) else line


def _constraints_file() -> Path | None:
    """The constraints to install with: ``$PIP_CONSTRAINT``, else the checkout's ``constraints.txt``, else one written
    under ``$BRAINSCORE_HOME`` that pins the installed torch, torchvision and numpy (None when none is installed)."""
    configured = pip_constraint()
    if configured is not None:
        return configured
    checkout = Path(__file__).resolve().parents[4]  # <checkout>/packages/brainscore-core/src/brainscore_core
    if (checkout / "packages" / "brainscore-core").is_dir() and (checkout / "constraints.txt").is_file():
        return checkout / "constraints.txt"
    pins = []
    for name in ("torch", "torchvision", "numpy"):
        try:
            pins.append(f"{name}=={importlib.metadata.version(name)}\n")
        except importlib.metadata.PackageNotFoundError:
            continue
    if not pins:
        return None
    from brainio.files import atomic_write
    from brainscore_core.config import brainscore_home

    path = brainscore_home() / "constraints.txt"
    content = "# keeps what is installed where it is when installing a plugin's requirements\n" + "".join(pins)
    if not path.is_file() or path.read_text() != content:
        atomic_write(path, lambda temp: temp.write_text(content))
    return path


def requirements_command(folder: Path) -> tuple[str, list[str]] | None:
    """``(pip command, unmet requirements)`` for a plugin folder's ``requirements.txt`` / ``setup.py``, or None when
    it has neither or everything it lists is installed."""
    requirements, setup = folder / "requirements.txt", folder / "setup.py"
    unmet = []
    if requirements.is_file():
        unmet = [line for line in map(_unmet, requirements.read_text(encoding="utf-8").splitlines()) if line]
    if not unmet and not setup.is_file():
        return None
    constraints = _constraints_file()
    parts = [sys.executable, "-m", "pip", "install"] + (["-c", str(constraints)] if constraints else [])
    parts += ["-r", str(requirements)] if unmet else []
    parts += [str(folder)] if setup.is_file() else []
    return " ".join(f'"{part}"' if " " in part else part for part in parts), unmet or [setup.name]
