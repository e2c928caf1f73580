"""``region_layer_map/<identifier>.json`` beside a model plugin: its committed region -> layer map.

Brain-Score ships the layer selection's outcome of most models as ``region_layer_map/<identifier>.json`` in the model's
plugin folder (``{"V1": "features.2", "V2": "features.7", ...}``), and its ``ModelCommitment`` uses that file instead
of selecting layers again when no ``region_layer_map`` is given. :func:`find_region_layer_map` looks for the file in
the folder of the plugin that registered ``identifier`` in ``brainscore_vision.model_registry`` (a plugin folder or an
installed package: the registering module's folder, then its parent packages' folders), then in the folder of the
module that builds the commitment.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from pathlib import Path

from model_tools.errors import RegionLayerMapError

__all__ = ["find_region_layer_map", "read_region_layer_map", "region_layer_map_candidates"]


def _module_folders(module_name: str) -> Iterator[Path]:
    """The folder of module ``module_name`` and of each package above it, innermost first."""
    parts = module_name.split(".")
    for end in range(len(parts), 0, -1):
        module = sys.modules.get(".".join(parts[:end]))
        location = getattr(module, "__file__", None)
        if location:
            yield Path(location).parent


def region_layer_map_candidates(identifier: str, caller_file: str | None = None) -> list[Path]:
    """Where ``region_layer_map/<identifier>.json`` is looked for, in order (see the module docstring)."""
    folders: list[Path] = []
    try:
        import brainscore_vision

        origin = brainscore_vision.model_registry.registered_origin(identifier)
    except ImportError:
        origin = None
    if origin is not None and origin.module:
        folders.extend(_module_folders(origin.module))
    if caller_file:
        folders.append(Path(caller_file).parent)
    return [folder / "region_layer_map" / f"{identifier}.json" for folder in dict.fromkeys(folders)]


def read_region_layer_map(path: str | Path) -> dict[str, str]:
    """The ``{region: layer}`` of a JSON file; anything else is a one-line error naming the file."""
    path = Path(path)
    try:
        content = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        raise RegionLayerMapError(f"region-layer map {path} cannot be read: {error}") from error
    if not isinstance(content, dict) or not all(isinstance(k, str) and isinstance(v, str) for k, v in content.items()):
        raise RegionLayerMapError(f"region-layer map {path} must be a JSON object of region -> layer name, got "
                                  f"{json.dumps(content)[:200]}")
    return content


def find_region_layer_map(identifier: str, caller_file: str | None = None) -> tuple[dict[str, str], Path] | None:
    """``({region: layer}, path)`` of the first ``region_layer_map/<identifier>.json`` found, or None."""
    for path in region_layer_map_candidates(identifier, caller_file):
        if path.is_file():
            return read_region_layer_map(path), path
    return None
