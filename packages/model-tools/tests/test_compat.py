"""Brain-Score's model-helper API on our implementation (``model_tools.compat``, which
``brainscore_vision.model_helpers`` resolves to), each behaviour against a hand computation on small inputs."""

from __future__ import annotations

import functools
import json
from collections import OrderedDict

import numpy as np
import pytest
from conftest import build_tiny_net
from PIL import Image

from brainscore_vision.model_interface import BrainModel
from model_tools.compat.activations.core import ActivationsExtractorHelper
from model_tools.compat.activations.pytorch import PytorchWrapper, load_preprocess_images
from model_tools.compat.brain_transformation import LayerSelection, ModelCommitment, RegionLayerMap
from model_tools.compat.brain_transformation.behavior import OddOneOut
from model_tools.errors import (
    MicrosaccadeError,
    MicrosaccadesNotSupportedError,
    RegionLayerMapError,
    UnsupportedTaskError,
)


def _torchvision_inception_by_hand(path: str, size: int) -> np.ndarray:
    """torchvision's Resize(int(size * 256 / 224)) + CenterCrop(size) + ToTensor + Normalize(0.5, 0.5), written
    out from its documentation: short side to that length, long side int(short * long / short side) (bilinear, PIL),
    crop offsets int(round((side - size) / 2)), values / 255, (x - 0.5) / 0.5."""
    image = Image.open(path).convert("RGB")
    width, height = image.size
    short = int(size * 256 / 224)
    new = (short, int(short * height / width)) if width <= height else (int(short * width / height), short)
    image = image.resize(new, Image.BILINEAR)
    left, top = int(round((new[0] - size) / 2.0)), int(round((new[1] - size) / 2.0))
    pixels = np.asarray(image.crop((left, top, left + size, top + size)), dtype=np.float32) / np.float32(255)
    return ((pixels - np.float32(0.5)) / np.float32(0.5)).transpose(2, 0, 1)


@pytest.mark.parametrize(("width", "height", "size"), [(100, 103, 32), (103, 100, 32), (50, 37, 16), (64, 91, 19),
                                                       (300, 224, 224)])
def test_inception_preprocessing_is_torchvision_arithmetic(tmp_path, width, height, size):
    # (100, 103, 32): short side 36, long side 37, crop offset round(2.5) = 2 (round half to even, as torchvision)
    path = tmp_path / "image.png"
    Image.fromarray(np.random.default_rng(width + height).integers(0, 256, (height, width, 3), dtype=np.uint8)).save(path)
    ours = load_preprocess_images([str(path)], image_size=size, preprocess_type="inception")
    np.testing.assert_array_equal(ours[0], _torchvision_inception_by_hand(str(path), size))


def test_imagenet_preprocessing_takes_normalize_mean_and_std(image_files):
    mean, std = (0.1, 0.2, 0.3), (0.5, 0.25, 0.125)
    ours = load_preprocess_images(image_files[:2], image_size=8, normalize_mean=mean, normalize_std=std)
    for row, path in zip(ours, image_files[:2], strict=True):
        pixels = np.asarray(Image.open(path).convert("RGB").resize((8, 8), Image.BILINEAR), np.float32) / np.float32(255)
        np.testing.assert_array_equal(row, ((pixels - np.float32(mean)) / np.float32(std)).transpose(2, 0, 1))
    with pytest.raises(ValueError, match="Unknown preprocess_type 'vgg'"):
        load_preprocess_images(image_files[:1], image_size=8, preprocess_type="vgg")


def _hand_forward(module, batch):
    import torch

    with torch.no_grad():
        return module(batch)


def _inputs(image_files, size=8):
    import torch

    return torch.from_numpy(load_preprocess_images(image_files, image_size=size))


