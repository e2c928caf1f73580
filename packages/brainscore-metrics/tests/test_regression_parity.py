"""Regression-correlation metrics against scikit-learn + scipy run per split on the same arrays."""

import numpy as np
import pytest
import scipy.stats
from _regression_helpers import neuroid_assembly, reference_cv, synthetic_pair
from sklearn.cross_decomposition import PLSRegression as SkPLS
from sklearn.linear_model import LinearRegression as SkLinear
from sklearn.linear_model import Ridge as SkRidge
from sklearn.linear_model import RidgeCV as SkRidgeCV

from brainscore_metrics.regression import ALPHA_LIST
from brainscore_metrics.regression_correlation import CrossRegressedCorrelation, SplitRegressedCorrelation
from brainscore_metrics.reverse_predictivity import ReverseCrossRegressedCorrelation


def _ids(assembly):
    return assembly["stimulus_id"].values


class _NeuronToNeuronReference:
    """Brute-force: for every neuroid, loop over units with scipy.stats.pearsonr on training data."""

    def fit(self, X, Y):
        self.best_ = []
        for j in range(Y.shape[1]):
            rs = [scipy.stats.pearsonr(X[:, u], Y[:, j])[0] for u in range(X.shape[1])]
            self.best_.append(int(np.nanargmax(rs)))
        return self

    def predict(self, X):
        return X[:, self.best_]


@pytest.mark.parametrize("regression, make_estimator, p", [
    ("pls", lambda: SkPLS(n_components=25, scale=False), 40),
    ("pls", lambda: SkPLS(n_components=25, scale=False), 300),   # more features than stimuli
    ("ridge", lambda: SkRidge(alpha=1.0), 40),
    ("ridge", lambda: SkRidge(alpha=1.0), 300),
    ("linear", lambda: SkLinear(), 40),
    ("linear", lambda: SkLinear(), 300),
    ("ridgecv", lambda: SkRidgeCV(alphas=ALPHA_LIST, alpha_per_target=False), 40),
    ("ridgecv", lambda: SkRidgeCV(alphas=ALPHA_LIST, alpha_per_target=False), 300),
    ("neuron_to_neuron", _NeuronToNeuronReference, 40),
])
def test_cross_validated_metric_equals_reference(regression, make_estimator, p):
    source, target, X, Y, ids, _ = synthetic_pair(n=200, p=p, q=12)
    score = CrossRegressedCorrelation(regression)(source, target)
    center, error, raw, estimators = reference_cv(X, Y, ids, _ids(target), target["object_name"].values,
                                                  make_estimator)
    assert float(score) == pytest.approx(center, rel=1e-6)
    assert float(score.attrs["error"]) == pytest.approx(error, rel=1e-5, abs=1e-12)
    np.testing.assert_allclose(score.attrs["raw"].values, raw, rtol=1e-6)
    assert score.attrs["raw"].dims == ("split", "neuroid")
    assert list(score.attrs["raw"]["neuroid_id"].values) == list(target["neuroid_id"].values)
    if regression == "ridgecv":  # the chosen alpha per split is recorded and equals scikit-learn's
        np.testing.assert_array_equal(score.attrs["alpha"], [e.alpha_ for e in estimators])


def test_self_pls_oracle():
    # spec section 10: self-regression on 30x25 arange + noise is ~1 within 1e-5
    rng = np.random.default_rng(1)
    values = (np.arange(30 * 25) + rng.standard_normal(30 * 25)).reshape((30, 25))
    assembly = neuroid_assembly(values, np.arange(30), object_names=["a", "b", "c"] * 10)
    score = CrossRegressedCorrelation("pls")(assembly, assembly)
    assert float(score) == pytest.approx(1, abs=1e-5)


