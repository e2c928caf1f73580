"""Benchmark plugin: ``Kar2019-ost`` (Brain-Score's key; see :mod:`.benchmark`)."""

from brainscore_vision import benchmark_registry


def _kar2019_ost():
    from brainscore_vision.benchmarks.kar2019.benchmark import DicarloKar2019OST

    return DicarloKar2019OST()


benchmark_registry["Kar2019-ost"] = _kar2019_ost


DATA_NEEDS = "private"
"""What its benchmarks need (``brainscore list``; :mod:`brainscore_vision.benchmark_data`): Brain-Score's private
files: expected to need its credentials."""
