"""Dual ridge, reverse predictivity and predictor consistency: kernels against scikit-learn on the same arrays,
backends, parameters and errors. (Brain-Score's own numbers: ``test_newest_reference.py``.)"""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from _newest_inputs import repetition_trials, reverse_pair, split_pair
from conftest import torch_or_skip
from sklearn.cross_decomposition import PLSRegression as SkPLS
from sklearn.linear_model import Ridge as SkRidge
from sklearn.linear_model import RidgeCV as SkRidgeCV

from brainio.assemblies import NeuroidAssembly
from brainscore_metrics._correlation import pearson_columns
from brainscore_metrics._gram import stimulus_gram
from brainscore_metrics._pls_wide_target import pls_wide_target_correlations
from brainscore_metrics.backend import get_backend
from brainscore_metrics.dual_ridge import (
    DualRidgeSplitCorrelation,
    RowStack,
    dual_ridge_predict,
    stacked_gram,
)
from brainscore_metrics.errors import MissingCoordinateError, TooFewFeaturesError
from brainscore_metrics.predictor_consistency import SplitHalfPredictorConsistency
from brainscore_metrics.reverse_predictivity import ReversePredictivity, ReversePredictivitySplit

NP = get_backend("numpy")


def _assembly(values, ids, prefix="n", **presentation):
    coords = {"stimulus_id": ("presentation", list(ids)),
              "neuroid_id": ("neuroid", [f"{prefix}{i}" for i in range(values.shape[1])])}
    coords.update({name: ("presentation", list(v)) for name, v in presentation.items()})
    return NeuroidAssembly(values, coords=coords, dims=["presentation", "neuroid"])


# ---------------------------------------------------------------------------------------------- dual ridge
@pytest.mark.parametrize("p", [600, 60])  # dual (features > training stimuli) and primal
def test_dual_ridge_predictions_equal_scikit_learn(p):
    X_train, X_test, Y_train, _, _, _ = split_pair(p=p)
    ours, _ = dual_ridge_predict(NP, X_train, Y_train, X_test, regression="dual_ridge", alpha=3.0,
                                 precision="float64")
    expected = SkRidge(alpha=3.0).fit(X_train, Y_train).predict(X_test)
    np.testing.assert_allclose(ours, expected, rtol=1e-8, atol=1e-10)


@pytest.mark.parametrize("p", [600, 60])
def test_dual_ridgecv_chooses_scikit_learns_alpha(p):
    X_train, X_test, Y_train, _, _, _ = split_pair(p=p)
    alphas = [0.1, 1.0, 10.0, 100.0, 1000.0, 1e4]
    ours, alpha = dual_ridge_predict(NP, X_train, Y_train, X_test, regression="dual_ridgecv", alphas=alphas,
                                     precision="float64")
    reference = SkRidgeCV(alphas=alphas).fit(X_train, Y_train)
    assert alpha == reference.alpha_
    np.testing.assert_allclose(ours, reference.predict(X_test), rtol=1e-8, atol=1e-10)


def test_float32_source_mixed_precision_stays_close():
    X_train, X_test, Y_train, _, _, _ = split_pair(dtype=np.float32)
    mixed, _ = dual_ridge_predict(NP, X_train, Y_train, X_test, precision="mixed")
    exact = SkRidge(alpha=1.0).fit(X_train.astype(np.float64), Y_train).predict(X_test.astype(np.float64))
    # float32 products of features 30x their spread in the mean, summed in float64 (measured 3e-6 relative)
    np.testing.assert_allclose(mixed, exact, rtol=1e-4, atol=1e-4 * np.abs(exact).max())


def test_stacked_gram_is_the_gram_of_the_concatenation():
    X_train, X_test, *_ = split_pair(p=300)
    stacked = stacked_gram(NP, [X_train, X_test], precision="float64")
    whole = np.concatenate([X_train, X_test])
    centred = whole - whole.mean(axis=0)
    np.testing.assert_allclose(stacked, centred @ centred.T, rtol=1e-10, atol=1e-6)
    assert RowStack([X_train, X_test])[:, 5:9].shape == (len(whole), 4)


