"""Resolve layer names to submodules and record their outputs with forward hooks."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from model_tools.errors import UnknownLayerError

LOGITS = "logits"


def unique(names: Iterable[str]) -> list[str]:
    """``names`` without repetitions, first occurrence kept (duplicate layers are run once)."""
    return list(dict.fromkeys(names))


def resolve_layers(model: Any, layers: Iterable[str], model_identifier: str) -> dict[str, Any]:
    """Map each layer name to its submodule.

    Parameters
    ----------
    model : torch.nn.Module
    layers : iterable of str
        Dotted module paths as in ``model.named_modules()``; ``'logits'`` is the submodule named ``logits``
        if there is one, else the last leaf module (the reference's convention).
    model_identifier : str
        Named in the error when a layer does not exist.
    """
    named = dict(model.named_modules())
    resolved = {}
    for layer in unique(layers):
        if layer in named and layer != "":
            resolved[layer] = named[layer]
        elif layer == LOGITS:
            leaves = [module for module in named.values() if next(module.children(), None) is None]
            if not leaves:
                raise UnknownLayerError(layer, model_identifier, [name for name in named if name])
            resolved[layer] = leaves[-1]
        else:
            raise UnknownLayerError(layer, model_identifier, [name for name in named if name])
    return resolved


class RecordedEverything(BaseException):
    """Raised by a recorder's hook once every recorded layer has its output of the current forward pass: the rest
    of the network is not run (a BaseException, so that a model's own ``except Exception`` does not swallow it)."""


class LayerRecorder:
    """Context manager that calls ``sink(layer, output_tensor)`` for every recorded layer on each forward.

    One hook per module, even if two layer names point at the same module (``'logits'`` and ``'fc'``).
    Hooks are removed on exit, also when the forward pass raised.

    With ``stop_when_recorded``, a forward pass ends as soon as every recorded module has run (the hook of the last
    one raises :class:`RecordedEverything`, which :meth:`forward` catches): the layers after them are not computed.
    The recorded values are the same, since each is copied by ``sink`` when its module returns. This starts from the
    second pass, and only when the first showed every recorded module running exactly once (a module run several
    times per pass, as in recurrent models, keeps its last output, so such models always run whole).
    """

    def __init__(self, modules: dict[str, Any], sink: Callable[[str, Any], None], *,
                 stop_when_recorded: bool = False):
        self.modules = modules
        self.sink = sink
        self.stop_when_recorded = stop_when_recorded
        self.passes = 0
        self.stopped_passes = 0
        self._handles: list[Any] = []
        self._calls: dict[int, int] = {}
        self._armed = False

    def __enter__(self) -> LayerRecorder:
        by_module: dict[int, tuple[Any, list[str]]] = {}
        for layer, module in self.modules.items():
            by_module.setdefault(id(module), (module, []))[1].append(layer)
        self._calls = dict.fromkeys(by_module, 0)
        for key, (module, layers) in by_module.items():
            self._handles.append(module.register_forward_hook(self._make_hook(key, layers)))
        return self

    def _make_hook(self, key: int, layers: list[str]):
        def hook(_module, _inputs, output):
            if isinstance(output, (tuple, list)):
                output = output[0]
            for layer in layers:
                self.sink(layer, output)
            self._calls[key] += 1
            if self._armed and all(self._calls.values()):
                raise RecordedEverything

        return hook

    def forward(self, model: Any, inputs: Any) -> None:
        """``model(inputs)``, ended early once every recorded layer has its output (see the class docstring)."""
        self._calls = dict.fromkeys(self._calls, 0)
        try:
            model(inputs)
        except RecordedEverything:
            self.stopped_passes += 1
        self.passes += 1
        if self.passes == 1 and self.stop_when_recorded:
            self._armed = all(count == 1 for count in self._calls.values())

    def __exit__(self, *exc_info) -> None:
        for handle in self._handles:
            handle.remove()
        self._handles.clear()
