"""Benchmark plugin: ``Cadena2017-pls`` and ``Cadena2017-mask`` (Brain-Score's keys; see :mod:`.benchmark`)."""

from brainscore_vision import benchmark_registry


def _factory(name: str):
    def build():
        from brainscore_vision.benchmarks.cadena2017 import benchmark

        return getattr(benchmark, name)()

    return build


benchmark_registry["Cadena2017-pls"] = _factory("ToliasCadena2017PLS")
benchmark_registry["Cadena2017-mask"] = _factory("ToliasCadena2017Mask")


DATA_NEEDS = "credentials"
"""What its benchmarks need (``brainscore list``; :mod:`brainscore_vision.benchmark_data`): Brain-Score's files,
read unsigned first, then with your AWS credentials (not measured unsigned)."""
