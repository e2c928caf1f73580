"""Benchmark plugin: ``Hebart2023-match`` (Brain-Score's identifier), the THINGS odd-one-out triplets; its data are
Brain-Score's ``Hebart2023`` files, registered by :mod:`brainscore_vision.data.public_catalogue`."""

from brainscore_vision import benchmark_registry


def _build():
    from brainscore_vision.benchmarks.hebart2023.benchmark import Hebart2023Match

    return Hebart2023Match()


benchmark_registry["Hebart2023-match"] = _build


DATA_NEEDS = "credentials"
"""What its benchmarks need (``brainscore list``; :mod:`brainscore_vision.benchmark_data`): Brain-Score's files,
read unsigned first, then with your AWS credentials (not measured unsigned); the files it registers from a
catalogue by reference carry their own need."""
