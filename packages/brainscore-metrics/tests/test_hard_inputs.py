"""Every regression on hard sources keeps its fast form and scikit-learn's numbers.

Hard sources: int8-quantised low-rank activations (full rank only through the quantisation, a squared condition
number near 1e9 after centring), exactly low-rank features, duplicated stimuli, constant and duplicated features,
a smoothly decaying spectrum (condition number 1e4), pixel-like uint8 images and sparse units (each active on one or
two stimuli: a split whose held-out stimuli hold all of a unit's activity lacks that direction); each wide
(features > stimuli) and narrow, float32 and float64. Expected predictions come from scikit-learn (``LinearRegression()``, ``Ridge``,
``PLSRegression(scale=False)``) fitted per split on the float64 cast of the same source, and for neuron-to-neuron
from ``np.corrcoef`` written out here; the real-data case uses the Cowley 2023 images' pixels.
"""

from __future__ import annotations

import csv

import numpy as np
import pytest
from _regression_helpers import assert_predictions_close, shuffle_splits, sklearn_split_predictions
from sklearn.cross_decomposition import PLSRegression as SkPLS
from sklearn.linear_model import LinearRegression as SkLinear
from sklearn.linear_model import Ridge as SkRidge

import brainscore_metrics._least_squares as least_squares
from brainscore_metrics._ridge import centered_gram, ridge_heldout_predictions
from brainscore_metrics.backend import ComputePlan, get_backend
from brainscore_metrics.errors import IllConditionedKernelError
from brainscore_metrics.regression import LinearRegression, NeuronToNeuron, PLSRegression, RidgeRegression

KINDS = ["int8_lowrank", "exact_lowrank", "duplicated_stimuli", "constant_duplicated_features", "smooth_spectrum",
         "pixels", "sparse_units"]


