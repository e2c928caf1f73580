"""Brain-Score's microsaccades (``require_variance=True`` with several trials) against its own ``MicrosaccadeHelper``.

Expected numbers: ``tests/data/reference_microsaccades.json``, written by ``benchmarks/reference_microsaccades.py`` with
brainscore-vision 2.4.2 (microsaccade code as at brain-score/vision c642dbe4) and its OpenCV: the shifts it places and
the sha1 of each shifted float32 image, and which image each of its labelled rows holds.
"""

from __future__ import annotations

import functools
import hashlib
import importlib.util
import json
from pathlib import Path

import numpy as np
import pytest
import torch  # a dependency of model-tools: no skip

from model_tools.activations import ActivationsExtractor
from model_tools.activations.microsaccades import microsaccade_shift, microsaccades, shift_images
from model_tools.activations.pytorch import load_preprocess_images
from model_tools.brain_transformation import ModelCommitment

HERE = Path(__file__).resolve().parent
EXPECTED = json.loads((HERE / "data" / "reference_microsaccades.json").read_text())
_spec = importlib.util.spec_from_file_location("reference_microsaccades",
                                               HERE.parent / "benchmarks" / "reference_microsaccades.py")
REFERENCE = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(REFERENCE)


@pytest.mark.parametrize("case", EXPECTED["cases"], ids=lambda case: f"{case['degrees']}deg-{case['trials']}trials")
def test_shifts_and_shifted_images_are_brainscores(case):
    height, trials, degrees = case["height"], case["trials"], case["degrees"]
    shifts = [microsaccade_shift(trial, trials, degrees, height) for trial in range(trials)]
    assert shifts == [tuple(pixels) for pixels in case["pixels"]]  # the same float operations: equal, not close
    np.testing.assert_allclose(np.asarray(shifts) / (height / degrees), case["degrees_shift"], rtol=1e-15, atol=0)
    picture = torch.from_numpy(REFERENCE.image(height, case["seed"]))[None]
    for trial, expected in zip(microsaccades(trials, degrees), case["sha1"], strict=True):
        shifted = trial(picture)[0].numpy()
        assert hashlib.sha1(np.ascontiguousarray(shifted, dtype=np.float32).tobytes()).hexdigest() == expected


def test_edges_repeat_and_whole_pixel_shifts_move_pixels():
    picture = torch.arange(20, dtype=torch.float32).reshape(1, 1, 4, 5)
    moved = shift_images(picture, (1.0, 0.0))[0, 0]  # the content moves right by one; column 0 repeats the edge
    np.testing.assert_array_equal(moved.numpy(), np.concatenate([picture[0, 0, :, :1], picture[0, 0, :, :4]], 1))
    moved = shift_images(picture, (0.0, -2.0))[0, 0]  # up by two; the last rows repeat the bottom row
    np.testing.assert_array_equal(moved.numpy(), picture[0, 0, [2, 3, 3, 3]].numpy())


def _shifted_by_definition(images: np.ndarray, shift: tuple[float, float]) -> np.ndarray:
    """The module docstring's definition, pixel by pixel in numpy (an independent reading of it): each output pixel
    reads its four neighbours at ``(x - dx, y - dy)`` rounded to 1/32 pixel with OpenCV's fixed point (edges
    repeated), weights ``(1 - fy)(1 - fx), (1 - fy) fx, fy (1 - fx), fy fx`` summed in that order in float32."""
    height, width = images.shape[-2:]

    def sources(offset: float, size: int):
        fixed = (int(np.rint(-float(np.float32(offset)) * 1024)) + 16 + np.arange(size) * 1024) // 32
        whole, fraction = fixed // 32, fixed % 32
        return np.clip(whole, 0, size - 1), np.clip(whole + 1, 0, size - 1), fraction

    rows0, rows1, fy = sources(shift[1], height)
    columns0, columns1, fx = sources(shift[0], width)
    fy = (fy.astype(np.float32) / np.float32(32))[:, None]
    fx = fx.astype(np.float32) / np.float32(32)
    one = np.float32(1)
    corners = [images[..., rows0, :][..., columns0], images[..., rows0, :][..., columns1],
               images[..., rows1, :][..., columns0], images[..., rows1, :][..., columns1]]
    weights = [(one - fy) * (one - fx), (one - fy) * fx, fy * (one - fx), fy * fx]
    total = corners[0] * weights[0]
    for corner, weight in zip(corners[1:], weights[1:], strict=True):
        total = total + corner * weight
    return total.astype(np.float32)


