"""Constant features are left out of the stimulus Gram product, exact affine copies are merged, nothing else changes.

A feature constant over all stimuli centres to zero: it adds exactly nothing to the column-centred Gram matrix, to a
split's training block or to a cross block. ``stimulus_gram`` drops such columns before the n x n x p product.
Expected values: ``np.ptp`` for which columns vary, the float64 product of the explicitly centred source for the
Gram matrix, the same function on the source with the constant columns removed by hand, and scikit-learn
(``LinearRegression()``, ``Ridge(1.0)``, ``PLSRegression(scale=False)``) fitted per split on the float64 cast.
"""

from __future__ import annotations

import numpy as np
import pytest
from _regression_helpers import assert_predictions_close, shuffle_splits, sklearn_split_predictions
from sklearn.cross_decomposition import PLSRegression as SkPLS
from sklearn.linear_model import LinearRegression as SkLinear
from sklearn.linear_model import Ridge as SkRidge

import brainscore_metrics._affine_columns as affine_columns
import brainscore_metrics._gram as gram_module
import brainscore_metrics._least_squares as least_squares
import brainscore_metrics._linear_regressions as linear_regressions
from brainscore_metrics._affine_columns import merge_affine_columns
from brainscore_metrics._gram import stimulus_gram, varying_columns
from brainscore_metrics.backend import ComputePlan, get_backend
from brainscore_metrics.regression import LinearRegression, PLSRegression, RidgeRegression


def dead_unit_source(n: int, p: int, dead: int, seed: int = 0):
    """Quantised ReLU activations of an 8-dimensional latent where ``dead`` of the ``p`` units never fire (constant
    0) and two more are constant at another level; a target depending on the latent."""
    rng = np.random.default_rng(seed)
    latent = rng.normal(size=(n, 8))
    X = np.maximum(latent @ rng.normal(size=(8, p)) + 0.3 * rng.normal(size=(n, p)), 0)
    X = np.round(X / X.max() * 127) * X.max() / 127
    dead_columns = rng.choice(p, size=dead + 2, replace=False)
    X[:, dead_columns[:dead]] = 0.0
    X[:, dead_columns[dead:]] = 3.5
    Y = latent @ rng.normal(size=(8, 5)) + 0.5 * rng.normal(size=(n, 5))
    return X, Y


def test_varying_columns_equal_numpy_ptp(backend_name):
    xp = get_backend(backend_name)
    X, _ = dead_unit_source(30, 50, dead=20)
    expected = np.flatnonzero(np.ptp(X, axis=0) != 0)
    assert len(expected) == 28
    for block in (3, 7, 2048):  # blocks that split the columns unevenly, and one block
        np.testing.assert_array_equal(varying_columns(xp, xp.asarray(X), block), expected)
        # the blocks on a plan's two worker threads (as stimulus_gram maps them): the same columns, in order
        on_workers = xp.varying_columns(xp.asarray(X), block, ComputePlan(xp, threads=2).map)
        np.testing.assert_array_equal(on_workers, expected)
    rng = np.random.default_rng(1)
    assert varying_columns(xp, xp.asarray(rng.normal(size=(5, 9)))) is None  # every column varies: no index
    assert len(varying_columns(xp, xp.asarray(X[:1]))) == 0  # one stimulus: nothing varies


def test_varying_columns_on_non_finite_and_signed_zero_columns(backend_name):
    # expected by hand: a column holding a NaN varies (as before the min/max test), a column of one infinity does
    # not, +inf with -inf varies, -0.0 with 0.0 is constant (they compare equal)
    xp = get_backend(backend_name)
    X = np.zeros((6, 6))
    X[2, 0] = np.nan  # NaN among zeros
    X[:, 1] = np.nan  # all NaN
    X[:, 2] = np.inf
    X[:3, 3], X[3:, 3] = np.inf, -np.inf
    X[::2, 4] = -0.0
    X[:, 5] = np.arange(6)
    for block in (1, 4, 2048):
        np.testing.assert_array_equal(varying_columns(xp, xp.asarray(X), block), [0, 1, 3, 5])


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("precision", ["mixed", "float64"])
def test_gram_without_constant_columns_equals_the_full_product(backend_name, dtype, precision):
    xp = get_backend(backend_name)
    X, _ = dead_unit_source(40, 300, dead=200)
    X = X.astype(dtype)
    varying = np.flatnonzero(np.ptp(X, axis=0) != 0)
    full = xp.to_numpy(stimulus_gram(ComputePlan(xp, precision=precision), xp.asarray(X)))
    # the same function on the source with the constant columns removed by hand: the same blocks, the same numbers
    # but for the last bits (a gathered block and a sliced one may be summed and multiplied in another order)
    dropped = xp.to_numpy(stimulus_gram(ComputePlan(xp, precision=precision),
                                        xp.asarray(np.ascontiguousarray(X[:, varying]))))
    np.testing.assert_allclose(full, dropped, rtol=0, atol=1e-14 * np.abs(dropped).max())
    # and the float64 product of the explicitly centred source, constant columns included
    Z = X.astype(np.float64) - X.astype(np.float64).mean(axis=0)
    expected = Z @ Z.T
    tolerance = 1e-13 if dtype == np.float64 or precision == "float64" else 2e-6
    np.testing.assert_allclose(full, expected, rtol=0, atol=tolerance * np.abs(expected).max())


