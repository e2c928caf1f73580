"""Benchmark plugin: Islam et al. (2021) factor dimensionality, Brain-Score's 8 registry keys
``Islam2021-<factor>_<region>_dimensionality`` (identifiers ``Islam2021-<REGION>_<factor>_dimensionality``); see
:mod:`brainscore_vision.benchmarks.islam2021.benchmark`."""

from brainscore_vision import benchmark_registry


def _factory(region: str, factor: str):
    def build():
        from brainscore_vision.benchmarks.islam2021.benchmark import Islam2021Dimensionality

        return Islam2021Dimensionality(region, factor)

    return build


for _region in ("V1", "V2", "V4", "IT"):
    for _factor in ("shape", "texture"):
        benchmark_registry[f"Islam2021-{_factor}_{_region.lower()}_dimensionality"] = _factory(_region, _factor)


DATA_NEEDS = "credentials"
"""What its benchmarks need (``brainscore list``; :mod:`brainscore_vision.benchmark_data`): Brain-Score's files,
read unsigned first, then with your AWS credentials (not measured unsigned)."""
