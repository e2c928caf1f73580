"""timm architectures (extra ``model-tools[timm]``); timm is imported only when building."""

from __future__ import annotations

from typing import Any

from model_tools.errors import MissingDependencyError, MissingWeightsError

#: name -> (candidate layers, default region -> layer map); depth-based defaults.
ARCHITECTURES: dict[str, tuple[list[str], dict[str, str]]] = {
    "efficientnet_b0": (["blocks.1", "blocks.2", "blocks.3", "blocks.4", "blocks.5", "blocks.6", "global_pool"],
                        {"V1": "blocks.1", "V2": "blocks.2", "V4": "blocks.3", "IT": "blocks.5"}),
    "convnext_tiny": (["stages.0", "stages.1", "stages.2", "stages.3", "head.global_pool"],
                      {"V1": "stages.0", "V2": "stages.1", "V4": "stages.2", "IT": "stages.3"}),
}


def build_timm_module(name: str, *, pretrained: bool = True):
    """The timm module ``name``; weights from ``$BRAINSCORE_HOME/weights/<name>.(safetensors|pth)`` or timm's
    own download (Hugging Face cache), else :class:`MissingWeightsError`."""
    from model_tools.zoo.weights import weights_dir

    try:
        import timm
    except Exception as error:
        raise MissingDependencyError(f"timm models need timm (from the repository root: pip install './packages/model-tools[timm]'): "
                                     f"{type(error).__name__}: {error}") from error
    if not pretrained:
        return timm.create_model(name, pretrained=False).eval()
    for suffix in (".safetensors", ".pth", ".bin"):
        path = weights_dir() / f"{name}{suffix}"
        if path.is_file():
            return timm.create_model(name, pretrained=True, pretrained_cfg_overlay={"file": str(path)}).eval()
    try:
        return timm.create_model(name, pretrained=True).eval()
    except Exception as error:
        raise MissingWeightsError(
            f"pretrained weights of timm model {name!r} are not available locally and could not be downloaded "
            f"({type(error).__name__}: {error}); put {name}.safetensors into {weights_dir()}") from error


def timm_model(name: str, *, pretrained: bool = True, identifier: str | None = None, **extractor_kwargs: Any):
    """ModelCommitment of a timm architecture at 224 px (ImageNet statistics), 8 degrees."""
    from model_tools.activations import ActivationsExtractor, ImagePreprocessing
    from model_tools.brain_transformation import ModelCommitment

    identifier = identifier or (name if pretrained else f"{name}-untrained")
    layers, region_map = ARCHITECTURES[name]
    extractor = ActivationsExtractor(build_timm_module(name, pretrained=pretrained), identifier,
                                     ImagePreprocessing(224), **extractor_kwargs)
    return ModelCommitment(identifier, extractor, layers, region_layer_map=region_map,
                           behavioral_readout_layer=layers[-1])
