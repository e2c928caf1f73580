"""ModelCommitment: an activations model plus committed layers, as a BrainModel."""

from __future__ import annotations

import sys
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from brainscore_vision.model_interface import DEFAULT_TIME_BINS, BrainModel
from model_tools.activations.microsaccades import check_trials, wants_microsaccades
from model_tools.activations.packaging import build_assembly, dim_coords
from model_tools.brain_transformation.behavior import LabelMapping, ProbabilitiesMapping
from model_tools.brain_transformation.layer_selection import LayerSelection, RegionLayerMap
from model_tools.brain_transformation.odd_one_out import OddOneOut
from model_tools.brain_transformation.region_layer_maps import find_region_layer_map
from model_tools.brain_transformation.standard_benchmarks import STANDARD_REGION_BENCHMARKS
from model_tools.errors import UnmappedRegionError, UnsupportedTaskError

REGIONS = ("V1", "V2", "V4", "IT")


def _caller_file() -> str | None:
    """The file of the first frame outside model-tools (the plugin module building a commitment)."""
    frame = sys._getframe(1)
    while frame is not None and frame.f_globals.get("__name__", "").startswith("model_tools"):
        frame = frame.f_back
    return frame.f_globals.get("__file__") if frame is not None else None



def _takes_trials(activations_model: Any) -> bool:
    """Whether ``activations_model(stimuli, layers=..., number_of_trials=..., require_variance=...)`` is accepted."""
    import inspect

    try:
        parameters = inspect.signature(activations_model).parameters
    except (TypeError, ValueError):  # no signature to read: assume the keywords are taken
        return True
    return "require_variance" in parameters or any(p.kind is p.VAR_KEYWORD for p in parameters.values())


def _name(value: Any) -> str:
    """The string of a str-valued enum member (Task, RecordingTarget) or a plain string."""
    return str(getattr(value, "value", value))


class _LiveOutputs:
    """Forward hooks on every leaf module of ``network``: the widths of the ``recorded`` modules' outputs, and the
    most bytes of module outputs alive at once until the last recorded module has run (a forward pass that records
    them stops there)."""

    def __init__(self, network: Any, recorded: Mapping[str, Any]):
        self.network, self.recorded = network, dict(recorded)
        self.widths: dict[str, int] = {}
        self.peak_bytes = 0
        self._alive: dict[int, tuple[Any, int]] = {}
        self._handles: list[Any] = []

    def __enter__(self) -> _LiveOutputs:
        names = {id(module): layer for layer, module in self.recorded.items()}
        leaves = [module for module in self.network.modules() if next(module.children(), None) is None]
        for module in {id(m): m for m in [*leaves, *self.recorded.values()]}.values():
            self._handles.append(module.register_forward_hook(self._hook(names.get(id(module)))))
        return self

    def _hook(self, layer: str | None):
        import weakref

        def hook(_module, _inputs, output):
            if isinstance(output, (tuple, list)):
                output = output[0]
            if len(self.widths) == len(self.recorded):
                return  # past the last recorded layer: the extraction does not run this
            if hasattr(output, "untyped_storage"):
                storage = output.untyped_storage()
                self._alive[storage.data_ptr()] = (weakref.ref(output), storage.nbytes())
            alive = {pointer: size for pointer, (ref, size) in self._alive.items() if ref() is not None}
            self.peak_bytes = max(self.peak_bytes, sum(alive.values()))
            if layer is not None:
                self.widths[layer] = int(output[0].numel())

        return hook

    def __exit__(self, *exc_info: object) -> None:
        for handle in self._handles:
            handle.remove()


