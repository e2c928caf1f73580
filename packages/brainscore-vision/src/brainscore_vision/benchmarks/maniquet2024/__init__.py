"""Benchmark plugin: ``Maniquet2024-confusion_similarity`` and ``Maniquet2024-tasks_consistency`` (Brain-Score's
identifiers; their ceilings are constants and print offline), on Brain-Score's files by reference."""

from brainscore_vision import benchmark_registry


def _factory(name: str):
    def build():
        from brainscore_vision.benchmarks.maniquet2024 import benchmark

        return getattr(benchmark, name)()

    return build


benchmark_registry["Maniquet2024-confusion_similarity"] = _factory("Maniquet2024ConfusionSimilarity")
benchmark_registry["Maniquet2024-tasks_consistency"] = _factory("Maniquet2024TasksConsistency")


DATA_NEEDS = "credentials"
"""What its benchmarks need (``brainscore list``; :mod:`brainscore_vision.benchmark_data`): Brain-Score's files,
read unsigned first, then with your AWS credentials (not measured unsigned)."""