def _block_widths(monkeypatch) -> tuple[list[int], object]:
    """The numpy backend with its Gram product spied on: the list of every block's width it is handed."""
    seen: list[int] = []
    numpy_backend = get_backend("numpy")
    original = numpy_backend.stimulus_gram_blocks

    def spy(plan, values, blocks, center, float32):
        seen.extend(int(np.asarray(values[:, columns]).shape[1]) for columns in blocks)
        return original(plan, values, blocks, center, float32)

    monkeypatch.setattr(numpy_backend, "stimulus_gram_blocks", spy)
    return seen, numpy_backend


def test_the_product_sees_only_the_varying_columns(monkeypatch):
    X, _ = dead_unit_source(40, 300, dead=200)
    seen, numpy_backend = _block_widths(monkeypatch)
    stimulus_gram(ComputePlan(numpy_backend), X)
    assert sum(seen) == 98  # 300 - 200 dead - 2 constant at 3.5
    seen.clear()
    stimulus_gram(ComputePlan(numpy_backend), X, center="rows")  # rows centred: constant columns in closed form
    assert sum(seen) == 98


def test_a_few_constant_columns_of_a_large_product_stay_in(monkeypatch):
    """640 stimuli x 6,000 float32 features (an n x n x p product above SMALL_PROBLEM_FLOPS), 300 of them dead: below
    GATHER_BREAK_EVEN / n (a fifth), so no column is gathered (the product sees all 6,000, the dead ones centred to
    exact zeros), and the Gram matrix is the float64 product of the explicitly centred source to float32 accuracy,
    as the one with the dead columns left out is."""
    from brainscore_metrics import _gram

    rng = np.random.default_rng(3)
    X = np.maximum(rng.normal(size=(640, 6000)), 0).astype(np.float32)
    X[:, rng.choice(6000, size=300, replace=False)] = 0.0
    assert not _gram._worth_gathering(640, 6000, 5700) and _gram._worth_gathering(640, 6000, 4000)
    seen, numpy_backend = _block_widths(monkeypatch)
    kept_in = stimulus_gram(ComputePlan(numpy_backend), X)
    assert sum(seen) == 6000
    monkeypatch.setattr(_gram, "GATHER_BREAK_EVEN", 0)  # the dead columns left out, as before the rule
    left_out = stimulus_gram(ComputePlan(numpy_backend), X)
    assert sum(seen) == 6000 + 5700
    Z = X.astype(np.float64) - X.astype(np.float64).mean(axis=0)
    expected = Z @ Z.T  # float64 reference (numpy)
    scale = np.abs(expected).max()
    for gram in (kept_in, left_out):
        np.testing.assert_allclose(gram, expected, rtol=0, atol=2e-6 * scale)


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_row_centred_gram_of_dead_units_equals_the_explicit_product(backend_name, dtype):
    # a constant column is not zero once the rows are centred: its share (c - m_i)(c - m_j) is added in closed form
    X, _ = dead_unit_source(40, 300, dead=200)
    X[:, 250:260] = 40.0  # constant columns of another, large value
    X = X.astype(dtype)
    explicit = X.astype(np.float64) - X.astype(np.float64).mean(axis=1, keepdims=True)
    expected = explicit @ explicit.T
    xp = get_backend(backend_name)
    values = X if backend_name == "numpy" else __import__("torch").from_numpy(X)
    for precision, tolerance in (("float64", 1e-13), ("mixed", 1e-6)):
        gram = np.asarray(xp.to_numpy(stimulus_gram(ComputePlan(xp, precision=precision), values, center="rows")))
        np.testing.assert_allclose(gram, expected, rtol=tolerance, atol=tolerance * np.abs(expected).max())


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("dead", [150, 340], ids=["more_varying_than_stimuli", "fewer_varying_than_stimuli"])
def test_regressions_on_dead_units_equal_sklearn(monkeypatch, dtype, dead):
    # 80 stimuli x 400 units, 150 or 340 of them dead (248 or 58 varying: least squares takes the kernel
    # factorisation or the compressed source, both formed from the Gram matrix without the constant columns)
    xp = get_backend("numpy")
    X, Y = dead_unit_source(80, 400, dead=dead)
    X = X.astype(dtype)
    splits = shuffle_splits(80, 4, 2)
    # float32 products whatever the number of varying features (the rule that a near-square kernel takes float64
    # products, tested below, would otherwise pick a different precision with and without dropping)
    monkeypatch.setattr(linear_regressions, "MIXED_MIN_FEATURES_PER_STIMULUS", 0.0)
    regressions = {"linear": LinearRegression, "ridge": lambda: RidgeRegression(1.0, precision="float64"),
                   "ridge_mixed": lambda: RidgeRegression(1.0), "pls": lambda: PLSRegression(5)}
    ours = {name: make().cross_predict(X, Y, splits) for name, make in regressions.items()}
    assert_predictions_close(xp, ours["linear"], sklearn_split_predictions(SkLinear, X, Y, splits), 1e-6)
    expected = sklearn_split_predictions(lambda: SkRidge(1.0), X, Y, splits)
    assert_predictions_close(xp, ours["ridge"], expected, 1e-8)
    # float32 products (mixed precision) on a float32 source: their rounding, the same with or without dropping
    assert_predictions_close(xp, ours["ridge_mixed"], expected, 1e-4 if dtype == np.float32 else 1e-8)
    assert_predictions_close(xp, ours["pls"], sklearn_split_predictions(lambda: SkPLS(5, scale=False), X, Y, splits), 1e-8)
    # every constant column kept in the product (no dropping): the same predictions to rounding (float32 products
    # sum in another order when the product's inner dimension changes: their rounding, as above; this failed on main
    # at e9e5aa9 too, with 2.5e-5)
    monkeypatch.setattr(gram_module, "varying_columns", lambda *args, **kwargs: None)
    for name, make in regressions.items():
        tolerance = 1e-4 if name == "ridge_mixed" and dtype == np.float32 else 1e-12
        assert_predictions_close(xp, ours[name], make().cross_predict(X, Y, splits), tolerance)


