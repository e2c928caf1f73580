"""Benchmark plugin: ``Igustibagus2024-ridge`` and ``Igustibagus2024.IT_readout-accuracy`` (Brain-Score's keys; see
:mod:`.domain_transfer_neural`, :mod:`.domain_transfer_analysis`)."""

from brainscore_vision import benchmark_registry


def _ridge():
    from brainscore_vision.benchmarks.igustibagus2024.domain_transfer_neural import Igustibagus2024_ridge

    return Igustibagus2024_ridge()


def _readout():
    from brainscore_vision.benchmarks.igustibagus2024.domain_transfer_analysis import OOD_AnalysisBenchmark

    return OOD_AnalysisBenchmark()


benchmark_registry["Igustibagus2024-ridge"] = _ridge
benchmark_registry["Igustibagus2024.IT_readout-accuracy"] = _readout


DATA_NEEDS = "private"
"""What its benchmarks need (``brainscore list``; :mod:`brainscore_vision.benchmark_data`): Brain-Score's private
files: expected to need its credentials."""
