"""Cross-validation over labelled assemblies, under Brain-Score's names (its ``metric_helpers.transformations``), for
plugin code that builds its own metrics from them; the splits are :class:`~brainscore_metrics.splits.StimulusSplitter`'s.

``CrossValidation()(source, target, apply=fn)`` calls ``fn(source_train, target_train, source_test, target_test)``
on each split and returns the mean over splits with ``attrs['error']`` = standard error of the mean and
``attrs['raw']`` = the per-split scores (dim ``split``). ``CrossValidationSingle()(assembly, apply=fn)`` calls
``fn(train, test)``. :class:`Split` holds Brain-Score's defaults (10 splits, 90 % train, ``random_state=1``,
stratified on ``object_name``) and hands them to the splitter, so the same data give Brain-Score's splits. This
package's own metrics split through :func:`~brainscore_metrics.splits.cross_validation_indices` on plain arrays.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from typing import Any

import numpy as np
import xarray as xr

from brainio.transform import subset
from brainscore_core.metrics import Score
from brainscore_core.progress import progress
from brainscore_metrics.errors import MissingCoordinateError, SplitValueMismatchError
from brainscore_metrics.splits import StimulusSplitter

__all__ = ["CrossValidation", "CrossValidationSingle", "Split", "TestOnlyCrossValidation",
           "TestOnlyCrossValidationSingle", "apply_aggregate", "enumerate_done", "extract_coord",
           "standard_error_of_the_mean"]


def apply_aggregate(aggregate_fnc: Callable[[Any], Any], values):
    """``aggregate_fnc(values)`` as a Score, keeping the rawest values in ``attrs['raw']``."""
    score = aggregate_fnc(values)
    score = score if isinstance(score, Score) else Score(score)
    if Score.RAW_VALUES_KEY not in score.attrs:
        score.attrs[Score.RAW_VALUES_KEY] = values.attrs.get(Score.RAW_VALUES_KEY, values) \
            if hasattr(values, "attrs") else values
    return score


def standard_error_of_the_mean(values, dim: str):
    """Population standard deviation over ``dim`` divided by the square root of its length."""
    return values.std(dim) / math.sqrt(len(values[dim]))


def enumerate_done(values) -> Iterable[tuple[int, Any, bool]]:
    """``(index, value, is_last)`` for every value."""
    for index, value in enumerate(values):
        yield index, value, index == len(values) - 1


def extract_coord(assembly, coord: str, unique: bool = False):
    """``coord``'s values as a DataArray along the coordinate's dim (sorted unique values when asked), and the
    positions they come from."""
    values = np.asarray(assembly[coord].values)
    if unique:
        values, indices = np.unique(values, return_index=True)
    else:
        indices = np.arange(len(values))
    dims = assembly[coord].dims
    if len(dims) != 1:
        raise MissingCoordinateError(coord, message=f"coordinate {coord!r} lies on dims {dims}; one dim expected")
    return xr.DataArray(values, coords={coord: (dims[0], values)}, dims=[dims[0]]), list(indices)


class Split:
    """Brain-Score's split maker: ``splits`` shuffle splits (or k folds), stratified on ``stratification_coord``.

    Parameters as Brain-Score's (defaults: ``splits=10``, ``train_size=0.9``, ``split_coord='stimulus_id'``,
    ``stratification_coord='object_name'``, ``unique_split_values=False``, ``random_state=1``, ``kfold=False``).
    The splits are :class:`~brainscore_metrics.splits.StimulusSplitter`'s with these parameters; unlike the splitter,
    a stratification coordinate that is set must be there (a :class:`MissingCoordinateError` names it).
    """

    class Defaults:
        splits = 10
        train_size = .9
        split_coord = "stimulus_id"
        stratification_coord = "object_name"
        unique_split_values = False
        random_state = 1

    def __init__(self, splits=Defaults.splits, train_size=None, test_size=None, split_coord=Defaults.split_coord,
                 stratification_coord=Defaults.stratification_coord, kfold=False,
                 unique_split_values=Defaults.unique_split_values, random_state=Defaults.random_state,
                 preprocess_indices=None):
        self._splitter = StimulusSplitter(splits, train_size=train_size, test_size=test_size, split_coord=split_coord,
                                          stratification_coord=stratification_coord or None,
                                          unique_split_values=unique_split_values, random_state=random_state,
                                          kfold=kfold, preprocess_indices=preprocess_indices)

    @property
    def do_stratify(self) -> bool:
        return bool(self._splitter.stratification_coord)

    def build_splits(self, assembly):
        """``(split values, [(train indices, test indices), ...])`` over ``assembly``'s ``split_coord``."""
        coord = self._splitter.stratification_coord
        if self.do_stratify and not self._splitter.stratifies(assembly):
            raise MissingCoordinateError(coord, message=f"assembly has no stratification coordinate {coord!r}; pass "
                                                        "stratification_coord=None to split without stratifying")
        values, _ = extract_coord(assembly, self._splitter.split_coord, unique=self._splitter.unique_split_values)
        return values, self._splitter.split_values(assembly)[1]

    @classmethod
    def aggregate(cls, values):
        """Mean over ``split``; ``attrs['error']`` = standard error of the mean over splits."""
        score = apply_aggregate(lambda scores: scores.mean("split"), values)
        score.attrs["error"] = standard_error_of_the_mean(values, "split")
        return score


