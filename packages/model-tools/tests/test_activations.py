"""ActivationsExtractor against hand-run forward passes of a tiny net."""

from __future__ import annotations

import numpy as np
import pytest
import torch
from PIL import Image

from model_tools.activations import ActivationsExtractor, ImagePreprocessing, RandomProjection
from model_tools.activations.reduction import PCAReduction
from model_tools.errors import UnknownLayerError


def hand_forward(net, inputs):
    """Each submodule of the Sequential called in turn, outputs kept by index (independent of hooks)."""
    outputs, x = {}, inputs
    with torch.no_grad():
        for index, module in enumerate(net):
            x = module(x)
            outputs[str(index)] = x.reshape(x.shape[0], -1).numpy()
    return outputs


def test_tensor_input_matches_hand_forward_row_major(tiny_net):
    inputs = torch.randn(7, 3, 8, 8, generator=torch.Generator().manual_seed(1))
    assembly = ActivationsExtractor(tiny_net, "tiny", batch_size=3, cache=False)(inputs, layers=["1", "2", "logits"])
    expected = hand_forward(tiny_net, inputs)
    assert assembly.dims == ("presentation", "neuroid")
    assert assembly.shape == (7, 4 * 8 * 8 + 2 * 4 * 4 + 5)
    layer = assembly["layer"].values
    np.testing.assert_allclose(assembly.values[:, layer == "1"], expected["1"], rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(assembly.values[:, layer == "2"], expected["2"], rtol=1e-5, atol=1e-6)
    # 'logits' is the last leaf module: the Linear
    np.testing.assert_allclose(assembly.values[:, layer == "logits"], expected["4"], rtol=1e-5, atol=1e-6)
    # row-major C*H*W: neuroid 1 of layer '2' is channel 0, row 0, column 1
    raw = tiny_net[:3](inputs).detach().numpy()
    np.testing.assert_allclose(assembly.values[:, layer == "2"][:, 1], raw[:, 0, 0, 1], rtol=1e-5, atol=1e-6)
    assert list(assembly["neuroid_id"].values[:2]) == ["tiny.1.0", "tiny.1.1"]
    assert assembly["neuroid_num"].values[layer == "logits"].tolist() == [0, 1, 2, 3, 4]


def test_stimulus_set_paths_match_hand_preprocessing_and_forward(tiny_net, small_stimulus_set, image_files):
    assembly = ActivationsExtractor(tiny_net, "tiny", ImagePreprocessing(8), cache=False)(
        small_stimulus_set, layers=["logits"])
    # hand preprocessing: PIL bilinear resize to 8 x 8, / 255, ImageNet normalisation
    mean, std = np.array([0.485, 0.456, 0.406]), np.array([0.229, 0.224, 0.225])
    arrays = [np.asarray(Image.open(path).convert("RGB").resize((8, 8), Image.Resampling.BILINEAR)) / 255.0
              for path in image_files]
    inputs = torch.tensor(np.stack([(a - mean) / std for a in arrays]).transpose(0, 3, 1, 2), dtype=torch.float32)
    np.testing.assert_allclose(assembly.values, hand_forward(tiny_net, inputs)["4"], rtol=1e-5, atol=1e-5)
    assert list(assembly["stimulus_id"].values) == list(small_stimulus_set["stimulus_id"])
    assert list(assembly["object_name"].values) == list("xyzxyzxyzx")
    assert assembly.attrs["stimulus_set_identifier"] == "tiny-set"


def test_paths_pil_and_numpy_inputs_agree(tiny_net, image_files):
    extractor = ActivationsExtractor(tiny_net, "tiny", ImagePreprocessing(8), cache=False)
    from_paths = extractor(image_files, layers=["2"])
    from_pil = extractor([Image.open(path) for path in image_files], layers=["2"])
    from_numpy = extractor([np.asarray(Image.open(path)) for path in image_files], layers=["2"])
    np.testing.assert_array_equal(from_paths.values, from_pil.values)
    np.testing.assert_array_equal(from_paths.values, from_numpy.values)
    assert list(from_paths["stimulus_path"].values) == image_files
    assert from_pil["stimulus_id"].values[0] == "image00000"


def test_batch_size_and_worker_count_do_not_change_values(tiny_net, image_files):
    one = ActivationsExtractor(tiny_net, "tiny", ImagePreprocessing(8), batch_size=1, num_workers=1, cache=False)
    many = ActivationsExtractor(tiny_net, "tiny", ImagePreprocessing(8), batch_size=4, num_workers=3, cache=False)
    np.testing.assert_allclose(one(image_files, ["1"]).values, many(image_files, ["1"]).values, rtol=1e-5, atol=1e-6)


def test_duplicate_layers_run_once_and_eval_mode_is_restored(tiny_net, image_files):
    tiny_net.train()
    assembly = ActivationsExtractor(tiny_net, "tiny", ImagePreprocessing(8), cache=False)(image_files, ["2", "2"])
    assert assembly.sizes["neuroid"] == 32
    assert tiny_net.training


def test_unknown_layer_names_layer_and_model(tiny_net, image_files):
    with pytest.raises(UnknownLayerError, match="'features.9'.*'tiny'"):
        ActivationsExtractor(tiny_net, "tiny", cache=False)(image_files, ["features.9"])


def test_random_projection_is_seeded_and_streams(tiny_net):
    inputs = torch.randn(5, 3, 8, 8, generator=torch.Generator().manual_seed(2))
    extractor = ActivationsExtractor(tiny_net, "tiny", cache=False, batch_size=2,
                                     reduction=RandomProjection(10, random_state=3))
    assembly = extractor(inputs, ["1", "logits"])
    layer = assembly["layer"].values
    assert (layer == "1").sum() == 10 and (layer == "logits").sum() == 5  # narrow layers untouched
    # independent: project the hand-computed features with the same seeded Gaussian matrix
    matrix = torch.randn(256, 10, generator=torch.Generator().manual_seed(3)) / np.sqrt(10)
    expected = hand_forward(tiny_net, inputs)["1"] @ matrix.numpy()
    np.testing.assert_allclose(assembly.values[:, layer == "1"], expected, rtol=1e-4, atol=1e-4)


def test_pca_reduction_matches_sklearn(tiny_net):
    from sklearn.decomposition import PCA

    inputs = torch.randn(12, 3, 8, 8, generator=torch.Generator().manual_seed(4))
    assembly = ActivationsExtractor(tiny_net, "tiny", cache=False, reduction=PCAReduction(4))(inputs, ["1"])
    expected = PCA(4, random_state=0).fit_transform(hand_forward(tiny_net, inputs)["1"])
    np.testing.assert_allclose(np.abs(assembly.values), np.abs(expected), rtol=1e-3, atol=1e-3)


def test_reference_style_wrapper_and_plain_callable_preprocessing_agree(tiny_net, image_files):
    import functools

    from model_tools.activations import PytorchWrapper, load_preprocess_images

    expected = ActivationsExtractor(tiny_net, "tiny", ImagePreprocessing(8), cache=False)(image_files, ["2"])
    wrapper = PytorchWrapper(model=tiny_net, preprocessing=functools.partial(load_preprocess_images, image_size=8),
                             identifier="tiny", cache=False)
    wrapper.image_size = 8
    np.testing.assert_array_equal(wrapper(image_files, layers=["2"]).values, expected.values)

    def by_hand(paths):  # any callable: paths -> array (batch, 3, H, W), run without worker threads
        return load_preprocess_images(paths, image_size=8)

    plain = ActivationsExtractor(tiny_net, "tiny", by_hand, batch_size=3, num_workers=0, cache=False,
                                 progress=True)
    np.testing.assert_allclose(plain(image_files, ["2"]).values, expected.values, rtol=1e-6, atol=1e-6)


def test_wrapper_image_size_reads_back_and_a_contradiction_warns(tiny_net):
    import functools
    import warnings

    from model_tools.activations import PytorchWrapper, load_preprocess_images

    standard = PytorchWrapper(model=tiny_net, preprocessing=functools.partial(load_preprocess_images, image_size=8),
                              identifier="tiny", cache=False)
    assert standard.image_size == 8  # from the preprocessing
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        standard.image_size = 8  # agrees: silent
    with pytest.warns(UserWarning, match="image_size = 224 was assigned, but its preprocessing resizes images to 8"):
        standard.image_size = 224
    assert standard.image_size == 8  # the preprocessing decides

    custom = PytorchWrapper(model=tiny_net, preprocessing=lambda paths: load_preprocess_images(paths, image_size=8),
                            identifier="tiny", cache=False)
    assert custom.image_size is None
    custom.image_size = 8  # a plain callable says nothing of its size: the declaration is what there is
    assert custom.image_size == 8


def test_values_do_not_depend_on_freed_memory_reuse(tiny_net, image_files):
    kept = ActivationsExtractor(tiny_net, "tiny", ImagePreprocessing(8), cache=False, reuse_memory=True)
    plain = ActivationsExtractor(tiny_net, "tiny", ImagePreprocessing(8), cache=False, reuse_memory=False)
    np.testing.assert_array_equal(kept(image_files, ["1", "2"]).values, plain(image_files, ["1", "2"]).values)


@pytest.mark.parametrize("overlap", [True, False])
def test_overlapped_and_phased_decoding_give_the_uncached_values(tiny_net, image_files, tmp_path, overlap):
    expected = ActivationsExtractor(tiny_net, "tiny", ImagePreprocessing(8), cache=False, batch_size=10)
    extractor = ActivationsExtractor(tiny_net, "tiny", ImagePreprocessing(8), batch_size=3, num_workers=2,
                                     cache=True, cache_root=tmp_path, overlap_decoding=overlap)
    # batches of 3, 3, 3, 1: the cached rows are written in parts (two per batch when phased)
    np.testing.assert_allclose(extractor(image_files, ["1", "2"]).values, expected(image_files, ["1", "2"]).values,
                               rtol=1e-6, atol=1e-6)


def test_row_parts_cover_the_batch_without_empty_parts():
    from model_tools.activations.rows import _row_parts

    assert _row_parts(64, 2) == [(0, 32), (32, 64)]
    assert _row_parts(5, 2) == [(0, 2), (2, 5)]  # numpy rounds half to even: 2.5 -> 2
    assert _row_parts(1, 2) == [(0, 1)]
    assert _row_parts(3, 1) == [(0, 3)]


def test_row_target_allocates_on_the_first_batch_and_writes_entries_in_the_background(tmp_path):
    # the object _run's batch loop feeds: widths known from the first batch, rows placed by batch, and with a
    # cache the same rows end up in the committed entry through the double-buffered background writer
    from model_tools.activations.cache import ActivationsCache
    from model_tools.activations.rows import RowTarget

    batches = [torch.arange(12, dtype=torch.float32).reshape(3, 2, 2) + 100 * b for b in range(3)]  # 3 rows each
    expected = np.concatenate([batch.reshape(3, -1).numpy() for batch in batches])
    wide = np.concatenate([expected, expected[:, :1] * 2], axis=1)

    def feed(target):
        with target.writing():
            for b, batch in enumerate(batches):
                target.start_batch(3 * b, 3 * b + 3, wait_for_writes=b % 2 == 0)
                target.sink("x", batch)
                target.sink("y", batch[:, :1, :1] * 2)
                target.end_batch()
            target.wait_for_writes()
        return target.finish()

    values, widths = feed(RowTarget(["x", "y"], 9, identifier="toy"))
    assert widths == {"x": 4, "y": 1}
    np.testing.assert_array_equal(values, wide)

    cache = ActivationsCache(tmp_path)
    keys = {"x": "kx", "y": "ky"}
    target = RowTarget(["x", "y"], 9, identifier="toy", batch_size=3, write_parts=2, cache=cache, base="ab" * 20,
                       keys=keys)
    assert feed(target) == (None, {"x": 4, "y": 1})
    located = cache.locate(keys, 9)
    np.testing.assert_array_equal(cache.load([located["x"], located["y"]]), wide)

    silent = RowTarget(["x", "z"], 9, identifier="toy")
    silent.sink("x", batches[0])
    with pytest.raises(RuntimeError, match=r"layers \['z'\] of model 'toy' produced no output"):
        silent.end_batch()
