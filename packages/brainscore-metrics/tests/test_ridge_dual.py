"""Fixed-alpha ridge in kernel form as a saddle-point system (``_ridge_dual.py``).

Expected values: the Gram matrix's own entries before the move (the leading block, the rows after it), and scikit-learn's
``Ridge`` on the same float64 arrays (its own computation, in the primal form); the real recordings are Cowley 2023 V4
session 210325 (640 images' mean responses of 50 units) with the images' pixels as the source (768 features: the
kernel form).
"""

from __future__ import annotations

import numpy as np
import pytest

from brainscore_metrics import _ridge_dual, arrays
from brainscore_metrics._ridge import centered_gram, ridge_fit, train_centered_kernel
from brainscore_metrics.backend import numpy as numpy_backend
from brainscore_metrics.backend.plan import compute_plan


@pytest.mark.parametrize("rows_per_copy", [4, _ridge_dual.COMPACT_ROWS])
@pytest.mark.parametrize(("n", "m"), [(50, 37), (50, 3), (40, 40), (130, 120)])
def test_the_training_block_moves_to_the_front_of_the_buffer(monkeypatch, rows_per_copy, n, m):
    # rows_per_copy=4 with m=37: blocks of rows whose destination overlaps their own source (the first 9 rows for
    # n - m = 13) and blocks that do not
    monkeypatch.setattr(_ridge_dual, "COMPACT_ROWS", rows_per_copy)
    rng = np.random.default_rng(0)
    source = rng.normal(size=(n, 7))
    gram = source @ source.T
    before = gram.copy()
    block = _ridge_dual.train_block(numpy_backend, gram, np.arange(m), overwrite=True)
    assert np.shares_memory(block, gram) and block.flags.c_contiguous and block.shape == (m, m)
    np.testing.assert_array_equal(block, before[:m, :m])
    np.testing.assert_array_equal(gram[m:], before[m:])  # the test rows keep their place and values


def test_a_training_block_that_is_not_the_leading_rows_is_copied():
    rng = np.random.default_rng(1)
    source = rng.normal(size=(20, 5))
    gram = source @ source.T
    before = gram.copy()
    train = np.array([1, 4, 5, 9, 12])
    block = _ridge_dual.train_block(numpy_backend, gram, train, overwrite=True)
    assert not np.shares_memory(block, gram)
    np.testing.assert_array_equal(block, before[np.ix_(train, train)])
    np.testing.assert_array_equal(gram, before)


@pytest.mark.parametrize("overwrite", [False, True])
def test_saddle_point_fit_equals_the_train_centred_solution(overwrite):
    # the same dual coefficients as the kernel re-centred on the training rows, (H K H + alpha I) c = y - mean(y)
    rng = np.random.default_rng(2)
    X = rng.normal(size=(60, 200)) + 5.0  # features far from zero mean: the intercept carries a real shift
    Y = X[:, :3] @ rng.normal(size=(3, 4)) + rng.normal(size=(60, 4))
    train, test = np.arange(45), np.arange(45, 60)
    with compute_plan(None, X, flops=0.0) as plan:
        gram = centered_gram(plan.with_precision("float64"), X)
        centred = train_centered_kernel(numpy_backend, gram, train, train)
        expected_dual = np.linalg.solve(centred + 3.0 * np.eye(45), Y[train] - Y[train].mean(0))
        expected_test = train_centered_kernel(numpy_backend, gram, train, test) @ expected_dual + Y[train].mean(0)
        fitted = ridge_fit(plan.with_precision("float64"), X, Y, train, alpha=3.0, gram=gram, overwrite_gram=overwrite)
    np.testing.assert_allclose(fitted["dual"], expected_dual, rtol=1e-10, atol=1e-12 * np.abs(expected_dual).max())
    np.testing.assert_allclose(fitted["dual"].sum(axis=0), 0.0, atol=1e-12 * np.abs(expected_dual).sum())
    assert ("gram" in fitted) is not overwrite
    predictions = _ridge_dual.saddle_point_predictions(numpy_backend, gram, fitted, test)
    np.testing.assert_allclose(predictions, expected_test, rtol=1e-10, atol=1e-12 * np.abs(expected_test).max())


def test_real_cowley_fixed_split_ridge_equals_scikit_learn(raw_data_dir):
    from _cowley import pixel_features
    from sklearn.linear_model import Ridge

    responses = np.load(raw_data_dir / "cowley2023_v4" / "responses_avg_210325.npy").T  # (640 images, 50 units)
    pixels = pixel_features(raw_data_dir, size=16).values  # 768 features > 512 training images: the kernel form
    train, test = np.arange(512), np.arange(512, 640)
    expected = Ridge(alpha=10.0).fit(pixels[train], responses[train]).predict(pixels[test])
    tolerance = {"rtol": 1e-9, "atol": 1e-10 * np.abs(expected).max()}
    # the stacked Gram matrix factorised in its own memory
    np.testing.assert_allclose(arrays.ridge_predict(pixels[train], responses[train], pixels[test], alpha=10.0),
                               expected, **tolerance)
    # fit's own Gram matrix factorised in place, then coef_ from the dual coefficients
    model = arrays.RidgeRegression(10.0).fit(pixels[train], responses[train])
    np.testing.assert_allclose(model.predict(pixels[test]), expected, **tolerance)
    # float32 pixels: float32 block products summed in float64, at least as close to the float64 fit as scikit-learn's
    # own float32 fit
    pixels32 = pixels.astype(np.float32)
    ours = arrays.ridge_predict(pixels32[train], responses[train], pixels32[test], alpha=10.0)
    exact = Ridge(alpha=10.0).fit(pixels32[train].astype(np.float64), responses[train]).predict(
        pixels32[test].astype(np.float64))
    peer = Ridge(alpha=10.0).fit(pixels32[train], responses[train].astype(np.float32)).predict(pixels32[test])
    assert np.abs(ours - exact).max() <= np.abs(peer - exact).max()