def _cross_validate(split: Split, splits: list, score_split: Callable[[np.ndarray, np.ndarray], Any],
                    aggregate: Callable | None) -> Score:
    """``score_split(train indices, test indices)`` on every split (with a progress bar), the scores stacked along
    ``split``, then ``aggregate`` (when given) and the split aggregate (mean, error = standard error)."""
    scores = [score_split(train, test) for train, test in progress(splits, desc="cross-validation", unit="split")]
    stacked = [Score(score).expand_dims("split").assign_coords(split=[index]) for index, score in enumerate(scores)]
    merged = Score(xr.concat(stacked, dim="split"))
    merged = apply_aggregate(aggregate, merged) if aggregate is not None else merged
    return apply_aggregate(split.aggregate, merged)


class CrossValidationSingle:
    """Cross-validation over one assembly: ``apply(train, test)`` per split, then :meth:`Split.aggregate`."""

    def __init__(self, splits=Split.Defaults.splits, train_size=None, test_size=None,
                 split_coord=Split.Defaults.split_coord, stratification_coord=Split.Defaults.stratification_coord,
                 unique_split_values=Split.Defaults.unique_split_values, random_state=Split.Defaults.random_state):
        self._split = Split(splits=splits, split_coord=split_coord, stratification_coord=stratification_coord,
                            unique_split_values=unique_split_values, train_size=train_size, test_size=test_size,
                            random_state=random_state)

    def __call__(self, assembly, *, apply: Callable, aggregate: Callable | None = None) -> Score:
        values, splits = self._split.build_splits(assembly)
        return _cross_validate(self._split, splits, lambda train, test: apply(
            subset(assembly, values[train], dims_must_match=False),
            subset(assembly, values[test], dims_must_match=False)), aggregate)

    def aggregate(self, score):
        return self._split.aggregate(score)


class CrossValidation:
    """Cross-validation over a source and a target: ``apply(source_train, target_train, source_test, target_test)``
    per split (splits built on the target), then :meth:`Split.aggregate`."""

    def __init__(self, *args, split_coord=Split.Defaults.split_coord,
                 stratification_coord=Split.Defaults.stratification_coord, preprocess_indices=None, **kwargs):
        self._split_coord = split_coord
        self._stratification_coord = stratification_coord
        self._split = Split(*args, split_coord=split_coord, stratification_coord=stratification_coord, **kwargs)
        self._preprocess_indices = preprocess_indices

    def __call__(self, source, target, *, apply: Callable, aggregate: Callable | None = None) -> Score:
        source_values = sorted(np.asarray(source[self._split_coord].values).tolist())
        if source_values != sorted(np.asarray(target[self._split_coord].values).tolist()):
            raise SplitValueMismatchError(f"source and target must hold the same {self._split_coord!r} values")
        values, splits = self._split.build_splits(target)

        def score_split(train_indices, test_indices):
            if self._preprocess_indices is not None:
                train_indices, test_indices = self._preprocess_indices(train_indices, test_indices, source)
            train_values, test_values = values[train_indices], values[test_indices]
            return apply(subset(source, train_values, dims_must_match=False),
                         subset(target, train_values, dims_must_match=False),
                         subset(source, test_values, dims_must_match=False),
                         subset(target, test_values, dims_must_match=False))

        return _cross_validate(self._split, splits, score_split, aggregate)

    def aggregate(self, score):
        return self._split.aggregate(score)


class TestOnlyCrossValidationSingle:
    """:class:`CrossValidationSingle` whose ``apply`` sees only the test part."""

    __test__ = False  # not a pytest test class

    def __init__(self, *args, **kwargs):
        self._cross_validation = CrossValidationSingle(*args, **kwargs)

    def __call__(self, *args, apply: Callable, **kwargs) -> Score:
        return self._cross_validation(*args, apply=lambda train, test: apply(test), **kwargs)


class TestOnlyCrossValidation:
    """:class:`CrossValidation` whose ``apply`` sees only the two test parts."""

    __test__ = False  # not a pytest test class

    def __init__(self, *args, **kwargs):
        self._cross_validation = CrossValidation(*args, **kwargs)

    def __call__(self, *args, apply: Callable, **kwargs) -> Score:
        return self._cross_validation(*args, apply=lambda train1, train2, test1, test2: apply(test1, test2), **kwargs)
