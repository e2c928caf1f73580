"""torchvision architectures (extra ``model-tools[torchvision]``); torchvision is imported only when building."""

from __future__ import annotations

from typing import Any

from model_tools.errors import MissingDependencyError

_RESNET_LAYERS = ["conv1", "layer1.0", "layer1.1", "layer2.0", "layer2.1", "layer3.0", "layer3.1",
                  "layer4.0", "layer4.1", "avgpool"]
_RESNET_MAP = {"V1": "layer1.0", "V2": "layer2.0", "V4": "layer3.0", "IT": "layer4.0"}

#: name -> (candidate layers, default region -> layer map, weights enum name). The maps are depth-based
#: defaults; run layer selection (``region_benchmarks=``) to commit layers by score instead.
ARCHITECTURES: dict[str, tuple[list[str], dict[str, str], str]] = {
    "alexnet": (["features.2", "features.5", "features.7", "features.9", "features.12", "classifier.2",
                 "classifier.5"], {"V1": "features.2", "V2": "features.5", "V4": "features.7", "IT": "features.12"},
                "AlexNet_Weights"),
    "resnet18": (_RESNET_LAYERS, _RESNET_MAP, "ResNet18_Weights"),
    "resnet34": (_RESNET_LAYERS, _RESNET_MAP, "ResNet34_Weights"),
    "resnet50": (_RESNET_LAYERS, _RESNET_MAP, "ResNet50_Weights"),
}


def _torchvision():
    try:
        import torchvision
    except Exception as error:  # ImportError, or a RuntimeError from a torch/torchvision mismatch
        raise MissingDependencyError(
            f"torchvision models need torchvision (from the repository root: pip install './packages/model-tools[torchvision]'; it needs a torch "
            f"build with a matching torchvision): {type(error).__name__}: {error}") from error
    return torchvision


def build_torchvision_module(name: str, *, pretrained: bool = True):
    """The torchvision module ``name``; pretrained weights from a local file or the hub cache if asked."""
    from model_tools.zoo.weights import load_state_dict

    torchvision = _torchvision()
    if name not in ARCHITECTURES:
        raise KeyError(f"torchvision architecture {name!r} is not in the zoo ({sorted(ARCHITECTURES)})")
    module = getattr(torchvision.models, name)(weights=None)
    if pretrained:
        weights = getattr(torchvision.models, ARCHITECTURES[name][2]).DEFAULT
        module.load_state_dict(load_state_dict(weights.url, name))
    return module.eval()


def torchvision_model(name: str, *, pretrained: bool = True, identifier: str | None = None,
                      **extractor_kwargs: Any):
    """ModelCommitment of a torchvision architecture: ImageNet preprocessing at 224 px, 8 degrees."""
    from model_tools.activations import ActivationsExtractor, ImagePreprocessing
    from model_tools.brain_transformation import ModelCommitment

    identifier = identifier or (name if pretrained else f"{name}-untrained")
    layers, region_map, _ = ARCHITECTURES[name]
    extractor = ActivationsExtractor(build_torchvision_module(name, pretrained=pretrained), identifier,
                                     ImagePreprocessing(224), **extractor_kwargs)
    return ModelCommitment(identifier, extractor, layers, region_layer_map=region_map,
                           behavioral_readout_layer=layers[-1])
