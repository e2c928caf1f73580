"""Benchmark plugin: ``Rajalingham2020.IT-pls`` (Brain-Score's key; see :mod:`.benchmark`)."""

from brainscore_vision import benchmark_registry


def _it_pls():
    from brainscore_vision.benchmarks.rajalingham2020.benchmark import DicarloRajalingham2020ITPLS

    return DicarloRajalingham2020ITPLS()


benchmark_registry["Rajalingham2020.IT-pls"] = _it_pls


DATA_NEEDS = "private"
"""What its benchmarks need (``brainscore list``; :mod:`brainscore_vision.benchmark_data`): Brain-Score's private
files: expected to need its credentials."""
