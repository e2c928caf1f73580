"""Benchmark plugin: V4 predictivity on Cowley et al. (2023) (``Cowley2023.V4-pls``, ``Cowley2023.V4-ridge``).

Registered through the ``brainscore_benchmarks`` hook (the data plugin next door uses the Brain-Score
style of assigning into the registries; both are found through the same entry-point group).
"""

from brainscore_core import hookimpl


def _pls():
    from brainscore_vision.benchmarks.cowley2023.benchmark import Cowley2023V4PLS

    return Cowley2023V4PLS()


def _ridge():
    from brainscore_vision.benchmarks.cowley2023.benchmark import Cowley2023V4Ridge

    return Cowley2023V4Ridge()


@hookimpl
def brainscore_benchmarks():
    # factories that import the benchmark module when called: discovery imports no PIL, pandas or xarray
    return {"Cowley2023.V4-pls": _pls, "Cowley2023.V4-ridge": _ridge}


DATA_NEEDS = "shipped"
"""What its benchmarks need (``brainscore list``; :mod:`brainscore_vision.benchmark_data`): the recordings are in
$BRAINSCORE_RAW_DATA, packaged on first use."""
