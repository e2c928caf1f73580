"""Benchmark base classes (from brainscore-core) and this package's benchmark plugins.

``BenchmarkBase(identifier, ceiling_func, version, parent=None, bibtex=None, *, ceiling_data=None)``
computes its ceiling lazily from ``ceiling_func()`` and caches it on disk under
``$BRAINSCORE_HOME/ceilings/``, keyed by identifier, version and a digest of ``ceiling_data``.

The sub-packages (``cowley2023``, ``kriegeskorte2008``) are plugin modules, named by entry points in
this package's ``pyproject.toml`` exactly as a third-party plugin would name its own. Brain-Score's benchmark
plugin folders (``benchmarks/<folder>/__init__.py`` assigning ``benchmark_registry['<id>'] = ...``) are found by
identifier, here and in the user plugin folders (see :mod:`brainscore_vision.models`).
"""

from brainscore_core.benchmarks import Benchmark, BenchmarkBase, score_benchmark
from brainscore_core.normalization import bound_score, ceil_score, explained_variance
from brainscore_core.plugin_folders import extend_package_path

__all__ = ["Benchmark", "BenchmarkBase", "bound_score", "ceil_score", "explained_variance", "score_benchmark"]

__path__ = extend_package_path(__path__, __name__)
