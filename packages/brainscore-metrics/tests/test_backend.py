"""Every kernel on numpy and on torch (CPU): same numbers to 1e-6 relative in float64."""

import numpy as np
import pytest
from conftest import torch_or_skip

from brainscore_metrics._correlation import pearson_columns
from brainscore_metrics._least_squares import least_squares_fit
from brainscore_metrics._neuron_to_neuron import best_source_units
from brainscore_metrics._pls import pls_fit, pls_predict
from brainscore_metrics._ridge import centered_gram, linear_model_predict, ridge_fit, ridgecv_fit
from brainscore_metrics._split_half import masked_pearson, split_half_from_rows
from brainscore_metrics.backend import (
    ComputePlan,
    UnknownBackendError,
    get_backend,
    resolve_backend,
    use_backend,
)


@pytest.fixture(scope="module")
def torch_backend():
    torch = torch_or_skip()
    torch.set_num_threads(1)  # 2-core CI: OpenMP threads next to numpy's BLAS threads thrash
    return get_backend("torch")


@pytest.fixture(scope="module")
def data():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(120, 150)) + 2
    Y = X[:, :10] @ rng.normal(size=(10, 6)) + 2 * rng.normal(size=(120, 6))
    train = np.sort(rng.permutation(120)[:100])
    test = np.setdiff1d(np.arange(120), train)
    return X, Y, train, test


def _both(fn, torch_backend, *arrays):
    numpy_backend = get_backend("numpy")
    a = fn(numpy_backend, *[numpy_backend.asarray(x) for x in arrays])
    b = fn(torch_backend, *[torch_backend.asarray(x) for x in arrays])
    return a, b


def _close(a, b, torch_backend, rtol=1e-6):
    np.testing.assert_allclose(torch_backend.to_numpy(b), np.asarray(a), rtol=rtol, atol=1e-12)


def test_pearson(data, torch_backend):
    X, Y, *_ = data
    a, b = _both(lambda xp, x, y: pearson_columns(xp, x[:, :6], y), torch_backend, X, Y)
    _close(a, b, torch_backend)


@pytest.mark.parametrize("p", [30, 150])
def test_pls(data, torch_backend, p):
    X, Y, train, test = data

    def run(xp, x, y):
        return pls_predict(xp, pls_fit(ComputePlan(xp), x, y, train, n_components=10), x, test)

    a, b = _both(run, torch_backend, X[:, :p], Y)
    _close(a, b, torch_backend)


@pytest.mark.parametrize("kernel", ["ridge", "ridgecv", "linear"])
@pytest.mark.parametrize("p", [30, 150])
def test_linear_family(data, torch_backend, kernel, p):
    X, Y, train, test = data
    fit = {"ridge": ridge_fit, "ridgecv": ridgecv_fit, "linear": least_squares_fit}[kernel]

    def run(xp, x, y):
        return linear_model_predict(xp, fit(ComputePlan(xp, precision="float64"), x, y, train), x, test)

    a, b = _both(run, torch_backend, X[:, :p], Y)
    _close(a, b, torch_backend)


def test_gram(data, torch_backend):
    X, *_ = data
    a, b = _both(lambda xp, x: centered_gram(ComputePlan(xp), x), torch_backend, X)
    _close(a, b, torch_backend)


def test_neuron_to_neuron(data, torch_backend):
    X, Y, train, _ = data
    a, b = _both(lambda xp, x, y: best_source_units(xp, x, y, train, block=64), torch_backend, X, Y)
    np.testing.assert_array_equal(a, b)


def test_split_half(torch_backend):
    rng = np.random.default_rng(1)
    dense = rng.normal(size=(40, 5, 1)) + rng.normal(size=(40, 5, 6))
    dense[3, 1, 5] = np.nan
    halves = np.zeros((4, 6), dtype=bool)
    halves[:, :3] = True
    halves[1] = halves[1][::-1]
    rows = np.moveaxis(dense, 2, 0).reshape(6 * 40, 5)  # repetition-major rows
    slots = np.arange(6 * 40).reshape(6, 40)
    a, b = _both(lambda xp, r: split_half_from_rows(xp, r, slots, halves), torch_backend, rows)
    np.testing.assert_allclose(b, a, rtol=1e-6)
    a, b = _both(lambda xp, u, v: masked_pearson(xp, u, v), torch_backend, dense[:, :, 0], dense[:, :, 5])
    _close(a, b, torch_backend)


