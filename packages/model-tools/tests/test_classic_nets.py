"""Brain-Score's classic networks in plain torch (issue 20).

* Architectures: every parameter and buffer name and shape equals the manifest written from torchvision 0.29 and
  dicarlolab/CORnet (``scripts/write_architecture_manifest.py``); the opt-in ``torchvision`` session also compares
  outputs (``scripts/compare_with_torchvision.py``: 0.0 max abs difference on logits and every recorded layer).
* The seeded random variants run on real images (Kriegeskorte 2008) and are deterministic.
* Layer maps: Brain-Score's committed maps where it has them (alexnet.json, vgg_16.json, copied here as facts).
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
import torch

from brainio.skipping import import_or_skip
from model_tools.zoo import classic_models
from model_tools.zoo.classic_models import SPECS, build_module

MANIFEST = Path(classic_models.__file__).with_name("architecture_manifest.json")
NAMES = list(SPECS)


@pytest.mark.parametrize("name", NAMES)
def test_state_dict_keys_and_shapes_equal_the_published_architecture(name):
    expected = json.loads(MANIFEST.read_text())["architectures"][name]["state_dict"]
    ours = {key: list(value.shape) for key, value in build_module(name, pretrained=False).state_dict().items()}
    assert list(ours) == list(expected) or sorted(ours) == sorted(expected)
    assert ours == expected


def test_brainscore_layer_maps_and_aliases():
    # brain-score/vision models/alexnet/region_layer_map/alexnet.json and models/vgg_16/region_layer_map/vgg_16.json
    assert SPECS["alexnet"].region_layer_map == {"IT": "features.12", "V4": "features.7", "V2": "features.7",
                                                 "V1": "features.2"}
    assert SPECS["vgg16"].region_layer_map == {"V1": "features.16", "V2": "features.16", "V4": "features.16",
                                               "IT": "features.23"}
    assert classic_models.ALIASES == {"vgg_16": "vgg16", "CORnet-Z": "cornet_z", "CORnet-S": "cornet_s"}
    for name, spec in SPECS.items():
        modules = dict(build_module(name, pretrained=False).named_modules())
        assert set(spec.region_layer_map.values()) <= set(spec.layers)
        assert all(layer in modules for layer in (*spec.layers, spec.readout)), name


def test_random_variants_are_deterministic_and_leave_the_rng_alone():
    torch.manual_seed(123)
    expected_next = torch.rand(1)
    torch.manual_seed(123)
    first = build_module("cornet_s", pretrained=False).state_dict()
    assert torch.equal(torch.rand(1), expected_next)  # the caller's random stream is untouched
    second = build_module("cornet_s", pretrained=False).state_dict()
    assert all(torch.equal(first[key], second[key]) for key in first)


@pytest.fixture(scope="module")
def kriegeskorte_images():
    from conftest import require_data

    folder = require_data("kriegeskorte2008/images") / "kriegeskorte2008" / "images"
    return [str(folder / f"k92_{i:03d}.png") for i in (1, 30, 60)]


@pytest.mark.parametrize("name", NAMES)
def test_random_variants_record_every_committed_layer_on_real_images(name, kriegeskorte_images):
    from brainscore_vision import load_model

    model = load_model(f"{name}-random")
    assert model.identifier == f"{name}-random"
    spec = SPECS[name]
    activations = model.activations_model(kriegeskorte_images, layers=list(spec.layers))
    assert activations.sizes["presentation"] == 3
    values = np.asarray(activations.values)
    assert np.isfinite(values).all() and values.std() > 0
    layers = set(np.asarray(activations["layer"].values))
    assert layers == set(spec.layers)
    again = model.activations_model(kriegeskorte_images, layers=[spec.region_layer_map["IT"]])
    it = activations.isel(neuroid=np.flatnonzero(np.asarray(activations["layer"].values) == spec.region_layer_map["IT"]))
    np.testing.assert_array_equal(np.asarray(again.values), np.asarray(it.values))


def test_alias_keeps_the_requested_identifier():
    from brainscore_vision import load_model

    assert load_model("CORnet-Z-random").identifier == "CORnet-Z-random"


@pytest.mark.torchvision
def test_outputs_equal_torchvision_on_the_same_weights():
    """Opt-in (``nox -s torchvision``): logits and every recorded layer equal torchvision's."""
    import_or_skip("torchvision", extra="model-tools[torchvision] (nox -s torchvision)", kind="opt-in")
    import importlib.util
    import sys

    script = Path(__file__).resolve().parents[1] / "scripts" / "compare_with_torchvision.py"
    spec = importlib.util.spec_from_file_location("compare_with_torchvision", script)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    assert module.main([]) <= 1e-6