def test_stratification_coord_is_configurable():
    source, target, X, Y, ids, _ = synthetic_pair(n=120, p=30, q=5)
    texture = np.array(["tex" if int(s[2:]) % 3 else "noise" for s in _ids(target)])
    target = target.assign_coords(texture_type=("presentation", texture))
    score = CrossRegressedCorrelation("ridge", crossvalidation_kwargs={"stratification_coord": "texture_type"})(
        source, target)
    center, *_ = reference_cv(X, Y, ids, _ids(target), texture, lambda: SkRidge(alpha=1.0))
    assert float(score) == pytest.approx(center, rel=1e-6)
    unstratified = CrossRegressedCorrelation("ridge", crossvalidation_kwargs={"stratification_coord": None})(
        source, target)
    center_u, *_ = reference_cv(X, Y, ids, _ids(target), None, lambda: SkRidge(alpha=1.0), stratify=False)
    assert float(unstratified) == pytest.approx(center_u, rel=1e-6)


def test_no_object_name_falls_back_to_shufflesplit():
    source, target, X, Y, ids, _ = synthetic_pair(n=100, p=30, q=5)
    target = target.drop_vars("object_name")
    score = CrossRegressedCorrelation("ridge")(source, target)
    center, *_ = reference_cv(X, Y, ids, _ids(target), None, lambda: SkRidge(alpha=1.0), stratify=False)
    assert float(score) == pytest.approx(center, rel=1e-6)


@pytest.mark.parametrize("regression, make_estimator", [
    ("pls", lambda: SkPLS(n_components=25, scale=False)),
    ("ridge", lambda: SkRidge(alpha=1.0)),
    ("ridgecv", lambda: SkRidgeCV(alphas=ALPHA_LIST, alpha_per_target=False)),
    ("linear", lambda: SkLinear()),
])
@pytest.mark.parametrize("p", [40, 200])
def test_split_metric_equals_reference(regression, make_estimator, p):
    source, target, X, Y, ids, _ = synthetic_pair(n=180, p=p, q=8)
    train_ids, test_ids = ids[:150], ids[150:]

    def subset(assembly, chosen):
        return assembly.isel(presentation=np.isin(assembly["stimulus_id"].values, chosen))

    score = SplitRegressedCorrelation(regression)(subset(source, train_ids), subset(source, test_ids),
                                                  subset(target, train_ids), subset(target, test_ids))
    prediction = make_estimator().fit(X[:150], Y[:150]).predict(X[150:])
    rs = [scipy.stats.pearsonr(prediction[:, j], Y[150:, j])[0] for j in range(Y.shape[1])]
    assert float(score) == pytest.approx(np.median(rs), rel=1e-6)
    np.testing.assert_allclose(score.attrs["raw"].values, rs, rtol=1e-6)


def test_reverse_pls_swaps_source_and_target():
    source, target, X, Y, ids, _ = synthetic_pair(n=150, p=30, q=30)
    reverse = ReverseCrossRegressedCorrelation("pls")(source, target)
    forward_swapped = CrossRegressedCorrelation("pls")(target, source)
    # reverse PLS runs on the model's Gram matrix (brainscore_metrics._pls_wide_target), the forward metric on the
    # cross-covariance: the same PLS, summed in another order
    assert float(reverse) == pytest.approx(float(forward_swapped), rel=1e-12)
    center, *_ = reference_cv(Y, X, ids, _ids(source), source["object_name"].values,
                              lambda: SkPLS(n_components=25, scale=False))
    assert float(reverse) == pytest.approx(center, rel=1e-6)


def test_source_order_does_not_matter():
    source, target, *_ = synthetic_pair(n=150, p=30, q=6)
    a = CrossRegressedCorrelation("pls")(source, target)
    b = CrossRegressedCorrelation("pls")(source.isel(presentation=np.arange(150)[::-1]), target)
    assert float(a) == pytest.approx(float(b), rel=1e-10)


def test_pls_allow_fewer_features_uses_min_components():
    source, target, X, Y, ids, _ = synthetic_pair(n=100, p=10, q=4)
    score = CrossRegressedCorrelation("pls", regression_kwargs={"allow_fewer_features": True})(source, target)
    center, *_ = reference_cv(X, Y, ids, _ids(target), target["object_name"].values,
                              lambda: SkPLS(n_components=10, scale=False))
    assert float(score) == pytest.approx(center, rel=1e-6)


