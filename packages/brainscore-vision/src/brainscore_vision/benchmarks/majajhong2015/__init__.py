"""Brain-Score's import path ``brainscore_vision.benchmarks.majajhong2015``: the public MajajHong2015 benchmarks
(data from Brain-Score's public bucket). The private-data benchmarks (``DicarloMajajHong2015{V4,IT}PLS``) are not here.
Nothing is registered here: the benchmarks register through the ``public_reference`` plugin's entry point.
"""

from brainscore_vision.benchmarks.public_reference.benchmark import MAJAJHONG_BIBTEX as BIBTEX
from brainscore_vision.benchmarks.public_reference.benchmark import (
    MajajHongITPublicBenchmark,
    MajajHongV4PublicBenchmark,
)
from brainscore_vision.benchmarks.public_reference.benchmark import load_majajhong2015 as load_assembly

VISUAL_DEGREES = 8
NUMBER_OF_TRIALS = 50

__all__ = ["BIBTEX", "MajajHongITPublicBenchmark", "MajajHongV4PublicBenchmark", "NUMBER_OF_TRIALS", "VISUAL_DEGREES", "load_assembly"]
