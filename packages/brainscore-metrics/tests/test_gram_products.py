"""How numpy forms the stimulus Gram matrix: block products accumulated in place (float64 syrk; float32 syrk into a
small scratch, or panels of rows for large n), the lower triangle mirrored, float32 column centring by the rounded
means with double centring, and the BLAS thread probe. Expected values: the float64 product of the explicitly
centred source (numpy), and threadpoolctl's report of the BLAS thread limit.
"""

from __future__ import annotations

import os

import numpy as np
import pytest

import brainscore_metrics._gram as gram_module
import brainscore_metrics._thread_probe as thread_probe
from brainio.skipping import skip
from brainscore_metrics._gram import stimulus_gram
from brainscore_metrics.backend import get_backend


@pytest.mark.parametrize("center", ["columns", "rows", "none"])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("panels", [False, True], ids=["scratch", "panels"])
def test_block_products_equal_the_float64_product(monkeypatch, center, dtype, panels):
    if panels:  # the panel products of large n, on a small input: no scratch allowed, panels of 7 rows
        monkeypatch.setattr(gram_module, "_FLOAT32_SCRATCH_BYTES", 0)
        monkeypatch.setattr(gram_module, "_PANEL_ROWS", 7)
    monkeypatch.setattr(gram_module, "_MIXED_BLOCK", 64)  # several blocks
    monkeypatch.setattr(gram_module, "_FLOAT64_BLOCK_BYTES", 8 * 45 * 50)
    rng = np.random.default_rng(7)
    X = (rng.normal(size=(45, 300)) * 0.5 + 20).astype(dtype)  # means 40x the spread
    Z = X.astype(np.float64)
    if center == "columns":
        Z = Z - Z.mean(axis=0)
    elif center == "rows":
        Z = Z - Z.mean(axis=1, keepdims=True)
    expected = Z @ Z.T
    gram = stimulus_gram(get_backend("numpy"), X, center=center)
    np.testing.assert_array_equal(gram, gram.T)  # the mirrored triangle
    tolerance = 2e-6 if dtype == np.float32 else 1e-12
    np.testing.assert_allclose(gram, expected, rtol=0, atol=tolerance * np.abs(expected).max())


@pytest.mark.parametrize(("single", "threaded", "expected_single"), [(0.2, 0.5, True), (0.5, 0.2, False)])
def test_thread_probe_runs_the_rest_on_the_faster_setting(monkeypatch, single, threaded, expected_single):
    # the probe's two timed products get fixed durations (the first product is not timed: it would pay the output's
    # first page faults); the BLAS thread limit seen by each product is read from threadpoolctl
    from threadpoolctl import threadpool_info

    clock = iter([0.0, single, 10.0, 10.0 + threaded])
    monkeypatch.setattr(thread_probe.time, "perf_counter", lambda: next(clock))
    seen = []

    def product():
        seen.append(min(info["num_threads"] for info in threadpool_info() if info["user_api"] == "blas"))
        return 0

    with thread_probe.fastest_threads(6) as timed:
        for _ in range(6):
            timed(product)
        assert timed.chosen == ("one" if expected_single else "all")
    if seen[0] == 1 or (os.cpu_count() or 1) == 1:
        skip("machine", "BLAS runs on one thread here: nothing to choose")
    assert seen[1] == 1  # the second product (the first timed) runs on one thread
    assert seen[2] == seen[0]  # the third on all
    assert (max(seen[3:]) == 1) == expected_single
    # the limit is lifted afterwards
    assert max(info["num_threads"] for info in threadpool_info() if info["user_api"] == "blas") == seen[0]


def test_probe_cuts_only_the_first_block_into_parts():
    # slices and index arrays: the parts cover the first block exactly, in order; later blocks are untouched
    blocks = [slice(0, 10), slice(10, 20), slice(20, 30), slice(30, 37)]
    cut = thread_probe.with_probe_blocks(blocks)
    if (os.cpu_count() or 1) == 1:
        assert cut == blocks
        return
    assert len(cut) == thread_probe.PROBE_PARTS + 3
    covered = np.concatenate([np.arange(part.start, part.stop) for part in cut[:thread_probe.PROBE_PARTS]])
    np.testing.assert_array_equal(covered, np.arange(10))
    assert cut[thread_probe.PROBE_PARTS:] == blocks[1:]
    arrays = [np.array([3, 5, 8, 13, 21]), np.array([34]), np.array([55]), np.array([89])]
    cut = thread_probe.with_probe_blocks(arrays)
    np.testing.assert_array_equal(np.concatenate(cut[:thread_probe.PROBE_PARTS]), arrays[0])
    assert thread_probe.with_probe_blocks(blocks[:1]) == blocks[:1]  # one block: no probe


@pytest.mark.parametrize("columns", [None, 1, 3, 4, 9])
@pytest.mark.parametrize("order", ["C", "F"])
def test_symmetric_product_equals_the_matrix_product(columns, order):
    # numpy's own product is the oracle; up to SYMV_MAX_COLUMNS columns the numpy backend reads one triangle
    numpy_backend = get_backend("numpy")
    rng = np.random.default_rng(3)
    a = rng.normal(size=(40, 40))
    a = np.asarray(a + a.T, order=order)
    b = rng.normal(size=40 if columns is None else (40, columns))
    np.testing.assert_allclose(numpy_backend.symmetric_product(a, b), a @ b, rtol=1e-12, atol=1e-12)
    # a triangle read means the other is not: with garbage above the diagonal a symv result still equals the product
    # of the symmetric matrix (C order: dsymv reads the lower triangle of ``a``)
    if order == "C" and columns is not None and columns <= numpy_backend.SYMV_MAX_COLUMNS:
        spoiled = a.copy()
        spoiled[np.triu_indices(40, 1)] = 1e6
        np.testing.assert_allclose(numpy_backend.symmetric_product(spoiled, b), a @ b, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("features", [96, 5000], ids=["one block", "several blocks"])
def test_float32_products_are_the_same_on_any_number_of_blas_threads(features):
    # issue 42: OpenBLAS splits a float32 product's sums over its threads, so one block gave other roundings on one
    # thread (a Dask worker) than on two (the command line, or whatever the thread probe chose): a 2-worker grid and
    # score() disagreed. Expected: the products bit for bit equal whatever the BLAS thread limit around the call.
    from threadpoolctl import threadpool_limits

    from brainscore_metrics.rdm import correlation_distance_triangle

    rng = np.random.default_rng(42)
    X = rng.normal(size=(92, features)).astype(np.float32)
    results = []
    for threads in (1, 2):
        with threadpool_limits(limits=threads, user_api="blas"):
            results.append((stimulus_gram(get_backend("numpy"), X, center="columns"),
                            correlation_distance_triangle(X)))
    np.testing.assert_array_equal(results[0][0], results[1][0])
    np.testing.assert_array_equal(results[0][1], results[1][1])
