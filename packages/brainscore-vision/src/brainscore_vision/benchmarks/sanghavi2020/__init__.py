"""Benchmark plugin: ``{Sanghavi2020,SanghaviJozwik2020,SanghaviMurty2020}.{V4,IT}-pls`` (Brain-Score's keys; see
:mod:`.benchmark`)."""

from brainscore_vision import benchmark_registry


def _factory(dataset: str, region: str):
    def build():
        from brainscore_vision.benchmarks.sanghavi2020.benchmark import sanghavi_benchmark

        return sanghavi_benchmark(dataset, region)

    return build


for _dataset in ("Sanghavi2020", "SanghaviJozwik2020", "SanghaviMurty2020"):
    for _region in ("V4", "IT"):
        benchmark_registry[f"{_dataset}.{_region}-pls"] = _factory(_dataset, _region)


DATA_NEEDS = "private"
"""What its benchmarks need (``brainscore list``; :mod:`brainscore_vision.benchmark_data`): Brain-Score's private
files: expected to need its credentials."""
