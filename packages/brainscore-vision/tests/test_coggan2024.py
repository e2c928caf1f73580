"""Coggan & Tong (2024) fMRI RSA: data plugin, ceilings and end-to-end scores on the real matrices.

Expected values are recomputed here independently of the benchmark module: per-subject loops with
``scipy.stats.pearsonr`` on the raw ``rsms.npz`` (the reference's formula written out), compared with the
vectorised code.
"""

import numpy as np
import pytest
from conftest import registered_model
from scipy.stats import pearsonr

import brainscore_vision
from brainscore_vision.benchmark_helpers._timebins import BenchmarkDataError
from brainscore_vision.benchmark_helpers.screen import place_on_screen
from brainscore_vision.benchmarks.coggan2024_fMRI.benchmark import (
    leave_one_subject_out_ceiling,
    model_similarity_matrix,
    off_diagonal,
    squared_ceiled_score,
)
from brainscore_vision.data.coggan2024_fMRI.data_packaging.packaging import build_rsm_assembly

REGIONS = ["V1", "V2", "V4", "IT"]


def _cells(matrix):
    """Off-diagonal cells of a square matrix, written as a loop (independent of ``off_diagonal``)."""
    n = matrix.shape[0]
    return np.array([matrix[i, j] for i in range(n) for j in range(n) if i != j])


def _loo_ceiling(matrices):
    """Reference formula: mean over subjects of r(subject, mean of the others), off-diagonal cells, scipy."""
    values = []
    for s in range(len(matrices)):
        others = np.mean([m for k, m in enumerate(matrices) if k != s], axis=0)
        values.append(pearsonr(_cells(matrices[s]), _cells(others)).statistic)
    return float(np.mean(values)), values


def test_off_diagonal_order_matches_a_loop():
    matrix = np.arange(16.0).reshape(4, 4)
    np.testing.assert_array_equal(off_diagonal(matrix), _cells(matrix))


def test_ceiling_on_a_hand_worked_example():
    # three subjects with 3 x 3 matrices; off-diagonal cells (row-major) given below, the expected ceiling
    # computed by the loop-and-scipy formula of _loo_ceiling
    matrices = np.zeros((3, 3, 3))
    cells = np.array([[1, 2, 3, 4, 5, 6], [2, 1, 4, 3, 6, 5], [1, 3, 2, 5, 4, 6]], dtype=float)
    keep = ~np.eye(3, dtype=bool)
    for s in range(3):
        matrices[s][keep] = cells[s]
    expected, per_subject = _loo_ceiling(matrices)
    ceiling = leave_one_subject_out_ceiling(matrices)
    assert float(ceiling) == pytest.approx(expected, abs=1e-12)
    np.testing.assert_allclose(ceiling.attrs["raw"], per_subject, atol=1e-12)


def test_squared_ceiling_keeps_the_sign_in_raw_and_clips():
    from brainscore_core.metrics import Score

    score = squared_ceiled_score(Score(-0.2), Score(0.4))
    assert float(score) == pytest.approx(0.25)  # (-0.2 / 0.4)^2
    assert float(score.attrs["raw"]) == -0.2
    assert float(squared_ceiled_score(Score(0.5), Score(0.4))) == 1.0  # (1.25)^2 clipped
    assert score.attrs["normalization"] == "(raw / ceiling)^2"


def test_model_matrix_selects_and_zscores_like_the_fmri_analysis():
    from brainio.assemblies import NeuroidAssembly

    rng = np.random.default_rng(0)
    values = rng.normal(size=(24, 60))
    values[:, :3] += 50.0  # three units with a large mean: the only ones above 3.1 std of the unit means
    values[:, 3] = 7.0  # zero variance: dropped before the selection
    ids = [f"s{i}" for i in range(24)]
    activations = NeuroidAssembly(values, coords={"stimulus_id": ("presentation", ids),
                                                  "neuroid_id": ("neuroid", [f"n{i}" for i in range(60)])},
                                  dims=["presentation", "neuroid"])
    # independent: the three selected units, z-scored by hand, then correlation between image patterns
    kept = values[:, :3]
    z = (kept - kept.mean(0)) / kept.std(0)
    expected = np.array([[pearsonr(z[i], z[j]).statistic if i != j else 1.0 for j in range(24)] for i in range(24)])
    order = ids[::-1]
    np.testing.assert_allclose(model_similarity_matrix(activations, order), expected[::-1, ::-1], atol=1e-10)
    with pytest.raises(BenchmarkDataError, match="lack stimuli"):
        model_similarity_matrix(activations, ["nope"])
    # unit means -1 and +1: std of the means is 1, and no |mean| exceeds 3.1
    balanced = np.stack([np.arange(24) - 11.5 - 1.0, np.arange(24) - 11.5 + 1.0], axis=1)
    flat = NeuroidAssembly(balanced,
                           coords={"stimulus_id": ("presentation", ids),
                                   "neuroid_id": ("neuroid", ["n0", "n1"])},
                           dims=["presentation", "neuroid"])
    with pytest.raises(BenchmarkDataError, match="unit selection keeps nothing"):
        model_similarity_matrix(flat, ids)


