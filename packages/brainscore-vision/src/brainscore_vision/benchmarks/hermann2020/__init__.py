"""Benchmark plugin: ``Hermann2020cueconflict-shape_bias`` and ``-shape_match`` (Brain-Score's identifiers), on the
shipped Geirhos2021 cue-conflict images."""

from brainscore_vision import benchmark_registry


def _factory(kind: str):
    def build():
        from brainscore_vision.benchmarks.hermann2020 import benchmark

        return benchmark.Hermann2020ShapeBias() if kind == "shape_bias" else benchmark.Hermann2020ShapeMatch()

    return build


benchmark_registry["Hermann2020cueconflict-shape_bias"] = _factory("shape_bias")
benchmark_registry["Hermann2020cueconflict-shape_match"] = _factory("shape_match")


DATA_NEEDS = "shipped"
"""What its benchmarks need (``brainscore list``; :mod:`brainscore_vision.benchmark_data`): the recordings are in
$BRAINSCORE_RAW_DATA, packaged on first use."""
