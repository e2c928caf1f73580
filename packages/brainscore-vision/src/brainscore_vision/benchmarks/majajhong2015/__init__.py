"""Brain-Score's import path ``brainscore_vision.benchmarks.majajhong2015``: the public MajajHong2015 benchmarks
(data from Brain-Score's public bucket) and the private-data ones (``DicarloMajajHong2015{V4,IT}PLS``, Brain-Score
credentials). Nothing is registered here: the benchmarks register through the ``public_reference`` and
``private_core`` plugins' entry points.
"""

from brainscore_vision.benchmarks.private_core.benchmark import (
    DicarloMajajHong2015ITPLS,
    DicarloMajajHong2015V4PLS,
)
from brainscore_vision.benchmarks.public_reference.benchmark import (
    MajajHongITPublicBenchmark,
    MajajHongV4PublicBenchmark,
)
from brainscore_vision.benchmarks.public_reference.benchmark import load_majajhong2015 as load_assembly
from brainscore_vision.data_helpers.bibtex import MAJAJHONG_BIBTEX as BIBTEX

VISUAL_DEGREES = 8
NUMBER_OF_TRIALS = 50

__all__ = ["BIBTEX", "DicarloMajajHong2015ITPLS", "DicarloMajajHong2015V4PLS", "MajajHongITPublicBenchmark", "MajajHongV4PublicBenchmark", "NUMBER_OF_TRIALS", "VISUAL_DEGREES", "load_assembly"]