def test_nanmedian(torch_backend):
    values = np.array([[1.0, np.nan, 3.0, 4.0], [np.nan, np.nan, np.nan, np.nan], [2.0, 1.0, np.nan, 5.0]])
    numpy_backend = get_backend("numpy")
    expected = np.array([3.0, np.nan, 2.0])  # hand-worked medians of the finite entries
    np.testing.assert_array_equal(numpy_backend.nanmedian(values, axis=1), expected)
    np.testing.assert_array_equal(torch_backend.to_numpy(torch_backend.nanmedian(torch_backend.asarray(values),
                                                                                  axis=1)), expected)


def test_use_backend_context_and_resolution(torch_backend):
    import torch

    assert get_backend().name == "numpy"
    with use_backend("torch") as xp:
        assert xp.name == "torch" and get_backend().name == "torch"
    assert get_backend().name == "numpy"
    assert resolve_backend(None, torch.zeros(2)).name == "torch"
    assert resolve_backend("numpy", torch.zeros(2)).name == "numpy"
    with pytest.raises(UnknownBackendError, match="jax"):
        get_backend("jax")


def test_metric_backend_parameter_and_context(torch_backend):
    from _regression_helpers import synthetic_pair
    from test_internal_consistency import _dense, trials_assembly

    from brainscore_metrics.internal_consistency import InternalConsistency
    from brainscore_metrics.regression_correlation import CrossRegressedCorrelation

    source, target, *_ = synthetic_pair(n=100, p=40, q=5)
    for regression in ("pls", "ridge", "ridgecv", "linear", "neuron_to_neuron"):
        expected = float(CrossRegressedCorrelation(regression)(source, target))
        assert float(CrossRegressedCorrelation(regression, backend="torch")(source, target)) == pytest.approx(
            expected, rel=1e-6)
        with use_backend("torch"):
            assert float(CrossRegressedCorrelation(regression)(source, target)) == pytest.approx(expected, rel=1e-6)
    trials = trials_assembly(_dense())
    assert float(InternalConsistency(backend="torch")(trials)) == pytest.approx(
        float(InternalConsistency()(trials)), rel=1e-6)


def test_ridge_heldout_path_on_torch(torch_backend):
    # more features than stimuli -> RidgeRegression.cross_predict's one-factorisation path on both backends
    from brainscore_metrics.regression import RidgeRegression

    rng = np.random.default_rng(5)
    X, Y = rng.normal(size=(80, 200)), rng.normal(size=(80, 4))
    order = rng.permutation(80)
    splits = [(np.sort(order[:72]), np.sort(order[72:])), (np.sort(order[8:]), np.sort(order[:8]))]
    expected = RidgeRegression(alpha=1.0, backend="numpy").cross_predict(X, Y, splits)
    got = RidgeRegression(alpha=1.0, backend="torch").cross_predict(X, Y, splits)
    for a, b in zip(expected, got, strict=True):
        np.testing.assert_allclose(torch_backend.to_numpy(b), a, rtol=1e-6, atol=1e-9)


def test_a_plan_runs_blas_on_one_thread_and_decides_its_workers_from_the_size():
    from threadpoolctl import threadpool_info, threadpool_limits

    from brainscore_metrics.backend import SMALL_PROBLEM_FLOPS, compute_plan, use_threads

    def blas_threads():
        return {entry["num_threads"] for entry in threadpool_info() if entry["user_api"] == "blas"}

    with threadpool_limits(limits=2, user_api="blas"):  # a known starting point, even on a 1-core runner
        before = blas_threads()
        with compute_plan("numpy", flops=SMALL_PROBLEM_FLOPS / 10) as small:
            assert blas_threads() == {1} and small.threads == 1
        assert blas_threads() == before
        with compute_plan("numpy", flops=SMALL_PROBLEM_FLOPS * 10) as large:
            assert blas_threads() == {1}  # large problems too: their workers run single-threaded tiles
            # one worker per idle core (test_compute_plan.py::test_a_large_call_takes_one_worker_per_idle_core)
            assert 1 <= large.threads <= len(__import__("os").sched_getaffinity(0))
        with use_threads(3), compute_plan("numpy", flops=0) as forced:
            assert forced.threads == 3
        assert blas_threads() == before
    assert before  # numpy's BLAS was found at all, so the checks above were meaningful
