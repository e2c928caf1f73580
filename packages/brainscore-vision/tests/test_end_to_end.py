"""End to end with models found through entry points (model-tools' ``randomnet`` and ``pixels``).

The benchmark's score is checked against the metric and the ceiling computed directly (scikit-learn /
scipy, see ``direct_reference``) on the very activations the model returns for the placed stimuli.
Skipped with a reason when no such model is registered.
"""

import numpy as np
import pytest
from conftest import registered_model
from direct_reference import cross_validated_regression, internal_consistency, rdm, spearman_upper

import brainscore_vision
from brainscore_vision.benchmark_helpers.screen import place_on_screen


def activations(model, region, time_bins, stimulus_set, source_degrees, trials):
    """The model's recordings of the placed stimuli, rows sorted by stimulus_id (float64)."""
    model.start_recording(region, time_bins)
    placed = place_on_screen(stimulus_set, target_visual_degrees=model.visual_degrees(),
                             source_visual_degrees=source_degrees)
    recorded = model.look_at(placed, number_of_trials=trials)
    if "time_bin" in recorded.dims:
        recorded = recorded.squeeze("time_bin")
    recorded = recorded.transpose("presentation", "neuroid")
    order = np.argsort(np.asarray(recorded["stimulus_id"].values))
    return np.asarray(recorded["stimulus_id"].values)[order], np.asarray(recorded.values, dtype=np.float64)[order]


def test_randomnet_on_cowley2023_pls(cowley_raw):
    model = registered_model("randomnet")
    score = brainscore_vision.load_benchmark("Cowley2023.V4-pls")(model)
    ids, features = activations(model, "V4", [(50, 150)], brainscore_vision.load_stimulus_set("Cowley2023"), 8, 8)
    raw_trials = np.load(cowley_raw / "responses_raw_210325.npy")
    assert list(ids) == [f"c210325_{i:04d}" for i in range(640)]
    raw, _ = cross_validated_regression(features, np.nanmean(raw_trials, axis=2).T.astype(np.float64), "pls")
    n_repeats = (~np.isnan(raw_trials[0])).sum(axis=1)
    image, slot = np.nonzero(np.arange(10)[None, :] < n_repeats[:, None])
    ceiling = internal_consistency(raw_trials[:, image, slot].T.astype(np.float64), image, slot, 640)
    assert float(score.attrs["ceiling"]) == pytest.approx(ceiling, abs=1e-6)
    assert float(score.attrs["raw"]) == pytest.approx(raw, abs=2e-3)
    assert float(score) == pytest.approx(float(score.attrs["raw"]) ** 2 / ceiling, rel=1e-6)
    print(f"randomnet Cowley2023.V4-pls: raw {raw:.4f} ceiling {ceiling:.4f} score {raw ** 2 / ceiling:.4f}")


@pytest.mark.parametrize("model_identifier", ["randomnet", "pixels"])
def test_model_on_kriegeskorte2008_rdm(model_identifier, kriegeskorte_raw):
    model = registered_model(model_identifier)
    score = brainscore_vision.score(model_identifier, "Kriegeskorte2008.hIT-rdm")
    assert score.attrs["model_identifier"] == model_identifier
    ids, features = activations(model, "IT", [(0, 300)], brainscore_vision.load_stimulus_set("Kriegeskorte2008"),
                                2.9, 1)
    with np.load(kriegeskorte_raw / "rdms.npz") as arrays:
        assert list(ids) == list(arrays["stimulus_ids"])
        subjects = arrays["human_it_rdms"].astype(np.float64).mean(axis=1)
    model_rdm = rdm(features)
    raw = np.mean([spearman_upper(model_rdm, subject) for subject in subjects])
    ceiling = np.mean([spearman_upper(subject, subjects.mean(0)) for subject in subjects])
    assert float(score.attrs["raw"]) == pytest.approx(raw, abs=1e-4)
    assert float(score) == pytest.approx(raw / ceiling, abs=2e-4)
    # the report's RDM is the one the metric scored (float32 sources: float32 block products summed in float64,
    # precision='mixed'); against a float64 np.corrcoef of the same features it agrees to ~2e-6 (measured)
    np.testing.assert_allclose(np.asarray(score.attrs["model_rdm"]), model_rdm, atol=1e-5)
    print(f"{model_identifier} Kriegeskorte2008.hIT-rdm: raw {raw:.4f} ceiling {ceiling:.4f} score {raw / ceiling:.4f}")
