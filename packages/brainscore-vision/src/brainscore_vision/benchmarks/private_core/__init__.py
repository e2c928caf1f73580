"""Benchmark plugin: Brain-Score's private core benchmarks ``MajajHong2015.{V4,IT}-pls``,
``FreemanZiemba2013.{V1,V2}-pls`` and ``Rajalingham2018-i2n`` (Brain-Score's keys; see :mod:`.benchmark`)."""

from brainscore_vision import benchmark_registry


def _factory(name: str):
    def build():
        from brainscore_vision.benchmarks.private_core import benchmark

        return getattr(benchmark, name)()

    return build


benchmark_registry["MajajHong2015.V4-pls"] = _factory("DicarloMajajHong2015V4PLS")
benchmark_registry["MajajHong2015.IT-pls"] = _factory("DicarloMajajHong2015ITPLS")
benchmark_registry["FreemanZiemba2013.V1-pls"] = _factory("MovshonFreemanZiemba2013V1PLS")
benchmark_registry["FreemanZiemba2013.V2-pls"] = _factory("MovshonFreemanZiemba2013V2PLS")
benchmark_registry["Rajalingham2018-i2n"] = _factory("DicarloRajalingham2018I2n")


DATA_NEEDS = "private"
"""What its benchmarks need (``brainscore list``; :mod:`brainscore_vision.benchmark_data`): Brain-Score's private
files: expected to need its credentials."""
