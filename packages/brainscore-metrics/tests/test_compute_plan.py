"""One compute plan per call (issue 44, part 3): one number per input whatever the worker threads and the caller's
BLAS threads, one float32-to-float64 retry, and ``fit`` / ``cross_predict`` under the same precision (no module-global
state: ``test_module_state.py``).

Expected values: the same call on one worker thread and one BLAS thread (bits), scikit-learn and scipy (values).
Without the plan's one BLAS thread the bit tests fail (measured: ``linear_fit_predict`` of the duplicated source
differed by 4e-4 with OpenBLAS on 2 threads).
"""

from __future__ import annotations

import numpy as np
import pytest
from _representational import activations
from threadpoolctl import threadpool_limits

import brainscore_metrics._gram as gram_module
import brainscore_metrics.backend._numpy_gram as numpy_gram
import brainscore_metrics.backend._numpy_tiles as tiles
from brainscore_metrics import arrays
from brainscore_metrics.backend import ComputePlan, get_backend, use_threads
from brainscore_metrics.backend.plan import with_float64_retry


# ------------------------------------------------------------------------------------- one number per input
def _wide_float32(n: int = 300, p: int = 1300, q: int = 6, seed: int = 0):
    """A float32 source of many more features than stimuli (rectified, 100 dead units) and a float64 target."""
    rng = np.random.default_rng(seed)
    latent = rng.normal(size=(n, 12))
    X = np.maximum(latent @ rng.normal(size=(12, p)) + rng.normal(size=(n, p)), 0).astype(np.float32)
    X[:, :100] = 0.0  # dead units
    Y = latent @ rng.normal(size=(12, q)) + rng.normal(size=(n, q))
    return X, Y


def _rank_deficient_float32(n: int = 300, p: int = 1300, q: int = 6, seed: int = 2):
    """A float32 source of rank 4 at scale 100 and offset 700 (as issue 31's large-scale low-rank activations): float32
    products round its Gram matrix by more than ridge's alpha, so ridge's float64 retry runs
    (``test_the_rank_deficient_source_takes_the_retry``) and least squares takes its rank-revealing path."""
    rng = np.random.default_rng(seed)
    latent = rng.normal(size=(n, 4))
    X = (latent @ rng.normal(size=(4, p)) * 100 + 700).astype(np.float32)
    Y = latent @ rng.normal(size=(4, q)) + 0.3 * rng.normal(size=(n, q))
    return X, Y


