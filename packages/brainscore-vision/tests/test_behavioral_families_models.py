"""The behavioural families of issue 38 (part 1) scored end to end with a registered model (randomnet, whose 1000
logits answer the label tasks through model-tools' ImageNet table) on the stand-ins with small image files: the
model's real readouts (labels over Scialom2024's and Baker2022's categories, probabilities fitted on the training
images, odd-one-out) pass through each benchmark. Expected: the engineering accuracy counted directly from the model's
own labels; every score finite and each raw score within its metric's range."""

from __future__ import annotations

import numpy as np
import pytest
from _behavioral_standins import serve

import brainscore_vision

CASES = [("Scialom2024", "Scialom2024_rgbBehavioralAccuracyDistance"),
         ("Scialom2024", "Scialom2024_segments-allBehavioralErrorConsistency"),
         ("Baker2022", "Baker2022inverted-accuracy_delta"),
         ("BMD2024", "BMD2024.dotted_1Behavioral-accuracy_distance"),
         ("Lonnqvist2024", "Lonnqvist2024_InlabInstructionsBehavioralAccuracyDistance"),
         ("Maniquet2024", "Maniquet2024-confusion_similarity"),
         ("Coggan2024_behavior", "tong.Coggan2024_behavior-ConditionWiseAccuracySimilarity"),
         ("Hebart2023", "Hebart2023-match")]


@pytest.mark.parametrize("family, key", CASES, ids=[key for _, key in CASES])
def test_a_registered_model_scores_each_family(monkeypatch, tmp_path, family, key):
    serve(monkeypatch, [family], image_root=tmp_path / "images")
    score = brainscore_vision.load_benchmark(key)(brainscore_vision.load_model("randomnet"))
    raw = float(score.attrs["raw"])
    assert np.isfinite(float(score)) and np.isfinite(raw) and np.isfinite(float(score.attrs["ceiling"]))
    assert -1 <= raw <= 1


def test_engineering_accuracy_counts_the_models_own_labels(monkeypatch, tmp_path):
    serve(monkeypatch, ["Scialom2024"], image_root=tmp_path / "images")
    model = brainscore_vision.load_model("randomnet")
    score = brainscore_vision.load_benchmark("Scialom2024_contoursEngineeringAccuracy")(model)
    stimuli = brainscore_vision.load_stimulus_set("Scialom2024_contours")
    model.start_task("label", sorted(set(stimuli["truth"])))
    labels = model.look_at(stimuli)
    expected = np.mean(np.asarray(labels.values).ravel().astype(str) == stimuli["truth"].astype(str).to_numpy())
    assert float(score) == pytest.approx(expected, abs=1e-12)
    assert float(score.attrs["ceiling"]) == 1.0
