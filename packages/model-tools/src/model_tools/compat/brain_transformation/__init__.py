"""``brainscore_vision.model_helpers.brain_transformation``: Brain-Score's ``ModelCommitment`` and layer selection.

``ModelCommitment`` is :class:`model_tools.brain_transformation.ModelCommitment` with Brain-Score's defaults: a
``region_layer_map`` may be a :class:`RegionLayerMap` (selected lazily), and without any map (neither given nor in
``region_layer_map/<identifier>.json`` beside the plugin) layers are selected on Brain-Score's standard public
benchmarks (:data:`STANDARD_REGION_BENCHMARKS`, which need its public data: a network, or a filled cache).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from model_tools.brain_transformation import LayerSelection as _LayerSelection
from model_tools.brain_transformation import ModelCommitment as _ModelCommitment
from model_tools.compat.brain_transformation.behavior import LabelBehavior, OddOneOut, ProbabilitiesMapping

__all__ = ["STANDARD_REGION_BENCHMARKS", "LabelBehavior", "LayerSelection", "ModelCommitment", "OddOneOut",
           "ProbabilitiesMapping", "RegionLayerMap"]


def _public_benchmark(identifier: str):
    def load():
        from brainscore_vision import load_benchmark

        return load_benchmark(identifier)

    load.__qualname__ = f"load_benchmark({identifier!r})"
    return load


STANDARD_REGION_BENCHMARKS = {
    "V1": _public_benchmark("FreemanZiemba2013public.V1-pls"),
    "V2": _public_benchmark("FreemanZiemba2013public.V2-pls"),
    "V4": _public_benchmark("MajajHong2015public.V4-pls"),
    "IT": _public_benchmark("MajajHong2015public.IT-pls"),
}
"""Brain-Score's layer-selection benchmarks per region (zero-argument factories, loaded when a region is selected)."""


class LayerSelection(_LayerSelection):
    """Brain-Score's ``LayerSelection(model_identifier, activations_model, layers, visual_degrees)``, called as
    ``selection(selection_identifier=region, benchmark=benchmark)`` -> the best layer."""

    def __call__(self, selection_identifier: str, benchmark: Any) -> str:
        if self.candidate_factory is None:
            self.candidate_factory = _ModelCommitment(self.model_identifier, self.activations_model, self.layers,
                                                      region_layer_map={},
                                                      visual_degrees=self.visual_degrees).single_layer_candidate
        return self.select(selection_identifier, benchmark)


class RegionLayerMap(dict):
    """Brain-Score's lazily selected region -> layer map: ``rlm[region]`` selects on ``region_benchmarks[region]``
    the first time. Given to :class:`ModelCommitment`, its benchmarks become the commitment's own."""

    def __init__(self, layer_selection: LayerSelection, region_benchmarks: Mapping[str, Any]):
        super().__init__()
        self.layer_selection = layer_selection
        self.region_benchmarks = dict(region_benchmarks)

    def __missing__(self, region: str) -> str:
        self[region] = self.layer_selection(selection_identifier=region, benchmark=self.region_benchmarks[region])
        return self[region]

    def commit_region(self, region: str) -> None:
        self[region]  # selects and commits (a missing key)


class ModelCommitment(_ModelCommitment):
    """Brain-Score's ``ModelCommitment(identifier, activations_model, layers, behavioral_readout_layer=None,
    region_layer_map=None, visual_degrees=8)``; see the module docstring for what differs from
    :class:`model_tools.brain_transformation.ModelCommitment`."""

    def __init__(self, identifier: str, activations_model: Any, layers: Sequence[str],
                 behavioral_readout_layer: str | None = None, region_layer_map: Mapping[str, str] | None = None,
                 visual_degrees: float = 8, **kwargs: Any):
        region_benchmarks = kwargs.pop("region_benchmarks", None)
        if isinstance(region_layer_map, RegionLayerMap):
            region_benchmarks = {**region_layer_map.region_benchmarks, **(region_benchmarks or {})}
            region_layer_map = dict(region_layer_map)  # the regions it already committed
        super().__init__(identifier, activations_model, layers, behavioral_readout_layer, region_layer_map,
                         visual_degrees, region_benchmarks=region_benchmarks, **kwargs)
        if region_benchmarks is None and not self.region_layer_map:
            self.region_benchmarks = dict(STANDARD_REGION_BENCHMARKS)