@pytest.mark.parametrize("shape", [(3, 2, 17, 23), (2, 9, 11), (2, 2, 3, 8, 8)], ids=["4d", "3d", "5d"])
def test_shifted_images_follow_the_definition_bit_for_bit(shape):
    """Windows of the edge-padded batch (the fast way) against the definition pixel by pixel: sub-pixel shifts either
    way, whole pixels, none, and shifts past the image (every source an edge pixel)."""
    images = np.random.default_rng(sum(shape)).random(shape, dtype=np.float32)
    for shift in [(0.6067, -1.0019), (-0.3, 0.45), (2.0, -3.0), (0.0, 0.0), (-0.031, 0.0312), (40.5, -37.25),
                  (-100.0, 100.0), (1e-4, -1e-4)]:
        moved = shift_images(torch.from_numpy(images), shift).numpy()
        np.testing.assert_array_equal(moved, _shifted_by_definition(images, shift), err_msg=str(shift))


class _Constant(torch.nn.Module):
    """Its output: the mean of each input (a constant image keeps its value under any shift)."""

    def forward(self, x):
        return x.mean(dim=(1, 2, 3), keepdim=True)[:, :, 0, 0]


def _constant_images(tmp_path, count=3):
    from PIL import Image

    paths = []
    for index in range(count):
        path = tmp_path / f"constant{index}.png"
        Image.fromarray(np.full((8, 8, 3), 40 * (index + 1), dtype=np.uint8)).save(path)
        paths.append(str(path))
    return paths


def test_each_row_holds_the_stimulus_it_names(tmp_path):
    """Stimulus-major rows, each holding its own stimulus's trial. Brain-Score's helper names rows stimulus-major but
    fills them trial-major within a batch (recorded: rows named 0, 0, 1, 1, 2, 2 hold images 0, 1, 2, 0, 1, 2)."""
    assert EXPECTED["labelling"] == {"labelled": ["0", "0", "1", "1", "2", "2"], "holds": [0.0, 1.0, 2.0, 0.0, 1.0, 2.0]}
    extractor = ActivationsExtractor(_Constant(), "constant", functools.partial(load_preprocess_images, image_size=8),
                                     cache=False, visual_degrees=8, progress=False)
    paths = _constant_images(tmp_path)
    assembly = extractor(paths, layers=["logits"], number_of_trials=2, require_variance=True)
    assert list(assembly["stimulus_id"].values) == [paths[0], paths[0], paths[1], paths[1], paths[2], paths[2]]
    unshifted = extractor(paths, layers=["logits"]).values[:, 0]
    np.testing.assert_allclose(assembly.values[:, 0], np.repeat(unshifted, 2), rtol=1e-6)
    shifts = [microsaccade_shift(trial, 2, 8, 8) for trial in range(2)]
    np.testing.assert_array_equal(assembly["microsaccade_shift_x_pixels"].values, [shifts[0][0], shifts[1][0]] * 3)
    np.testing.assert_array_equal(assembly["microsaccade_shift_y_degrees"].values,
                                  [shifts[0][1] / 1.0, shifts[1][1] / 1.0] * 3)  # 8 pixels over 8 degrees


def test_trials_differ_and_are_cached_apart_with_trial_zero_shared(image_files):
    from _counting import ForwardCounter
    from conftest import build_tiny_net

    net = build_tiny_net()
    counter = ForwardCounter(net)
    extractor = ActivationsExtractor(net, "tiny", functools.partial(load_preprocess_images, image_size=8),
                                     batch_size=4, visual_degrees=2, progress=False)
    plain = extractor(image_files, layers=["4"])
    passes = counter.calls
    trials = extractor(image_files, layers=["4"], number_of_trials=3, require_variance=True)
    assert counter.calls == 3 * passes  # two shifted trials ran; trial 0 came from the cache of the plain look
    values = trials.values.reshape(len(image_files), 3, -1)
    np.testing.assert_array_equal(values[:, 0], plain.values)
    assert np.abs(values[:, 1] - values[:, 0]).max() > 1e-4 and np.abs(values[:, 2] - values[:, 1]).max() > 1e-4
    again = extractor(image_files, layers=["4"], number_of_trials=3, require_variance=True)
    assert counter.calls == 3 * passes  # every trial from the cache
    np.testing.assert_array_equal(again.values, trials.values)


def test_a_commitment_fits_and_answers_on_every_trial(small_stimulus_set):
    from conftest import build_tiny_net

    extractor = ActivationsExtractor(build_tiny_net(), "tiny", functools.partial(load_preprocess_images, image_size=8),
                                     cache=False, progress=False)
    commitment = ModelCommitment("tiny", extractor, ["4"], visual_degrees=3)  # hands its degrees to the extractor
    commitment.start_task("probabilities", small_stimulus_set, number_of_trials=2, require_variance=True)
    classifier = commitment._behavior.classifier_
    assert classifier.n_features_in_ == 5 and commitment._behavior.scaler_.n_samples_seen_ == 2 * len(small_stimulus_set)
    answer = commitment.look_at(small_stimulus_set, number_of_trials=4, require_variance=True)
    assert answer.dims == ("presentation", "choice") and answer.sizes["presentation"] == 4 * len(small_stimulus_set)
    assert list(answer["label"].values[:4]) == [small_stimulus_set["label"].iloc[0]] * 4  # the stimulus's columns
    np.testing.assert_allclose(answer.values.sum(axis=1), 1)