def test_logits_is_the_last_child_recursively_and_forward_kwargs_reach_the_model(image_files):
    import torch
    from torch import nn

    class Scaled(nn.Module):
        def __init__(self):
            super().__init__()
            torch.manual_seed(0)
            self.logits = nn.Linear(3, 2)  # named 'logits', but not the last child: Brain-Score reads the last one
            self.features = nn.Sequential(nn.Conv2d(3, 4, 3), nn.ReLU())
            self.head = nn.Sequential(nn.Flatten(), nn.Linear(4 * 6 * 6, 7))

        def forward(self, x, scale=1.0):
            return self.head(self.features(x) * scale)

    model = Scaled().eval()
    wrapper = PytorchWrapper(model, functools.partial(load_preprocess_images, image_size=8), forward_kwargs={"scale": 3},
                             cache=False)
    assert wrapper.identifier == "Scaled" and wrapper._output_layer() is model.head[1] and wrapper._extractor is wrapper
    wrapper.identifier = "renamed"
    logits = wrapper(image_files, layers=["logits"])
    expected = _hand_forward(lambda x: model(x, scale=3), _inputs(image_files)).numpy()
    np.testing.assert_allclose(logits.values, expected, rtol=1e-5, atol=1e-6)
    assert set(logits["layer"].values) == {"logits"} and logits["neuroid_id"].values[0] == "renamed.logits.0"
    assert [name for name, _ in wrapper.layers()] == ["logits", "features.0", "features.1", "head.0", "head.1"]


def test_a_float64_model_gets_float64_inputs(image_files):
    net = build_tiny_net().double()
    wrapper = PytorchWrapper(net, functools.partial(load_preprocess_images, image_size=8), identifier="f64", cache=False)
    values = wrapper(image_files, layers=["2"]).values
    expected = _hand_forward(net[:3], _inputs(image_files).double()).reshape(len(image_files), -1).numpy()
    np.testing.assert_allclose(values, expected, rtol=1e-6, atol=1e-7)  # float64 computed, stored as float32


def test_a_subclass_with_its_own_hooks_runs_through_its_get_activations(image_files):
    from torch import nn

    class TupleOut(nn.Module):  # a layer returning a tuple, as transformer blocks do
        def forward(self, x):
            return x * 2, "state"

    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.body, self.block, self.head = build_tiny_net()[:3], TupleOut(), nn.Flatten()

        def forward(self, x):
            return self.head(self.block(self.body(x))[0])

    calls = []

    class FirstOfTuple(PytorchWrapper):  # as Brain-Score plugins write it for such models
        def register_hook(self, layer, layer_name, target_dict):
            def hook(_layer, _input, output, name=layer_name):
                calls.append(name)
                target_dict[name] = (output[0] if isinstance(output, tuple) else output).cpu().numpy()

            return layer.register_forward_hook(hook)

    net = Net().eval()
    wrapper = FirstOfTuple(net, functools.partial(load_preprocess_images, image_size=8), identifier="tuple",
                           batch_size=4, cache=False)
    values = wrapper(image_files, layers=["block", "body.2"]).values
    inputs = _inputs(image_files)
    body = _hand_forward(net.body, inputs)
    expected = np.concatenate([(body * 2).reshape(10, -1).numpy(), body.reshape(10, -1).numpy()], axis=1)
    np.testing.assert_allclose(values, expected, rtol=1e-6, atol=1e-7)
    assert calls.count("block") == 3  # its register_hook ran once per batch of 4


def test_activations_extractor_helper_hands_paths_to_get_activations(small_stimulus_set):
    received = []

    def mean_colour(paths, layer_names):  # Brain-Score's pixels-style model: it loads what it gets
        received.append(paths)
        pixels = np.stack([np.asarray(Image.open(path).convert("RGB"), np.float64) for path in paths])
        return OrderedDict([("mean", pixels.mean(axis=(1, 2))), ("max", pixels.max(axis=(1, 2)))])

    helper = ActivationsExtractorHelper(mean_colour, preprocessing=None, batch_size=4)
    helper.register_batch_activations_hook(lambda activations: {k: v / 255 for k, v in activations.items()})
    helper.register_stimulus_set_hook(lambda stimuli: stimuli.iloc[::-1])
    assembly = helper(small_stimulus_set, layers=["max", "mean"])
    paths = [small_stimulus_set.stimulus_paths[i] for i in small_stimulus_set["stimulus_id"]][::-1]
    assert received == [paths[:4], paths[4:8], paths[8:]] and all(isinstance(p, str) for p in received[0])
    expected = np.stack([np.concatenate([np.asarray(Image.open(p).convert("RGB"), float).max(axis=(0, 1)),
                                         np.asarray(Image.open(p).convert("RGB"), float).mean(axis=(0, 1))]) / 255
                         for p in paths])
    np.testing.assert_allclose(assembly.values, expected, rtol=1e-6)
    assert list(assembly["stimulus_id"].values) == list(small_stimulus_set["stimulus_id"])[::-1]
    assert list(assembly["label"].values) == list(small_stimulus_set["label"])[::-1]  # columns kept
    assert assembly["neuroid_id"].values[0] == "activations.max.0"  # identifier=False
    with pytest.raises(MicrosaccadeError, match="visual degrees, which are not set"):  # Brain-Score asserts the same
        helper(small_stimulus_set, layers=["mean"], number_of_trials=2, require_variance=True)
    helper.set_visual_degrees(8)  # sized now, but paths cannot be shifted (Brain-Score: AttributeError on a str)
    with pytest.raises(MicrosaccadesNotSupportedError, match="shift an input tensor .* gives PassedThrough"):
        helper(small_stimulus_set, layers=["mean"], number_of_trials=2, require_variance=True)


