"""Brain-Score's ``ActivationsExtractorHelper``: activations a function computes, run by this package's extractor.

A model that computes its activations itself (``get_activations(preprocessed_batch, layer_names) -> {layer: array}``)
is run by :class:`~model_tools.activations.ActivationsExtractor` through a
:class:`~model_tools.activations.function_model.FunctionModel`: the same batching, row writing and packaging as a
hooked PyTorch model. What the preprocessing returns (an array, or the paths themselves with ``preprocessing=None``)
is handed to ``get_activations`` unchanged. The activations cache is off for such models: nothing but the
identifier would tell two versions of the function apart. Batch hooks are the function model's
(:meth:`~model_tools.activations.function_model.FunctionModel.register_batch_hook`); stimulus-set hooks use the same
registry type and handle.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from model_tools.activations.extractor import ActivationsExtractor
from model_tools.activations.function_model import FunctionModel, HookHandle, PassedThrough, register_hook
from model_tools.activations.preprocessing import ImagePreprocessing
from model_tools.activations.pytorch import _as_preprocessing

__all__ = ["ActivationsExtractorHelper"]


class _Preprocess:
    """A Brain-Score preprocessing callable whose output reaches ``get_activations`` as it is."""

    def __init__(self, preprocess: Callable[[list[str]], Any]):
        self.preprocess = preprocess

    def __call__(self, items: Sequence[Any]) -> PassedThrough:
        return PassedThrough(self.preprocess([str(item) for item in items]))


class ActivationsExtractorHelper:
    """Brain-Score's ``ActivationsExtractorHelper(get_activations, preprocessing, identifier=False, batch_size=64)``.

    Parameters
    ----------
    get_activations : callable
        ``(preprocessed batch, layer_names) -> mapping of layer -> array (batch, ...)``.
    preprocessing : callable or None
        ``paths -> batch``; None hands the paths themselves to ``get_activations``.
        ``functools.partial(load_preprocess_images, image_size=S, ...)`` runs as threaded
        :class:`~model_tools.activations.ImagePreprocessing` and reaches ``get_activations`` as a float32 array.
    identifier : str or False, default=False
        Model identifier (prefix of ``neuroid_id``; settable).
    batch_size : int, default=64
    """

    def __init__(self, get_activations: Callable[[Any, list[str]], Any], preprocessing: Any,
                 identifier: str | bool = False, batch_size: int = 64):
        self.get_activations = get_activations
        self.preprocess = preprocessing
        self.identifier = identifier
        self._batch_size = batch_size
        self._stimulus_set_hooks: dict[int, Callable[[Any], Any]] = {}
        self._visual_degrees: float | None = None
        standard = _as_preprocessing(preprocessing)
        self._threaded = isinstance(standard, ImagePreprocessing)
        self._function_model = FunctionModel(self._call_get_activations, numpy_inputs=True)
        self._preprocessing = standard if self._threaded else _Preprocess(preprocessing or (lambda paths: paths))

    def _call_get_activations(self, inputs: Any, layer_names: list[str]) -> Any:
        return self.get_activations(inputs, layer_names)  # looked up per call: a plugin may replace it

    def _extractor(self) -> ActivationsExtractor:
        self._function_model.model_identifier = str(self.identifier or "activations")
        return ActivationsExtractor(self._function_model, str(self.identifier or "activations"), self._preprocessing,
                                    batch_size=self._batch_size, cache=False, num_workers=None if self._threaded else 1,
                                    visual_degrees=self._visual_degrees)

    def __call__(self, stimuli: Any, layers: Sequence[str] | None, stimuli_identifier: str | None = None,
                 number_of_trials: int = 1, require_variance: bool = False):
        """NeuroidAssembly (presentation x neuroid) of ``layers`` (None: ``['logits']``) for a StimulusSet or paths."""
        if hasattr(stimuli, "columns") and "stimulus_id" in getattr(stimuli, "columns", ()):
            return self.from_stimulus_set(stimuli, layers, stimuli_identifier, number_of_trials=number_of_trials,
                                          require_variance=require_variance)
        return self.from_paths(stimuli, layers, stimuli_identifier, number_of_trials=number_of_trials,
                               require_variance=require_variance)

    def from_stimulus_set(self, stimulus_set: Any, layers: Sequence[str] | None, stimuli_identifier: str | None = None,
                          require_variance: bool = False, number_of_trials: int = 1):
        """Activations of a StimulusSet (every column becomes a presentation coordinate), after the stimulus-set
        hooks."""
        for hook in list(self._stimulus_set_hooks.values()):
            stimulus_set = hook(stimulus_set)
        return self._extract(stimulus_set, layers, stimuli_identifier, number_of_trials, require_variance)

    def from_paths(self, stimuli_paths: Sequence[Any], layers: Sequence[str] | None,
                   stimuli_identifier: str | None = None, require_variance: bool = False, number_of_trials: int = 1):
        """Activations of image paths (``stimulus_id`` = ``stimulus_path`` = the path)."""
        return self._extract([str(path) for path in stimuli_paths], layers, stimuli_identifier, number_of_trials,
                             require_variance)

    def _extract(self, stimuli: Any, layers: Sequence[str] | None, stimuli_identifier: str | None,
                 number_of_trials: int, require_variance: bool):
        layers = list(layers) if layers is not None else ["logits"]
        if not layers:
            raise ValueError(f"model {self.identifier!r}: no layers passed to retrieve activations from")
        self._function_model.select(layers)
        return self._extractor()(stimuli, layers, stimuli_identifier=stimuli_identifier or None,
                                 number_of_trials=number_of_trials, require_variance=require_variance)

    # -- Brain-Score's hooks and helpers -------------------------------------------------------------------------
    def register_batch_activations_hook(self, hook: Callable[[Any], Any]) -> HookHandle:
        """``hook(batch_activations) -> batch_activations``, called on every batch's mapping."""
        return self._function_model.register_batch_hook(hook)

    def register_stimulus_set_hook(self, hook: Callable[[Any], Any]) -> HookHandle:
        """``hook(stimulus_set) -> stimulus_set``, called before a stimulus set is processed."""
        return register_hook(self._stimulus_set_hooks, hook)

    def set_visual_degrees(self, visual_degrees: float) -> None:
        """The field of view a ModelCommitment gives (Brain-Score's microsaccades use it)."""
        self._visual_degrees = visual_degrees

    def insert_attrs(self, wrapper: Any) -> None:
        """Give ``wrapper`` this helper's ``from_stimulus_set``, ``from_paths`` and hook registration."""
        wrapper.from_stimulus_set = self.from_stimulus_set
        wrapper.from_paths = self.from_paths
        wrapper.register_batch_activations_hook = self.register_batch_activations_hook
        wrapper.register_stimulus_set_hook = self.register_stimulus_set_hook
