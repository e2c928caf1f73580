"""Names Brain-Score users know: ``PytorchWrapper`` and ``load_preprocess_images``, with Brain-Score's signatures.

``PytorchWrapper`` is an :class:`ActivationsExtractor` (batched, threaded decoding, content-keyed cache) that also has
the reference wrapper's surface: ``identifier`` and ``image_size`` are settable, ``forward_kwargs`` go to every forward
pass, ``'logits'`` is ``_output_layer()`` (the last child, recursively), ``get_layer``, ``get_activations``,
``register_hook``, ``_tensor_to_numpy``, ``layers()``, ``_model``, ``_extractor``. Inputs are cast to the dtype of
the model's parameters (some plugins run in float64). A subclass that overrides ``get_activations``,
``register_hook`` or ``_tensor_to_numpy`` is run through its own ``get_activations`` on each preprocessed batch
(:class:`~model_tools.activations.function_model.FunctionModel`); otherwise layers are recorded with forward hooks.
"""

from __future__ import annotations

import functools
import warnings
from collections import OrderedDict
from collections.abc import Iterator, Sequence
from typing import Any

import numpy as np

from model_tools.activations.extractor import ActivationsExtractor
from model_tools.activations.preprocessing import (
    IMAGENET_MEAN,
    IMAGENET_STD,
    ImagePreprocessing,
    open_image,
    to_rgb,
)
from model_tools.digest import json_digest
from model_tools.errors import UnknownLayerError

__all__ = ["PytorchWrapper", "load_image", "load_images", "load_preprocess_images", "preprocess_images",
           "preprocessing_from_options"]

INCEPTION_MEAN_STD = (0.5, 0.5, 0.5)
_PREPROCESS_TYPES = ("imagenet", "inception")


def load_image(image_filepath: Any) -> Any:
    """A PIL image in RGB (binary, alpha and palette images pasted onto an RGB canvas)."""
    return to_rgb(open_image(image_filepath))


def load_images(image_filepaths: Sequence[Any]) -> list[Any]:
    """:func:`load_image` of every path."""
    return [load_image(path) for path in image_filepaths]


def preprocessing_from_options(image_size: int, *, preprocess_type: str | None = None,
                               normalize_mean: Sequence[float] | None = None,
                               normalize_std: Sequence[float] | None = None, resize: str | None = None,
                               mean: Sequence[float] | None = None, std: Sequence[float] | None = None,
                               normalize: bool = True, **ignored: Any) -> ImagePreprocessing:
    """The :class:`ImagePreprocessing` that Brain-Score's ``load_preprocess_images`` keywords describe.

    Parameters
    ----------
    image_size : int
    preprocess_type : {'imagenet', 'inception'}, default='imagenet'
        'imagenet': resize to (image_size, image_size), normalise with ``normalize_mean`` / ``normalize_std``
        (default: ImageNet's). 'inception': short side to ``int(image_size * 256 / 224)``, centre crop, mean and std
        0.5 (``normalize_mean`` / ``normalize_std`` do not apply, as in Brain-Score).
    normalize_mean, normalize_std : 3 floats, default=ImageNet statistics
    resize, mean, std, normalize
        This package's own names (:class:`ImagePreprocessing`); Brain-Score's win where both are given.
    **ignored
        Other keywords are ignored, as Brain-Score ignores them.
    """
    kind = (preprocess_type or "imagenet").lower()
    if kind not in _PREPROCESS_TYPES:
        raise ValueError(f"Unknown preprocess_type {preprocess_type!r} (one of {', '.join(_PREPROCESS_TYPES)})")
    if kind == "inception":
        return ImagePreprocessing(image_size, resize="inception", mean=INCEPTION_MEAN_STD, std=INCEPTION_MEAN_STD,
                                  normalize=normalize)
    return ImagePreprocessing(image_size, resize=resize or "standard",
                              mean=tuple(normalize_mean or mean or IMAGENET_MEAN),
                              std=tuple(normalize_std or std or IMAGENET_STD), normalize=normalize)


