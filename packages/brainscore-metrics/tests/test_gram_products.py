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


@pytest.mark.parametrize(("first", "second", "expected_single"), [(0.5, 0.2, True), (0.2, 0.5, False)])
def test_thread_probe_runs_the_rest_on_the_faster_setting(monkeypatch, first, second, expected_single):
    # the probe's two timings replaced by fixed durations; the BLAS thread limit seen by each later product is read
    # from threadpoolctl
    from threadpoolctl import threadpool_info

    clock = iter([0.0, first, 10.0, 10.0 + second])
    monkeypatch.setattr(gram_module.time, "perf_counter", lambda: next(clock))
    seen = []

    def product():
        seen.append(min(info["num_threads"] for info in threadpool_info() if info["user_api"] == "blas"))
        return 0

    with gram_module._fastest_threads(5) as timed:
        for _ in range(5):
            timed(product)
    if seen[0] == 1 or (os.cpu_count() or 1) == 1:
        pytest.skip("BLAS runs on one thread here: nothing to choose")
    assert seen[1] == 1  # the second probe block runs on one thread
    assert (max(seen[2:]) == 1) == expected_single
    # the limit is lifted afterwards
    assert max(info["num_threads"] for info in threadpool_info() if info["user_api"] == "blas") == seen[0]
