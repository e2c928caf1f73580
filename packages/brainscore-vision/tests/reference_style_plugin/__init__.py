"""A plugin written the way Brain-Score's plugins are: every helper it imports comes from Brain-Score's import
paths. Used by ``test_reference_import_paths.py``; registered into the registries the Brain-Score way."""

from scipy.stats import pearsonr
from sklearn.cross_decomposition import PLSRegression

from brainscore_core.metrics import Metric, Score
from brainscore_vision import metric_registry
from brainscore_vision.benchmark_helpers import PrecomputedFeatures, bound_score, check_standard_format
from brainscore_vision.benchmark_helpers.screen import ImageConverter, place_on_screen
from brainscore_vision.benchmark_helpers.test_helper import (
    NumberOfTrialsTests,
    PrecomputedTests,
    StandardizedTests,
)
from brainscore_vision.benchmarks import BenchmarkBase
from brainscore_vision.metric_helpers import Defaults
from brainscore_vision.metric_helpers.temporal import PerTime, SpanTime, SpanTimeRegression
from brainscore_vision.metric_helpers.transformations import (
    CrossValidation,
    CrossValidationSingle,
    apply_aggregate,
    extract_coord,
    standard_error_of_the_mean,
)
from brainscore_vision.metric_helpers.xarray_utils import (
    XarrayCorrelation,
    XarrayRegression,
    map_target_to_source,
)
from brainscore_vision.utils import LazyLoad, fullname

__all__ = ["PLSLikeBrainScore", "SelfConsistency", "build_benchmark", "mapped_order", "precomputed", "sem",
           "stimulus_values", "STIMULUS_COORD"]

STIMULUS_COORD = Defaults.stimulus_coord


class PLSLikeBrainScore(Metric):
    """Brain-Score's regression-correlation recipe: cross-validation, labelled PLS, per-neuroid Pearson."""

    def __init__(self):
        self._cross_validation = CrossValidation(stratification_coord=None, splits=4)
        self.name = fullname(self)

    def __call__(self, source, target):
        def fit_and_score(source_train, target_train, source_test, target_test):
            regression = XarrayRegression(PLSRegression(n_components=2, scale=False))
            regression.fit(source_train, target_train)
            return XarrayCorrelation(pearsonr)(regression.predict(source_test), target_test)

        return self._cross_validation(source, target, apply=fit_and_score,
                                      aggregate=lambda scores: scores.median(Defaults.neuroid_dim))


class SelfConsistency(Metric):
    """Single-assembly cross-validation: mean of the test halves' first neuroid (a simple, checkable statistic)."""

    def __call__(self, assembly, _unused=None):
        single = CrossValidationSingle(stratification_coord=None, splits=3)
        return single(assembly, apply=lambda train, test: Score(float(test.values[:, 0].mean())))


def sem(values, dim):
    return standard_error_of_the_mean(values, dim)


def stimulus_values(assembly):
    return extract_coord(assembly, STIMULUS_COORD)[0]


def mapped_order(source, target):
    return map_target_to_source(source, target, STIMULUS_COORD)


def per_time(function):
    return PerTime(function)


def folded(assembly):
    return SpanTime(lambda stacked: stacked)(assembly)


def shared_time_regression(regression):
    return SpanTimeRegression(XarrayRegression(regression))


def converter(folder):
    return ImageConverter(folder)


#: the test-helper classes a plugin's test file uses
TESTS = {"standardized": StandardizedTests(), "precomputed": PrecomputedTests(), "trials": NumberOfTrialsTests()}


def precomputed(features, degrees=8):
    return PrecomputedFeatures(features, visual_degrees=degrees)


class _TinyBenchmark(BenchmarkBase):
    def __init__(self, assembly_loader, stimuli):
        self._assembly = LazyLoad(assembly_loader)
        self._stimuli = stimuli
        super().__init__(identifier="ReferenceStyle.tiny-pls", version=1, ceiling_func=lambda: Score(0.5),
                         parent="IT", bibtex=None)

    def __call__(self, candidate):
        candidate.start_recording("IT", time_bins=[(70, 170)])
        placed = place_on_screen(self._stimuli, target_visual_degrees=candidate.visual_degrees(),
                                 source_visual_degrees=8)
        recordings = candidate.look_at(placed)
        check_standard_format(self._assembly, nans_expected=False)
        raw = PLSLikeBrainScore()(recordings, self._assembly)
        score = apply_aggregate(lambda value: value / self.ceiling, raw)
        return bound_score(score)


def build_benchmark(assembly_loader, stimuli):
    return _TinyBenchmark(assembly_loader, stimuli)


metric_registry["reference_style_pls"] = PLSLikeBrainScore