def load_preprocess_images(image_filepaths: Sequence[Any], image_size: int, **kwargs: Any) -> np.ndarray:
    """Images as a float32 array of shape (n, 3, image_size, image_size), preprocessed as Brain-Score does.

    Keywords: ``preprocess_type`` ('imagenet' or 'inception'), ``normalize_mean``, ``normalize_std`` (see
    :func:`preprocessing_from_options`; this package's ``resize``, ``mean``, ``std``, ``normalize`` too).
    """
    return preprocessing_from_options(image_size, **kwargs)(list(image_filepaths)).numpy()


def preprocess_images(images: Sequence[Any], image_size: int, **kwargs: Any) -> np.ndarray:
    """:func:`load_preprocess_images` of images already loaded (PIL images or arrays)."""
    return load_preprocess_images(images, image_size, **kwargs)


def _as_preprocessing(preprocessing: Any) -> Any:
    """``functools.partial(load_preprocess_images, image_size=S, ...)`` becomes the threaded equivalent."""
    if isinstance(preprocessing, functools.partial) and preprocessing.func is load_preprocess_images \
            and not preprocessing.args and "image_size" in preprocessing.keywords:
        return preprocessing_from_options(**preprocessing.keywords)
    return preprocessing


def _output_module(model: Any) -> Any:
    """Brain-Score's output layer: the last registered child, recursively."""
    module = model
    while module._modules:
        module = module._modules[next(reversed(module._modules))]
    return module


