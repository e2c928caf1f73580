"""Wide (features > stimuli) and float32 sources: the stimulus-space fast paths against scikit-learn,
scipy and numpy on the same arrays, and against the feature-space paths, on numpy and torch.

Expected values come from scikit-learn (``PLSRegression(scale=False)``, ``Ridge``, ``LinearRegression``)
fitted per split on the float64 cast of the same source, and from plain numpy products (Gram matrices,
correlations per unit) written out here.
"""

import warnings

import numpy as np
import pytest
from sklearn.cross_decomposition import PLSRegression as SkPLS
from sklearn.linear_model import LinearRegression as SkLinear
from sklearn.linear_model import Ridge as SkRidge
from sklearn.model_selection import KFold, ShuffleSplit

from brainscore_metrics._gram import stimulus_gram
from brainscore_metrics._pls import pls_fit_splits, pls_predict
from brainscore_metrics._pls_kernel import pls_kernel_cross_predict
from brainscore_metrics._ridge import IllConditionedKernelError
from brainscore_metrics.backend import ComputePlan, get_backend
from brainscore_metrics.cka import linear_cka
from brainscore_metrics.regression import LinearRegression, NeuronToNeuron, PLSRegression, RidgeRegression


def _source(n, p, *, dtype, seed=0, quirks=True):
    """Latent-structured source with a large offset; optionally a constant and a duplicated feature."""
    rng = np.random.default_rng(seed)
    latent = rng.normal(size=(n, 6))
    X = latent @ rng.normal(size=(6, p)) + rng.normal(size=(n, p)) + 20
    Y = latent @ rng.normal(size=(6, 5)) + rng.normal(size=(n, 5))
    if quirks:
        X[:, 3] = 7.0  # constant feature
        X[:, 5] = X[:, 4]  # duplicated feature
    return X.astype(dtype), Y


def _splits(n, count=3):
    return [(np.sort(a), np.sort(b)) for a, b in ShuffleSplit(count, train_size=0.9, random_state=1).split(np.zeros(n))]


def _sklearn(estimator, X, Y, splits):
    X = X.astype(np.float64)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return [estimator().fit(X[train], Y[train]).predict(X[test]) for train, test in splits]


def _assert_predictions(ours, expected, xp, rtol):
    for mine, reference in zip(ours, expected, strict=True):
        mine = xp.to_numpy(mine)
        np.testing.assert_allclose(mine, reference, rtol=0, atol=rtol * np.abs(reference).max())


CASES = [pytest.param(60, 150, id="p>n"), pytest.param(90, 30, id="p<n")]


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize(("n", "p"), CASES)
def test_pls_cross_predict_equals_sklearn(backend_name, n, p, dtype):
    xp = get_backend(backend_name)
    X, Y = _source(n, p, dtype=dtype)
    splits = _splits(n)
    ours = PLSRegression(n_components=8, backend=backend_name).cross_predict(xp.asarray(X), xp.asarray(Y), splits)
    # sklearn on the float64 cast: the reference's PLS converts float32 sources to float64 too
    _assert_predictions(ours, _sklearn(lambda: SkPLS(8, scale=False), X, Y, splits), xp, 1e-8)


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize(("n", "p"), CASES)
def test_ridge_cross_predict_equals_sklearn(backend_name, n, p, dtype):
    xp = get_backend(backend_name)
    X, Y = _source(n, p, dtype=dtype)
    splits = _splits(n)
    expected = _sklearn(lambda: SkRidge(alpha=3.0), X, Y, splits)
    ours = RidgeRegression(3.0, precision="float64").cross_predict(xp.asarray(X), xp.asarray(Y), splits)
    _assert_predictions(ours, expected, xp, 1e-8)
    # float32 block products ('mixed', the default): one float32 rounding per Gram entry and block
    mixed = RidgeRegression(3.0).cross_predict(xp.asarray(X), xp.asarray(Y), splits)
    _assert_predictions(mixed, expected, xp, 1e-8 if dtype == np.float64 else 1e-4)


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize(("n", "p"), CASES)
def test_linear_cross_predict_equals_sklearn_minimum_norm(backend_name, n, p, dtype):
    xp = get_backend(backend_name)
    X, Y = _source(n, p, dtype=dtype)
    splits = _splits(n)
    ours = LinearRegression().cross_predict(xp.asarray(X), xp.asarray(Y), splits)
    # p > n: minimum-norm least squares (lstsq), which interpolates the training stimuli
    _assert_predictions(ours, _sklearn(SkLinear, X, Y, splits), xp, 1e-7)


