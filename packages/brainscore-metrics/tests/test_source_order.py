"""The regression metrics keep a wide source in its own row order: never copied, and the score independent of it.

``CrossRegressedCorrelation`` aligns the target to the source (``align_pair(..., keep_source_order=True)``) and lists
each split's rows in stimulus-id order, so the value is the one the sorted inputs give. Expected values: the same
metric on the inputs sorted by hand (equal up to float rounding), numpy's fancy indexing for the aligned target, and
the source's own byte size for the allocation bound (measured with ``tracemalloc``, which sees numpy's buffers).
"""

from __future__ import annotations

import tracemalloc

import numpy as np
import pytest

from brainio.assemblies import NeuroidAssembly
from brainscore_metrics._align import align_pair, sorted_positions
from brainscore_metrics.regression_correlation import CrossRegressedCorrelation


def _assembly(values, ids, prefix):
    return NeuroidAssembly(values, coords={
        "stimulus_id": ("presentation", ids),
        "neuroid_id": ("neuroid", [f"{prefix}{j}" for j in range(values.shape[1])]),
        "region": ("neuroid", ["IT"] * values.shape[1]),
    }, dims=["presentation", "neuroid"])


def _pair(n=120, p=3000, q=6, seed=0):
    rng = np.random.default_rng(seed)
    latent = rng.normal(size=(n, 5))
    source = (latent @ rng.normal(size=(5, p)) + rng.normal(size=(n, p))).astype(np.float32)
    target = latent @ rng.normal(size=(5, q)) + 0.5 * rng.normal(size=(n, q))
    ids = np.array([f"im{i:04d}" for i in range(n)])
    return source, target, ids


def test_sorted_positions_inverts_the_sort():
    ids = np.array(["c", "a", "d", "b"])
    np.testing.assert_array_equal(sorted_positions(ids), [2, 0, 3, 1])  # by hand: a=0, b=1, c=2, d=3
    np.testing.assert_array_equal(np.sort(ids)[sorted_positions(ids)], ids)


def test_keep_source_order_shares_the_source_and_gathers_the_target():
    source, target, ids = _pair(n=30, p=40)
    rng = np.random.default_rng(1)
    s_order, t_order = rng.permutation(30), rng.permutation(30)
    source_a = _assembly(source[s_order], ids[s_order], "f")
    target_a = _assembly(target[t_order], ids[t_order], "n")
    source_m, target_m = align_pair(source_a, target_a, keep_source_order=True)
    assert np.shares_memory(source_m.values, source_a.values)  # not copied
    np.testing.assert_array_equal(source_m.stimulus_ids, ids[s_order])
    np.testing.assert_array_equal(target_m.stimulus_ids, ids[s_order])
    np.testing.assert_array_equal(target_m.values, target[s_order])  # each row follows its source row
    np.testing.assert_array_equal(target_a.values[target_m.order], target_m.values)


@pytest.mark.parametrize("regression", ["ridge", "pls", "linear"])
def test_score_does_not_depend_on_the_source_order(regression):
    source, target, ids = _pair()
    order = np.random.default_rng(2).permutation(len(ids))
    metric = CrossRegressedCorrelation(regression, crossvalidation_kwargs={"splits": 3})
    sorted_score = metric(_assembly(source, ids, "f"), _assembly(target, ids, "n"))
    shuffled_score = metric(_assembly(source[order], ids[order], "f"), _assembly(target, ids, "n"))
    np.testing.assert_allclose(float(shuffled_score), float(sorted_score), rtol=1e-9)
    np.testing.assert_allclose(shuffled_score.attrs["raw"].values, sorted_score.attrs["raw"].values, rtol=1e-8,
                               atol=1e-12)


def test_wide_ridge_does_not_copy_a_shuffled_source():
    # before: the source was sorted by stimulus id, a full copy (here 4.8 MB); now the call's peak allocation stays
    # below the source's size (Gram matrix 115 KB, one block of float32 centred values 1 MB)
    source, target, ids = _pair(n=120, p=10_000)
    order = np.random.default_rng(3).permutation(len(ids))
    source_a, target_a = _assembly(source[order], ids[order], "f"), _assembly(target, ids, "n")
    metric = CrossRegressedCorrelation("ridge", crossvalidation_kwargs={"splits": 3})
    metric(source_a, target_a)  # imports and first-call caches outside the measurement
    tracemalloc.start()
    try:
        metric(source_a, target_a)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < source.nbytes, f"peak {peak} bytes, source {source.nbytes} bytes"
