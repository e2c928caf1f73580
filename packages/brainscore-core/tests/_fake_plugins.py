"""Fake installed distributions fed to importlib.metadata, and plugin modules written to a temp dir.

Nothing is pip-installed: a ``MetaPathFinder`` answers ``find_distributions`` with in-memory
``Distribution`` objects whose ``entry_points.txt`` names modules written under ``tmp_path``.
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.metadata
import re
import sys
import textwrap
import uuid
from pathlib import Path


class FakeDistribution(importlib.metadata.Distribution):
    def __init__(self, name: str, version: str, entry_points: dict[str, dict[str, str]]):
        self._name, self._version, self._entry_points = name, version, entry_points

    def read_text(self, filename):
        if filename == "METADATA":
            return f"Metadata-Version: 2.1\nName: {self._name}\nVersion: {self._version}\n"
        if filename == "entry_points.txt":
            return "".join(f"[{group}]\n" + "".join(f"{key} = {value}\n" for key, value in points.items())
                           for group, points in self._entry_points.items())
        return None

    def locate_file(self, path):
        return Path("/nonexistent") / path


class FakeFinder(importlib.abc.MetaPathFinder):
    def __init__(self):
        self.distributions: list[FakeDistribution] = []

    def find_spec(self, fullname, path=None, target=None):
        return None

    def find_distributions(self, context=None):
        context = context or importlib.metadata.DistributionFinder.Context()
        wanted = context.name and re.sub(r"[-_.]+", "_", context.name).lower()
        return iter([d for d in self.distributions
                     if not wanted or re.sub(r"[-_.]+", "_", d._name).lower() == wanted])


class PluginWorld:
    """A fresh entry-point group, a domain module exposing a Domain for it, and helpers to add plugins."""

    def __init__(self, tmp_path: Path, finder: FakeFinder):
        self.tmp_path, self.finder = tmp_path, finder
        token = uuid.uuid4().hex[:10]
        self.group = f"bs_test_{token}"
        self.domain_module = f"domain_{token}"
        self.write_module(self.domain_module, f"""
            from brainscore_core.plugins import Domain
            domain = Domain({self.group!r})
            for _name in ("data_registry", "stimulus_set_registry", "metric_registry", "ceiling_registry",
                          "benchmark_registry", "model_registry", "load_dataset", "load_stimulus_set", "load_metric",
                          "load_ceiling", "load_benchmark", "load_model", "list_plugins"):
                globals()[_name] = getattr(domain, _name)  # the names a domain package gives its users
        """)
        self.module = importlib.import_module(self.domain_module)
        self.domain = self.module.domain

    def unique(self, stem: str) -> str:
        return f"{stem}_{uuid.uuid4().hex[:8]}"

    def write_module(self, name: str, source: str) -> str:
        path = self.tmp_path / (name.replace(".", "/") + ".py")
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(source).replace("DOMAIN", self.domain_module if hasattr(
            self, "domain_module") else "DOMAIN"))
        importlib.invalidate_caches()
        return name

    def add_distribution(self, name: str, version: str, entry_points: dict[str, str]) -> None:
        self.finder.distributions.append(FakeDistribution(name, version, {self.group: entry_points}))

    def add_plugin(self, distribution: str, source: str, version: str = "1.0", module: str | None = None) -> str:
        """Write ``source`` as a new module and install a distribution whose entry point names it."""
        module = module or self.unique("plugin")
        self.write_module(module, source)
        self.add_distribution(distribution, version, {module: module})
        return module


def make_world(tmp_path: Path, monkeypatch) -> PluginWorld:
    finder = FakeFinder()
    monkeypatch.setattr(sys, "meta_path", [*sys.meta_path, finder])
    monkeypatch.syspath_prepend(str(tmp_path))
    return PluginWorld(tmp_path, finder)