def test_dual_ridge_metric_takes_brainscores_arguments():
    X_train, X_test, Y_train, Y_test, train_ids, test_ids = split_pair()
    pairs = (_assembly(X_train, train_ids, "m"), _assembly(X_test, test_ids, "m"), _assembly(Y_train, train_ids),
             _assembly(Y_test, test_ids))
    by_keyword = DualRidgeSplitCorrelation("dual_ridgecv", alphas=[1.0, 1e3])(
        source_train=pairs[0], source_test=pairs[1], target_train=pairs[2], target_test=pairs[3])
    in_kwargs = DualRidgeSplitCorrelation("dual_ridgecv", regression_kwargs={"alphas": [1.0, 1e3]})(*pairs)
    assert float(by_keyword) == float(in_kwargs)
    assert by_keyword.attrs["alpha"] in (1.0, 1e3)
    prediction = SkRidgeCV(alphas=[1.0, 1e3]).fit(X_train, Y_train).predict(X_test)
    r = [np.corrcoef(prediction[:, j], Y_test[:, j])[0, 1] for j in range(Y_test.shape[1])]
    assert float(by_keyword) == pytest.approx(np.median(r), rel=1e-9)
    with pytest.raises(TypeError, match="unknown regression_kwargs"):
        DualRidgeSplitCorrelation(regression_kwargs={"n_components": 3})(*pairs)


