"""Reverse predictivity on MajajHong2015's public data (Muzellec & Kar): ``MajajHong2015public.{V4,IT}-reverse_pls``.

As Brain-Score defines them: a :class:`~brainscore_vision.benchmark_helpers.neural_common.NeuralBenchmark` on the
repetition-averaged ``MajajHong2015.public`` recordings of the region (70-170 ms), 8 degrees, 50 trials; metric
``reverse_pls`` (PLS from the recordings to every model feature, 10 splits stratified on ``object_name``, the median
over model features of the test r; :class:`brainscore_metrics.reverse_predictivity.ReversePredictivity`); ceiling
``predictor_consistency`` (split-half consistency of the repetitions, Spearman-Brown corrected); score
``raw^2 / ceiling``; version 4. The data load from Brain-Score's public bucket (network).
"""

from __future__ import annotations

from brainscore_vision import load_ceiling, load_metric
from brainscore_vision.benchmark_helpers.neural_common import NeuralBenchmark
from brainscore_vision.benchmarks.public_reference.benchmark import majajhong_assembly
from brainscore_vision.utils import LazyLoad

__all__ = ["BIBTEX", "MajajHongITPublicBenchmark", "MajajHongV4PublicBenchmark", "reverse_predictivity_benchmark"]

BIBTEX = """@article{muzellec2025reverse,
  title = {Reverse Predictivity: Going Beyond One-Way Mapping to Compare Artificial Neural Network Models and Brains},
  author = {Muzellec, Sabine and Kar, Kohitij},
  journal = {bioRxiv}, year = {2025}
}"""
VISUAL_DEGREES = 8
NUMBER_OF_TRIALS = 50


def reverse_predictivity_benchmark(region: str, assembly=None) -> NeuralBenchmark:
    """``MajajHong2015public.<region>-reverse_pls``; ``assembly`` (default None: ``MajajHong2015.public``) holds the
    trials of both regions."""
    repetitions = LazyLoad(lambda: majajhong_assembly(region, average_repetitions=False, assembly=assembly))
    ceiler = load_ceiling("predictor_consistency")
    return NeuralBenchmark(
        identifier=f"MajajHong2015public.{region}-reverse_pls", version=4,
        assembly=LazyLoad(lambda: majajhong_assembly(region, average_repetitions=True, assembly=assembly)),
        similarity_metric=load_metric("reverse_pls", crossvalidation_kwargs={"stratification_coord": "object_name"}),
        visual_degrees=VISUAL_DEGREES, number_of_trials=NUMBER_OF_TRIALS, ceiling_func=lambda: ceiler(repetitions),
        parent=region, bibtex=BIBTEX, region=region, timebins=[(70, 170)])


def MajajHongV4PublicBenchmark() -> NeuralBenchmark:
    return reverse_predictivity_benchmark("V4")


def MajajHongITPublicBenchmark() -> NeuralBenchmark:
    return reverse_predictivity_benchmark("IT")