def test_assembly_matches_the_raw_matrices(coggan_raw):
    assembly = brainscore_vision.load_dataset("Coggan2024_fMRI")
    with np.load(coggan_raw / "rsms.npz") as arrays:
        rsms, regions, subjects = arrays["rsms"], list(arrays["regions"]), list(arrays["subjects"])
        stimulus_ids = list(arrays["stimulus_ids"])
    assert assembly.dims == ("stimulus_row", "stimulus_column", "neuroid")
    assert assembly.shape == (24, 24, 36)
    assert list(assembly["stimulus_id_row"].values) == stimulus_ids
    for r, region in enumerate(regions):
        for s, subject in enumerate(subjects):
            neuroid = 9 * r + s  # region-major, as in Brain-Score's assembly
            assert assembly["region"].values[neuroid] == region and assembly["subject"].values[neuroid] == subject
            np.testing.assert_array_equal(assembly.values[:, :, neuroid], rsms[r, s])
    stimuli = brainscore_vision.load_stimulus_set("Coggan2024_fMRI")
    assert list(stimuli["stimulus_id"]) == stimulus_ids
    assert set(stimuli["occlusion_condition"]) == {"complete", "upper", "lower"}


def test_bad_matrices_are_refused_with_the_shape():
    from brainscore_vision.data.coggan2024_fMRI.data_packaging.packaging import RawDataError

    with pytest.raises(RawDataError, match=r"\(1, 1, 3, 3\).*4 stimuli"):
        build_rsm_assembly(np.zeros((1, 1, 3, 3)), ["V1"], ["sub-0"], ["a", "b", "c", "d"])


@pytest.mark.parametrize("region", REGIONS)
def test_ceilings_equal_the_reference_formula(region, coggan_raw):
    with np.load(coggan_raw / "rsms.npz") as arrays:
        matrices = arrays["rsms"][list(arrays["regions"]).index(region)]
    expected, per_subject = _loo_ceiling(matrices)
    ceiling = brainscore_vision.load_benchmark(f"tong.Coggan2024_fMRI.{region}-rdm").ceiling
    assert float(ceiling) == pytest.approx(expected, abs=1e-12)
    np.testing.assert_allclose(ceiling.attrs["raw"], per_subject, atol=1e-12)


@pytest.mark.parametrize("region", REGIONS)
def test_randomnet_score_equals_the_direct_computation(region, coggan_raw):
    model = registered_model("randomnet")
    benchmark = brainscore_vision.load_benchmark(f"tong.Coggan2024_fMRI.{region}-rdm")
    score = benchmark(model)
    # the same model outputs, recomputed directly: selection + z-score + corrcoef by hand, scipy per subject
    stimuli = brainscore_vision.load_stimulus_set("Coggan2024_fMRI")
    model.start_recording(region, [(0, 250)])
    recorded = model.look_at(place_on_screen(stimuli, target_visual_degrees=model.visual_degrees(),
                                             source_visual_degrees=9), number_of_trials=1)
    recorded = recorded.squeeze("time_bin") if "time_bin" in recorded.dims else recorded
    recorded = recorded.transpose("presentation", "neuroid")
    with np.load(coggan_raw / "rsms.npz") as arrays:
        matrices = arrays["rsms"][list(arrays["regions"]).index(region)]
        order = list(arrays["stimulus_ids"])
    row = {s: i for i, s in enumerate(recorded["stimulus_id"].values)}
    patterns = np.asarray(recorded.values, dtype=np.float64)[[row[s] for s in order]]
    patterns = patterns[:, patterns.std(0) > 0]
    means = patterns.mean(0)
    patterns = patterns[:, np.abs(means) > 3.1 * means.std()]
    z = (patterns - patterns.mean(0)) / patterns.std(0)
    model_matrix = np.corrcoef(z)
    raw = np.mean([pearsonr(_cells(model_matrix), _cells(m)).statistic for m in matrices])
    ceiling, _ = _loo_ceiling(matrices)
    assert float(score.attrs["raw"]) == pytest.approx(raw, abs=1e-10)
    assert float(score) == pytest.approx(min(1.0, (raw / ceiling) ** 2), abs=1e-10)
    assert score.attrs["n_units_selected"] == patterns.shape[1]