def test_modelcommitment_takes_brainscores_argument_order_and_a_region_layer_map_to_select(small_stimulus_set):
    from model_tools.activations import ActivationsExtractor

    extractor = ActivationsExtractor(build_tiny_net(), "tiny", functools.partial(load_preprocess_images, image_size=8),
                                     cache=False)
    commitment = ModelCommitment("tiny", extractor, ["1", "2"], "4", {"IT": "2"}, 5)
    assert (commitment.layers, commitment.behavioral_readout_layer, commitment.layer_map,
            commitment.visual_degrees()) == (["1", "2"], "4", {"IT": "2"}, 5)

    class LayerOneWins:  # a 'benchmark' preferring layer 1
        identifier, version = "prefers-1", 1

        def __call__(self, candidate):
            from brainscore_core.metrics import Score

            return Score(1.0 if candidate.layer_map == {"V4": "1"} else 0.0)

    selection = LayerSelection("tiny", extractor, ["1", "2"], visual_degrees=8, cache=False)
    assert selection(selection_identifier="V4", benchmark=LayerOneWins()) == "1"
    lazy = RegionLayerMap(selection, {"V4": LayerOneWins()})
    committed = ModelCommitment("tiny", extractor, ["1", "2"], region_layer_map=lazy)
    committed.start_recording("V4", [(70, 170)])
    assert committed.layer_map == {"V4": "1"} and committed.layer_scores["V4"] == {"1": 1.0, "2": 0.0}


def test_without_any_map_layers_are_selected_on_brainscores_standard_benchmarks(tmp_path):
    commitment = ModelCommitment("no-map-anywhere", lambda *a, **k: None, ["1"])
    assert sorted(commitment.region_benchmarks) == ["IT", "V1", "V2", "V4"]
    assert commitment.region_benchmarks["IT"].__qualname__ == "load_benchmark('MajajHong2015public.IT-pls')"


def test_a_region_layer_json_beside_the_caller_is_read_and_a_bad_one_is_one_line(tmp_path):
    from model_tools.brain_transformation.region_layer_maps import find_region_layer_map

    folder = tmp_path / "plugin"
    (folder / "region_layer_map").mkdir(parents=True)
    (folder / "region_layer_map" / "json-model.json").write_text(json.dumps({"IT": "2", "V1": "1"}))
    found, path = find_region_layer_map("json-model", caller_file=str(folder / "__init__.py"))
    assert found == {"IT": "2", "V1": "1"} and path == folder / "region_layer_map" / "json-model.json"
    namespace = {"__name__": "plugin_module", "__file__": str(folder / "__init__.py"), "ModelCommitment": ModelCommitment}
    exec("commitment = ModelCommitment('json-model', None, ['1', '2'])", namespace)  # built inside 'the plugin'
    assert namespace["commitment"].layer_map == {"IT": "2", "V1": "1"}
    (folder / "region_layer_map" / "json-model.json").write_text('["IT", "2"]')
    with pytest.raises(RegionLayerMapError) as caught:
        find_region_layer_map("json-model", caller_file=str(folder / "__init__.py"))
    assert "\n" not in str(caught.value) and str(folder / "region_layer_map" / "json-model.json") in str(caught.value)