def hard_source(kind: str, n: int, p: int, seed: int = 0):
    """A hard source (n x p) and a target (n x 6) that depends on it linearly plus noise."""
    rng = np.random.default_rng(seed)
    latent = rng.normal(size=(n, 8))
    if kind == "int8_lowrank":  # low-precision activations of a low-dimensional signal
        X = latent @ rng.normal(size=(8, p)) + 0.05 * rng.normal(size=(n, p))
        scale = np.abs(X).max() / 127
        X = np.clip(np.round(X / scale), -127, 127) * scale
    elif kind == "exact_lowrank":
        X = latent @ rng.normal(size=(8, p)) + 3
    elif kind == "duplicated_stimuli":  # the same image under two ids
        X = latent @ rng.normal(size=(8, p)) + rng.normal(size=(n, p))
        X[1], X[5] = X[0], X[4]
    elif kind == "constant_duplicated_features":
        X = latent @ rng.normal(size=(8, p)) + rng.normal(size=(n, p)) + 10
        X[:, 3] = 7.0
        X[:, 5] = X[:, 4]
        X[:, 6:9] = 2 * X[:, 0:3]
    elif kind == "smooth_spectrum":  # singular values log-spaced from 1 to 1e-4
        k = min(n, p)
        left, _ = np.linalg.qr(rng.normal(size=(n, k)))
        right, _ = np.linalg.qr(rng.normal(size=(p, k)))
        X = (left * np.logspace(0, -4, k)) @ right.T * 100 + 5
        latent = left[:, :8]
    elif kind == "pixels":  # smooth 1/f images, 8-bit
        side = int(np.sqrt(p / 3))
        frequency = np.fft.fftfreq(side)
        radius = np.hypot(frequency[:, None], frequency[None, :])
        radius[0, 0] = 1
        images = np.real(np.fft.ifft2(rng.normal(size=(n, 3, side, side)) / radius ** 1.5))
        images = (images - images.min()) / (images.max() - images.min()) * 255
        X = np.round(images).reshape(n, -1)
        X = np.concatenate([X, np.full((n, p - X.shape[1]), 128.0)], axis=1)
        latent = (X[:, :8] - 128) / 64
    elif kind == "sparse_units":  # a rank-8 signal plus units active on one or two stimuli (dead elsewhere)
        X = latent @ rng.normal(size=(8, p)) + 2
        units = min(20, p // 4)
        X[:, p - units:] = 0.0
        for number in range(units):
            X[(3 * number) % n, p - units + number] = 3.0 + number
            if number % 2:
                X[(3 * number + 1) % n, p - units + number] = 1.5
    else:
        raise ValueError(kind)
    Y = latent @ rng.normal(size=(8, 6)) + 0.5 * rng.normal(size=(n, 6))
    return X, Y


SHAPES = [pytest.param(80, 240, id="wide"), pytest.param(150, 40, id="narrow")]


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize(("n", "p"), SHAPES)
@pytest.mark.parametrize("kind", KINDS)
def test_least_squares_equals_sklearn(backend_name, kind, n, p, dtype):
    xp = get_backend(backend_name)
    X, Y = hard_source(kind, n, p)
    X = X.astype(dtype)
    splits = shuffle_splits(n, 5, 1)
    ours = LinearRegression(backend=backend_name).cross_predict(xp.asarray(X), xp.asarray(Y), splits)
    assert_predictions_close(xp, ours, sklearn_split_predictions(SkLinear, X, Y, splits), 1e-6)


@pytest.mark.parametrize(("n", "p"), SHAPES)
@pytest.mark.parametrize("kind", KINDS)
def test_ridge_pls_neuron_to_neuron_equal_references(kind, n, p):
    xp = get_backend("numpy")
    X, Y = hard_source(kind, n, p)
    splits = shuffle_splits(n, 5, 1)
    ridge = RidgeRegression(1.0, precision="float64").cross_predict(X, Y, splits)
    assert_predictions_close(xp, ridge, sklearn_split_predictions(lambda: SkRidge(1.0), X, Y, splits), 1e-8)
    pls = PLSRegression(6).cross_predict(X, Y, splits)
    assert_predictions_close(xp, pls, sklearn_split_predictions(lambda: SkPLS(6, scale=False), X, Y, splits), 1e-8)
    # neuron to neuron: the unit of the largest training Pearson r (np.corrcoef, NaN for constant units)
    for (train, test), prediction in zip(splits, NeuronToNeuron().cross_predict(X, Y, splits), strict=True):
        with np.errstate(invalid="ignore", divide="ignore"):
            r = np.corrcoef(X[train].T, Y[train].T)[:p, p:]
        best = np.nanargmax(r, axis=0)
        np.testing.assert_array_equal(prediction, X[np.ix_(test, best)])  # duplicates: either copy predicts alike


@pytest.mark.parametrize(("n", "p", "kind"), [(80, 240, "int8_lowrank"), (80, 240, "pixels"),
                                              (150, 40, "int8_lowrank"), (150, 40, "constant_duplicated_features")])
def test_least_squares_keeps_the_one_factorisation_path(monkeypatch, n, p, kind):
    # quantised activations, pixels, constant and duplicated features: every split from one factorisation
    X, Y = hard_source(kind, n, p)

    def refuse(*args, **kwargs):
        raise AssertionError("a split was solved on its own")

    monkeypatch.setattr(least_squares, "split_predictions", refuse)
    splits = shuffle_splits(n, 5, 1)
    ours = least_squares.cross_predictions(ComputePlan(get_backend("numpy"), precision="float64"), X.astype(np.float32),
                                           Y, splits)
    assert_predictions_close(get_backend("numpy"), ours, sklearn_split_predictions(SkLinear, X.astype(np.float32), Y, splits), 1e-6)


@pytest.mark.parametrize("kind", ["exact_lowrank", "duplicated_stimuli", "sparse_units"])
def test_rank_deficient_kernels_never_use_an_svd(monkeypatch, kind):
    # a singular stimulus Gram matrix: one pivoted Cholesky factorisation compresses the source to its rank, and
    # every split comes from one factorisation of that (none is solved on its own); no SVD or eigendecomposition
    xp = get_backend("numpy")
    X, Y = hard_source(kind, 80, 240)
    for name in ("svd", "eigh", "pinv"):
        monkeypatch.setattr(xp, name, lambda *args, **kwargs: pytest.fail("an SVD-type decomposition was used"))
    monkeypatch.setattr(np.linalg, "svd", lambda *args, **kwargs: pytest.fail("np.linalg.svd was used"))
    monkeypatch.setattr(least_squares, "split_predictions", lambda *a, **k: pytest.fail("a split was solved alone"))
    splits = shuffle_splits(80, 5, 1)
    ours = LinearRegression().cross_predict(X, Y, splits)
    monkeypatch.undo()
    assert_predictions_close(xp, ours, sklearn_split_predictions(SkLinear, X, Y, splits), 1e-6)


def test_fewer_varying_features_than_stimuli_skip_the_kernel_factorisation(monkeypatch):
    # 60 varying columns (rank <= 60 < n - 1 = 79) among 240: the singular kernel is not factorised first
    X, Y = hard_source("int8_lowrank", 80, 240)
    X[:, 60:] = 5.0
    monkeypatch.setattr(least_squares, "ridge_heldout_predictions",
                        lambda *a, **k: pytest.fail("the singular kernel was factorised"))
    monkeypatch.setattr(least_squares, "split_predictions", lambda *a, **k: pytest.fail("a split was solved alone"))
    splits = shuffle_splits(80, 5, 1)
    ours = LinearRegression().cross_predict(X, Y, splits)
    monkeypatch.undo()
    assert_predictions_close(get_backend("numpy"), ours, sklearn_split_predictions(SkLinear, X, Y, splits), 1e-6)


def test_splits_lacking_a_direction_get_the_minimum_norm_solution(monkeypatch):
    # sparse units: held-out stimuli that hold all of a unit's activity leave the training rows without that
    # direction; those splits take the minimum-norm branch and still equal scikit-learn (its lstsq is minimum-norm)
    X, Y = hard_source("sparse_units", 80, 240)
    # units are active on stimuli 3k (k < 20) and 3k + 1 (odd k): 0..7 holds all of units 0 and 2's activity,
    # 40..47 all of unit 14's (stimulus 42); 61..68 holds none, so its training rows lack nothing
    splits = [(np.setdiff1d(np.arange(80), test), test) for test in (np.arange(0, 8), np.arange(61, 69),
                                                                      np.arange(40, 48))]
    calls = []
    original = least_squares._minimum_norm_heldout
    monkeypatch.setattr(least_squares, "_minimum_norm_heldout", lambda *a: calls.append(1) or original(*a))
    ours = LinearRegression().cross_predict(X, Y, splits)
    assert len(calls) == 2
    assert_predictions_close(get_backend("numpy"), ours, sklearn_split_predictions(SkLinear, X, Y, splits), 1e-6)


def test_psd_pinv_solve_equals_numpy_pinv(backend_name):
    # rank 5 of 30, and a rank-29 matrix (the Woodbury branch): against numpy's SVD-based pinv
    xp = get_backend(backend_name)
    rng = np.random.default_rng(1)
    for rank in (5, 29):
        factor = rng.normal(size=(30, rank))
        matrix = factor @ factor.T
        rhs = rng.normal(size=(30, 3))
        expected = np.linalg.pinv(matrix, rcond=1e-10, hermitian=True) @ rhs
        ours = xp.to_numpy(least_squares.psd_pinv_solve(xp, xp.asarray(matrix), xp.asarray(rhs)))
        np.testing.assert_allclose(ours, expected, rtol=0, atol=1e-8 * np.abs(expected).max())


def test_pivoted_cholesky_counts_no_pivot_at_or_below_the_tolerance(backend_name):
    # a matrix of rounding-level entries (all of I - H_SS when the held-out stimuli duplicate training ones): LAPACK's
    # pstrf alone keeps its first pivot when positive; rank 0 is the eigenvalue count above tol (np.linalg.eigvalsh)
    xp = get_backend(backend_name)
    rng = np.random.default_rng(2)
    noise = rng.normal(size=(8, 8)) * 1e-16
    tiny = noise @ noise.T + np.diag(np.linspace(1e-15, 3e-15, 8))
    _, _, rank = xp.pivoted_cholesky(xp.asarray(tiny), 1e-9)
    assert rank == np.count_nonzero(np.linalg.eigvalsh(tiny) > 1e-9) == 0
    factor = rng.normal(size=(8, 3))
    _, _, rank = xp.pivoted_cholesky(xp.asarray(factor @ factor.T + tiny), 1e-9)
    assert rank == np.count_nonzero(np.linalg.eigvalsh(factor @ factor.T + tiny) > 1e-9) == 3


def test_single_fit_equals_sklearn_on_hard_sources():
    # fit / predict (the *_split metrics): wide through the training rows' Gram matrix, narrow through the features'
    for n, p in ((80, 240), (150, 40)):
        for kind in ("int8_lowrank", "duplicated_stimuli", "constant_duplicated_features"):
            X, Y = hard_source(kind, n, p)
            train, test = np.arange(20, n), np.arange(20)
            ours = LinearRegression().fit(X, Y, train).predict(X, test)
            expected = SkLinear().fit(X[train], Y[train]).predict(X[test])
            np.testing.assert_allclose(ours, expected, rtol=0, atol=1e-6 * np.abs(expected).max())


def test_cowley_pixels(raw_data_dir):
    # real images: the 640 Cowley 2023 images of session 210325 as 8-bit pixels, 32 x 32 grey (1,024 features,
    # more than the 576 training images: the kernel path) and 8 x 8 (64 features: the feature path), predicting the
    # session's averaged V4 responses
    from PIL import Image

    folder = raw_data_dir / "cowley2023_v4"
    with open(folder / "stimuli_210325.csv", newline="") as handle:
        entries = list(csv.DictReader(handle))
    responses = np.load(folder / "responses_avg_210325.npy").T.astype(np.float64)  # (images, units)
    splits = shuffle_splits(len(entries), 5, 1)
    pixels = {32: [], 8: []}
    for entry in entries:
        with Image.open(folder / entry["filename"]) as image:
            grey = image.convert("L")
            for side, rows in pixels.items():
                rows.append(np.asarray(grey.resize((side, side), Image.BILINEAR), dtype=np.float32).ravel())
    for rows in pixels.values():
        X = np.stack(rows)
        ours = LinearRegression().cross_predict(X, responses, splits)
        assert_predictions_close(get_backend("numpy"), ours, sklearn_split_predictions(SkLinear, X, responses, splits), 1e-6)


@pytest.mark.parametrize("complementary", [True, False], ids=["one_factorisation", "per_split"])
def test_ridge_on_a_large_scale_low_rank_float32_source_equals_sklearn(complementary):
    # float32 products round the Gram matrix of a rank-3 source of scale 100 (offset 700) by more than alpha = 1:
    # G + I from 'mixed' products is not positive definite; ridge recomputes the products in float64 and equals
    # scikit-learn's Ridge(1.0) fitted per split on the float64 cast
    rng = np.random.default_rng(0)
    latent = rng.normal(size=(80, 3))
    X = (latent @ rng.normal(size=(3, 240)) * 100 + 700).astype(np.float32)
    Y = latent @ rng.normal(size=(3, 4)) + 0.3 * rng.normal(size=(80, 4))
    with pytest.raises(IllConditionedKernelError):  # the premise: the mixed-precision kernel is indefinite
        mixed = ComputePlan(get_backend("numpy"), precision="mixed")
        ridge_heldout_predictions(mixed, centered_gram(mixed, X), Y, [np.arange(8)], alpha=1.0)
    splits = shuffle_splits(80, 5, 1) if complementary else [(train[:60], test) for train, test in shuffle_splits(80, 5, 1)]
    ours = RidgeRegression(1.0).cross_predict(X, Y, splits)
    assert_predictions_close(get_backend("numpy"), ours, sklearn_split_predictions(lambda: SkRidge(1.0), X, Y, splits), 1e-7)
