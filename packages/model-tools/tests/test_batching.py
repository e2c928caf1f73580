"""Input batches: decoding into reused buffers gives the same tensors as fresh preprocessing."""

from __future__ import annotations

import contextlib
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest
import torch

from model_tools.activations import ImagePreprocessing, as_stimuli
from model_tools.activations.batching import PREFETCH_BATCHES, input_batches
from model_tools.errors import StimulusError


@pytest.mark.parametrize("workers", [0, 1, 3])
def test_reused_buffers_give_fresh_preprocessing_values_batch_by_batch(image_files, workers):
    preprocessing = ImagePreprocessing(8)
    stimuli = as_stimuli(image_files)
    seen = []
    with ThreadPoolExecutor(workers) if workers else contextlib.nullcontext() as pool:
        for start, stop, batch in input_batches(stimuli, preprocessing, 3, pool, workers):
            # expected: the plain (allocating) preprocessing of the same paths
            torch.testing.assert_close(batch, preprocessing(image_files[start:stop]), rtol=0, atol=0)
            seen.append((start, stop, batch.data_ptr()))
    assert [(start, stop) for start, stop, _ in seen] == [(0, 3), (3, 6), (6, 9), (9, 10)]
    ahead = max(PREFETCH_BATCHES, workers) if workers else 0
    pointers = [pointer for _, _, pointer in seen]
    # ahead + 1 buffers cycle: a batch's buffer comes back ahead + 1 batches later, never earlier
    for index in range(len(pointers) - ahead - 1):
        assert pointers[index + ahead + 1] == pointers[index]
        assert len(set(pointers[index:index + ahead + 1])) == ahead + 1


def test_tensor_stimuli_are_sliced_without_copies():
    inputs = torch.arange(5 * 3 * 2 * 2, dtype=torch.float32).reshape(5, 3, 2, 2)
    batches = list(input_batches(as_stimuli(inputs), None, 2))
    assert [(start, stop) for start, stop, _ in batches] == [(0, 2), (2, 4), (4, 5)]
    assert all(batch.data_ptr() == inputs[start].data_ptr() for start, _, batch in batches)


def test_plain_callable_preprocessing_gets_each_batch(image_files):
    calls = []

    def preprocess(items):
        calls.append(len(items))
        return np.zeros((len(items), 3, 4, 4), dtype=np.float32)

    batches = list(input_batches(as_stimuli(image_files), preprocess, 4))
    assert calls == [4, 4, 2]
    assert all(isinstance(batch, torch.Tensor) and batch.shape[1:] == (3, 4, 4) for _, _, batch in batches)


def test_images_of_different_decoded_shapes_name_the_stimulus(image_files):
    class Unresized(ImagePreprocessing):  # decodes without resizing: shapes differ between images
        def decode(self, image):
            array = super().decode(image)
            return array if not str(image).endswith("n1.png") else array[:-1]

    with pytest.raises(StimulusError, match=r"n1\.png.*decodes to shape \(7, 8, 3\)"):
        list(input_batches(as_stimuli(image_files), Unresized(8), 4))



def test_phased_batches_decode_only_when_asked_and_split_over_the_workers(image_files):
    events = []

    class Recording(ImagePreprocessing):
        def decode(self, image):
            events.append(("decode", image_files.index(image)))
            return super().decode(image)

    preprocessing = Recording(8)
    pointers = set()
    with ThreadPoolExecutor(2) as pool:
        for start, stop, batch in input_batches(as_stimuli(image_files), preprocessing, 4, pool, 2, phased=True):
            torch.testing.assert_close(batch, ImagePreprocessing(8)(image_files[start:stop]), rtol=0, atol=0)
            pointers.add(batch.data_ptr())
            events.append(("used", start))
    # nothing is decoded ahead: batch k's images are all decoded after batch k - 1 was used, before batch k is
    for start, stop in [(0, 4), (4, 8), (8, 10)]:
        decoded = [index for index, event in enumerate(events) if event[0] == "decode" and start <= event[1] < stop]
        used = events.index(("used", start))
        assert max(decoded) < used
        if start:
            assert min(decoded) > events.index(("used", start - 4))
    assert sorted(event[1] for event in events if event[0] == "decode") == list(range(10))
    assert len(pointers) == 1  # one buffer pair serves every batch


def test_decoding_is_phased_by_default_only_on_a_cpu_with_no_core_to_spare(monkeypatch):
    from model_tools.activations import batching, extractor

    monkeypatch.setattr(batching, "usable_cores", lambda: torch.get_num_threads())
    assert extractor._decode_between_passes(None, "cpu") is True
    assert extractor._decode_between_passes(None, "cuda:0") is False  # the GPU runs the model; the CPU is free
    assert extractor._decode_between_passes(True, "cpu") is False
    assert extractor._decode_between_passes(False, "cuda") is True
    monkeypatch.setattr(batching, "usable_cores", lambda: torch.get_num_threads() + 1)
    assert extractor._decode_between_passes(None, "cpu") is False
