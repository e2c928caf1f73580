"""Benchmark plugin: Lonnqvist et al. (2024), three accuracy-distance benchmarks and one engineering accuracy under
Brain-Score's registry keys (whose ``.identifier`` differs, e.g. ``Lonnqvist2024_EngineeringAccuracy`` ->
``Lonnqvist2024-engineering_accuracy``), on Brain-Score's files by reference."""

from brainscore_vision import benchmark_registry

#: registry key -> the factory in benchmark.py
KEYS = {"Lonnqvist2024_InlabInstructionsBehavioralAccuracyDistance":
        "_Lonnqvist2024BehavioralAccuracyDistanceInlabInstructions",
        "Lonnqvist2024_InlabNoInstructionsBehavioralAccuracyDistance":
        "_Lonnqvist2024BehavioralAccuracyDistanceInlabNoInstructions",
        "Lonnqvist2024_OnlineNoInstructionsBehavioralAccuracyDistance":
        "_Lonnqvist2024BehavioralAccuracyDistanceOnlineNoInstructions",
        "Lonnqvist2024_EngineeringAccuracy": "_Lonnqvist2024EngineeringAccuracy"}


def _factory(name: str):
    def build():
        from brainscore_vision.benchmarks.lonnqvist2024 import benchmark

        return getattr(benchmark, name)()

    return build


for _key, _name in KEYS.items():
    benchmark_registry[_key] = _factory(_name)


DATA_NEEDS = "credentials"
"""What its benchmarks need (``brainscore list``; :mod:`brainscore_vision.benchmark_data`): Brain-Score's files,
read unsigned first, then with your AWS credentials (not measured unsigned)."""
