"""The trials of one microsaccade look decode their stimuli once (``TrialInputs``), with the activations of decoding
them per trial, bit for bit; on real images (Kriegeskorte 2008) and on a model that changes its input in place."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from model_tools.activations import ActivationsExtractor, ImagePreprocessing
from model_tools.activations import extractor as extractor_module
from model_tools.activations.trial_inputs import TrialInputs

TRIALS = 4


class _Counting(ImagePreprocessing):
    """ImagePreprocessing that counts its decoded images."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.decoded = 0

    def decode(self, image):
        self.decoded += 1
        return super().decode(image)


class _ScalesItsInput(torch.nn.Module):
    """The tiny net behind an in-place change of its input (what a careless model may do)."""

    def __init__(self, net):
        super().__init__()
        self.net = net

    def forward(self, inputs):
        inputs.mul_(0.5)
        return self.net(inputs)


def _look(net, paths, *, cache: bool, batch_size: int = 8):
    preprocessing = _Counting(image_size=8)
    extractor = ActivationsExtractor(net, "tiny", preprocessing, batch_size=batch_size, cache=cache,
                                     visual_degrees=4, progress=False)
    assembly = extractor(paths, layers=["4"] if not isinstance(net, _ScalesItsInput) else ["net.4"],
                         number_of_trials=TRIALS, require_variance=True)
    return assembly.values, preprocessing.decoded


@pytest.fixture
def real_images(kriegeskorte_stimuli):
    return [kriegeskorte_stimuli.get_stimulus(i) for i in kriegeskorte_stimuli["stimulus_id"][:20]]


@pytest.fixture
def per_trial(monkeypatch):
    """Every trial decodes its own inputs (no budget: what the extractor did before TrialInputs)."""
    def disabled():
        return TrialInputs(budget_bytes=0)

    def use():
        monkeypatch.setattr(extractor_module, "TrialInputs", disabled)

    return use


@pytest.mark.parametrize("cache", [False, True])
def test_each_image_is_decoded_once_for_all_trials_with_the_same_activations(real_images, per_trial, cache, tiny_net):
    shared, decoded = _look(tiny_net, real_images, cache=cache)
    assert decoded == len(real_images)  # once, for the four trials
    per_trial()
    expected, decoded_per_trial = _look(tiny_net, real_images, cache=False)
    assert decoded_per_trial == TRIALS * len(real_images)
    np.testing.assert_array_equal(shared, expected)


def test_a_model_changing_its_input_in_place_gets_the_same_inputs_on_every_trial(real_images, per_trial, tiny_net):
    shared, decoded = _look(_ScalesItsInput(tiny_net), real_images, cache=False)
    assert decoded == len(real_images)
    per_trial()
    expected, _ = _look(_ScalesItsInput(tiny_net), real_images, cache=False)
    np.testing.assert_array_equal(shared, expected)


def test_inputs_over_the_budget_are_decoded_per_trial(real_images, monkeypatch, tiny_net):
    batch_bytes = 8 * 3 * 8 * 8 * 4  # one batch of eight 3 x 8 x 8 float32 inputs
    monkeypatch.setattr(extractor_module, "TrialInputs", lambda: TrialInputs(budget_bytes=2 * batch_bytes))
    _, decoded = _look(tiny_net, real_images, cache=False)  # 20 images: three batches, two fit
    assert decoded == TRIALS * len(real_images)


def test_kept_batches_are_copies_and_a_pass_is_replayed_whole():
    batches = [(0, 2, torch.ones(2, 3)), (2, 3, torch.full((1, 3), 2.0))]
    kept = TrialInputs()
    first = []
    for start, stop, batch in kept.batches(lambda: iter(batches)):
        first.append((start, stop, batch.clone()))
        batch.zero_()  # the consumer (or a reused buffer) changes the batch after it was kept
    assert kept.complete

    def never():
        raise AssertionError("a complete pass is not decoded again")

    replayed = list(kept.batches(never))
    assert [(start, stop) for start, stop, _ in replayed] == [(0, 2), (2, 3)]
    for (_, _, expected), (_, _, batch) in zip(first, replayed, strict=True):
        torch.testing.assert_close(batch, expected, rtol=0, atol=0)


def test_inputs_that_are_not_tensors_are_not_kept():
    kept = TrialInputs()
    list(kept.batches(lambda: iter([(0, 1, {"pixels": torch.ones(1)})])))
    assert not kept.complete
