"""Benchmark plugin: Scialom et al. (2024), 44 benchmarks under Brain-Score's registry keys
``Scialom2024_<dataset>{BehavioralAccuracyDistance,BehavioralErrorConsistency,EngineeringAccuracy}`` (their
``.identifier`` is ``Scialom2024_<dataset>-{behavioral_accuracy,error_consistency,engineering_accuracy}``), on
Brain-Score's files by reference."""

from brainscore_vision import benchmark_registry
from brainscore_vision.data.scialom2024 import DATASETS

COMPOSITES = ("phosphenes-all", "segments-all")
#: registry key suffix -> the class in benchmark.py
KINDS = {"BehavioralAccuracyDistance": "_Scialom2024BehavioralAccuracyDistance",
         "BehavioralErrorConsistency": "_Scialom2024BehavioralErrorConsistency",
         "EngineeringAccuracy": "_Scialom2024EngineeringAccuracy"}


def _factory(dataset: str, kind: str):
    def build():
        from brainscore_vision.benchmarks.scialom2024 import benchmark

        return getattr(benchmark, KINDS[kind])(dataset)

    return build


def registry_keys() -> list[str]:
    """The 44 registry keys: accuracy distance on every data set, error consistency on the composites, engineering
    accuracy on the 20 single data sets."""
    keys = [f"Scialom2024_{dataset}BehavioralAccuracyDistance" for dataset in DATASETS]
    keys += [f"Scialom2024_{dataset}BehavioralErrorConsistency" for dataset in COMPOSITES]
    keys += [f"Scialom2024_{dataset}EngineeringAccuracy" for dataset in DATASETS if dataset not in COMPOSITES]
    return keys


for _key in registry_keys():
    _dataset, _kind = next((_key[len("Scialom2024_"):-len(kind)], kind) for kind in KINDS if _key.endswith(kind))
    benchmark_registry[_key] = _factory(_dataset, _kind)


DATA_NEEDS = "credentials"
"""What its benchmarks need (``brainscore list``; :mod:`brainscore_vision.benchmark_data`): Brain-Score's files,
read unsigned first, then with your AWS credentials (not measured unsigned)."""
