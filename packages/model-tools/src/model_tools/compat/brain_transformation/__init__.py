"""``brainscore_vision.model_helpers.brain_transformation``: Brain-Score's ``ModelCommitment`` and layer selection.

Re-exports of :mod:`model_tools.brain_transformation`, whose ``ModelCommitment`` has Brain-Score's argument order and
defaults (a :class:`RegionLayerMap` is accepted, and without any map layers are selected on
:data:`STANDARD_REGION_BENCHMARKS`). One adapter: :class:`LayerSelection` builds its candidates from a
``ModelCommitment`` when it is called on a benchmark directly, as Brain-Score's does (ours is given a candidate
factory).
"""

from __future__ import annotations

from typing import Any

from model_tools.brain_transformation import (
    STANDARD_REGION_BENCHMARKS,
    ModelCommitment,
    RegionLayerMap,
)
from model_tools.brain_transformation import LayerSelection as _LayerSelection
from model_tools.compat.brain_transformation.behavior import LabelBehavior, OddOneOut, ProbabilitiesMapping

__all__ = ["STANDARD_REGION_BENCHMARKS", "LabelBehavior", "LayerSelection", "ModelCommitment", "OddOneOut",
           "ProbabilitiesMapping", "RegionLayerMap"]


class LayerSelection(_LayerSelection):
    """Brain-Score's ``LayerSelection(model_identifier, activations_model, layers, visual_degrees)``: called as
    ``selection(selection_identifier=region, benchmark=benchmark)`` without a candidate factory, its candidates are
    ``ModelCommitment(...).single_layer_candidate``."""

    def __call__(self, selection_identifier: str, benchmark: Any) -> str:
        if self.candidate_factory is None:
            self.candidate_factory = ModelCommitment(self.model_identifier, self.activations_model, self.layers,
                                                     region_layer_map={},
                                                     visual_degrees=self.visual_degrees).single_layer_candidate
        return super().__call__(selection_identifier, benchmark)
