"""Brain-Score's five private core benchmarks: the same code as their public variants
(:mod:`brainscore_vision.benchmarks.public_reference`) on the private half of the data, which needs Brain-Score
credentials (``data/majajhong2015``, ``data/freemanziemba2013``, ``data/rajalingham2018`` register it by reference).

``MajajHong2015.{V4,IT}-pls``
    ``MajajHong2015.private`` (on ``hvm-private``), 70-170 ms, 8 degrees, 50 trials, ``pls`` stratified on
    ``object_name``, ``internal_consistency`` of the repetitions; version 4, parent the region.
``FreemanZiemba2013.{V1,V2}-pls``
    ``FreemanZiemba2013.private`` (on ``FreemanZiemba2013.aperture-private``), the 1-ms bins of 50-200 ms averaged,
    4 degrees, 20 trials, ``pls`` stratified on ``texture_type``; version 3, parent the region.
``Rajalingham2018-i2n``
    ``Rajalingham2018.private`` (on ``objectome.private``), fitted on ``objectome.public``, ``i2n`` ceiled per split
    by ``raw / sqrt(ceiling)``; the ceiling without ``skipna`` (Brain-Score's private benchmark); version 2, parent
    behavior.
"""

from __future__ import annotations

from brainscore_vision.benchmark_helpers.neural_common import NeuralBenchmark
from brainscore_vision.benchmarks.public_reference.benchmark import (
    Rajalingham2018PublicI2n,
    _public_pls,
    load_freemanziemba2013,
    load_majajhong2015,
)
from brainscore_vision.data_helpers.bibtex import FREEMANZIEMBA_BIBTEX, MAJAJHONG_BIBTEX

__all__ = ["DicarloMajajHong2015ITPLS", "DicarloMajajHong2015V4PLS", "DicarloRajalingham2018I2n",
           "FreemanZiemba2013PrivatePLS", "MajajHong2015PrivatePLS", "MovshonFreemanZiemba2013V1PLS",
           "MovshonFreemanZiemba2013V2PLS"]


def MajajHong2015PrivatePLS(region: str) -> NeuralBenchmark:
    """``MajajHong2015.<region>-pls`` on the private recordings."""
    return _public_pls(f"MajajHong2015.{region}-pls", region,
                       lambda average: load_majajhong2015(average, region, access="private"),
                       stratification_coord="object_name", visual_degrees=8, number_of_trials=50, version=4,
                       timebins=[(70, 170)], bibtex=MAJAJHONG_BIBTEX)


def FreemanZiemba2013PrivatePLS(region: str) -> NeuralBenchmark:
    """``FreemanZiemba2013.<region>-pls`` on the private recordings."""
    return _public_pls(f"FreemanZiemba2013.{region}-pls", region,
                       lambda average: load_freemanziemba2013(average, region, access="private"),
                       stratification_coord="texture_type", visual_degrees=4, number_of_trials=20, version=3,
                       timebins=[(50, 200)], bibtex=FREEMANZIEMBA_BIBTEX)


# -- Brain-Score's names (its modules benchmarks.majajhong2015.benchmark, freemanziemba2013.benchmarks.benchmark,
# rajalingham2018.benchmarks.benchmark re-export these) -------------------------------------------------------------
def DicarloMajajHong2015V4PLS() -> NeuralBenchmark:
    return MajajHong2015PrivatePLS("V4")


def DicarloMajajHong2015ITPLS() -> NeuralBenchmark:
    return MajajHong2015PrivatePLS("IT")


def MovshonFreemanZiemba2013V1PLS() -> NeuralBenchmark:
    return FreemanZiemba2013PrivatePLS("V1")


def MovshonFreemanZiemba2013V2PLS() -> NeuralBenchmark:
    return FreemanZiemba2013PrivatePLS("V2")


def DicarloRajalingham2018I2n() -> Rajalingham2018PublicI2n:
    return Rajalingham2018PublicI2n(access="private")
