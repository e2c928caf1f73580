"""A fitted ``probabilities`` readout is remembered by content (issue 38, performance): a second fit on the same
content is not run and gives the same numbers, bit for bit, as a fit without the memory; other content (images,
labels, weights, layer, trials) is fitted on its own, whatever the stimulus set's identifier."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from conftest import build_tiny_net, make_stimulus_set
from sklearn.linear_model import LogisticRegression

from model_tools.activations import ActivationsExtractor, ImagePreprocessing
from model_tools.brain_transformation import ModelCommitment, ProbabilitiesMapping, readout_memo
from model_tools.brain_transformation.readout_memo import FITTED_READOUTS, FittedReadouts


@pytest.fixture
def fits(monkeypatch):
    """The number of logistic-regression fits run (a spy on ``LogisticRegression.fit``); the memory starts empty."""
    FITTED_READOUTS.clear()
    calls = []
    original = LogisticRegression.fit

    def counted(self, *args, **kwargs):
        calls.append(1)
        return original(self, *args, **kwargs)

    monkeypatch.setattr(LogisticRegression, "fit", counted)
    yield calls
    FITTED_READOUTS.clear()


def _model(net, layer: str = "2", **kwargs) -> ModelCommitment:
    extractor = ActivationsExtractor(net, "tiny", ImagePreprocessing(8))
    return ModelCommitment("tiny", extractor, ["2", "4"], behavioral_readout_layer=layer, visual_degrees=8, **kwargs)


def _copy(stimulus_set, identifier: str = "tiny-set", paths=None, labels=None):
    frame = pd.DataFrame(stimulus_set).copy()
    if labels is not None:
        frame["label"] = labels
    return make_stimulus_set(frame, paths or stimulus_set.stimulus_paths, identifier)


def _readout(model: ModelCommitment):
    return model._behavior.scaler_, model._behavior.classifier_


def test_a_second_fit_on_the_same_content_is_not_run_and_gives_the_same_numbers(fits, small_stimulus_set,
                                                                                monkeypatch):
    model = _model(build_tiny_net())
    model.start_task("probabilities", small_stimulus_set)
    first = model.look_at(small_stimulus_set)
    first_scaler, first_classifier = _readout(model)
    assert len(fits) == 1

    # another object and another identifier, the same images and labels: the fit is reused
    model.start_task("probabilities", _copy(small_stimulus_set, identifier="another-name"))
    assert len(fits) == 1
    again = model.look_at(small_stimulus_set)
    assert np.array_equal(again.values, first.values)
    assert model._behavior.classifier_ is not first_classifier  # a copy of its own

    # without the memory (nothing remembered): a fit runs, and its numbers are the reused ones, bit for bit
    monkeypatch.setattr(FITTED_READOUTS, "max_readouts", 0)
    FITTED_READOUTS.clear()
    fresh = _model(build_tiny_net())
    fresh.start_task("probabilities", small_stimulus_set)
    assert len(fits) == 2
    scaler, classifier = _readout(fresh)
    assert np.array_equal(classifier.coef_, first_classifier.coef_)
    assert np.array_equal(classifier.intercept_, first_classifier.intercept_)
    assert np.array_equal(scaler.mean_, first_scaler.mean_) and np.array_equal(scaler.scale_, first_scaler.scale_)
    assert np.array_equal(fresh.look_at(small_stimulus_set).values, first.values)


def test_fitting_sets_of_different_content_do_not_share(fits, small_stimulus_set, image_files, tmp_path):
    from PIL import Image

    model = _model(build_tiny_net())
    model.start_task("probabilities", small_stimulus_set)
    assert len(fits) == 1

    # the same identifier and stimulus ids, one image's bytes changed
    changed = tmp_path / "changed.png"
    Image.fromarray(np.full((16, 20, 3), 7, dtype=np.uint8)).save(changed)
    paths = {**small_stimulus_set.stimulus_paths, "s3": str(changed)}
    model.start_task("probabilities", _copy(small_stimulus_set, paths=paths))
    assert len(fits) == 2

    # the same images, other labels
    model.start_task("probabilities", _copy(small_stimulus_set, labels=["a", "a", "b"] * 3 + ["b"]))
    assert len(fits) == 3

    # other weights, another readout layer, other trials (microsaccades)
    _model(build_tiny_net(seed=1)).start_task("probabilities", small_stimulus_set)
    assert len(fits) == 4
    _model(build_tiny_net(), layer="4").start_task("probabilities", small_stimulus_set)
    assert len(fits) == 5
    model.start_task("probabilities", small_stimulus_set, number_of_trials=2, require_variance=True)
    assert len(fits) == 6

    # and each of them is remembered on its own
    model.start_task("probabilities", small_stimulus_set, number_of_trials=2, require_variance=True)
    _model(build_tiny_net(seed=1)).start_task("probabilities", small_stimulus_set)
    assert len(fits) == 6


def test_an_activations_model_that_cannot_name_its_content_fits_every_time(fits, small_stimulus_set):
    extractor = ActivationsExtractor(build_tiny_net(), "tiny", ImagePreprocessing(8))

    def activations(stimuli, layers, **trials):  # a user's callable: no activations_key
        return extractor(stimuli, layers, **trials)

    for _ in range(2):
        ProbabilitiesMapping("tiny", activations, "2").fit(small_stimulus_set)
    assert len(fits) == 2 and len(FITTED_READOUTS) == 0


def test_the_memory_is_bounded_and_hands_out_copies():
    from sklearn.preprocessing import StandardScaler

    x, labels = np.arange(12.0).reshape(6, 2), np.array([0, 1] * 3)
    scaler = StandardScaler().fit(x)
    classifier = LogisticRegression().fit(x, labels)
    memory = FittedReadouts(max_readouts=2)
    for key in ("a", "b", "c"):
        memory.put(key, scaler, classifier)
    assert len(memory) == 2 and memory.get("a") is None  # least recently used dropped first
    _, copy = memory.get("b")
    copy.coef_[:] = 0
    assert np.array_equal(memory.get("b")[1].coef_, classifier.coef_)
    memory.get("b")  # b used last: c goes next
    memory.put("d", scaler, classifier)
    assert memory.get("c") is None and memory.get("b") is not None

    size = sum(a.nbytes for e in (scaler, classifier) for a in vars(e).values() if isinstance(a, np.ndarray))
    small = FittedReadouts(max_bytes=2 * size)
    for key in ("a", "b", "c"):
        small.put(key, scaler, classifier)
    assert len(small) == 2
    FittedReadouts(max_bytes=size - 1).put("a", scaler, classifier)  # too big alone: not kept, no error
    assert readout_memo.MAX_READOUTS >= 9  # Malania2007 keeps nine readouts alive at once
