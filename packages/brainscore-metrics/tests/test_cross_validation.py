"""Cross-validation over labelled assemblies (brainscore_metrics.cross_validation, Brain-Score's
``metric_helpers.transformations`` names): the splits are scikit-learn's on the same values, the aggregate is the mean
over splits with the population standard error, computed here by hand with numpy."""

import numpy as np
import pytest
import xarray as xr
from sklearn.model_selection import KFold, ShuffleSplit, StratifiedShuffleSplit

from brainscore_core.metrics import Score
from brainscore_metrics.cross_validation import (
    CrossValidation,
    CrossValidationSingle,
    Split,
    TestOnlyCrossValidation,
    extract_coord,
)
from brainscore_metrics.errors import MissingCoordinateError, SplitValueMismatchError


def _assembly(n=40, seed=0, repeats=1):
    rng = np.random.default_rng(seed)
    ids = np.array([f"im{i:03d}" for i in range(n)])
    objects = np.array([f"obj{i % 4}" for i in range(n)])
    order = rng.permutation(n)
    ids, objects = np.tile(ids[order], repeats), np.tile(objects[order], repeats)
    return xr.DataArray(rng.standard_normal((n * repeats, 3)), dims=["presentation", "neuroid"],
                        coords={"stimulus_id": ("presentation", ids), "object_name": ("presentation", objects),
                                "neuroid_id": ("neuroid", ["a", "b", "c"])})


def test_splits_are_scikit_learns_on_the_targets_values_and_the_score_is_their_mean_with_the_standard_error():
    source, target = _assembly(seed=1), _assembly(seed=2)  # same stimuli, other order
    seen = []

    def apply(source_train, target_train, source_test, target_test):
        assert sorted(source_train["stimulus_id"].values) == sorted(target_train["stimulus_id"].values)
        seen.append((set(target_train["stimulus_id"].values), set(target_test["stimulus_id"].values)))
        return Score(float(target_test.values.mean()))

    score = CrossValidation(splits=3)(source, target, apply=apply)
    ids = target["stimulus_id"].values
    expected = list(StratifiedShuffleSplit(n_splits=3, train_size=0.9, random_state=1).split(
        np.zeros(len(ids)), target["object_name"].values))
    assert seen == [(set(ids[train]), set(ids[test])) for train, test in expected]
    per_split = np.array([target.values[test].mean() for _, test in expected])
    assert float(score) == pytest.approx(per_split.mean(), rel=1e-12)
    assert float(score.attrs["error"]) == pytest.approx(per_split.std() / np.sqrt(3), rel=1e-12)
    np.testing.assert_allclose(score.attrs["raw"].values, per_split, rtol=1e-12)


def test_single_assembly_kfold_on_unique_values_keeps_repetitions_together():
    assembly = _assembly(n=12, repeats=2)
    unique = np.unique(assembly["stimulus_id"].values)
    expected = list(KFold(n_splits=3, shuffle=True, random_state=1).split(unique))
    values, pairs = Split(splits=3, kfold=True, stratification_coord=None, unique_split_values=True).build_splits(
        assembly)
    np.testing.assert_array_equal(values.values, unique)
    for (train, test), (expected_train, expected_test) in zip(pairs, expected, strict=True):
        np.testing.assert_array_equal(train, expected_train)
        np.testing.assert_array_equal(test, expected_test)
    tests = []
    CrossValidationSingle(splits=3, stratification_coord=None, unique_split_values=True)(
        assembly, apply=lambda train, test: tests.append(sorted(test["stimulus_id"].values)) or Score(0.0))
    shuffled = ShuffleSplit(n_splits=3, train_size=0.9, random_state=1).split(np.zeros(len(unique)))
    assert tests == [sorted(np.repeat(unique[test], 2)) for _, test in shuffled]  # both repetitions of each


def test_test_only_form_sees_the_test_parts():
    source, target = _assembly(seed=1), _assembly(seed=2)
    sizes = []
    TestOnlyCrossValidation(splits=2)(source, target, apply=lambda a, b: sizes.append((a.sizes["presentation"],
                                                                                      b.sizes["presentation"]))
                                      or Score(1.0))
    assert sizes == [(4, 4), (4, 4)]  # 10 % of 40 stimuli


def test_bad_inputs_name_the_coordinate():
    without_objects = _assembly().drop_vars("object_name")
    with pytest.raises(MissingCoordinateError, match="object_name") as caught:
        Split().build_splits(without_objects)
    assert isinstance(caught.value, KeyError)
    with pytest.raises(SplitValueMismatchError, match="stimulus_id") as mismatch:
        CrossValidation()(_assembly(n=40), _assembly(n=44), apply=lambda *parts: Score(0.0))
    assert isinstance(mismatch.value, ValueError)
    two_dims = xr.DataArray(np.zeros((2, 2)), dims=["a", "b"], coords={"c": (("a", "b"), [["x", "y"], ["z", "w"]])})
    with pytest.raises(MissingCoordinateError, match="one dim expected"):
        extract_coord(two_dims, "c")
