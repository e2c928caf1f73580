"""Benchmark plugin: ``Bracci2019.anteriorVTC-rdm`` (Brain-Score's key; see :mod:`.benchmark`)."""

from brainscore_vision import benchmark_registry


def _anterior_vtc():
    from brainscore_vision.benchmarks.bracci2019.benchmark import Bracci2019RSA

    return Bracci2019RSA("anteriorVTC")


benchmark_registry["Bracci2019.anteriorVTC-rdm"] = _anterior_vtc


DATA_NEEDS = "private"
"""What its benchmarks need (``brainscore list``; :mod:`brainscore_vision.benchmark_data`): Brain-Score's private
files: expected to need its credentials."""
