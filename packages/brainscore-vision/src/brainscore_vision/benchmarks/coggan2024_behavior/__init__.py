"""Benchmark plugin: ``tong.Coggan2024_behavior-ConditionWiseAccuracySimilarity`` (Brain-Score's identifier), on
Brain-Score's files by reference."""

from brainscore_vision import benchmark_registry


def _build():
    from brainscore_vision.benchmarks.coggan2024_behavior.benchmark import (
        Coggan2024_behavior_ConditionWiseAccuracySimilarity,
    )

    return Coggan2024_behavior_ConditionWiseAccuracySimilarity()


benchmark_registry["tong.Coggan2024_behavior-ConditionWiseAccuracySimilarity"] = _build


DATA_NEEDS = "credentials"
"""What its benchmarks need (``brainscore list``; :mod:`brainscore_vision.benchmark_data`): Brain-Score's files,
read unsigned first, then with your AWS credentials (not measured unsigned)."""