def test_linear_rank_deficient_wide_source_solves_each_split_by_pivoted_cholesky(backend_name):
    # 80 features of rank 10 (> 54 training stimuli): the Gram matrix is singular, so the one-factorisation identity
    # refuses and each split's training kernel is factorised with pivoting, dropping what scikit-learn's tol=1e-6
    # truncation drops
    xp = get_backend(backend_name)
    rng = np.random.default_rng(3)
    X = rng.normal(size=(60, 10)) @ rng.normal(size=(10, 80))
    Y = X[:, :4] + 0.1 * rng.normal(size=(60, 4))
    splits = _splits(60)
    with pytest.raises(IllConditionedKernelError):
        LinearRegression()._heldout_predictions(ComputePlan(xp, precision="float64"), xp.asarray(X), xp.asarray(Y),
                                                splits, 0.0)
    ours = LinearRegression().cross_predict(xp.asarray(X), xp.asarray(Y), splits)
    _assert_predictions(ours, _sklearn(SkLinear, X, Y, splits), xp, 1e-7)


@pytest.mark.parametrize("layout", ["one split", "ten shuffled", "k-fold"])
def test_heldout_identity_for_any_union_of_test_sets(backend_name, layout):
    # the held-out identity reorders the rows so the union of the test sets comes last and inverts only that
    # block of the Cholesky factor: one test set (union 10%), ten overlapping unsorted ones (about 65%) and a
    # k-fold partition (union = every row, the whole factor) must all equal scikit-learn fitted per split
    xp = get_backend(backend_name)
    X, Y = _source(70, 160, dtype=np.float64, quirks=False)
    if layout == "k-fold":
        splits = list(KFold(5, shuffle=True, random_state=2).split(X))
    else:  # unsorted test indices, as StratifiedShuffleSplit yields them
        splits = list(ShuffleSplit(1 if layout == "one split" else 10, train_size=0.9, random_state=4).split(X))
    union = np.unique(np.concatenate([test for _, test in splits]))
    assert (len(union) == 70) == (layout == "k-fold") and len(union) >= len(splits[0][1])
    ridge = RidgeRegression(3.0, precision="float64").cross_predict(xp.asarray(X), xp.asarray(Y), splits)
    _assert_predictions(ridge, _sklearn(lambda: SkRidge(alpha=3.0), X, Y, splits), xp, 1e-8)
    least_squares = LinearRegression(backend=backend_name)._heldout_predictions(
        ComputePlan(xp, precision="float64"), xp.asarray(X), xp.asarray(Y), splits, 0.0)
    _assert_predictions(least_squares, _sklearn(SkLinear, X, Y, splits), xp, 1e-7)


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_neuron_to_neuron_splits_equal_per_split_correlations(backend_name, dtype):
    xp = get_backend(backend_name)
    X, Y = _source(70, 200, dtype=dtype)
    X[:, 7] = 0.0
    X[:3, 7] = 1.0  # sparse unit: nonzero on 3 stimuli only, constant on some training sets
    splits = _splits(70, 4)
    ours = NeuronToNeuron().cross_predict(xp.asarray(X), xp.asarray(Y), splits)
    X64 = X.astype(np.float64)
    for (train, test), prediction in zip(splits, ours, strict=True):
        # Pearson r of every unit with every neuroid on the training stimuli (np.corrcoef), first nanargmax
        with np.errstate(invalid="ignore", divide="ignore"):
            r = np.corrcoef(X64[train].T, Y[train].T)[:X.shape[1], X.shape[1]:]
        best = np.nanargmax(r, axis=0)
        # duplicated units give identical predictions whichever copy is chosen
        np.testing.assert_array_equal(xp.to_numpy(prediction), X64[np.ix_(test, best)])


