"""Standard preprocessing against hand computations on tiny images."""

from __future__ import annotations

import numpy as np
import pytest
from PIL import Image

from model_tools.activations import IMAGENET_MEAN, IMAGENET_STD, ImagePreprocessing, load_preprocess_images
from model_tools.errors import StimulusError


def test_rgb_image_without_resize_is_scaled_and_normalised_by_hand():
    pixels = np.array([[[0, 128, 255], [10, 20, 30]], [[255, 255, 255], [1, 2, 3]]], dtype=np.uint8)
    tensor = ImagePreprocessing(image_size=2)([pixels]).numpy()
    # hand: value / 255, minus channel mean, over channel std; channels first
    expected = np.empty((1, 3, 2, 2), dtype=np.float64)
    for channel in range(3):
        expected[0, channel] = (pixels[:, :, channel] / 255.0 - IMAGENET_MEAN[channel]) / IMAGENET_STD[channel]
    np.testing.assert_allclose(tensor, expected, rtol=1e-6, atol=1e-6)


def test_grayscale_and_palette_images_become_three_equal_channels():
    gray = Image.fromarray(np.array([[0, 51], [102, 255]], dtype=np.uint8), mode="L")
    out = ImagePreprocessing(image_size=2, normalize=False)([gray]).numpy()[0]
    expected = np.array([[0, 51], [102, 255]]) / 255.0
    for channel in range(3):
        np.testing.assert_allclose(out[channel], expected, atol=1e-7)
    palette = gray.convert("P")
    np.testing.assert_allclose(ImagePreprocessing(image_size=2, normalize=False)([palette]).numpy()[0], out, atol=1e-7)


def test_resize_of_uniform_image_keeps_the_colour_and_gets_the_requested_size():
    image = np.zeros((7, 13, 3), dtype=np.uint8)
    image[:] = (200, 100, 50)
    out = ImagePreprocessing(image_size=5, normalize=False)([image]).numpy()
    assert out.shape == (1, 3, 5, 5)
    # bilinear interpolation of a constant is that constant
    np.testing.assert_allclose(out[0, :, 2, 2], np.array([200, 100, 50]) / 255.0, atol=1e-7)
    np.testing.assert_allclose(out[0].std(axis=(1, 2)), 0, atol=1e-7)


def test_resize_matches_pil_bilinear(image_files):
    out = ImagePreprocessing(image_size=9, normalize=False)([image_files[0]]).numpy()[0]
    reference = np.asarray(Image.open(image_files[0]).convert("RGB").resize((9, 9), Image.Resampling.BILINEAR))
    np.testing.assert_allclose(out, reference.transpose(2, 0, 1) / 255.0, atol=1e-7)


def test_rgba_drops_alpha_and_float_arrays_are_read_as_0_to_1():
    rgba = np.zeros((2, 2, 4), dtype=np.uint8)
    rgba[..., 0], rgba[..., 3] = 255, 7
    out = ImagePreprocessing(image_size=2, normalize=False)([rgba]).numpy()[0]
    np.testing.assert_allclose(out[0], 1.0)
    np.testing.assert_allclose(out[1:], 0.0)
    floats = np.full((2, 2, 3), 0.5)
    out = ImagePreprocessing(image_size=2, normalize=False)([floats]).numpy()[0]
    np.testing.assert_allclose(out, 128 / 255.0)  # round(0.5 * 255) = 128


def test_inception_resize_centre_crops_after_short_side_resize():
    image = np.zeros((10, 20, 3), dtype=np.uint8)
    image[:, 9:11] = 255  # a white vertical stripe in the middle survives the centre crop
    out = ImagePreprocessing(image_size=4, resize="inception", normalize=False)([image]).numpy()[0]
    assert out.shape == (3, 4, 4)
    assert out[:, :, 0].max() < out[:, :, 1:3].max()


def test_load_preprocess_images_has_the_reference_shape(image_files):
    array = load_preprocess_images(image_files[:3], image_size=12)
    assert array.shape == (3, 3, 12, 12) and array.dtype == np.float32


def test_unreadable_file_names_the_file(tmp_path):
    broken = tmp_path / "broken.png"
    broken.write_bytes(b"not an image")
    with pytest.raises(StimulusError, match="broken.png"):
        ImagePreprocessing(image_size=4)([str(broken)])


def test_to_tensor_covers_every_byte_value_of_every_channel_exactly():
    # every (value, channel) pair once: the output depends on nothing else, so this is exhaustive
    values = np.arange(256, dtype=np.uint8)
    batch = np.stack([values, np.roll(values, 85), np.roll(values, 170)], axis=-1).reshape(1, 16, 16, 3)
    out = ImagePreprocessing(16).to_tensor(batch).numpy()
    # expected, independently in numpy float32, in the order of torchvision's ToTensor then Normalize
    scaled = batch.astype(np.float32) / np.float32(255.0)
    expected = (scaled - np.asarray(IMAGENET_MEAN, np.float32)) / np.asarray(IMAGENET_STD, np.float32)
    np.testing.assert_array_equal(out, expected.transpose(0, 3, 1, 2))


def test_to_tensor_writes_into_a_given_buffer_and_checks_its_shape():
    import torch

    batch = np.random.default_rng(1).integers(0, 256, (2, 5, 5, 3), dtype=np.uint8)
    preprocessing = ImagePreprocessing(5)
    buffer = torch.full((2, 3, 5, 5), float("nan"))
    returned = preprocessing.to_tensor(batch, out=buffer)
    assert returned is buffer
    torch.testing.assert_close(buffer, preprocessing.to_tensor(batch), rtol=0, atol=0)
    with pytest.raises(ValueError, match=r"out has shape \(2, 3, 4, 4\)"):
        preprocessing.to_tensor(batch, out=torch.empty((2, 3, 4, 4)))
