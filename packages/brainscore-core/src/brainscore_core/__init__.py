"""Scores, metrics, benchmarks, ceilings, plugin registries and results store shared by all Brain-Score domains.

Names are resolved lazily (PEP 562): ``import brainscore_core`` imports neither xarray nor SQLAlchemy;
``brainscore_core.Score`` imports what it needs on first use.
"""

from __future__ import annotations

from importlib.metadata import version as _version

from brainio.lazy import lazy_names

__version__ = _version("brainscore-core")

# public name -> module that defines it
_LAZY = {
    "Score": "brainscore_core.score",
    "score_center_error": "brainscore_core.score",
    "Metric": "brainscore_core.metrics",
    "SplitMetric": "brainscore_core.metrics",
    "Ceiling": "brainscore_core.metrics",
    "Benchmark": "brainscore_core.benchmarks",
    "BenchmarkBase": "brainscore_core.benchmarks",
    "score_benchmark": "brainscore_core.benchmarks",
    "explained_variance": "brainscore_core.normalization",
    "ceil_score": "brainscore_core.normalization",
    "bound_score": "brainscore_core.normalization",
    "Domain": "brainscore_core.plugins",
    "PluginInfo": "brainscore_core.plugins",
    "hookimpl": "brainscore_core.hookspecs",
    "ResultStore": "brainscore_core.results",
    "DuplicateIdentifierError": "brainscore_core.errors",
    "UnknownIdentifierError": "brainscore_core.errors",
    "progress": "brainscore_core.progress",
    "score_value": "brainscore_core.score",
    "BrainScoreError": "brainscore_core.errors",
    "ModelDigestChangedWarning": "brainscore_core.errors",
    "set_options": "brainscore_core.config",
    "brainscore_home": "brainscore_core.config",
    "score_pair": "brainscore_core.scoring",
    "score_many": "brainscore_core.grid",
}

__all__ = ["__version__", *_LAZY]


__getattr__, __dir__ = lazy_names(globals(), _LAZY)
