"""Benchmark plugin: reverse predictivity (muzellec2026) on MajajHong2015.public, Brain-Score's identifiers
``MajajHong2015public.{V4,IT}-reverse_pls``."""

from brainscore_vision import benchmark_registry


def _factory(region: str):
    def build():
        from brainscore_vision.benchmarks.muzellec2026.benchmark import reverse_predictivity_benchmark

        return reverse_predictivity_benchmark(region)

    return build


for _region in ("V4", "IT"):
    benchmark_registry[f"MajajHong2015public.{_region}-reverse_pls"] = _factory(_region)


DATA_NEEDS = "network"
"""What its benchmarks need (``brainscore list``; :mod:`brainscore_vision.benchmark_data`): Brain-Score's public
files, fetched from its bucket on first use."""
