"""The weight files a Brain-Score model plugin will fetch, read from its source without importing it.

A Brain-Score model plugin fetches its weights when its model is built, with
``load_weight_file(bucket=..., folder_name=..., relative_path=..., version_id=..., sha1=...)`` (or ``load_file``) of
``brainscore_core.supported_data_standards.brainio.s3``. The arguments are literals in the plugin's ``model.py``, so
they can be read from the syntax tree (:mod:`ast`): ``brainscore score --dry-run`` and ``brainscore list models`` say
which files are not on this machine yet, before anything is built or downloaded. A call whose arguments are not
literals (computed names) is left out: what cannot be known without running the plugin is not guessed.
"""

from __future__ import annotations

import ast
import os
from dataclasses import dataclass
from pathlib import Path

__all__ = ["WEIGHT_LOADERS", "WeightFile", "plugin_location", "plugin_weight_files"]

WEIGHT_LOADERS = ("load_weight_file", "load_file")
"""Functions whose calls name a weight file (Brain-Score's signatures: ``bucket, relative_path, version_id[, sha1],
folder_name``)."""
_POSITIONS = {"load_weight_file": ("bucket", "relative_path", "version_id", "sha1", "folder_name"),
              "load_file": ("bucket", "relative_path", "version_id", "folder_name")}
_MAX_FILES = 200  # a plugin folder with more Python files than this is not scanned


@dataclass(frozen=True)
class WeightFile:
    """One weight file a plugin fetches.

    Attributes
    ----------
    bucket, folder_name, relative_path : str
        Where it lives in S3 (``folder_name`` may be None: ``$BRAINSCORE_S3_WEIGHT_FOLDER``, else ``models``).
    sha1 : str or None
    source : pathlib.Path
        The plugin file that names it.
    """

    bucket: str
    folder_name: str | None
    relative_path: str
    sha1: str | None
    source: Path

    @property
    def path(self) -> Path | None:
        """Where it is put on this machine (``$BRAINSCORE_HOME/<folder>/<relative path>``); None for a name that
        would lie outside that folder."""
        from brainscore_core.s3_files import weight_file_path

        try:
            return weight_file_path(self.relative_path, self.folder_name)
        except ValueError:
            return None

    @property
    def present(self) -> bool:
        path = self.path
        return path is not None and path.is_file()

    def describe(self) -> str:
        folder = (self.folder_name or "").strip("/")
        return f"s3://{self.bucket}/{folder + '/' if folder else ''}{self.relative_path.lstrip('/')}"


def _literal(node: ast.AST) -> str | None:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


def _calls(tree: ast.AST, source: Path) -> list[WeightFile]:
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        name = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", None)
        if name not in _POSITIONS:
            continue
        arguments = dict(zip(_POSITIONS[name], node.args, strict=False))
        arguments.update({keyword.arg: keyword.value for keyword in node.keywords if keyword.arg})
        values = {key: _literal(value) for key, value in arguments.items()}
        if values.get("bucket") is None or values.get("relative_path") is None:
            continue  # computed arguments: not guessed
        found.append(WeightFile(values["bucket"], values.get("folder_name"), values["relative_path"],
                                values.get("sha1"), source))
    return found


def plugin_location(module: str) -> Path | None:
    """The folder of the package ``module`` is (its ``__init__.py``'s folder) or the module's own file, found without
    importing it; None when it cannot be found that way."""
    from brainscore_core._plugin_index import module_file

    found = module_file(module)
    if found is None:
        return None
    return found.parent if found.name == "__init__.py" else found


def plugin_weight_files(location: str | os.PathLike) -> list[WeightFile]:
    """Every weight file the Python files of a plugin fetch with literal arguments, in file order: ``location`` is its
    folder (its package, read recursively) or one module file; files that do not parse are skipped."""
    location = Path(location)
    files = [location] if location.is_file() else sorted(
        path for path in location.rglob("*.py") if "__pycache__" not in path.parts)
    found: list[WeightFile] = []
    for path in files[:_MAX_FILES]:
        try:
            tree = ast.parse(path.read_text(encoding="utf-8", errors="replace"), filename=str(path))
        except (OSError, SyntaxError, ValueError):
            continue
        found += _calls(tree, path)
    return found
