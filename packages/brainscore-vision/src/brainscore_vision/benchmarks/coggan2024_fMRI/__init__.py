"""Benchmark plugin: fMRI RSA of Coggan & Tong (2024), ``tong.Coggan2024_fMRI.{V1,V2,V4,IT}-rdm``.

Registered the Brain-Score way, by assigning factories into ``benchmark_registry``.
"""

from brainscore_vision import benchmark_registry

REGIONS = ("V1", "V2", "V4", "IT")


def _factory(region: str):
    def build():
        from brainscore_vision.benchmarks.coggan2024_fMRI.benchmark import Coggan2024fMRIRSA

        return Coggan2024fMRIRSA(region)

    return build


for _region in REGIONS:
    benchmark_registry[f"tong.Coggan2024_fMRI.{_region}-rdm"] = _factory(_region)


DATA_NEEDS = "shipped"
"""What its benchmarks need (``brainscore list``; :mod:`brainscore_vision.benchmark_data`): the recordings are in
$BRAINSCORE_RAW_DATA, packaged on first use."""
