"""Benchmark plugin: Ferguson et al. (2024) visual-search asymmetry, ``Ferguson2024<experiment>-value_delta`` for the
14 experiments (Brain-Score's identifiers); see :mod:`brainscore_vision.benchmarks.ferguson2024.benchmark`."""

from brainscore_vision import benchmark_registry
from brainscore_vision.data.ferguson2024 import EXPERIMENTS


def _factory(experiment: str):
    def build():
        from brainscore_vision.benchmarks.ferguson2024.benchmark import Ferguson2024ValueDelta

        return Ferguson2024ValueDelta(experiment)

    return build


for _experiment in EXPERIMENTS:
    benchmark_registry[f"Ferguson2024{_experiment}-value_delta"] = _factory(_experiment)


DATA_NEEDS = "credentials"
"""What its benchmarks need (``brainscore list``; :mod:`brainscore_vision.benchmark_data`): Brain-Score's files,
read unsigned first, then with your AWS credentials (not measured unsigned)."""
