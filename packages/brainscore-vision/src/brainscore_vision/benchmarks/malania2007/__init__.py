"""Benchmark plugin: Malania et al. (2007) vernier thresholds, Brain-Score's 10 registry keys
(``Malania2007.<condition>-threshold_elevation`` -> identifier ``Malania2007.<condition>``, and
``Malania2007.vernieracuity-threshold``); see :mod:`brainscore_vision.benchmarks.malania2007.benchmark`."""

from brainscore_vision import benchmark_registry
from brainscore_vision.data.malania2007 import CONDITIONS


def _elevation(condition: str):
    def build():
        from brainscore_vision.benchmarks.malania2007.benchmark import Malania2007ThresholdElevation

        return Malania2007ThresholdElevation(condition)

    return build


def _acuity():
    from brainscore_vision.benchmarks.malania2007.benchmark import Malania2007VernierAcuity

    return Malania2007VernierAcuity()


for _condition in CONDITIONS:
    benchmark_registry[f"Malania2007.{_condition}-threshold_elevation"] = _elevation(_condition)
benchmark_registry["Malania2007.vernieracuity-threshold"] = _acuity


DATA_NEEDS = "credentials"
"""What its benchmarks need (``brainscore list``; :mod:`brainscore_vision.benchmark_data`): Brain-Score's files,
read unsigned first, then with your AWS credentials (not measured unsigned)."""
