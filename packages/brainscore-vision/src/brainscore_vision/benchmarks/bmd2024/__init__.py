"""Benchmark plugin: ``BMD2024.<condition>Behavioral-accuracy_distance`` for the four conditions (Brain-Score's
identifiers), on Brain-Score's files by reference."""

from brainscore_vision import benchmark_registry
from brainscore_vision.data.bmd2024 import CONDITIONS


def _factory(condition: str):
    def build():
        from brainscore_vision.benchmarks.bmd2024.benchmark import BMD2024AccuracyDistance

        return BMD2024AccuracyDistance(condition)

    return build


for _condition in CONDITIONS:
    benchmark_registry[f"BMD2024.{_condition}Behavioral-accuracy_distance"] = _factory(_condition)


DATA_NEEDS = "credentials"
"""What its benchmarks need (``brainscore list``; :mod:`brainscore_vision.benchmark_data`): Brain-Score's files,
read unsigned first, then with your AWS credentials (not measured unsigned)."""
