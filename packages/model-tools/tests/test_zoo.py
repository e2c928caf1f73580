"""The model zoo: registration through entry points, randomnet, pixels, torchvision (opt-in)."""

from __future__ import annotations

import importlib.metadata
import importlib.util
import json
import subprocess
import sys

import numpy as np
import pytest
import torch
from PIL import Image

from brainio.skipping import skip_if
from model_tools.zoo import plugin
from model_tools.zoo.pixels import pixels
from model_tools.zoo.randomnet import REGION_LAYER_MAP, build_randomnet, randomnet


def test_entry_point_names_the_plugin_module():
    entry_points = importlib.metadata.entry_points(group="brainscore_vision")
    assert "model_tools.zoo.plugin" in [entry.value for entry in entry_points if entry.dist.name == "model-tools"]


def test_registering_imports_no_torch():
    code = ("import sys, json; from model_tools.zoo import plugin; factories = plugin.brainscore_models(); "
            "print(json.dumps([sorted(factories), 'torch' in sys.modules]))")
    names, torch_imported = json.loads(subprocess.check_output([sys.executable, "-c", code], text=True))
    assert {"pixels", "randomnet", "alexnet", "resnet18", "resnet50"} <= set(names)
    assert torch_imported is False


def test_domain_loads_the_zoo_through_the_entry_point():
    code = ("import sys, json; from brainscore_core.plugins import Domain; domain = Domain('brainscore_vision'); "
            "ids = sorted(domain.model_registry); before = 'torch' in sys.modules; "
            "model = domain.load_model('randomnet'); print(json.dumps([ids, before, model.layer_map]))")
    ids, torch_before, layer_map = json.loads(subprocess.check_output([sys.executable, "-c", code], text=True))
    assert {"pixels", "randomnet"} <= set(ids)
    assert torch_before is False
    assert layer_map == REGION_LAYER_MAP


def test_randomnet_is_deterministic_and_leaves_the_global_rng_alone():
    torch.manual_seed(123)
    state = torch.get_rng_state()
    first, second = build_randomnet(), build_randomnet()
    assert torch.equal(torch.get_rng_state(), state)
    for (name, a), (_, b) in zip(first.state_dict().items(), second.state_dict().items(), strict=True):
        assert torch.equal(a, b), name
    assert not torch.equal(build_randomnet(seed=1).block1[0].weight, first.block1[0].weight)


def test_randomnet_layer_shapes_and_region_map():
    model = randomnet()
    assert model.layer_map == {"V1": "block1", "V2": "block2", "V4": "block3", "IT": "block4"}
    inputs = torch.zeros(2, 3, 224, 224)
    assembly = model.activations_model(inputs, ["block1", "block2", "block3", "block4", "block5", "logits"])
    sizes = {layer: int((assembly["layer"].values == layer).sum()) for layer in dict.fromkeys(assembly["layer"].values)}
    assert sizes == {"block1": 32 * 56 * 56, "block2": 64 * 28 * 28, "block3": 128 * 14 * 14,
                     "block4": 256 * 7 * 7, "block5": 256, "logits": 1000}


def test_pixels_are_the_resized_image_flattened(image_files):
    model = pixels()
    model.start_recording("IT", [(70, 170)])
    recordings = model.look_at(image_files[:2])
    assert recordings.shape == (2, 64 * 64 * 3) and set(recordings["region"].values) == {"IT"}
    # hand: PIL bilinear resize to 64 x 64, [0, 1], channels first, flattened row-major
    picture = np.asarray(Image.open(image_files[1]).convert("RGB").resize((64, 64), Image.Resampling.BILINEAR))
    np.testing.assert_allclose(recordings.values[1], (picture / 255.0).transpose(2, 0, 1).ravel(), atol=1e-6)
    assert model.layer_map == dict.fromkeys(("V1", "V2", "V4", "IT"), "pixels")


def test_missing_weights_error_says_what_to_do(monkeypatch, tmp_path):
    import urllib.request

    from model_tools.errors import MissingWeightsError
    from model_tools.zoo import weights

    def offline(*_args, **_kwargs):
        raise OSError("network is unreachable")

    monkeypatch.setattr(urllib.request, "urlopen", offline)
    monkeypatch.setattr(torch.hub, "get_dir", lambda: str(tmp_path / "hub"))
    with pytest.raises(MissingWeightsError, match=r"alexnet-owt-7be5be79.pth.*weights"):
        weights.load_state_dict("https://download.pytorch.org/models/alexnet-owt-7be5be79.pth", "alexnet")


def test_local_weight_file_is_used_without_download(monkeypatch, tmp_path):
    import hashlib
    import urllib.request

    from model_tools.zoo import weights

    monkeypatch.setattr(urllib.request, "urlopen", pytest.fail)
    state = {"w": torch.arange(3.0)}
    weights.weights_dir().mkdir(parents=True)
    staged = tmp_path / "staged.pth"
    torch.save(state, staged)
    digest = hashlib.sha256(staged.read_bytes()).hexdigest()[:8]  # torch.hub's convention: the prefix in the name
    staged.rename(weights.weights_dir() / f"tiny-{digest}.pth")
    loaded = weights.load_state_dict(f"https://example.org/models/tiny-{digest}.pth", "tiny")
    assert torch.equal(loaded["w"], state["w"])


def _torchvision_importable() -> bool:
    if importlib.util.find_spec("torchvision") is None:
        return False
    try:
        import torchvision  # noqa: F401
    except Exception:
        return False
    return True


requires_torchvision = skip_if(not _torchvision_importable(), "opt-in",
                               "torchvision is not importable (opt-in: nox -s torchvision)")


@pytest.mark.torchvision
@requires_torchvision
@pytest.mark.parametrize("name", ["alexnet", "resnet18"])
def test_torchvision_untrained_architectures_extract_every_committed_layer(name, image_files):
    from model_tools.zoo.torchvision_models import torchvision_model

    model = torchvision_model(name, pretrained=False)
    assert set(model.layer_map) == {"V1", "V2", "V4", "IT"}
    for region in model.layer_map:
        model.start_recording(region, [(70, 170)])
        assert model.look_at(image_files[:2]).sizes["presentation"] == 2


def test_without_torchvision_the_error_names_the_extra(monkeypatch):
    from model_tools.errors import MissingDependencyError
    from model_tools.zoo import torchvision_models

    monkeypatch.setitem(sys.modules, "torchvision", None)  # import fails as on our CPU torch
    with pytest.raises(MissingDependencyError, match=r"model-tools\[torchvision\]"):
        torchvision_models.build_torchvision_module("alexnet")


def test_zoo_lists_the_extras_models_without_importing_them():
    factories = plugin.model_factories()
    assert {"timm/efficientnet_b0", "timm/convnext_tiny", "resnet34"} <= set(factories)
    assert all(callable(factory) for factory in factories.values())