# ------------------------------------------------------------------------------------- reverse predictivity
def _splits(n, seed=0):
    rng = np.random.default_rng(seed)
    order = rng.permutation(n)
    return [(np.sort(order[:n - n // 5]), np.sort(order[n - n // 5:])),
            (np.sort(order[n // 5:]), np.sort(order[:n // 5]))]


def test_wide_target_pls_equals_scikit_learn_per_split():
    model, neural, *_ = reverse_pair(n=120, q=30, p=300)
    splits = _splits(120)
    gram = stimulus_gram(NP, model, center="columns", precision="float64")
    r, n_iter = pls_wide_target_correlations(NP, gram, neural, model, splits)
    for index, (train, test) in enumerate(splits):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            sk = SkPLS(n_components=25, scale=False).fit(neural[train], model[train])
        expected = pearson_columns(NP, sk.predict(neural[test]), model[test])
        np.testing.assert_array_equal(np.isnan(r[index]), np.isnan(expected))  # the two dead units
        np.testing.assert_allclose(r[index], expected, rtol=1e-9, atol=1e-11, equal_nan=True)
        assert list(n_iter[index]) == list(sk.n_iter_)


def test_reverse_pls_needs_25_neuroids_unless_allowed():
    model, neural, ids, objects = reverse_pair(n=80, q=10, p=100)
    model_assembly = _assembly(model, ids, "m", object_name=objects)
    neural_assembly = _assembly(neural, ids, object_name=objects)
    with pytest.raises(TooFewFeaturesError, match="10 neuroids"):
        ReversePredictivity()(model_assembly, neural_assembly)
    score = ReversePredictivity(regression_kwargs={"allow_fewer_features": True})(model_assembly, neural_assembly)
    assert np.isfinite(float(score)) and score.attrs["raw"].sizes == {"split": 10, "neuroid": 100}


def test_reverse_pls_with_another_regression_swaps_the_forward_metric():
    from brainscore_metrics.regression_correlation import CrossRegressedCorrelation

    model, neural, ids, objects = reverse_pair(n=100, q=30, p=40)
    model_assembly = _assembly(model, ids, "m", object_name=objects)
    neural_assembly = _assembly(neural, ids, object_name=objects)
    swapped = CrossRegressedCorrelation("ridge")(neural_assembly, model_assembly)
    assert float(ReversePredictivity("ridge")(model_assembly, neural_assembly)) == float(swapped)


def test_reverse_split_is_the_cross_validated_kernel_on_one_split():
    model, neural, ids, _ = reverse_pair(n=100, q=30, p=200)
    cut = 80
    score = ReversePredictivitySplit()(_assembly(model[:cut], ids[:cut], "m"), _assembly(model[cut:], ids[cut:], "m"),
                                       _assembly(neural[:cut], ids[:cut]), _assembly(neural[cut:], ids[cut:]))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        prediction = SkPLS(n_components=25, scale=False).fit(neural[:cut], model[:cut]).predict(neural[cut:])
    r = pearson_columns(NP, prediction, model[cut:])
    assert float(score) == pytest.approx(np.nanmedian(r), rel=1e-9)


def test_torch_backend_equals_numpy():
    torch_or_skip()
    model, neural, ids, objects = reverse_pair(n=100, q=30, p=150)
    model_assembly = _assembly(model, ids, "m", object_name=objects)
    neural_assembly = _assembly(neural, ids, object_name=objects)
    numpy_score = ReversePredictivity(precision="float64")(model_assembly, neural_assembly)
    torch_score = ReversePredictivity(precision="float64", backend="torch")(model_assembly, neural_assembly)
    assert float(torch_score) == pytest.approx(float(numpy_score), rel=1e-6)
    X_train, X_test, Y_train, Y_test, train_ids, test_ids = split_pair()
    pairs = (_assembly(X_train, train_ids, "m"), _assembly(X_test, test_ids, "m"), _assembly(Y_train, train_ids),
             _assembly(Y_test, test_ids))
    for regression in ("dual_ridge", "dual_ridgecv"):
        expected = float(DualRidgeSplitCorrelation(regression, precision="float64")(*pairs))
        on_torch = float(DualRidgeSplitCorrelation(regression, precision="float64", backend="torch")(*pairs))
        assert on_torch == pytest.approx(expected, rel=1e-6)


# ---------------------------------------------------------------------------------------- the ceiling
def _trials(**kwargs):
    values, images, repetitions = repetition_trials(**kwargs)
    return values, images, repetitions


def test_stimulus_id_stands_in_for_a_missing_image_id():
    values, images, repetitions = _trials()
    with_image_id = _assembly(values, images, image_id=images, repetition=repetitions)
    without = _assembly(values, images, repetition=repetitions)
    assert float(SplitHalfPredictorConsistency()(without)) == float(SplitHalfPredictorConsistency()(with_image_id))


def test_fewer_than_ten_images_give_nan():
    values, images, repetitions = _trials(n_images=9)
    score = SplitHalfPredictorConsistency()(_assembly(values, images, repetition=repetitions))
    assert np.isnan(float(score)) and score.attrs["raw"].sizes == {"split": 10, "neuroid": 20}


def test_missing_repetition_coordinate_is_named():
    values, images, _ = _trials()
    with pytest.raises(MissingCoordinateError, match="repetition"):
        SplitHalfPredictorConsistency()(_assembly(values, images))


def test_equals_a_per_image_loop():
    """Independent check of the vectorised halves: the same permutations drawn one image at a time."""
    values, images, repetitions = _trials(n_images=30, q=6)
    score = SplitHalfPredictorConsistency(n_splits=3, seed=7)(_assembly(values, images, repetition=repetitions))
    images, repetitions = np.asarray(images), np.asarray(repetitions)
    rng = np.random.default_rng(7)
    expected = []
    for _ in range(3):
        first, second = [], []
        for image in np.unique(images):
            rows = np.flatnonzero(images == image)
            distinct = np.unique(repetitions[rows])
            permutation = rng.permutation(distinct)
            half = len(distinct) // 2
            first.append(_nanmean(values[rows[np.isin(repetitions[rows], permutation[:half])]], axis=0))
            second.append(_nanmean(values[rows[np.isin(repetitions[rows], permutation[half:])]], axis=0))
        r = np.array([np.corrcoef(np.array(first)[:, j], np.array(second)[:, j])[0, 1] for j in range(6)])
        expected.append(np.nanmedian(2 * r / (1 + r)))
    assert float(score) == pytest.approx(np.mean(expected), rel=1e-12)


def _nanmean(rows, axis):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # a half whose only value of a neuroid is NaN
        return np.nanmean(rows, axis=axis)
