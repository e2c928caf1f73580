"""Benchmark plugin: Baker et al. (2022), ``Baker2022{frankenstein,fragmented,inverted}-accuracy_delta`` (Brain-Score's
identifiers), on Brain-Score's files by reference. Registered the Brain-Score way, by assigning into
``benchmark_registry``; the module is imported only when a benchmark is built."""

from brainscore_vision import benchmark_registry
from brainscore_vision.data.baker2022 import DATASETS

__all__ = ["DATASETS"]


def _factory(name: str):
    def build():
        from brainscore_vision.benchmarks.baker2022 import benchmark

        return getattr(benchmark, name)()

    return build


benchmark_registry["Baker2022frankenstein-accuracy_delta"] = _factory("Baker2022AccuracyDeltaFrankenstein")
benchmark_registry["Baker2022fragmented-accuracy_delta"] = _factory("Baker2022AccuracyDeltaFragmented")
benchmark_registry["Baker2022inverted-accuracy_delta"] = _factory("Baker2022InvertedAccuracyDelta")


DATA_NEEDS = "credentials"
"""What its benchmarks need (``brainscore list``; :mod:`brainscore_vision.benchmark_data`): Brain-Score's files,
read unsigned first, then with your AWS credentials (not measured unsigned)."""