def affine_copy_source(n: int = 80, seed: int = 3):
    """Varying columns only: 40 dense units, 12 units that fire on a single stimulus (three on stimulus 5, two on
    stimulus 9, the others alone), and exact affine copies of dense units (y = a + s x with s a power of two)."""
    rng = np.random.default_rng(seed)
    latent = rng.normal(size=(n, 6))
    dense = np.round(latent @ rng.normal(size=(6, 40)) * 8) / 8
    sparse = np.zeros((n, 12))
    for column, stimulus in enumerate([5, 5, 5, 9, 9, 11, 13, 17, 19, 23, 29, 31]):
        sparse[stimulus, column] = 1.5 + column
    copies = 3.0 + 2.0 * dense[:, :3]
    X = np.concatenate([dense, sparse, copies, -0.5 * dense[:, 3:4]], axis=1)
    Y = latent @ rng.normal(size=(6, 4)) + 0.3 * rng.normal(size=(n, 4))
    Y[5] += 4.0  # the targets depend on the sparse stimuli too
    return X, Y


def test_merged_affine_columns_keep_the_centred_gram_matrix(backend_name):
    xp = get_backend(backend_name)
    X, _ = affine_copy_source()
    merged = xp.to_numpy(merge_affine_columns(xp, xp.asarray(X)))
    # 56 columns: 40 dense + 12 sparse + 3 copies + 1 negative copy; groups: 3 on stimulus 5 -> 1, 2 on stimulus 9 ->
    # 1, each copy joins its original
    assert merged.shape == (80, 56 - 2 - 1 - 3 - 1)

    def centred_gram(values):
        centred = values - values.mean(axis=0)
        return centred @ centred.T

    expected = centred_gram(X)
    np.testing.assert_allclose(centred_gram(merged), expected, rtol=0, atol=1e-12 * np.abs(expected).max())
    rng = np.random.default_rng(0)
    independent = rng.normal(size=(10, 7))
    np.testing.assert_array_equal(xp.to_numpy(merge_affine_columns(xp, xp.asarray(independent))), independent)


