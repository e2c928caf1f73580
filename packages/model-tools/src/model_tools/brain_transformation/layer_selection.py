"""Commit a layer to a region: score every candidate layer on a public benchmark, keep the best.

The layers are scored one after another, and only one layer's activations are held at a time (streamed per layer):
a candidate records its one layer, a benchmark scores it, and it is released before the next. As Brain-Score's
``LayerSelection`` does (``LayerPCA.hook(..., n_components=1000)`` unless the activations model already reduces),
selection on a benchmark reduces each candidate layer to its first 1000 principal components
(:class:`~model_tools.activations.PCAReduction`, exact, computed block by block of columns from the layer as the
activation cache holds it on disk). Brain-Score fits that PCA on 1000 ImageNet validation images; they are not
shipped, so ours is fitted on the benchmark's own stimuli (with at most 1000 stimuli it keeps every component).
The committed layer is then scored without reduction, as in Brain-Score.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from brainio.records import read_record, write_record
from brainscore_core.score import score_value  # the one definition of a score's value
from model_tools.activations.cache import caching_enabled
from model_tools.activations.packaging import build_assembly, dim_coords, neuroid_coords
from model_tools.activations.reduction import PCAReduction
from model_tools.digest import json_digest, parameters_document, weights_digest

logger = logging.getLogger(__name__)


def _assembly_digest(assembly: Any) -> str:
    """brainio's content digest of an assembly (values, dims and coordinates)."""
    from brainio.digest import assembly_digest

    return assembly_digest(assembly)


BRAINSCORE_SELECTION_COMPONENTS = 1000
"""Principal components per candidate layer in selection on a benchmark (Brain-Score's ``LayerPCA``)."""


class ReducedActivations:
    """An activations model whose layers reach the benchmark reduced (Brain-Score's PCA of layer selection).

    ``reduced(stimuli, layers=[layer])`` calls the wrapped model, then replaces each layer wider than the reduction's
    ``n_components`` by its principal-component scores (:meth:`PCAReduction.transform_full`, block by block from the
    layer as the wrapped model returned it, a memory map of the activation cache when it is on). Neuroids become
    ``<model>.<layer>.pc.<index>``; presentation coordinates and attrs are kept.
    """

    def __init__(self, activations_model: Any, reduction: Any):
        self.activations_model = activations_model
        self.reduction = reduction

    def __getattr__(self, name: str) -> Any:  # identifier, model, preprocessing, ...: the wrapped model's
        return getattr(self.activations_model, name)

    def __call__(self, stimuli: Any, layers: Sequence[str], **kwargs: Any):
        assembly = self.activations_model(stimuli, layers=layers, **kwargs).transpose("presentation", "neuroid")
        layer_of = np.asarray(assembly["layer"].values)
        values = assembly.data
        parts, widths = [], {}
        for layer in dict.fromkeys(layer_of.tolist()):
            columns = np.flatnonzero(layer_of == layer)
            part = values[:, columns[0]:columns[-1] + 1]  # a layer's columns lie side by side: a view
            reduced = self.reduction.transform_full(part)
            parts.append(np.asarray(reduced, dtype=np.float32))
            widths[f"{layer}.pc" if reduced is not part else layer] = reduced.shape[1]
        identifier = str(assembly.attrs.get("model_identifier", getattr(self.activations_model, "identifier", "")))
        neuroid = neuroid_coords(identifier, widths)
        neuroid["layer"] = np.concatenate([np.full(width, name.removesuffix(".pc")) for name, width in widths.items()])
        return build_assembly(np.concatenate(parts, axis=1) if len(parts) > 1 else parts[0],
                              dim_coords(assembly, "presentation"), neuroid, attrs=dict(assembly.attrs))


def _selection_root() -> Path:
    from brainscore_core.config import brainscore_home

    return brainscore_home() / "layer_selection"