class ModelCommitment(BrainModel):
    """A BrainModel built from an activations model and a region -> layer commitment.

    Parameters
    ----------
    identifier : str
    activations_model : ActivationsExtractor or callable
        ``activations_model(stimuli, layers=[...])`` -> NeuroidAssembly (presentation x neuroid).
    layers : sequence of str
        Candidate layers for layer selection (and the default readout: the last one).
    behavioral_readout_layer : str, default=None
        Layer of the ``probabilities`` and ``odd_one_out`` readouts; None means the last of ``layers``.
    region_layer_map : mapping of str -> str or RegionLayerMap, default=None
        Committed layer per region (``'V1'``, ``'V2'``, ``'V4'``, ``'IT'``). None means the
        ``region_layer_map/<identifier>.json`` beside the plugin that registered ``identifier`` (or beside the module
        building this commitment), when there is one (no layer selection then, as in Brain-Score); see
        :mod:`model_tools.brain_transformation.region_layer_maps`. A :class:`RegionLayerMap` (Brain-Score's lazy
        map) gives its committed regions, and its benchmarks become ``region_benchmarks``.
    visual_degrees : float, default=8
    region_benchmarks : mapping of str -> benchmark | (assembly, metric), default=None
        For regions without a committed layer: select one by :class:`LayerSelection` on this benchmark
        (an object with ``identifier``, a zero-argument factory of one, or an ``(assembly, metric)`` pair). None
        means Brain-Score's :data:`STANDARD_REGION_BENCHMARKS` when there is no map at all (none given, no JSON),
        and none otherwise; ``{}`` means no layer selection.
    label_indices : mapping of str -> sequence of int, default=None
        ImageNet indices of labels for the ``label`` task with a label list.
    imagenet_classes : sequence of str, default=None
        Name of each logit, for the ``label`` task with ``'imagenet'``; None means the ILSVRC-2012 WordNet ids
        shipped with the package (1000 logits -> ``'n01440764'`` ...).

    Attributes
    ----------
    layer_map : dict of str -> str
        The committed layers (given, read from the plugin's JSON, or chosen by layer selection).
    region_layer_map_file : pathlib.Path or None
        The ``region_layer_map/<identifier>.json`` the map was read from, if it was.
    layer_scores : dict of str -> dict of str -> float
        Per region, the score of every candidate layer in layer selection (empty for given layers).
    """

    def __init__(self, identifier: str, activations_model: Any, layers: Sequence[str],
                 behavioral_readout_layer: str | None = None, region_layer_map: Mapping[str, str] | None = None,
                 visual_degrees: float = 8, *, region_benchmarks: Mapping[str, Any] | None = None,
                 label_indices: Mapping[str, Sequence[int]] | None = None,
                 imagenet_classes: Sequence[str] | None = None):
        self._identifier = identifier
        self.activations_model = activations_model
        self.layers = list(layers)
        self.region_layer_map_file = None
        if isinstance(region_layer_map, RegionLayerMap):
            region_benchmarks = {**region_layer_map.region_benchmarks, **(region_benchmarks or {})}
            region_layer_map = dict(region_layer_map)  # the regions it already committed
        if region_layer_map is None:
            found = find_region_layer_map(identifier, caller_file=_caller_file())
            if found is not None:
                region_layer_map, self.region_layer_map_file = found
        if region_benchmarks is None and region_layer_map is None:  # no map anywhere: Brain-Score's selection
            region_benchmarks = STANDARD_REGION_BENCHMARKS
        self.region_layer_map = dict(region_layer_map or {})
        self.region_benchmarks = dict(region_benchmarks or {})
        self.behavioral_readout_layer = behavioral_readout_layer
        self._visual_degrees = visual_degrees
        self.label_indices = label_indices
        self.imagenet_classes = imagenet_classes
        self.layer_map: dict[str, str] = {_name(k): v for k, v in self.region_layer_map.items()}
        self.layer_scores: dict[str, dict[str, float]] = {}
        self._recording: tuple[str, list[tuple[int, int]]] | None = None
        self._behavior: Any = None
        self._warm: tuple[list[str], set[str]] | None = None  # layer selection's one pass (see warm_with)
        # Brain-Score's commitment hands its field of view to the activations model (for microsaccades)
        set_degrees = getattr(getattr(activations_model, "_extractor", activations_model), "set_visual_degrees", None)
        if callable(set_degrees):
            set_degrees(visual_degrees)

    @property
    def identifier(self) -> str:
        return self._identifier

    def visual_degrees(self) -> float:
        """Field of view of the model's input in degrees (default 8)."""
        return self._visual_degrees

    def feature_count(self, region: str) -> int | None:
        """Features a recording of ``region`` gives (``'behavior'``: the readout layer), from one forward pass of
        a blank image in eval mode (the network's weights and buffers are left as they were, its training flag
        restored); the widest candidate layer while layer selection has not chosen yet. None when the activations
        model has no torch module to run. The grid's memory plan reads it (once per pair: the width is
        remembered per network, layers and input size)."""
        shape = self._blank_pass(region)
        return None if shape is None else shape["features"]

    def forward_bytes_per_image(self, region: str) -> int | None:
        """Bytes one image holds at the peak of a forward pass that records ``region``: the module outputs alive
        at once (and the input), up to the recorded layer (the extraction stops there), measured in the same blank
        pass as :meth:`feature_count`. A batch holds ``batch_size`` times that; the grid's memory plan reads it."""
        shape = self._blank_pass(region)
        return None if shape is None else shape["forward_per_image"]

    @property
    def batch_size(self) -> int:
        """Images per forward pass of the extraction (the activations model's ``batch_size``, default 64)."""
        return int(getattr(self.activations_model, "batch_size", 64) or 64)

    def _blank_pass(self, region: str) -> dict[str, int] | None:
        """``{'features', 'forward_per_image'}`` of a recording of ``region`` from one forward pass of a blank
        image (see :meth:`feature_count`), remembered per network, layers and input size."""
        import torch

        from model_tools.activations.hooks import resolve_layers

        network = getattr(self.activations_model, "model", None)
        size = getattr(getattr(self.activations_model, "preprocessing", None), "image_size", None)
        if network is None or size is None:
            return None
        region = _name(region)
        layers = ([self.behavioral_readout_layer or self.layers[-1]] if region == "behavior"
                  else [self.layer_map[region]] if region in self.layer_map else list(self.layers))
        known = self.__dict__.setdefault("_blank_shapes", {})  # widths depend on the layers and the input size
        key = (id(network), tuple(layers), int(size))
        if key not in known:
            modules = resolve_layers(network, layers, self.identifier)
            parameter = next((p for p in network.parameters() if p.is_floating_point()), None)
            blank = torch.zeros((1, 3, int(size), int(size)),
                                device=parameter.device if parameter is not None else torch.device("cpu"),
                                dtype=parameter.dtype if parameter is not None else torch.float32)
            # in eval mode, as every extraction runs: a network built in training mode (Brain-Score's plugins rarely
            # call .eval()) would otherwise fold the blank image into its BatchNorm running statistics, changing its
            # weights (and so its scores and activation-cache key) before it is scored (issue 42)
            was_training = network.training
            network.eval()
            try:
                with torch.no_grad(), _LiveOutputs(network, modules) as live:
                    network(blank)
            finally:
                network.train(was_training)
            known[key] = {"features": max(live.widths.values()),
                          "forward_per_image": live.peak_bytes + blank.untyped_storage().nbytes()}
        return known[key]

    def content_digest(self) -> str:
        """SHA-1 over what makes this model's answers: weights, preprocessing, reduction, layers, the committed
        region -> layer map and the field of view. Grids resume by it: changed weights are scored again."""
        from model_tools.digest import json_digest, weights_digest

        activations = self.activations_model
        network = getattr(activations, "model", None)
        preprocessing = getattr(activations, "preprocessing", None)
        reduction = getattr(activations, "reduction", None)
        return json_digest({
            "weights": weights_digest(network) if network is not None else None,
            "preprocessing": preprocessing.cache_fields() if hasattr(preprocessing, "cache_fields") else None,
            "reduction": reduction.cache_fields() if hasattr(reduction, "cache_fields") else None,
            "layers": list(self.layers), "region_layer_map": dict(self.region_layer_map),
            "visual_degrees": self._visual_degrees})

    def single_layer_candidate(self, region: str, layer: str) -> ModelCommitment:
        """This model with only ``layer``, committed to ``region`` (the candidates of layer selection)."""
        return ModelCommitment(f"{self.identifier}-{layer}", self.activations_model, [layer],
                               region_layer_map={region: layer}, visual_degrees=self._visual_degrees)

    def warm_with(self, layers: Sequence[str], warmed: set[str]) -> None:
        """Before its first recording of a stimulus set, extract every one of ``layers`` for it in one pass into the
        activations cache (once per stimulus set for all candidates sharing ``warmed``, a set of stimulus digests),
        so that each candidate of layer selection reads its layer from the cache instead of running its own pass.
        Nothing is warmed when the activations model has no content-keyed cache (a function model, the cache off):
        one pass per candidate is then cheaper than two."""
        self._warm = (list(layers), warmed)

    def _warm_cache(self, stimuli: Any) -> None:
        from model_tools.activations.cache import caching_enabled
        from model_tools.activations.inputs import as_stimuli

        layers, warmed = self._warm
        extract = getattr(self.activations_model, "extract_values", None)
        if len(layers) < 2 or not callable(extract) or not caching_enabled(getattr(self.activations_model, "cache",
                                                                                      None)):
            return
        digest = as_stimuli(stimuli).digest()
        if digest not in warmed:
            extract(stimuli, layers)  # one pass, every candidate layer into one cache entry
            warmed.add(digest)

    # -- recordings -------------------------------------------------------------------------------------
    def commit_region(self, region: str) -> str:
        """The layer for ``region``: the committed one, or one chosen now by layer selection."""
        region = _name(region)
        if region in self.layer_map:
            return self.layer_map[region]
        source = self.region_benchmarks.get(region)
        if source is None:
            raise UnmappedRegionError(region, self.identifier, sorted(self.layer_map))
        selection = LayerSelection(self.identifier, self.activations_model, self.layers, self._visual_degrees,
                                   candidate_factory=self.single_layer_candidate)
        if isinstance(source, tuple):
            layer = selection.select(region, assembly=source[0], metric=source[1])
        else:
            layer = selection.select(region, source)
        self.layer_map[region] = layer
        self.layer_scores[region] = selection.layer_scores_[region]
        return layer

    def start_recording(self, recording_target: Any, time_bins: Sequence[tuple[int, int]] | None = None) -> None:
        """Record from ``recording_target`` over ``time_bins`` (default ``[(70, 170)]`` ms)."""
        region = _name(recording_target)
        self.commit_region(region)
        bins = [(int(start), int(end)) for start, end in (time_bins or DEFAULT_TIME_BINS)]
        self._recording = (region, bins)
        self._behavior = None

    def _record(self, stimuli: Any, trials: Mapping[str, Any]):
        region, bins = self._recording
        layer = self.layer_map[region]
        if self._warm is not None:
            self._warm_cache(stimuli)
        activations = self.activations_model(stimuli, layers=[layer], **trials).transpose("presentation", "neuroid")
        presentation = dim_coords(activations, "presentation")
        neuroid = dim_coords(activations, "neuroid")
        neuroid["region"] = np.full(activations.sizes["neuroid"], region)
        values = np.asarray(activations.values)
        # a static model answers the same in every time bin
        values = np.repeat(values[:, :, None], len(bins), axis=2) if len(bins) > 1 else values[:, :, None]
        time_bin = {"time_bin_start": np.asarray([b[0] for b in bins]),
                    "time_bin_end": np.asarray([b[1] for b in bins])}
        assembly = build_assembly(values, presentation, neuroid, extra_dims={"time_bin": time_bin},
                                  attrs={**activations.attrs, "region": region, "layer": layer})
        return assembly.squeeze("time_bin") if len(bins) == 1 else assembly

    # -- behaviour --------------------------------------------------------------------------------------
    def start_task(self, task: Any, fitting_stimuli: Any = None, *, number_of_trials: int = 1,
                   require_variance: bool = False) -> None:
        """``passive`` (recordings only), ``probabilities`` (fit on labelled stimuli), ``label`` (``fitting_stimuli``:
        the labels, or ``'imagenet'``) or ``odd_one_out`` (no fitting).

        ``number_of_trials`` / ``require_variance`` are Brain-Score's; see :meth:`look_at`."""
        name = _name(task)
        readout = self.behavioral_readout_layer or self.layers[-1]
        trials = self._trials(number_of_trials, require_variance)
        if name == "passive":
            self._behavior = None
        elif name == "probabilities":
            self._behavior = ProbabilitiesMapping(self.identifier, self.activations_model, readout).fit(
                fitting_stimuli, trials)
        elif name == "label":
            self._behavior = LabelMapping(self.identifier, self.activations_model, fitting_stimuli,
                                          label_indices=self.label_indices, imagenet_classes=self.imagenet_classes)
        elif name == "odd_one_out":
            self._behavior = OddOneOut(self.identifier, self.activations_model, readout)
        else:
            raise UnsupportedTaskError(f"model {self.identifier!r} does not support task {name!r} "
                                       "(passive, label, probabilities, odd_one_out)")

    def look_at(self, stimuli: Any, number_of_trials: int = 1, require_variance: bool = False):
        """Behaviour for the current task, or recordings (presentation x neuroid [x time_bin]).

        The model is deterministic: without ``require_variance`` every trial would give the same answer, so
        ``number_of_trials`` changes nothing (as in Brain-Score). ``require_variance=True`` with more than one trial
        asks for Brain-Score's microsaccades: each trial sees the stimuli shifted by its own sub-pixel offset, sized
        by :meth:`visual_degrees`, and the answer has one presentation per stimulus and trial
        (:mod:`model_tools.activations.microsaccades`); an activations model that cannot shift its inputs raises
        :class:`MicrosaccadesNotSupportedError`.
        """
        trials = self._trials(number_of_trials, require_variance)
        if self._behavior is not None:
            if trials and not isinstance(self._behavior, OddOneOut):  # Brain-Score's odd one out takes no trials
                return self._behavior.look_at(stimuli, trials)
            return self._behavior.look_at(stimuli)
        if self._recording is None:
            raise UnsupportedTaskError(f"model {self.identifier!r}: call start_recording(region, time_bins) or "
                                       "start_task(task, fitting_stimuli) before look_at")
        return self._record(stimuli, trials)

    def _trials(self, number_of_trials: int, require_variance: bool) -> dict[str, Any]:
        """The activations model's keywords for Brain-Score's microsaccades (none when not asked for); refused in one
        line when the activations model does not take them."""
        if not wants_microsaccades(number_of_trials, require_variance):
            return {}
        if not _takes_trials(self.activations_model):
            check_trials(self.identifier, number_of_trials, require_variance)
        return {"number_of_trials": int(number_of_trials), "require_variance": True}

    def __repr__(self) -> str:
        return f"ModelCommitment({self.identifier!r}, layer_map={self.layer_map})"
