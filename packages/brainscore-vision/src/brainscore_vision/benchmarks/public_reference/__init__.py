"""Benchmark plugin: Brain-Score's benchmarks on its public data (MajajHong2015, FreemanZiemba2013), loading the
data by reference from its public bucket. Registered under Brain-Score's keys (``MajajHong2015public.V4-pls``) and,
for MajajHong2015, also as ``MajajHong2015.public.V4-pls``."""

from brainscore_vision import benchmark_registry


def _factory(kind: str, region: str):
    def build():
        from brainscore_vision.benchmarks.public_reference import benchmark

        return getattr(benchmark, kind)(region) if region is not None else getattr(benchmark, kind)()

    return build


for _region in ("V4", "IT"):
    benchmark_registry[f"MajajHong2015public.{_region}-pls"] = _factory("MajajHong2015PublicPLS", _region)
    benchmark_registry[f"MajajHong2015.public.{_region}-pls"] = _factory("MajajHong2015PublicPLS", _region)
    benchmark_registry[f"MajajHong2015public.{_region}-temporal-pls"] = _factory("MajajHong2015PublicTemporalPLS",
                                                                                 _region)
benchmark_registry["Rajalingham2018public-i2n"] = lambda: _factory("Rajalingham2018PublicI2n", None)()
for _region in ("V1", "V2"):
    benchmark_registry[f"FreemanZiemba2013public.{_region}-pls"] = _factory("FreemanZiemba2013PublicPLS", _region)


DATA_NEEDS = "network"
"""What its benchmarks need (``brainscore list``; :mod:`brainscore_vision.benchmark_data`): Brain-Score's public
files, fetched from its bucket on first use."""
