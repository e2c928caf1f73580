"""Brain-Score's classic models as BrainModels, in plain torch: AlexNet, VGG-16, ResNet-18/50, CORnet-Z/S.

Each has its pretrained identifier (ImageNet weights from the published checkpoint, :mod:`model_tools.zoo.weights`)
and a ``<identifier>-random`` variant (seeded initialisation, deterministic, offline; what CI scores).
Preprocessing is Brain-Score's for these models: 224 px, ImageNet mean/std, 8 degrees of visual angle.

Region -> layer commitments, and where they come from:

* ``alexnet``: brain-score/vision ``models/alexnet/region_layer_map/alexnet.json``.
* ``vgg16``: brain-score/vision ``models/vgg_16/region_layer_map/vgg_16.json``.
* ``cornet_z``, ``cornet_s``: the areas the networks are named after (``V1.output`` ... ``IT.output``), as in
  brain-score/vision ``models/cornet_s`` (its recorded layers are the areas' outputs; Brain-Score maps CORnet-S's
  time steps to time bins, we record the last step).
* ``resnet18``, ``resnet50``: brain-score/vision holds no committed map for torchvision's ResNets at HEAD (its
  ResNet entries are other trainings); a depth-based default (first block of stages 1-4). Pass
  ``region_benchmarks=`` to choose layers by layer selection instead.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

__all__ = ["ALIASES", "SPECS", "ModelSpec", "availability", "build_module", "classic_model"]

RANDOM_SEED = 0


@dataclass(frozen=True)
class ModelSpec:
    builder: str  # "module:function" in model_tools.zoo
    layers: tuple[str, ...]
    region_layer_map: dict[str, str]
    map_source: str
    readout: str
    aliases: tuple[str, ...] = field(default=())


_RESNET18_LAYERS = ("conv1", "layer1.0", "layer1.1", "layer2.0", "layer2.1", "layer3.0", "layer3.1", "layer4.0",
                    "layer4.1", "avgpool")
_RESNET50_LAYERS = ("conv1", "layer1.0", "layer1.2", "layer2.0", "layer2.3", "layer3.0", "layer3.5", "layer4.0",
                    "layer4.2", "avgpool")
_RESNET_MAP = {"V1": "layer1.0", "V2": "layer2.0", "V4": "layer3.0", "IT": "layer4.0"}
_CORNET_LAYERS = ("V1.output", "V2.output", "V4.output", "IT.output", "decoder.avgpool")
_CORNET_MAP = {"V1": "V1.output", "V2": "V2.output", "V4": "V4.output", "IT": "IT.output"}

SPECS: dict[str, ModelSpec] = {
    "alexnet": ModelSpec(
        "classic_nets:alexnet",
        ("features.2", "features.5", "features.7", "features.9", "features.12", "classifier.2", "classifier.5"),
        {"V1": "features.2", "V2": "features.7", "V4": "features.7", "IT": "features.12"},
        "brain-score/vision models/alexnet/region_layer_map/alexnet.json", "classifier.6"),
    "vgg16": ModelSpec(
        "classic_nets:vgg16",
        ("features.4", "features.9", "features.16", "features.23", "features.30", "classifier.0", "classifier.3"),
        {"V1": "features.16", "V2": "features.16", "V4": "features.16", "IT": "features.23"},
        "brain-score/vision models/vgg_16/region_layer_map/vgg_16.json", "classifier.6", aliases=("vgg_16",)),
    "resnet18": ModelSpec("classic_nets:resnet18", _RESNET18_LAYERS, _RESNET_MAP,
                          "depth-based default (no committed map in brain-score/vision)", "fc"),
    "resnet50": ModelSpec("classic_nets:resnet50", _RESNET50_LAYERS, _RESNET_MAP,
                          "depth-based default (no committed map in brain-score/vision)", "fc"),
    "cornet_z": ModelSpec("cornet:cornet_z", _CORNET_LAYERS, _CORNET_MAP, "the CORnet areas (anatomical)",
                          "decoder.linear", aliases=("CORnet-Z",)),
    "cornet_s": ModelSpec("cornet:cornet_s", _CORNET_LAYERS, _CORNET_MAP,
                          "the CORnet areas, as brain-score/vision models/cornet_s records them", "decoder.linear",
                          aliases=("CORnet-S",)),
}
#: Brain-Score's registry names for the same models -> ours
ALIASES = {alias: name for name, spec in SPECS.items() for alias in spec.aliases}


def build_module(name: str, *, pretrained: bool = True, weights_path: str | Path | None = None):
    """The torch module of ``name`` in eval mode: published weights (verified), or seeded random ones."""
    import torch

    module_name, function = SPECS[name].builder.split(":")
    builder = getattr(importlib.import_module(f"model_tools.zoo.{module_name}"), function)
    if pretrained:
        from model_tools.zoo.weights import CHECKPOINTS, load_checkpoint_state

        module = builder()
        module.load_state_dict(load_checkpoint_state(CHECKPOINTS[name], weights_path), strict=True)
    else:
        with torch.random.fork_rng(devices=[]):  # deterministic, and the caller's RNG is left alone
            torch.manual_seed(RANDOM_SEED)
            module = builder()
    return module.eval()


def classic_model(name: str, *, pretrained: bool = True, identifier: str | None = None,
                  weights_path: str | Path | None = None, **extractor_kwargs: Any):
    """The BrainModel (``ModelCommitment``) of ``name`` (or one of its Brain-Score aliases).

    Parameters
    ----------
    name : str
        ``alexnet``, ``vgg16``, ``resnet18``, ``resnet50``, ``cornet_z``, ``cornet_s`` or an alias
        (``vgg_16``, ``CORnet-Z``, ``CORnet-S``).
    pretrained : bool, default=True
        Published ImageNet weights; False: the seeded random initialisation (identifier ``<name>-random``).
    identifier : str, optional
        Default ``name`` or ``<name>-random``.
    weights_path : path-like, optional
        A local copy of the weight file (checked against the published digest).
    """
    from model_tools.activations import ActivationsExtractor, ImagePreprocessing
    from model_tools.brain_transformation import ModelCommitment

    name = ALIASES.get(name, name)
    spec = SPECS[name]
    identifier = identifier or (name if pretrained else f"{name}-random")
    extractor = ActivationsExtractor(build_module(name, pretrained=pretrained, weights_path=weights_path),
                                     identifier, ImagePreprocessing(224), **extractor_kwargs)
    return ModelCommitment(identifier, extractor, list(spec.layers), region_layer_map=dict(spec.region_layer_map),
                           behavioral_readout_layer=spec.readout)


def availability(name: str, pretrained: bool = True) -> tuple[str, str]:
    """``('ready', hint)`` or ``('needs weights', where from)``, from the file system only (imports no torch)."""
    if not pretrained:
        return "ready", f"random weights (seed {RANDOM_SEED}), no download"
    from model_tools.zoo.weights import CHECKPOINTS, weights_dir

    checkpoint = CHECKPOINTS[ALIASES.get(name, name)]
    home = weights_dir() / checkpoint.filename
    hub = Path(_torch_hub_dir()) / "checkpoints" / checkpoint.filename
    if home.is_file() or hub.is_file():
        return "ready", f"weights in {home if home.is_file() else hub}"
    return "needs weights", f"downloaded on first use from {checkpoint.url}, or put the file in {home.parent}"


def _torch_hub_dir() -> str:
    from model_tools.settings import torch_hub_dir

    return str(torch_hub_dir())