def test_trials_without_variance_change_nothing_and_with_variance_need_an_extractor(small_stimulus_set):
    from model_tools.activations import ActivationsExtractor

    extractor = ActivationsExtractor(build_tiny_net(), "tiny", functools.partial(load_preprocess_images, image_size=8),
                                     cache=False)
    commitment = ModelCommitment("tiny", extractor, ["1", "2"], region_layer_map={"IT": "2"})
    commitment.start_recording("IT", [(70, 170)])
    np.testing.assert_array_equal(commitment.look_at(small_stimulus_set, number_of_trials=5).values,
                                  commitment.look_at(small_stimulus_set).values)
    shifted = commitment.look_at(small_stimulus_set, number_of_trials=5, require_variance=True)  # microsaccades
    assert shifted.sizes["presentation"] == 5 * len(small_stimulus_set)
    plain = ModelCommitment("plain", lambda stimuli, layers: extractor(stimuli, layers=layers), ["1", "2"],
                            region_layer_map={"IT": "2"})  # a callable without Brain-Score's trial keywords
    plain.start_recording("IT", [(70, 170)])
    with pytest.raises(MicrosaccadesNotSupportedError) as caught:
        plain.look_at(small_stimulus_set, number_of_trials=5, require_variance=True)
    assert "\n" not in str(caught.value) and "number_of_trials=5 with require_variance=True" in str(caught.value)
    with pytest.raises(UnsupportedTaskError, match="odd_one_out"):
        commitment.start_task("dance")


def _odd_one_out_by_hand(features: dict, triplets: list, measure: str) -> list:
    """Brain-Score's procedure, as a loop: similarities s(i, j), s(i, k), s(j, k); the odd one is
    (i, j, k)[2 - argmax]."""
    def similarity(a, b):
        a, b = np.asarray(features[a], float), np.asarray(features[b], float)
        return a @ b if measure == "dot" else a @ b / (np.linalg.norm(a) * np.linalg.norm(b))

    return [(i, j, k)[2 - int(np.argmax([similarity(i, j), similarity(i, k), similarity(j, k)]))]
            for i, j, k in triplets]


@pytest.mark.parametrize("path", ["gram", "chunked"])
@pytest.mark.parametrize("measure", ["dot", "cosine"])
def test_odd_one_out_against_a_loop(small_stimulus_set, measure, path, monkeypatch):
    from model_tools.brain_transformation import odd_one_out

    if path == "chunked":  # the path for many distinct stimuli: per triplet, a few triplets at a time
        monkeypatch.setattr(odd_one_out, "GRAM_LIMIT", 0)
        monkeypatch.setattr(odd_one_out, "TRIPLET_CHUNK", 5)
    from model_tools.activations import ActivationsExtractor

    extractor = ActivationsExtractor(build_tiny_net(), "tiny", functools.partial(load_preprocess_images, image_size=8),
                                     cache=False)
    features = extractor(small_stimulus_set, ["2"])
    by_id = dict(zip(features["stimulus_id"].values, features.values, strict=True))
    rng = np.random.default_rng(3)
    ids = list(small_stimulus_set["stimulus_id"])
    triplets = [tuple(rng.choice(ids, 3, replace=False)) for _ in range(12)]
    rows = [ids.index(stimulus) for triplet in triplets for stimulus in triplet]
    shown = small_stimulus_set.iloc[rows]  # repeated stimuli, in triplet order
    readout = OddOneOut("tiny", extractor, "2")
    readout.set_similarity_measure(measure)
    readout.start_task(BrainModel.Task.odd_one_out)
    choices = readout.look_at(shown)
    assert choices.dims == ("choice", "presentation") and choices.shape == (1, 12)
    assert list(choices.values[0]) == _odd_one_out_by_hand(by_id, triplets, measure)
    assert list(choices["stimulus_id"].values) == ["|".join(t) for t in triplets]

    commitment = ModelCommitment("tiny", extractor, ["1", "2"], region_layer_map={})
    commitment.start_task(BrainModel.Task.odd_one_out)
    if measure == "dot":
        assert list(commitment.look_at(shown).values[0]) == _odd_one_out_by_hand(by_id, triplets, "dot")
        from model_tools.compat.brain_transformation.behavior import BehaviorArbiter

        arbiter = BehaviorArbiter({BrainModel.Task.odd_one_out: OddOneOut("tiny", extractor, "2")})
        arbiter.start_task(BrainModel.Task.odd_one_out)  # what Brain-Score's custom commitments write
        assert list(arbiter.look_at(shown).values[0]) == _odd_one_out_by_hand(by_id, triplets, "dot")

