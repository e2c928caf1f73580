"""Brain-Score 1.x's API (``import brainscore``), as a deprecated layer over today's packages.

Never installed by default: ``pip install ./packages/brainscore-legacy``. Every old spelling works and warns with
a ``DeprecationWarning`` naming today's:

- ``brainscore.get_assembly(identifier)`` / ``brainscore.get_stimulus_set(identifier)``: 1.x era identifiers map to
  today's (``'dicarlo.Majaj2015'`` -> ``'MajajHong2015.public'``), loaded with ``brainscore_vision.load_dataset`` /
  ``load_stimulus_set``; an identifier without public data today is a one-line error naming today's identifier;
- ``brainscore.metrics.*`` (``rdm``, ``regression``, ``image_level_behavior``, ``ceiling``, ``cka``, ``accuracy``,
  ``transformations``, ``xarray_utils``), ``brainscore.benchmarks`` (``BenchmarkBase``, ``ceil_score``; ``.screen``),
  ``brainscore.model_interface``, ``brainscore.utils``: today's objects under the old paths;
- installing this distribution also adds brainio 2021's spellings to brainio, through brainio's extension points
  (:mod:`brainscore._brainio2021`, whether or not ``brainscore`` is imported; no brainio function is replaced):
  ``brainio.get_assembly``, ``brainio.get_stimulus_set``, ``package_data_assembly(..., assembly_class=...)`` and
  ``image_id`` for ``stimulus_id`` when packaging.
"""

from __future__ import annotations

from brainscore import _lookup
from brainscore._identifiers import LegacyIdentifierError
from brainscore_core.deprecation import deprecated_attributes

__all__ = ["LegacyIdentifierError", "get_assembly", "get_stimulus_set"]


def get_assembly(name: str):
    """The assembly registered today for ``name`` (1.x identifiers map to today's); use
    ``brainscore_vision.load_dataset``."""
    return _lookup.get_assembly(name)


def get_stimulus_set(name: str):
    """The stimulus set registered today for ``name`` (1.x identifiers map to today's); use
    ``brainscore_vision.load_stimulus_set``."""
    return _lookup.get_stimulus_set(name)


def _score_model(model_identifier: str, benchmark_identifier: str, model):
    """1.x ``score_model``: ``model`` scored on the benchmark registered as ``benchmark_identifier``."""
    import brainscore_vision
    from brainscore_core.benchmarks import score_benchmark

    return score_benchmark(brainscore_vision.load_benchmark(benchmark_identifier), model)


__getattr__ = deprecated_attributes(__name__, {
    "score_model": ("brainscore_core.benchmarks.score_benchmark(brainscore_vision.load_benchmark(benchmark_identifier), "
                    "model)", lambda: _score_model),
})
