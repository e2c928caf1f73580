"""Names Brain-Score users know: ``PytorchWrapper`` and ``load_preprocess_images``."""

from __future__ import annotations

import functools
import warnings
from collections.abc import Sequence
from typing import Any

import numpy as np

from model_tools.activations.extractor import ActivationsExtractor
from model_tools.activations.preprocessing import ImagePreprocessing


def load_images(image_filepaths: Sequence[Any]) -> list[Any]:
    """PIL images, converted to RGB as the standard preprocessing does."""
    from model_tools.activations.preprocessing import open_image, to_rgb

    return [to_rgb(open_image(path)) for path in image_filepaths]


def load_preprocess_images(image_filepaths: Sequence[Any], image_size: int, **kwargs: Any) -> np.ndarray:
    """Standard preprocessing of images as a float32 array of shape (n, 3, image_size, image_size).

    Keyword arguments go to :class:`ImagePreprocessing` (``resize``, ``mean``, ``std``, ``normalize``).
    """
    return ImagePreprocessing(image_size, **kwargs)(list(image_filepaths)).numpy()


def _as_preprocessing(preprocessing: Any) -> Any:
    """``functools.partial(load_preprocess_images, image_size=S)`` becomes the threaded equivalent."""
    if isinstance(preprocessing, functools.partial) and preprocessing.func is load_preprocess_images \
            and not preprocessing.args:
        return ImagePreprocessing(**preprocessing.keywords)
    return preprocessing


class PytorchWrapper(ActivationsExtractor):
    """The reference's wrapper signature over :class:`ActivationsExtractor`.

    Parameters
    ----------
    model : torch.nn.Module
    preprocessing : callable
        Typically ``functools.partial(load_preprocess_images, image_size=224)``.
    identifier : str, default=None
        None means the model's class name.
    batch_size : int, default=64
    **kwargs
        Further :class:`ActivationsExtractor` parameters.
    """

    def __init__(self, model: Any, preprocessing: Any, identifier: str | None = None, *, batch_size: int = 64,
                 **kwargs: Any):
        super().__init__(model, identifier or type(model).__name__, _as_preprocessing(preprocessing),
                         batch_size=batch_size, **kwargs)

    @property
    def image_size(self) -> int | None:
        """Side of the square input in pixels: the preprocessing's own ``image_size`` when it has one, else the
        value assigned with ``wrapper.image_size = 224`` (the reference's way to declare it), else None."""
        size = getattr(self.preprocessing, "image_size", None)
        return size if size is not None else getattr(self, "_declared_image_size", None)

    @image_size.setter
    def image_size(self, value: int) -> None:
        # the preprocessing resizes, so an assignment can only declare the size; one that contradicts it is said
        size = getattr(self.preprocessing, "image_size", None)
        if size is not None and value != size:
            warnings.warn(f"PytorchWrapper {self.identifier!r}: image_size = {value} was assigned, but its "
                          f"preprocessing resizes images to {size} pixels; the preprocessing decides (pass "
                          f"load_preprocess_images with image_size={value} to change it)", UserWarning, stacklevel=2)
        self._declared_image_size = value
