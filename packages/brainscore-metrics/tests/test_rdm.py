"""RDM / RSA metrics: kernels, labelled metrics, precomputed RDM targets, CV, bad input, real data."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.stats
from _representational import activations, rdm_assembly
from sklearn.model_selection import StratifiedShuffleSplit

from brainscore_metrics._rdm_kernels import spearman_matrix
from brainscore_metrics.errors import NonFiniteValuesError, RDMFormatError, StimulusAlignmentError
from brainscore_metrics.rdm import (
    RDM,
    RDMCrossValidated,
    RDMMetric,
    RDMSimilarity,
    correlation_distance_triangle,
    metric_rdm,
    pair_indices,
    pattern_correlations,
    upper_triangles,
)


@pytest.fixture
def pair():
    rng = np.random.default_rng(0)
    n = 48
    source = rng.normal(size=(n, 30))
    target = source[:, :12] @ rng.normal(size=(12, 8)) + rng.normal(size=(n, 8))
    ids = np.array([f"im{i:03d}" for i in range(n)])
    objects = np.resize(["face", "body", "car", "tree"], n)
    return source, target, ids, objects


# --------------------------------------------------------------------------------------------- kernels
def test_pattern_correlations_equal_numpy_corrcoef(pair):
    source = pair[0]
    np.testing.assert_allclose(pattern_correlations(source), np.corrcoef(source), rtol=0, atol=1e-12)


def test_pattern_correlations_float32_input_accumulates_in_float64(pair):
    source = pair[0].astype(np.float32)
    np.testing.assert_allclose(pattern_correlations(source), np.corrcoef(source.astype(float)), atol=1e-12)


def test_blocked_triangle_equals_corrcoef_in_sorted_order():
    # 1500 stimuli x 3000 features exceeds one stimulus block (1448) and one feature block (2796)
    rng = np.random.default_rng(5)
    values = rng.normal(size=(1500, 3000)).astype(np.float32)
    values[:, :100] += rng.normal(size=(1500, 1)) * 3  # correlated structure
    order = rng.permutation(1500)
    rows, columns = np.triu_indices(1500, k=1)
    expected = (1 - np.corrcoef(values.astype(float)[order]))[rows, columns]
    np.testing.assert_allclose(correlation_distance_triangle(values, order, precision="float64"), expected,
                               atol=1e-12)
    # float32 block products (default 'mixed'): one float32 rounding per product of a 2,048-feature block
    np.testing.assert_allclose(correlation_distance_triangle(values, order), expected, atol=2e-6)
    np.testing.assert_array_equal(pair_indices(rows[:7], columns[:7], 1500), np.arange(7))


def test_upper_triangles_match_triu_indices_large_and_small():
    rng = np.random.default_rng(1)
    for n in (5, 1100):  # both branches (index arrays / row slices)
        matrix = rng.normal(size=(2, n, n))
        rows, columns = np.triu_indices(n, k=1)
        np.testing.assert_array_equal(upper_triangles(matrix), matrix[:, rows, columns])


def test_spearman_matrix_equals_scipy_with_ties():
    rng = np.random.default_rng(2)
    first = rng.integers(0, 5, size=(3, 40)).astype(float)  # many ties
    second = rng.integers(0, 7, size=(2, 40)).astype(float)
    expected = [[scipy.stats.spearmanr(a, b)[0] for b in second] for a in first]
    np.testing.assert_allclose(spearman_matrix(first, second), expected, atol=1e-12)


# ---------------------------------------------------------------------------------------- hand-worked
def test_hand_worked_three_stimuli():
    # patterns: A = [1, 2, 3], B = [3, 2, 1], C = [1, 3, 2]
    # r(A,B) = -1 -> d = 2; centred A = [-1,0,1], C = [-1,1,0]: r(A,C) = 1/2 -> d = 0.5;
    # centred B = [1,0,-1]: r(B,C) = -1/2 -> d = 1.5. Upper triangle (AB, AC, BC) = (2, 0.5, 1.5).
    values = np.array([[1, 2, 3], [3, 2, 1], [1, 3, 2]], dtype=float)
    rdm = RDM()(activations(values, np.array(["A", "B", "C"])))
    np.testing.assert_allclose(rdm.values[np.triu_indices(3, 1)], [2, 0.5, 1.5], atol=1e-12)
    assert rdm.dims == ("presentation", "presentation_right")
    # target RDM, given in the order C, A, B, with entries AB = 0.1, AC = 0.3, BC = 0.2:
    # source ranks (3, 1, 2), target ranks (1, 3, 2), d = (2, -2, 0): rho = 1 - 6*8/(3*8) = -1
    target = np.array([[0, 0.3, 0.2], [0.3, 0, 0.1], [0.2, 0.1, 0]])
    target_assembly = rdm_assembly(target, np.array(["C", "A", "B"]))
    assert RDMSimilarity()(rdm, target_assembly) == pytest.approx(-1)
    assert RDMMetric()(activations(values, np.array(["A", "B", "C"])), target_assembly).item() == pytest.approx(-1)


# ---------------------------------------------------------------------------------- labelled metrics
def test_rdm_metric_equals_corrcoef_and_spearmanr_after_shuffling(pair):
    source, target, ids, _ = pair
    order = np.random.default_rng(3).permutation(len(ids))
    score = RDMMetric()(activations(source, ids), activations(target[order], ids[order]))
    rows, columns = np.triu_indices(len(ids), 1)
    expected = scipy.stats.spearmanr((1 - np.corrcoef(source))[rows, columns],
                                     (1 - np.corrcoef(target))[rows, columns])[0]
    assert score.item() == pytest.approx(expected, abs=1e-12)
    assert np.isnan(score.attrs["error"])


def test_precomputed_rdm_stack_gives_one_value_per_subject_session(pair):
    source, target, ids, _ = pair
    rng = np.random.default_rng(4)
    stack = np.stack([[1 - np.corrcoef(target + rng.normal(size=target.shape)) for _ in range(2)]
                      for _ in range(3)])
    target_rdms = rdm_assembly(stack, ids, {"subject": ["s1", "s2", "s3"], "session": [1, 2]})
    score = RDMMetric()(activations(source, ids), target_rdms)
    rows, columns = np.triu_indices(len(ids), 1)
    source_triangle = (1 - np.corrcoef(source))[rows, columns]
    expected = np.array([[scipy.stats.spearmanr(source_triangle, stack[s, k][rows, columns])[0] for k in range(2)]
                         for s in range(3)])
    raw = score.attrs["raw"]
    assert raw.dims == ("subject", "session")
    np.testing.assert_allclose(raw.values, expected, atol=1e-12)
    assert score.item() == pytest.approx(expected.mean())
    assert score.attrs["error"] == pytest.approx(expected.std() / np.sqrt(6))
    assert raw.sel(subject="s2", session=2).item() == pytest.approx(expected[1, 1])


def test_source_rdm_and_activations_give_the_same_score(pair):
    source, target, ids, _ = pair
    from_activations = RDMMetric()(activations(source, ids), activations(target, ids)).item()
    from_rdm = RDMMetric()(RDM()(activations(source, ids)), activations(target, ids)).item()
    assert from_rdm == pytest.approx(from_activations, abs=1e-12)


def test_reference_layout_with_repeated_dim_name(pair):
    # the reference's RDM has dims ('presentation', 'presentation'); xarray permits it
    source, target, ids, _ = pair
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        import xarray as xr

        legacy = xr.DataArray(1 - np.corrcoef(target), coords={"stimulus_id": ("presentation", ids)},
                              dims=["presentation", "presentation"])
    expected = RDMMetric()(activations(source, ids), activations(target, ids)).item()
    assert RDMMetric()(activations(source, ids), legacy).item() == pytest.approx(expected, abs=1e-12)


def test_nan_diagonal_tolerated(pair):
    source, target, ids, _ = pair
    rdm = 1 - np.corrcoef(target)
    np.fill_diagonal(rdm, np.nan)
    expected = RDMMetric()(activations(source, ids), activations(target, ids)).item()
    assert RDMMetric()(activations(source, ids), rdm_assembly(rdm, ids)).item() == pytest.approx(expected)


def test_rdm_cv_matches_manual_stratified_splits(pair):
    source, target, ids, objects = pair
    score = RDMCrossValidated()(activations(source, ids, objects), activations(target, ids, objects))
    # independent: sklearn's splitter on the target order, np.corrcoef + spearmanr on each test set
    splitter = StratifiedShuffleSplit(n_splits=10, test_size=0.9, random_state=1)
    expected = []
    for _, test in splitter.split(np.zeros(len(ids)), objects):
        test = np.sort(test)
        rows, columns = np.triu_indices(len(test), 1)
        expected.append(scipy.stats.spearmanr((1 - np.corrcoef(source[test]))[rows, columns],
                                              (1 - np.corrcoef(target[test]))[rows, columns])[0])
    np.testing.assert_allclose(score.attrs["raw"].values, expected, atol=1e-12)
    assert score.item() == pytest.approx(np.mean(expected))
    assert score.attrs["error"] == pytest.approx(np.std(expected) / np.sqrt(10))


def test_rdm_cv_with_tied_categorical_target(pair):
    # a 0/1 category RDM has massive ties: ranks of each split are then recomputed (average ties)
    source, _, ids, objects = pair
    categorical = (objects[:, None] != objects[None, :]).astype(float)
    score = RDMCrossValidated()(activations(source, ids, objects),
                                rdm_assembly(categorical, ids, {}).assign_coords(
                                    object_name=("presentation", objects)))
    expected = []
    for _, test in StratifiedShuffleSplit(n_splits=10, test_size=0.9, random_state=1).split(ids, objects):
        test = np.sort(test)
        rows, columns = np.triu_indices(len(test), 1)
        expected.append(scipy.stats.spearmanr((1 - np.corrcoef(source[test]))[rows, columns],
                                              categorical[np.ix_(test, test)][rows, columns])[0])
    np.testing.assert_allclose(score.attrs["raw"].values, expected, atol=1e-12)


def test_bootstrap_interval_brackets_value(pair):
    source, target, ids, _ = pair
    score = RDMMetric(bootstrap=200)(activations(source, ids), activations(target, ids))
    assert score.attrs["ci_low"] < score.item() < score.attrs["ci_high"]
    again = RDMMetric(bootstrap=200)(activations(source, ids), activations(target, ids))
    assert again.attrs["ci_low"] == score.attrs["ci_low"]  # seeded


def test_constructor_only_stores_parameters():
    metric = RDMCrossValidated(crossvalidation_kwargs={"n_splits": 3}, bootstrap=5)
    assert metric.crossvalidation_kwargs == {"n_splits": 3} and metric.bootstrap == 5
    with pytest.raises(TypeError):
        RDMMetric("neuroid")  # keyword-only


# ----------------------------------------------------------------------------------------- bad input
def test_duplicate_stimulus_ids_are_named(pair):
    source, target, ids, _ = pair
    ids = ids.copy()
    ids[1] = ids[0]
    with pytest.raises(StimulusAlignmentError, match="im000"):
        RDMMetric()(activations(source, ids), activations(target, pair[2]))


def test_misaligned_stimulus_ids_are_named(pair):
    source, target, ids, _ = pair
    other = ids.astype(object)
    other[5] = "extra_image"
    with pytest.raises(StimulusAlignmentError, match="extra_image"):
        RDMMetric()(activations(source, ids), activations(target, other))


def test_nan_activations_are_named(pair):
    source, target, ids, _ = pair
    source = source.copy()
    source[7, 3] = np.nan
    with pytest.raises(NonFiniteValuesError, match="im007"):
        RDMMetric()(activations(source, ids), activations(target, ids))


def test_similarity_matrix_instead_of_rdm_is_refused(pair):
    source, target, ids, _ = pair
    with pytest.raises(RDMFormatError, match="diagonal"):
        RDMMetric()(activations(source, ids), rdm_assembly(np.corrcoef(target), ids))


def test_nan_off_diagonal_entries_give_nan(pair):
    # documented: NaN dissimilarities propagate (as scipy.stats.spearmanr's default)
    source, target, ids, _ = pair
    rdm = 1 - np.corrcoef(target)
    rdm[2, 5] = rdm[5, 2] = np.nan
    assert np.isnan(RDMMetric()(activations(source, ids), rdm_assembly(rdm, ids)).item())


# ----------------------------------------------------------------------------------------- real data
def test_real_human_group_vs_monkey_rdm_is_0439(kriegeskorte):
    ids = kriegeskorte["stimulus_ids"]
    human = rdm_assembly(kriegeskorte["human_it_group_rdm"], ids)
    monkey = rdm_assembly(kriegeskorte["monkey_it_rdm"], ids)
    rows, columns = np.triu_indices(92, 1)
    expected = scipy.stats.spearmanr(kriegeskorte["human_it_group_rdm"][rows, columns],
                                     kriegeskorte["monkey_it_rdm"][rows, columns])[0]
    value = RDMSimilarity()(human, monkey)
    assert value == pytest.approx(expected, abs=1e-12)
    assert round(value, 3) == 0.439  # the data README's figure over the 4,186 upper-triangle entries


def test_real_group_rdm_is_mean_of_subject_sessions(kriegeskorte):
    ids = kriegeskorte["stimulus_ids"]
    per_subject = rdm_assembly(kriegeskorte["human_it_rdms"], ids,
                               {"subject": kriegeskorte["human_it_subjects"],
                                "session": kriegeskorte["human_it_sessions"]})
    monkey = rdm_assembly(kriegeskorte["monkey_it_rdm"], ids)
    # the mean over the 8 RDMs is the group RDM, so the metric on the mean reproduces 0.439
    assert RDMMetric()(monkey, per_subject.mean(["subject", "session"])).item() == pytest.approx(0.43892, abs=1e-5)
    score = RDMMetric()(monkey, per_subject)
    rows, columns = np.triu_indices(92, 1)
    expected = [scipy.stats.spearmanr(kriegeskorte["monkey_it_rdm"][rows, columns], rdm[rows, columns])[0]
                for rdm in kriegeskorte["human_it_rdms"].reshape(8, 92, 92)]
    np.testing.assert_allclose(score.attrs["raw"].values.ravel(), expected, atol=1e-6)
    assert score.item() == pytest.approx(0.24033, abs=1e-5)
    session_mean = RDMMetric()(monkey, per_subject.mean("session"))
    assert session_mean.item() == pytest.approx(0.29632, abs=1e-5)


# -------------------------------------------------------------------------------- registry + battery
@pytest.mark.parametrize("identifier", ["rdm", "rdm_cv", "cka", "cka_biased", "cka_cv"])
def test_check_metric_battery_on_registered_representational_metrics(identifier, pair):
    from brainscore_metrics import plugin
    from brainscore_metrics.testing import check_metric

    source, target, ids, objects = pair
    metric = plugin.brainscore_metrics()[identifier]()
    score = check_metric(metric, activations(source, ids, objects), activations(target, ids, objects))
    assert -1 <= score.item() <= 1


def test_registered_classes_and_ceilings():
    from brainscore_metrics import plugin

    metrics, ceilings = plugin.brainscore_metrics(), plugin.brainscore_ceilings()
    assert type(metrics["rdm"]()) is RDMMetric and type(metrics["rdm_cv"]()) is RDMCrossValidated
    assert metrics["cka_biased"]().unbiased is False and metrics["cka"]().unbiased is True
    assert type(ceilings["rsa_ceiling"]()).__name__ == "RSACeiling"
    assert ceilings["property_ceiling"]("circular_variance").similarity_metric == "circular_variance"
    assert metrics["ks_similarity"](property_name="circular_variance").property_name == "circular_variance"
    for identifier in ("accuracy", "i1n", "i2n", "error_consistency", "accuracy_distance", "value_delta"):
        assert callable(metrics[identifier]())


def test_triangle_mask_marks_exactly_the_pairs_of_the_chosen_rows():
    # independent: the positions of the chosen pairs in scipy's condensed (row-major) order, enumerated
    from scipy.spatial.distance import squareform

    from brainscore_metrics._rdm_kernels import triangle_mask

    n, chosen = 9, np.array([7, 0, 3, 4])
    labels = np.zeros((n, n))
    for a in chosen:
        for b in chosen:
            labels[a, b] = 1.0 if a != b else 0.0
    expected = squareform(labels, checks=False).astype(bool)
    np.testing.assert_array_equal(triangle_mask(chosen, n), expected)


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_metric_rdm_gives_the_metric_exactly_the_same_score(pair, dtype):
    # the RSA benchmark computes the model RDM once (metric_rdm) and hands it to the metric: the score must equal
    # the metric on the activations to the last bit, and the RDM must be 1 - np.corrcoef in sorted id order
    source, target, ids, _ = pair
    shuffled = np.random.default_rng(1).permutation(len(ids))
    model = activations(source[shuffled].astype(dtype), ids[shuffled])
    subjects = rdm_assembly(np.stack([1 - np.corrcoef(target), 1 - np.corrcoef(target[:, :4])]), ids,
                            leading={"subject": ("subject", ["s1", "s2"])})
    rdm = metric_rdm(model)
    assert list(rdm["stimulus_id"].values) == sorted(ids)
    np.testing.assert_allclose(rdm.values, 1 - np.corrcoef(source.astype(dtype).astype(np.float64)), rtol=0,
                               atol=1e-6 if dtype == np.float32 else 1e-12)
    np.testing.assert_array_equal(np.diagonal(rdm.values), 0)
    direct, via_rdm = RDMMetric()(model, subjects), RDMMetric()(rdm, subjects)
    assert float(via_rdm) == float(direct)
    np.testing.assert_array_equal(np.asarray(via_rdm.attrs["raw"]), np.asarray(direct.attrs["raw"]))


@pytest.mark.parametrize("order_kind", ["identity", "one cycle", "random", "swaps"])
def test_symmetric_permutation_in_place_equals_fancy_indexing(order_kind):
    # numpy's fancy indexing is the oracle
    from brainscore_metrics.backend.numpy import permute_symmetric_in_place

    n = 9
    rng = np.random.default_rng(7)
    matrix = rng.normal(size=(n, n))
    matrix = matrix + matrix.T
    order = {"identity": np.arange(n), "one cycle": np.roll(np.arange(n), 1), "random": rng.permutation(n),
             "swaps": np.array([1, 0, 3, 2, 5, 4, 7, 6, 8])}[order_kind]
    expected = matrix[order][:, order]
    permute_symmetric_in_place(matrix, order)
    np.testing.assert_array_equal(matrix, expected)


def test_triangle_is_packed_into_the_gram_buffer():
    # the RDM of 600 stimuli allocates the 600 x 600 float64 Gram matrix (2.9 MB) and no separate triangle
    # (1.4 MB): the traced peak stays below Gram + triangle; the values equal np.corrcoef in the given order
    import tracemalloc

    rng = np.random.default_rng(8)
    values = rng.normal(size=(600, 50))
    order = rng.permutation(600)
    rows, columns = np.triu_indices(600, k=1)
    expected = (1 - np.corrcoef(values[order]))[rows, columns]
    correlation_distance_triangle(values, order, precision="float64")  # first-call imports outside the trace
    tracemalloc.start()
    try:
        triangle = correlation_distance_triangle(values, order, precision="float64")
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    np.testing.assert_allclose(triangle, expected, atol=1e-12)
    gram_bytes, triangle_bytes = 600 * 600 * 8, len(expected) * 8
    assert peak < gram_bytes + triangle_bytes, f"peak {peak} bytes"
