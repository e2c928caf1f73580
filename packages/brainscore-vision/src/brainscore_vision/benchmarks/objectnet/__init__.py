"""Benchmark plugin: ``ObjectNet-top1`` (Brain-Score's registry key; identifier ``BarbuMayo2019-top1``) on a local copy
of ObjectNet (``$BRAINSCORE_OBJECTNET_DIR``); see :mod:`brainscore_vision.benchmarks.objectnet.benchmark`."""

from brainscore_vision import benchmark_registry


def _objectnet():
    from brainscore_vision.benchmarks.objectnet.benchmark import Objectnet

    return Objectnet()


benchmark_registry["ObjectNet-top1"] = _objectnet


DATA_NEEDS = "local:objectnet"
"""What its benchmarks need (``brainscore list``; :mod:`brainscore_vision.benchmark_data`): ObjectNet, from
$BRAINSCORE_OBJECTNET_DIR."""