class PytorchWrapper(ActivationsExtractor):
    """Brain-Score's ``PytorchWrapper(model, preprocessing, identifier=None, forward_kwargs=None, ...)``.

    Parameters
    ----------
    model : torch.nn.Module
    preprocessing : callable
        Typically ``functools.partial(load_preprocess_images, image_size=224)`` (run as threaded
        :class:`ImagePreprocessing`); any callable ``paths -> array (batch, 3, H, W)``.
    identifier : str, default=None
        None means the model's class name.
    forward_kwargs : dict, default=None
        Keyword arguments of every forward pass (``model(inputs, **forward_kwargs)``).
    batch_size : int, default=64
    device : str, default=None
        None: ``'cuda'`` when available, else ``'cpu'`` (Brain-Score's choice); the model is moved there.
    **kwargs
        Further :class:`ActivationsExtractor` parameters (``cache``, ``reduction``, ``num_workers``, ...).
    """

    def __init__(self, model: Any, preprocessing: Any, identifier: str | None = None,
                 forward_kwargs: dict[str, Any] | None = None, *, batch_size: int = 64, device: str | None = None,
                 **kwargs: Any):
        if device is None:
            import torch

            device = "cuda" if torch.cuda.is_available() else "cpu"
            model = model.to(device)
        super().__init__(model, identifier or type(model).__name__, _as_preprocessing(preprocessing),
                         batch_size=batch_size, device=device, **kwargs)
        self._forward_kwargs = dict(forward_kwargs or {})
        self._function_model: Any = None

    # -- Brain-Score's surface ----------------------------------------------------------------------------------
    @property
    def _model(self) -> Any:
        return self.model

    @property
    def _device(self) -> Any:
        import torch

        return torch.device(self.device)

    @property
    def _extractor(self) -> PytorchWrapper:
        """Brain-Score's wrapper keeps an ``ActivationsExtractorHelper`` here; this wrapper is its own."""
        return self

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

    def _output_layer(self) -> Any:
        """The module ``'logits'`` names: the last registered child, recursively."""
        return _output_module(self.model)

    def get_layer(self, layer_name: str) -> Any:
        """The submodule of a dotted ``layer_name`` (``'logits'``: :meth:`_output_layer`)."""
        if layer_name == "logits":
            return self._output_layer()
        module = self.model
        for part in layer_name.split("."):
            module = module._modules.get(part)
            if module is None:
                raise UnknownLayerError(layer_name, self.identifier, [name for name, _ in self.model.named_modules()
                                                                       if name])
        return module

    def layers(self) -> Iterator[tuple[str, Any]]:
        """``(name, module)`` of every leaf module."""
        for name, module in self.model.named_modules():
            if next(module.children(), None) is None:
                yield name, module

    @staticmethod
    def _tensor_to_numpy(output: Any) -> np.ndarray:
        return output.cpu().data.numpy()

    def register_hook(self, layer: Any, layer_name: str, target_dict: dict[str, Any]) -> Any:
        """A forward hook on ``layer`` storing its output (as numpy) in ``target_dict[layer_name]``."""

        def hook_function(_layer: Any, _input: Any, output: Any, name: str = layer_name) -> None:
            target_dict[name] = self._tensor_to_numpy(output)

        return layer.register_forward_hook(hook_function)

    def get_activations(self, images: Any, layer_names: Sequence[str]) -> OrderedDict:
        """Brain-Score's one-batch call: ``images`` (arrays or tensors of shape (3, H, W)) -> {layer: array}."""
        import torch

        images = torch.stack([image if isinstance(image, torch.Tensor) else torch.from_numpy(np.asarray(image))
                              for image in images])
        dtype = next((p.dtype for p in self.model.parameters() if p.is_floating_point()), images.dtype)
        images = images.to(self._device, dtype=dtype)
        self.model.eval()
        results: OrderedDict = OrderedDict()
        hooks = [self.register_hook(self.get_layer(name), name, target_dict=results) for name in layer_names]
        try:
            with torch.no_grad():
                self.model(images, **self._forward_kwargs)
        finally:
            for hook in hooks:
                hook.remove()
        return results

    def __call__(self, stimuli: Any, layers: Sequence[str], stimuli_identifier: str | None = None,
                 number_of_trials: int = 1, require_variance: bool = False):
        return super().__call__(stimuli, layers, stimuli_identifier=stimuli_identifier,
                                number_of_trials=number_of_trials, require_variance=require_variance)

    def from_stimulus_set(self, stimulus_set: Any, layers: Sequence[str], stimuli_identifier: str | None = None,
                          require_variance: bool = False):
        return self(stimulus_set, layers, stimuli_identifier=stimuli_identifier, require_variance=require_variance)

    def from_paths(self, stimuli_paths: Sequence[Any], layers: Sequence[str], stimuli_identifier: str | None = None,
                   require_variance: bool = False):
        return self([str(path) for path in stimuli_paths], layers, stimuli_identifier=stimuli_identifier,
                    require_variance=require_variance)

    # -- how the extractor runs it ------------------------------------------------------------------------------
    def _runs_own_get_activations(self) -> bool:
        """Whether a subclass changed how a batch's activations are computed or hooked."""
        cls = type(self)
        return any(getattr(cls, name) is not getattr(PytorchWrapper, name)
                   for name in ("get_activations", "register_hook", "_tensor_to_numpy"))

    def _functions(self) -> Any:
        if self._function_model is None:
            from model_tools.activations.function_model import FunctionModel

            self._function_model = FunctionModel(self.get_activations, model_identifier=self.identifier)
        return self._function_model

    def _resolve_layers(self, layers: Sequence[str]) -> dict[str, Any]:
        if self._runs_own_get_activations():
            for layer in layers:
                self.get_layer(layer)  # an unknown layer fails before any work
            return self._functions().select(layers)
        return {layer: self.get_layer(layer) for layer in dict.fromkeys(layers)}

    def _forward(self, batch: Any) -> Any:
        if self._runs_own_get_activations():
            return self._functions()(batch)
        return self.model(self._model_inputs(batch), **self._forward_kwargs)

    def activations_key(self, stimuli: Any) -> str:
        """The extractor's key, plus the forward keywords and, for a subclass with its own ``get_activations``, the
        name of that class."""
        return json_digest({"extractor": super().activations_key(stimuli),
                            "forward_kwargs": {key: repr(value) for key, value in sorted(self._forward_kwargs.items())},
                            "route": (f"{type(self).__module__}.{type(self).__qualname__}"
                                      if self._runs_own_get_activations() else "hooks")})