def test_kernel_pls_equals_feature_space_pls(backend_name):
    xp = get_backend(backend_name)
    X, Y = _source(60, 150, dtype=np.float64)
    splits = _splits(60)
    plan = ComputePlan(xp, precision="float64")
    gram = stimulus_gram(plan, xp.asarray(X))
    kernel, _ = pls_kernel_cross_predict(plan, gram, xp.asarray(Y), splits, n_components=8)
    fitted = pls_fit_splits(plan, xp.asarray(X), xp.asarray(Y), [train for train, _ in splits], n_components=8)
    feature = [xp.to_numpy(pls_predict(xp, state, xp.asarray(X), test)) for state, (_, test) in
               zip(fitted, splits, strict=True)]
    _assert_predictions(kernel, feature, xp, 1e-9)


def test_kernel_least_squares_equals_per_split_svd(backend_name):
    xp = get_backend(backend_name)
    X, Y = _source(60, 150, dtype=np.float64, quirks=False)
    splits = _splits(60)
    model = LinearRegression(backend=backend_name)
    kernel = model._heldout_predictions(ComputePlan(xp, precision="float64"), xp.asarray(X), xp.asarray(Y), splits,
                                        0.0)  # the Cholesky path itself
    # minimum-norm least squares by numpy's SVD-based lstsq on each split's centred training rows
    svd = []
    for train, test in splits:
        x_mean, y_mean = X[train].mean(axis=0), Y[train].mean(axis=0)
        coef = np.linalg.lstsq(X[train] - x_mean, Y[train] - y_mean, rcond=1e-6)[0]
        svd.append((X[test] - x_mean) @ coef + y_mean)
    _assert_predictions(kernel, svd, xp, 1e-8)


@pytest.mark.parametrize("center", ["columns", "rows"])
def test_stimulus_gram_equals_float64_product(backend_name, center):
    xp = get_backend(backend_name)
    rng = np.random.default_rng(4)
    X = (rng.normal(size=(40, 5000)) * 0.1 + 30).astype(np.float32)  # mean 300x the spread
    Z = X.astype(np.float64)
    Z = Z - (Z.mean(axis=0) if center == "columns" else Z.mean(axis=1, keepdims=True))
    expected = Z @ Z.T  # numpy float64
    scale = np.abs(expected).max()
    exact = xp.to_numpy(stimulus_gram(ComputePlan(xp, precision="float64"), xp.asarray(X), center=center))
    np.testing.assert_allclose(exact, expected, rtol=0, atol=1e-12 * scale)
    mixed = xp.to_numpy(stimulus_gram(ComputePlan(xp), xp.asarray(X), center=center))
    np.testing.assert_allclose(mixed, expected, rtol=0, atol=2e-6 * scale)


def test_cka_float32_wide_source_precision():
    X, _ = _source(50, 400, dtype=np.float32, quirks=False)
    rng = np.random.default_rng(5)
    Y = X[:, :20].astype(np.float64) + rng.normal(size=(50, 20))
    # unbiased HSIC from explicit U-centred float64 Gram matrices (Song et al. 2012), written out here
    def u_centre(K):
        n = len(K)
        K = K.copy()
        np.fill_diagonal(K, 0)
        U = K - K.sum(1)[:, None] / (n - 2) - K.sum(0)[None, :] / (n - 2) + K.sum() / ((n - 1) * (n - 2))
        np.fill_diagonal(U, 0)
        return U
    K, L = (u_centre(Z @ Z.T) for Z in (X.astype(np.float64), Y))
    expected = (K * L).sum() / np.sqrt((K * K).sum() * (L * L).sum())
    assert linear_cka(X, Y, precision="float64") == pytest.approx(expected, rel=1e-10)
    assert linear_cka(X, Y) == pytest.approx(expected, rel=1e-6)
    with pytest.raises(ValueError, match="precision"):
        linear_cka(X, Y, precision="float16")
