"""Benchmark plugin: RSA on the 92 images (``Kriegeskorte2008.hIT-rdm``, ``Kiani2007.mIT-rdm``).

Registered the Brain-Score way, by assigning factories into ``benchmark_registry``.
"""

from brainscore_vision import benchmark_registry


def _human():
    from brainscore_vision.benchmarks.kriegeskorte2008.benchmark import Kriegeskorte2008hITRDM

    return Kriegeskorte2008hITRDM()


def _monkey():
    from brainscore_vision.benchmarks.kriegeskorte2008.benchmark import Kiani2007mITRDM

    return Kiani2007mITRDM()


benchmark_registry["Kriegeskorte2008.hIT-rdm"] = _human
benchmark_registry["Kiani2007.mIT-rdm"] = _monkey


DATA_NEEDS = "shipped"
"""What its benchmarks need (``brainscore list``; :mod:`brainscore_vision.benchmark_data`): the recordings are in
$BRAINSCORE_RAW_DATA, packaged on first use."""
