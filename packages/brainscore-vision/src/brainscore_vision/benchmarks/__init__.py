"""Benchmark base classes (from brainscore-core) and this package's benchmark plugins.

``BenchmarkBase(identifier, ceiling_func, version, parent=None, bibtex=None, *, ceiling_data=None)``
computes its ceiling lazily from ``ceiling_func()`` and caches it on disk under
``$BRAINSCORE_HOME/ceilings/``, keyed by identifier, version and a digest of ``ceiling_data``.

The sub-packages (``cowley2023``, ``kriegeskorte2008``) are plugin modules, named by entry points in
this package's ``pyproject.toml`` exactly as a third-party plugin would name its own. Brain-Score's benchmark
plugin folders (``benchmarks/<folder>/__init__.py`` assigning ``benchmark_registry['<id>'] = ...``) are found by
identifier, here and in the user plugin folders (see :mod:`brainscore_vision.models`).
The names are resolved on first use (PEP 562), so that importing a benchmark plugin module (plugin discovery)
imports neither pandas nor xarray.
"""

from brainio.lazy import lazy_names
from brainscore_core.plugin_folders import extend_package_path

_LAZY = {"Benchmark": "brainscore_core.benchmarks", "BenchmarkBase": "brainscore_core.benchmarks",
         "score_benchmark": "brainscore_core.benchmarks", "bound_score": "brainscore_core.normalization",
         "ceil_score": "brainscore_core.normalization", "explained_variance": "brainscore_core.normalization"}

__all__ = ["Benchmark", "BenchmarkBase", "bound_score", "ceil_score", "explained_variance", "score_benchmark"]

__path__ = extend_package_path(__path__, __name__)


__getattr__, __dir__ = lazy_names(globals(), _LAZY)
