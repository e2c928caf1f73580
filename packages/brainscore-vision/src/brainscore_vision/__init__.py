"""Vision benchmarks, the BrainModel interface and the ``brainscore`` command line.

Everything is found through plugins: data, stimulus sets, metrics, ceilings, benchmarks and models are
registered by modules named in the ``brainscore_vision`` entry-point group (this package's own data and
benchmarks included) and loaded on demand::

    from brainscore_vision import load_benchmark, load_model, score
    benchmark = load_benchmark('Cowley2023.V4-pls')
    result = score('randomnet', 'Cowley2023.V4-pls')

Plugins may also assign into the registries, the Brain-Score way::

    from brainscore_vision import benchmark_registry
    benchmark_registry['YourBenchmark.IT-pls'] = YourBenchmarkIT

and Brain-Score's plugin folders (``models/<folder>/``, ``benchmarks/``, ``data/``, ``metrics/``, here or in the
user plugin folders of ``$BRAINSCORE_PLUGIN_FOLDERS``) are found by the identifier they register.

``import brainscore_vision`` imports neither pandas nor xarray: the data classes (``DataAssembly``, ``StimulusSet``,
``Score``, ``Metric``, ``Ceiling``, ``Benchmark``) are resolved on first use (PEP 562), so the command line answers
fast.
"""

from __future__ import annotations

from importlib.metadata import version as _version
from typing import TYPE_CHECKING

from brainio.lazy import lazy_names
from brainscore_vision._domain import domain
from brainscore_vision.model_interface import BrainModel

if TYPE_CHECKING:
    from brainio.assemblies import DataAssembly
    from brainio.stimuli import StimulusSet
    from brainscore_core.benchmarks import Benchmark
    from brainscore_core.metrics import Ceiling, Metric, Score

# public name -> module that defines it, imported on first use
_LAZY = {"DataAssembly": "brainio.assemblies", "StimulusSet": "brainio.stimuli",
         "Benchmark": "brainscore_core.benchmarks", "Ceiling": "brainscore_core.metrics",
         "Metric": "brainscore_core.metrics", "Score": "brainscore_core.metrics"}

__version__ = _version("brainscore-vision")

data_registry = domain.data_registry
stimulus_set_registry = domain.stimulus_set_registry
metric_registry = domain.metric_registry
ceiling_registry = domain.ceiling_registry
benchmark_registry = domain.benchmark_registry
model_registry = domain.model_registry


def load_dataset(identifier: str) -> DataAssembly:
    """The data assembly registered as ``identifier`` (fetched or packaged on first use)."""
    return domain.load_dataset(identifier)


def load_stimulus_set(identifier: str) -> StimulusSet:
    """The stimulus set registered as ``identifier`` (fetched or packaged on first use)."""
    return domain.load_stimulus_set(identifier)


def load_metric(identifier: str, *args, **kwargs) -> Metric:
    """A new instance of the metric ``identifier``; extra arguments go to its factory."""
    return domain.load_metric(identifier, *args, **kwargs)


def load_ceiling(identifier: str, *args, **kwargs) -> Ceiling:
    """A new instance of the ceiling ``identifier`` (looked up in ceilings, then metrics)."""
    return domain.load_ceiling(identifier, *args, **kwargs)


def load_benchmark(identifier: str) -> Benchmark:
    """A new instance of the benchmark ``identifier``."""
    return domain.load_benchmark(identifier)


def load_model(identifier: str) -> BrainModel:
    """A new instance of the model ``identifier`` (a :class:`BrainModel`)."""
    return domain.load_model(identifier)


def list_plugins(kind: str | None = None) -> list:
    """Registered plugins of ``kind`` (``'benchmark'``, ``'model'``, ``'metric'``, ...; all when None).

    Each entry is a ``brainscore_core.plugins.PluginInfo`` (identifier, distribution, version, module).
    """
    return domain.list_plugins(kind)


def score(model_identifier: str, benchmark_identifier: str, conda_active: bool = False, *,
          store: object = True) -> Score:
    """Score model ``model_identifier`` on benchmark ``benchmark_identifier`` and store the result.

    Parameters
    ----------
    model_identifier : str
        A registered model, e.g. ``'randomnet'``.
    benchmark_identifier : str
        A registered benchmark, e.g. ``'Cowley2023.V4-pls'``.
    conda_active : bool, default=False
        Accepted for compatibility with Brain-Score; plugins are never installed while scoring, so it
        has no effect.
    store : bool, str or ResultStore, default=True
        The row (score, layer map, timings, versions) goes to the results store, so ``brainscore report``
        shows it: True means ``$BRAINSCORE_RESULTS_URL`` or ``$BRAINSCORE_HOME/results.sqlite``; a string is a
        SQLAlchemy URL; False stores nothing. The store is checked before scoring.

    Returns
    -------
    Score
        The ceiled score (0-d) with ``attrs`` ``raw``, ``ceiling``, ``error`` (where the benchmark sets
        them), ``model_identifier``, ``benchmark_identifier`` and, when the model exposes a layer map,
        ``comment = "layers: {region: layer}"``.
    """
    from brainscore_core.scoring import score as score_pair_of

    return score_pair_of(domain, model_identifier, benchmark_identifier, store=store)


def score_many(models, benchmarks, client=None, **kwargs):
    """Score every model on every benchmark; a pandas DataFrame with one row per pair.

    ``models`` and ``benchmarks`` are identifiers, shell-style globs (``'Geirhos2021*'``) or, for benchmarks, the
    suites ``'shipped'``, ``'reachable'``, ``'leaderboard'``, ``'all'`` (a single string is one word); see
    :mod:`brainscore_vision.selection`. A word that names nothing raises ``SelectionError`` with close matches.

    Runs in this process, or on a Dask cluster with ``client`` (``distributed.Client`` of a ``LocalCluster``,
    a scheduler address, or dask-jobqueue's ``SLURMCluster``). Stored pairs are skipped (``rescore=True``
    scores them again); failures are stored and the grid goes on. See :func:`brainscore_core.grid.score_many`.
    """
    from brainscore_core.grid import score_many as grid
    from brainscore_vision.selection import select

    models = select("model", [models] if isinstance(models, str) else models, domain)
    benchmarks = select("benchmark", [benchmarks] if isinstance(benchmarks, str) else benchmarks, domain)
    return grid(models, benchmarks, client, domain=domain, **kwargs)


__getattr__, __dir__ = lazy_names(globals(), _LAZY, submodules=True)


__all__ = [
    "__version__",
    "Benchmark",
    "BrainModel",
    "Ceiling",
    "DataAssembly",
    "Metric",
    "Score",
    "StimulusSet",
    "benchmark_registry",
    "ceiling_registry",
    "data_registry",
    "domain",
    "list_plugins",
    "load_benchmark",
    "load_ceiling",
    "load_dataset",
    "load_metric",
    "load_model",
    "metric_registry",
    "model_registry",
    "score",
    "score_many",
    "stimulus_set_registry",
]
