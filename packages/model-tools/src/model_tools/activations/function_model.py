"""Activations that a function computes (``get_activations(inputs, layer_names) -> {layer: array}``), run by the
:class:`~model_tools.activations.ActivationsExtractor` as if they came from forward hooks.

Brain-Score's ``ActivationsExtractorHelper`` (and ``PytorchWrapper`` subclasses that override ``get_activations`` or
``register_hook``) hand the extractor a function instead of a module whose layers can be hooked. :class:`FunctionModel`
is a ``torch.nn.Module`` whose forward pass calls that function on a batch and passes each layer's array through an
identity module named after the layer, so the extractor's batching, hooks, row writing and packaging run unchanged.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator, Mapping, MutableMapping, Sequence
from typing import Any

import numpy as np
import torch

from model_tools.errors import UnknownLayerError

__all__ = ["FunctionModel", "HookHandle", "PassedThrough"]


class PassedThrough:
    """A preprocessed batch handed to the function exactly as the preprocessing returned it (a list of paths, an
    array): the extractor passes objects of this kind to the model without turning them into a tensor."""

    __slots__ = ("value",)

    def __init__(self, value: Any):
        self.value = value


class HookHandle:
    """The handle of a hook registered in a registry (``{id: hook}``; Brain-Score's ``HookHandle``): ``remove()``
    takes the hook out and returns it, ``disable()`` takes it out until ``enable()`` puts it back."""

    _ids = itertools.count()

    def __init__(self, registry: MutableMapping[int, Any]):
        self.hook_dict = registry
        self.id = next(HookHandle._ids)
        self._saved_hook: Any = None

    def remove(self) -> Any:
        return self.hook_dict.pop(self.id)

    def disable(self) -> None:
        self._saved_hook = self.remove()

    def enable(self) -> None:
        self.hook_dict[self.id] = self._saved_hook
        self._saved_hook = None


def register_hook(registry: MutableMapping[int, Any], hook: Callable[[Any], Any]) -> HookHandle:
    """Add ``hook`` to ``registry`` (hooks run in the order they were added); returns its :class:`HookHandle`."""
    handle = HookHandle(registry)
    registry[handle.id] = hook
    return handle


class _LayerOutput(torch.nn.Module):
    """The identity: forward hooks on it see the function's output for one layer."""

    def forward(self, values: torch.Tensor) -> torch.Tensor:
        return values


class FunctionModel(torch.nn.Module):
    """A module whose layers are the entries of ``get_activations(inputs, layer_names)``.

    Parameters
    ----------
    get_activations : callable
        ``(inputs, layer_names) -> mapping of layer -> array of shape (batch, ...)``: inputs are the preprocessed batch
        (unwrapped from :class:`PassedThrough`; a tensor becomes a numpy array when ``numpy_inputs``).
    numpy_inputs : bool, default=True
        Hand a tensor batch to the function as a numpy array (what Brain-Score's preprocessing returns).
    model_identifier : str, default='function'
        Named when the function leaves out a layer.

    Attributes
    ----------
    layer_names : list of str
        The layers of the current extraction (:meth:`select`); ``named_modules`` yields one identity module per name.
    batch_hooks : dict
        ``hook(activations) -> activations`` applied in order to each batch's mapping (Brain-Score's batch hooks;
        added with :meth:`register_batch_hook`).
    """

    def __init__(self, get_activations: Callable[[Any, list[str]], Mapping[str, Any]], *, numpy_inputs: bool = True,
                 model_identifier: str = "function"):
        super().__init__()
        self.get_activations = get_activations
        self.numpy_inputs = numpy_inputs
        self.model_identifier = model_identifier
        self.layer_names: list[str] = []
        self.batch_hooks: dict[int, Callable[[Any], Any]] = {}
        self._outputs: dict[str, _LayerOutput] = {}  # not submodules: no parameters, no state dict entries

    def register_batch_hook(self, hook: Callable[[Any], Any]) -> HookHandle:
        """Run ``hook(activations) -> activations`` on every batch's mapping of layer -> array; returns its
        handle."""
        return register_hook(self.batch_hooks, hook)

    def select(self, layers: Sequence[str]) -> dict[str, torch.nn.Module]:
        """Make ``layers`` the layers of the next forward passes; returns each one's identity module."""
        self.layer_names = list(dict.fromkeys(layers))
        return {layer: self._outputs.setdefault(layer, _LayerOutput()) for layer in self.layer_names}

    def named_modules(self, memo: Any = None, prefix: str = "", remove_duplicate: bool = True
                      ) -> Iterator[tuple[str, torch.nn.Module]]:
        yield prefix, self
        for layer in self.layer_names:
            yield (f"{prefix}.{layer}" if prefix else layer), self._outputs[layer]

    def forward(self, inputs: Any) -> None:
        if isinstance(inputs, PassedThrough):
            inputs = inputs.value
        elif self.numpy_inputs and isinstance(inputs, torch.Tensor):
            inputs = inputs.detach().cpu().numpy()
        activations = self.get_activations(inputs, list(self.layer_names))
        for hook in list(self.batch_hooks.values()):
            activations = hook(activations)
        for layer in self.layer_names:
            if layer not in activations:
                raise UnknownLayerError(layer, self.model_identifier, list(activations))
            values = activations[layer]
            self._outputs[layer](values if isinstance(values, torch.Tensor) else torch.as_tensor(np.asarray(values)))