def test_equal_checksums_of_different_patterns_stay_apart():
    # equal sums (2) and equal weighted sums with weights 1, 1.5, 2 (3), different patterns
    patterns = np.array([[1.0, 0.0, 1.0], [0.0, 2.0, 0.0], [1.0, 0.0, 1.0]])
    group = affine_columns._groups(patterns)
    assert group[0] != group[1] and group[0] == group[2]


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_dead_and_single_stimulus_units_take_the_varying_columns_path(monkeypatch, dtype):
    # 200 dead units next to the affine-copy source: 56 varying columns < n - 1, dependent only through exact affine
    # copies; held-out stimuli 5, 9, ... leave splits without a direction (scikit-learn's minimum-norm solution)
    X, Y = affine_copy_source()
    X = np.concatenate([X, np.zeros((80, 200))], axis=1).astype(dtype)
    splits = [(np.setdiff1d(np.arange(80), test), test) for test in np.array_split(np.arange(80), 8)]
    for name in ("centered_gram", "compressed_source", "split_predictions"):
        monkeypatch.setattr(least_squares, name, lambda *args, _name=name, **kwargs: pytest.fail(f"{_name} ran"))
    ours = LinearRegression().cross_predict(X, Y, splits)
    monkeypatch.undo()
    assert_predictions_close(get_backend("numpy"), ours, sklearn_split_predictions(SkLinear, X, Y, splits), 1e-6)



@pytest.mark.parametrize(("dead", "expect_float32"), [(150, True), (340, False)])
def test_ridge_takes_float64_products_when_few_features_per_stimulus_vary(monkeypatch, dead, expect_float32):
    # 80 stimuli: 248 varying units (>= 2 per stimulus) keep the float32 products of precision='mixed', 58 do not
    # (a near-singular kernel: float32 rounding would be compared with alpha); the float64 products then give
    # scikit-learn's Ridge on the float64 cast to float64 accuracy
    X, Y = dead_unit_source(80, 400, dead=dead)
    X = X.astype(np.float32)
    splits = shuffle_splits(80, 4, 2)
    seen = []
    numpy_backend = get_backend("numpy")
    original = numpy_backend.stimulus_gram_blocks

    def spy(plan, values, blocks, center, float32):
        seen.append(float32)
        return original(plan, values, blocks, center, float32)

    monkeypatch.setattr(numpy_backend, "stimulus_gram_blocks", spy)
    ours = RidgeRegression(1.0).cross_predict(X, Y, splits)
    assert seen == [expect_float32]
    expected = sklearn_split_predictions(lambda: SkRidge(1.0), X.astype(np.float64), Y, splits)
    assert_predictions_close(get_backend("numpy"), ours, expected, 1e-4 if expect_float32 else 1e-8)


def test_a_sample_of_rows_that_bounds_the_constant_columns_spares_the_scan_with_the_same_bits(monkeypatch,
                                                                                                 raw_data_dir):
    """The real Cowley 2023 V4 responses (trial-averaged: 640 x 88 units, float32) widened with dead units and sparse
    ReLU units to the real input's shape class (more features than stimuli): with few constant columns the full scan
    is skipped (a sample of 32 rows bounds them) and the Gram matrix is bit for bit the one of the scanning path; with
    many (a fifth dead), the scan runs and they are left out, as before."""
    from _cowley import averaged, load_trials

    from brainscore_metrics import _gram

    responses = np.asarray(averaged(load_trials(raw_data_dir)).values, dtype=np.float64)
    rng = np.random.default_rng(5)
    n = responses.shape[0]
    mixing = rng.normal(size=(responses.shape[1], 6000)) / np.sqrt(responses.shape[1])
    X = np.maximum((responses - responses.mean(0)) / responses.std(0) @ mixing - 0.5, 0).astype(np.float32)
    X[:, rng.choice(6000, size=300, replace=False)] = 0.0  # dead units: 5 %, too few to gather
    numpy_backend = get_backend("numpy")
    scans = []
    original = numpy_backend.varying_columns

    def counted(values, *args, **kwargs):
        scans.append(values.shape[0])
        return original(values, *args, **kwargs)

    monkeypatch.setattr(numpy_backend, "varying_columns", counted)
    sampled = stimulus_gram(ComputePlan(numpy_backend), X)
    assert scans == [_gram.SAMPLED_ROWS]  # the sample only
    monkeypatch.setattr(_gram, "_too_few_to_matter", lambda *args: False)  # the full scan, as before
    scanned = stimulus_gram(ComputePlan(numpy_backend), X)
    assert scans == [_gram.SAMPLED_ROWS, n]
    np.testing.assert_array_equal(sampled, scanned)
    monkeypatch.undo()
    monkeypatch.setattr(numpy_backend, "varying_columns", counted)
    X[:, rng.choice(6000, size=1500, replace=False)] = 0.0  # a fifth dead or more: gathering pays
    scans.clear()
    stimulus_gram(ComputePlan(numpy_backend), X)
    assert scans == [_gram.SAMPLED_ROWS, n]  # the sample could not rule it out: the full scan decided