class LayerSelection:
    """Score each candidate layer for a region and choose the best one.

    Parameters
    ----------
    model_identifier : str
    activations_model : callable
        ``activations_model(stimuli, layers=[...])`` -> NeuroidAssembly (our :class:`ActivationsExtractor`).
    layers : sequence of str
        Candidate layers, in order (ties go to the earlier layer).
    visual_degrees : float, default=8
        Field of view of the single-layer models handed to a benchmark.
    cache : bool, default=None
        Cache the choice as JSON under ``$BRAINSCORE_HOME/layer_selection``; None follows
        ``RESULTCACHING_DISABLE``.
    candidate_factory : callable or None, default=None
        ``candidate_factory(region, layer)`` -> a BrainModel that records ``layer`` for ``region``; needed to
        select on a benchmark (a :class:`~model_tools.brain_transformation.commitment.ModelCommitment` passes
        its own). Selection on an assembly + metric does not use it.
    reduction : object, None or 'brainscore', default='brainscore'
        What each candidate layer goes through before a benchmark scores it: ``'brainscore'`` is Brain-Score's PCA
        to 1000 components (:data:`BRAINSCORE_SELECTION_COMPONENTS`) unless the activations model reduces already;
        None scores the layers as they are. Selection on an assembly + metric never reduces.

    Attributes
    ----------
    layer_scores_ : dict of region -> dict of layer -> float
        The profile of the last selection for each region.
    """

    def __init__(self, model_identifier: str, activations_model: Any, layers: Sequence[str],
                 visual_degrees: float = 8, *, cache: bool | None = None,
                 candidate_factory: Callable[[str, str], Any] | None = None, reduction: Any = "brainscore"):
        self.model_identifier = model_identifier
        self.candidate_factory = candidate_factory
        self.reduction = reduction
        self.activations_model = activations_model
        self.layers = layers
        self.visual_degrees = visual_degrees
        self.cache = cache

    def select(self, region: str, benchmark: Any = None, *, assembly: Any = None, metric: Any = None,
               stimuli: Any = None) -> str:
        """The best layer for ``region``.

        Either ``benchmark`` (a Benchmark called with a single-layer BrainModel, or a zero-argument factory
        of one) or ``assembly`` + ``metric``: ``metric(layer activations, assembly)`` on ``stimuli``
        (default: ``assembly.stimulus_set``, or ``assembly.attrs['stimulus_set']``), already on screen.
        """
        region = getattr(region, "value", region)
        if benchmark is None and (assembly is None or metric is None):
            raise ValueError(f"select({region!r}): pass a benchmark, or both assembly and metric")
        if benchmark is not None and not hasattr(benchmark, "identifier") and callable(benchmark):
            benchmark = benchmark()
        key = self._key(region, benchmark, assembly, metric)
        cached = self._read(key)
        if cached is not None:
            scores = cached["scores"]
        elif benchmark is not None:
            from brainscore_core.progress import progress

            warmed: set[str] = set()  # stimulus sets whose every candidate layer is in the cache (one pass each)
            scores = {layer: self._score_benchmark(region, layer, benchmark, warmed)
                      for layer in progress(self.layers, desc=f"layer selection {self.model_identifier} {region}",
                                            unit="layer")}
        else:
            scores = self._score_assembly(assembly, metric, stimuli)
        best = max(self.layers, key=lambda layer: (np.nan_to_num(scores[layer], nan=-np.inf),
                                                   -list(self.layers).index(layer)))
        if cached is None:
            self._write(key, {"model": self.model_identifier, "region": region, "scores": scores, "best": best,
                              "layers": list(self.layers)})  # model: `brainscore cache prune --model` finds it
        self.layer_scores_ = {**getattr(self, "layer_scores_", {}), region: dict(scores)}
        logger.info("model %s: region %s -> layer %s (scores %s)", self.model_identifier, region, best, scores)
        return best

    def __call__(self, selection_identifier: str, benchmark: Any) -> str:
        """Brain-Score's call form, ``selection(selection_identifier=region, benchmark=benchmark)``: :meth:`select`."""
        return self.select(selection_identifier, benchmark)

    # -- scoring ----------------------------------------------------------------------------------------
    def _score_benchmark(self, region: str, layer: str, benchmark: Any, warmed: set[str]) -> float:
        if self.candidate_factory is None:
            raise ValueError(
                f"LayerSelection of model {self.model_identifier!r}: selecting on benchmark "
                f"{getattr(benchmark, 'identifier', benchmark)!r} needs candidate_factory=(region, layer) -> "
                "BrainModel, e.g. ModelCommitment(...).single_layer_candidate")
        candidate = self.candidate_factory(region, layer)
        reduction = self._candidate_reduction()
        if reduction is not None and hasattr(candidate, "activations_model"):
            candidate.activations_model = ReducedActivations(candidate.activations_model, reduction)
        if callable(getattr(candidate, "warm_with", None)):  # all candidate layers in one pass per stimulus set
            candidate.warm_with(self.layers, warmed)  # raw layers into the cache; the reduction reads them there
        return score_value(benchmark(candidate))

    def _candidate_reduction(self) -> Any:
        """The reduction of each candidate layer (see ``reduction``), None for none."""
        if isinstance(self.reduction, str) and self.reduction == "brainscore":
            if getattr(self.activations_model, "reduction", None) is not None:
                return None  # Brain-Score: no second PCA over an extractor that reduces already
            return PCAReduction(BRAINSCORE_SELECTION_COMPONENTS)
        return self.reduction

    def _score_assembly(self, assembly: Any, metric: Any, stimuli: Any) -> dict[str, float]:
        if stimuli is None:
            stimuli = getattr(assembly, "stimulus_set", None)
            if stimuli is None:
                stimuli = assembly.attrs.get("stimulus_set")
        if stimuli is None:
            raise ValueError("select(assembly=..., metric=...) needs stimuli= or an assembly with a stimulus_set")
        scores = {}
        for layer in self.layers:  # one layer held at a time
            scores[layer] = score_value(metric(self.activations_model(stimuli, layers=[layer]), assembly))
        return scores

    # -- persistence ------------------------------------------------------------------------------------
    def _key(self, region: str, benchmark: Any, assembly: Any, metric: Any) -> str:
        model = getattr(self.activations_model, "model", None)
        preprocessing = getattr(self.activations_model, "preprocessing", None)
        target: dict[str, Any]
        if benchmark is not None:
            reduction = self._candidate_reduction()
            target = {"benchmark": getattr(benchmark, "identifier", type(benchmark).__qualname__),
                      "version": getattr(benchmark, "version", None),
                      "candidate_reduction": getattr(reduction, "cache_fields", lambda: None)()}
        else:
            target = {"assembly": _assembly_digest(assembly),
                      "metric": getattr(metric, "identifier", f"{type(metric).__module__}.{type(metric).__qualname__}"),
                      # two configurations of one metric class (e.g. PLS with 10 or 25 components) are two choices
                      "metric_params": (parameters_document(metric.get_params())
                                        if callable(getattr(metric, "get_params", None)) else None)}
        return json_digest({
            "model": self.model_identifier,
            "weights": weights_digest(model) if model is not None else None,
            "preprocessing": preprocessing.cache_fields() if hasattr(preprocessing, "cache_fields") else None,
            "reduction": getattr(getattr(self.activations_model, "reduction", None), "cache_fields", lambda: None)(),
            "layers": list(self.layers), "region": region, "visual_degrees": self.visual_degrees, **target,
        })

    def _read(self, key: str) -> dict[str, Any] | None:
        if not caching_enabled(self.cache):
            return None
        content = read_record(_selection_root() / f"{key}.json", "layer selection")  # damaged: a miss, warned
        return content if isinstance(content, dict) and set(content.get("layers", [])) == set(self.layers) else None

    def _write(self, key: str, content: dict[str, Any]) -> None:
        if not caching_enabled(self.cache):
            return
        write_record(_selection_root() / f"{key}.json", content)


class RegionLayerMap(dict):
    """Brain-Score's lazily selected region -> layer map: ``region_layer_map[region]`` selects a layer on
    ``region_benchmarks[region]`` with ``layer_selection`` the first time it is read, and keeps it.

    Given to :class:`~model_tools.brain_transformation.ModelCommitment` as its ``region_layer_map``, its benchmarks
    become the commitment's ``region_benchmarks`` (the commitment selects with its own candidates) and the regions it
    already holds are committed.

    Parameters
    ----------
    layer_selection : LayerSelection
        Called as ``layer_selection(selection_identifier=region, benchmark=benchmark)``.
    region_benchmarks : mapping of str -> benchmark
        The benchmark (or a zero-argument factory of one) each region is selected on.
    """

    def __init__(self, layer_selection: LayerSelection, region_benchmarks: Mapping[str, Any]):
        super().__init__()
        self.layer_selection = layer_selection
        self.region_benchmarks = dict(region_benchmarks)

    def __missing__(self, region: str) -> str:
        self[region] = self.layer_selection(selection_identifier=region, benchmark=self.region_benchmarks[region])
        return self[region]

    def commit_region(self, region: str) -> None:
        """Select ``region``'s layer now, unless it is held already (Brain-Score's name)."""
        self[region]