def test_pls_kernel_when_power_iteration_hits_max_iter():
    # scikit-learn returns the iterate of its last loop pass when max_iter is reached; so must we
    import warnings

    from brainscore_metrics._pls import pls_fit, pls_predict
    from brainscore_metrics.backend import get_backend

    rng = np.random.default_rng(7)
    X, Y = rng.normal(size=(80, 40)), rng.normal(size=(80, 6))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        reference = SkPLS(n_components=5, scale=False, max_iter=3).fit(X[:70], Y[:70])
        fitted = pls_fit(get_backend("numpy"), X, Y, np.arange(70), n_components=5, max_iter=3)
    assert fitted["n_iter"] == list(reference.n_iter_)
    np.testing.assert_allclose(pls_predict(get_backend("numpy"), fitted, X, np.arange(70, 80)),
                               reference.predict(X[70:]), rtol=1e-9)


@pytest.mark.parametrize("alpha, offset", [(1.0, 0.0), (1e-3, 0.0), (1.0, 50.0)])
def test_ridge_heldout_shortcut_equals_per_split_fits(alpha, offset):
    # More features than stimuli and splits that partition the rows: RidgeRegression.cross_predict takes
    # the one-factorisation path. Independent check: scikit-learn Ridge fitted on each split's training
    # rows. offset=50 gives features far from zero mean (as ReLU activations), alpha=1e-3 a harder system.
    from brainscore_metrics.regression import RidgeRegression

    rng = np.random.default_rng(3)
    X = rng.normal(size=(150, 400)) + offset
    Y = X[:, :30] @ rng.normal(size=(30, 7)) + rng.normal(size=(150, 7))
    order = rng.permutation(150)
    splits = [(np.sort(order[:135]), np.sort(order[135:])), (np.sort(order[15:]), np.sort(order[:15]))]
    regression = RidgeRegression(alpha=alpha)
    predictions = regression.cross_predict(X, Y, splits)
    for (train, test), prediction in zip(splits, predictions, strict=True):
        expected = SkRidge(alpha=alpha).fit(X[train], Y[train]).predict(X[test])
        np.testing.assert_allclose(prediction, expected, rtol=1e-7, atol=1e-9 * np.abs(expected).max())


def test_ridge_splits_that_leave_rows_out_fall_back_to_per_split_fits():
    from brainscore_metrics.regression import RidgeRegression

    rng = np.random.default_rng(4)
    X, Y = rng.normal(size=(60, 100)), rng.normal(size=(60, 3))
    train, test = np.arange(0, 40), np.arange(45, 60)  # rows 40-44 in neither set
    prediction, = RidgeRegression(alpha=2.0).cross_predict(X, Y, [(train, test)])
    np.testing.assert_allclose(prediction, SkRidge(alpha=2.0).fit(X[train], Y[train]).predict(X[test]),
                               rtol=1e-8, atol=1e-12)


def test_pls_float32_source_and_lockstep_groups_equal_scikit_learn():
    # A float32 source is not copied to float64 as a whole: its products are taken block by block in
    # float64, so the numbers equal scikit-learn's PLS on the float64 values (which it converts to).
    # Fitting the splits in groups of 1 or 3 instead of all together changes nothing either.
    from brainscore_metrics.regression import PLSRegression

    rng = np.random.default_rng(6)
    X = (rng.normal(size=(120, 60)) @ rng.normal(size=(60, 90))).astype(np.float32)
    Y = X[:, :5].astype(np.float64) @ rng.normal(size=(5, 6)) + rng.normal(size=(120, 6))
    order = rng.permutation(120)
    splits = [(np.sort(np.roll(order, 12 * k)[12:]), np.sort(np.roll(order, 12 * k)[:12])) for k in range(4)]
    expected = [SkPLS(n_components=8, scale=False).fit(X[train].astype(np.float64), Y[train]).predict(
        X[test].astype(np.float64)) for train, test in splits]
    for lockstep in (None, 1, 3):
        predictions = PLSRegression(n_components=8, lockstep_splits=lockstep).cross_predict(X, Y, splits)
        for prediction, reference in zip(predictions, expected, strict=True):
            np.testing.assert_allclose(prediction, reference, rtol=1e-7, atol=1e-10)
