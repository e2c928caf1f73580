"""``brainscore_vision.model_helpers.activations.pytorch``: :mod:`model_tools.activations.pytorch`."""

from model_tools.activations.pytorch import (
    PytorchWrapper,
    load_image,
    load_images,
    load_preprocess_images,
    preprocess_images,
)

SUBMODULE_SEPARATOR = "."

__all__ = ["SUBMODULE_SEPARATOR", "PytorchWrapper", "load_image", "load_images", "load_preprocess_images",
           "preprocess_images"]