def _duplicated_float32(n: int = 300, p: int = 1300, q: int = 6, seed: int = 3):
    """A float32 source whose features are copies: the second half repeats the first, and one unit 200 times."""
    X, Y = _wide_float32(n, p // 2, q, seed)
    X = np.concatenate([X, X], axis=1)
    X[:, -200:] = X[:, [150]]
    return X, Y


#: the sources the worker-count tests score: name -> (n, p, q, seed) -> (X float32, Y float64)
SOURCES = {"wide": _wide_float32, "rank_deficient": _rank_deficient_float32, "duplicated": _duplicated_float32}


def _array_calls(X, Y):
    n = len(X)
    train, test = np.arange(0, n - 60), np.arange(n - 60, n)
    splits = [(np.setdiff1d(np.arange(n), fold), fold) for fold in np.array_split(np.random.default_rng(1).permutation(n), 5)]
    alphas = np.logspace(-1, 5, 7)
    return {
        "ridge_predict": lambda: arrays.ridge_predict(X[train], Y[train], X[test]),
        "ridgecv_loo": lambda: arrays.ridgecv_predict(X[train], Y[train], X[test], alphas=alphas)[0],
        "ridgecv_5fold_per_target": lambda: arrays.ridgecv_predict(X[train], Y[train], X[test], alphas=alphas, cv=5,
                                                                   alpha_per_target=True)[0],
        "ridge_fit_predict": lambda: arrays.RidgeRegression(1.0).fit(X[train], Y[train]).predict(X[test]),
        "linear_fit_predict": lambda: arrays.LinearRegression().fit(X[train], Y[train]).predict(X[test]),
        "pls_fit_predict": lambda: arrays.PLSRegression(5).fit(X[train], Y[train]).predict(X[test]),
        "ridge_cross_predict": lambda: np.concatenate(arrays.RidgeRegression(1.0).cross_predict(X, Y, splits)),
        "ridgecv_cross_predict": lambda: np.concatenate(arrays.RidgeCVRegression(alphas).cross_predict(X, Y, splits)),
        "ridgecv_cross_correlate": lambda: arrays.RidgeCVRegression(alphas).cross_correlate(X, Y, splits),
        "linear_cross_predict": lambda: np.concatenate(arrays.LinearRegression().cross_predict(X, Y, splits)),
        "pls_cross_predict": lambda: np.concatenate(arrays.PLSRegression(5).cross_predict(X, Y, splits)),
        "rdm_correlation": lambda: arrays.compute_rdm(X),
        "rdm_euclidean": lambda: arrays.compute_rdm(X, "euclidean"),
        "rsa": lambda: arrays.rsa(X, Y),
        "cka": lambda: np.array([arrays.linear_cka(X, Y), arrays.linear_cka(X, Y, unbiased=False)]),
        "cka_narrow": lambda: np.array([arrays.linear_cka(X[:, 100:260], Y)]),
    }


#: (plan workers, BLAS threads outside the plan): the plan's own BLAS threads are 1 whatever the caller set
_THREAD_CHOICES = ((1, 1), (2, 2), (4, 2))


@pytest.mark.parametrize("source", sorted(SOURCES))
def test_every_worker_count_gives_the_same_bits(monkeypatch, source):
    # tiles of 40 rows (8 at 300 stimuli), Cholesky blocks of 64 and feature blocks of 256, so that 2 and 4 workers
    # really split the work
    monkeypatch.setattr(tiles, "TILE_ROWS", 40)
    monkeypatch.setattr(numpy_gram, "PANEL_ROWS", 40)
    monkeypatch.setattr(tiles, "CHOLESKY_BLOCK", 64)
    monkeypatch.setattr(gram_module, "MIXED_BLOCK", 256)
    X, Y = SOURCES[source]()
    results = {}
    for threads, blas_threads in _THREAD_CHOICES:
        with threadpool_limits(limits=blas_threads, user_api="blas"), use_threads(threads):
            results[threads] = {name: np.asarray(call()) for name, call in _array_calls(X, Y).items()}
    for name, expected in results[1].items():
        assert np.isfinite(expected).all(), name  # the comparison is of numbers, not of NaN placeholders
        for threads, _ in _THREAD_CHOICES[1:]:
            np.testing.assert_array_equal(results[threads][name], expected,
                                          err_msg=f"{name} of the {source} source on {threads} workers")


@pytest.mark.parametrize("source", sorted(SOURCES))
@pytest.mark.parametrize("metric", ["pls", "ridge", "ridgecv", "linear_predictivity", "rdm", "cka", "dual_ridge_split",
                                    "dual_ridgecv_split"])
def test_every_worker_count_gives_the_same_score(monkeypatch, metric, source):
    # the metric calls end to end (regression-correlation, RSA of RDMs, CKA): each enters one plan
    from brainscore_metrics import plugin

    monkeypatch.setattr(tiles, "TILE_ROWS", 40)
    monkeypatch.setattr(numpy_gram, "PANEL_ROWS", 40)
    monkeypatch.setattr(tiles, "CHOLESKY_BLOCK", 48)
    monkeypatch.setattr(gram_module, "MIXED_BLOCK", 256)
    X, Y = SOURCES[source](n=200, p=900)
    ids = [f"s{index}" for index in range(200)]
    objects = np.repeat(np.arange(8), 25).astype(str)
    source_assembly, target = activations(X, ids, objects), activations(Y, ids, objects)
    load = plugin.make_factory(*plugin.METRICS[metric])
    scores = []
    for threads, blas_threads in ((1, 1), (3, 2)):
        with threadpool_limits(limits=blas_threads, user_api="blas"), use_threads(threads):
            if metric.endswith("_split"):
                score = load()(source_assembly[:160], source_assembly[160:], target[:160], target[160:])
            else:
                score = load()(source_assembly, target)
        scores.append((float(score), np.asarray(score.attrs["raw"].values)))
    assert np.isfinite(scores[0][0])
    assert scores[0][0] == scores[1][0]
    np.testing.assert_array_equal(scores[0][1], scores[1][1])


def test_ridgecv_cross_correlate_equals_scikit_learn():
    # the column stream of RidgeCV (no array of all predictions) against scikit-learn's RidgeCV per split and scipy's
    # Pearson r; 140 features: more than the training stimuli (112) and fewer than all (140 < 150), the case where
    # the stream forms a Gram matrix that ridge's own fit does not share
    from scipy.stats import pearsonr
    from sklearn.linear_model import RidgeCV

    X, Y = _wide_float32(n=150, p=140, q=5, seed=4)
    X = X.astype(np.float64)
    splits = [(np.setdiff1d(np.arange(150), fold), fold)
              for fold in np.array_split(np.random.default_rng(5).permutation(150), 4)]
    alphas = np.logspace(-2, 4, 9)
    regression = arrays.RidgeCVRegression(alphas)
    r = regression.cross_correlate(X, Y, splits)
    for number, (train, test) in enumerate(splits):
        reference = RidgeCV(alphas=alphas).fit(X[train], Y[train])
        predicted = reference.predict(X[test])
        expected = [pearsonr(predicted[:, j], Y[test, j])[0] for j in range(Y.shape[1])]
        np.testing.assert_allclose(r[number], expected, rtol=1e-9, atol=1e-12)
        assert regression.split_info_[number]["alpha"] == reference.alpha_


# ------------------------------------------------------------------------------- the one retry, one precision
def test_the_float64_retry_runs_only_for_float32_products():
    numpy_backend = get_backend("numpy")
    seen = []

    def attempt(plan):
        seen.append(plan.precision)
        if plan.precision == "mixed":
            raise np.linalg.LinAlgError("indefinite")
        return "solved"

    X32 = np.zeros((3, 4), dtype=np.float32)
    assert with_float64_retry(ComputePlan(numpy_backend), X32, attempt, retry_on=(np.linalg.LinAlgError,)) == "solved"
    assert seen == ["mixed", "float64"]
    with pytest.raises(np.linalg.LinAlgError):  # a float64 source has nothing to retry
        with_float64_retry(ComputePlan(numpy_backend), X32.astype(np.float64), attempt,
                           retry_on=(np.linalg.LinAlgError,))
    with pytest.raises(np.linalg.LinAlgError):  # nor an error it was not asked to catch
        with_float64_retry(ComputePlan(numpy_backend), X32, attempt, retry_on=(KeyError,))


@pytest.mark.parametrize("call", ["ridge_predict", "ridge_fit_predict", "ridge_cross_predict"])
def test_the_rank_deficient_source_takes_the_retry(monkeypatch, call):
    # the float32 products of the rank-4 source make G + alpha I indefinite: each ridge entry (the array function of
    # the dual_ridge metrics included, which had no retry before) runs the one retry and equals scikit-learn's
    # Ridge(1.0) fitted on the float64 cast
    from sklearn.linear_model import Ridge

    import brainscore_metrics._linear_regressions as linear_regressions
    import brainscore_metrics.dual_ridge as dual_ridge

    precisions = []

    def spy(plan, X, attempt, *, retry_on):
        return with_float64_retry(plan, X, lambda each: precisions.append(each.precision) or attempt(each),
                                  retry_on=retry_on)

    monkeypatch.setattr(linear_regressions, "with_float64_retry", spy)
    monkeypatch.setattr(dual_ridge, "with_float64_retry", spy)
    X, Y = _rank_deficient_float32(n=200, p=900)
    X64 = X.astype(np.float64)
    if call == "ridge_cross_predict":
        splits = [(np.setdiff1d(np.arange(200), fold), fold) for fold in np.array_split(np.arange(200), 4)]
        ours = np.concatenate(arrays.RidgeRegression(1.0).cross_predict(X, Y, splits))
        expected = np.concatenate([Ridge(1.0).fit(X64[train], Y[train]).predict(X64[test]) for train, test in splits])
    else:
        train, test = np.arange(160), np.arange(160, 200)
        ours = (arrays.ridge_predict(X[train], Y[train], X[test]) if call == "ridge_predict"
                else arrays.RidgeRegression(1.0).fit(X[train], Y[train]).predict(X[test]))
        expected = Ridge(1.0).fit(X64[train], Y[train]).predict(X64[test])
    assert precisions == ["mixed", "float64"]
    np.testing.assert_allclose(ours, expected, rtol=0, atol=1e-7 * np.abs(expected).max())  # 1.3e-8 measured


@pytest.mark.parametrize("precision", ["mixed", "float64"])
@pytest.mark.parametrize("regression", ["ridge", "ridgecv", "linear", "pls"])
def test_fit_and_cross_predict_take_the_same_products(monkeypatch, regression, precision):
    # a float32 wide source: both paths form their Gram matrices with the precision asked for, and fitting the
    # training rows then predicting equals cross_predict with that one split
    numpy_backend = get_backend("numpy")
    original = numpy_backend.stimulus_gram_blocks
    seen = []

    def spy(plan, X, blocks, center, float32):
        seen.append(float32)
        return original(plan, X, blocks, center, float32)

    monkeypatch.setattr(numpy_backend, "stimulus_gram_blocks", spy)
    X, Y = _wide_float32(n=120, p=700)
    make = {"ridge": lambda: arrays.RidgeRegression(2.0, precision=precision),
            "ridgecv": lambda: arrays.RidgeCVRegression((0.1, 10.0, 1e3), precision=precision),
            "linear": lambda: arrays.LinearRegression(precision=precision),
            "pls": lambda: arrays.PLSRegression(4, precision=precision)}[regression]
    train, test = np.arange(20, 120), np.arange(20)
    fitted = make().fit(X, Y, train).predict(X[test])
    from_fit, seen[:] = list(seen), []
    (crossed,) = make().cross_predict(X, Y, [(train, test)])
    assert from_fit and set(from_fit) == set(seen) == {precision == "mixed"}
    # float32 products of the two paths' Gram matrices (of 100 and of 120 rows) round differently, and least squares
    # squares their condition number (3e-4 measured): why its default precision is float64
    tolerance = 1e-3 if (regression, precision) == ("linear", "mixed") else 1e-6
    np.testing.assert_allclose(fitted, crossed, rtol=tolerance, atol=tolerance * np.abs(crossed).max())


@pytest.mark.parametrize("cores", [1, 2, 16])
def test_a_large_call_takes_one_worker_per_core_whatever_the_load(monkeypatch, cores):
    # the worker count follows the cores this process may use, never the machine's load (values never depend on it:
    # the tests above); small calls take one worker
    import subprocess
    import sys

    from brainscore_metrics.backend import compute_plan
    from brainscore_metrics.backend import plan as plan_module

    monkeypatch.setattr(plan_module, "_available_cores", lambda: cores)
    spinner = subprocess.Popen([sys.executable, "-c", "while True: pass"])  # another process keeps a core busy
    try:
        with compute_plan("numpy", flops=1e12) as plan:
            assert plan.threads == cores
    finally:
        spinner.kill()
        spinner.wait()
    with compute_plan("numpy", flops=1e6) as plan:
        assert plan.threads == 1


def test_the_cores_are_those_of_the_process_affinity():
    import os

    from brainscore_metrics.backend import plan as plan_module

    assert plan_module._available_cores() == len(os.sched_getaffinity(0))


@pytest.mark.parametrize("layout", ["contiguous", "row_view"])
def test_the_gil_free_ssyrk_gives_scipys_bits(layout):
    """backend._nogil_blas.ssyrk_upper calls the routine scipy.linalg.blas.ssyrk calls, through ctypes (the GIL is
    released, so a plan's workers run their Gram blocks together): the same bits as the f2py wrapper, on a C-ordered
    block and on a column slice of a wider array (its rows strided), the strict lower triangle left as it was."""
    from scipy.linalg import blas

    from brainscore_metrics.backend._nogil_blas import ssyrk_upper, uses_ctypes

    assert uses_ctypes()  # this SciPy declares ssyrk as expected: the GIL-free path is the one tested here
    wide = np.maximum(np.random.default_rng(3).standard_normal((150, 700), dtype=np.float32), 0)
    chunk = wide[:, 100:400] if layout == "row_view" else np.ascontiguousarray(wide[:, 100:400])
    expected = blas.ssyrk(1.0, np.ascontiguousarray(chunk).T, beta=0.0,
                          c=np.zeros((150, 150), dtype=np.float32, order="F"), trans=1, overwrite_c=1)
    out = np.full((150, 150), 7.0, dtype=np.float32, order="F")
    ssyrk_upper(chunk, out)
    upper = np.triu_indices(150)
    assert np.array_equal(out[upper], expected[upper])
    assert np.all(out[np.tril_indices(150, -1)] == 7.0)
    # and against an independent product: float32 rounding of a 300-term sum
    np.testing.assert_allclose(out[upper], (chunk.astype(np.float64) @ chunk.T.astype(np.float64))[upper], rtol=1e-5)


def test_the_gil_free_trsm_and_potrs_give_scipys_bits():
    """The Cholesky panel's trsm and the tiled solve's potrs (backend._nogil_blas) give the f2py wrappers' bits, and
    solve the system (checked against numpy.linalg.solve)."""
    from scipy.linalg import blas, lapack

    from brainscore_metrics.backend._nogil_blas import dpotrs_lower, dtrsm_right_lower_transposed, uses_ctypes

    assert uses_ctypes()
    rng = np.random.default_rng(5)
    half = rng.standard_normal((60, 80))
    a = half @ half.T + 60 * np.eye(60)
    factor = np.asfortranarray(np.linalg.cholesky(a))
    panel = np.asfortranarray(rng.standard_normal((45, 60)))
    expected = blas.dtrsm(1.0, factor, panel.copy(order="F"), side=1, lower=1, trans_a=1)
    assert np.array_equal(dtrsm_right_lower_transposed(factor, panel.copy(order="F")), expected)
    np.testing.assert_allclose(expected @ factor.T, panel, rtol=1e-10, atol=1e-10)  # X L' = B
    b = np.asfortranarray(rng.standard_normal((60, 7)))
    expected, info = lapack.dpotrs(factor, b.copy(order="F"), lower=1)
    solution, our_info = dpotrs_lower(factor, b.copy(order="F"))
    assert (info, our_info) == (0, 0) and np.array_equal(solution, expected)
    np.testing.assert_allclose(solution, np.linalg.solve(a, b), rtol=1e-10, atol=1e-12)
