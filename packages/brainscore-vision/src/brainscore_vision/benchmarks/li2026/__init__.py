"""Benchmark plugin: ``Li2026.{V1,V2,V4,IT}-{ridgecv,rdm,pls}`` (Brain-Score's keys; see :mod:`.benchmark`)."""

from brainscore_vision import benchmark_registry


def _factory(region: str, metric_type: str):
    def build():
        from brainscore_vision.benchmarks.li2026 import benchmark

        if metric_type == "rdm":
            return benchmark.li2026_rsa_benchmark(region)
        return benchmark.li2026_benchmark(region, metric_type)

    return build


for _region in ("V1", "V2", "V4", "IT"):
    for _metric_type in ("ridgecv", "rdm", "pls"):
        benchmark_registry[f"Li2026.{_region}-{_metric_type}"] = _factory(_region, _metric_type)


DATA_NEEDS = "credentials"
"""What its benchmarks need (``brainscore list``; :mod:`brainscore_vision.benchmark_data`): Brain-Score's files,
read unsigned first, then with your AWS credentials (not measured unsigned)."""
