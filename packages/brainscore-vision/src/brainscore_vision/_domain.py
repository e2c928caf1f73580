"""This package's plugin domain, in a module of its own so that the modules that read it (``benchmark_data``) need not
import the package's ``__init__`` (which re-exports it as ``brainscore_vision.domain``)."""

from __future__ import annotations

from brainscore_core.plugin_folders import PluginFolders
from brainscore_core.plugins import Domain

__all__ = ["BUILTIN_DISTRIBUTIONS", "ENTRY_POINT_GROUP", "domain"]

ENTRY_POINT_GROUP = "brainscore_vision"
BUILTIN_DISTRIBUTIONS = ("brainscore-vision", "brainscore-metrics", "model-tools")
"""Distributions of this repository: an installed plugin claiming one of their identifiers replaces it (with a notice
naming both) instead of colliding."""

domain = Domain(ENTRY_POINT_GROUP, folders=PluginFolders("brainscore_vision"),
                builtin_distributions=BUILTIN_DISTRIBUTIONS)
"""The plugin domain behind every registry and ``load_*`` function of this package."""
