"""``brainscore_vision.model_helpers.activations``: the PyTorch wrapper and Brain-Score's preprocessing."""

from model_tools.activations.pytorch import PytorchWrapper
from model_tools.activations.pytorch import preprocess_images as preprocess_pytorch

__all__ = ["PytorchWrapper", "preprocess_pytorch"]
