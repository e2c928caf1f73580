"""``brainscore_vision.model_helpers.check_submission.check_models``: Brain-Score's checks before submitting a model,
run on a benchmark shipped here.

Brain-Score's checks score the model on MajajHong2015's public IT data (which needs its bucket); these run the same
steps on ``Kriegeskorte2008.hIT-rdm`` (92 images, human IT, shipped with brainscore-vision):

* ``check_base_models(module)``: for each name of ``module.get_model_list()``, ``get_layers(name)`` must be a non-empty
  list and ``get_model(name)`` an activations model; a :class:`ModelCommitment` over those layers selects its IT layer
  on the benchmark (layer selection), records IT, is scored, then fits and answers the ``probabilities`` task on the
  benchmark's images (labels: their ``category``);
* ``check_brain_models(module)``: for each name, ``get_model(name)`` must be a ``BrainModel``, checked the same way
  without layer selection.

Brain-Score turns its caches off for the check (they are keyed by names, so a changed model could reuse stale
activations); ours are keyed by content (weights, preprocessing, image bytes), so they stay on and a check followed by
scoring extracts once. Each check returns the score; a failure raises. A module without ``get_model_list`` is checked
on the identifiers its package registered in ``brainscore_vision.model_registry``.
"""

from __future__ import annotations

import importlib
import sys
from types import ModuleType
from typing import Any

import numpy as np

from brainscore_core.benchmarks import BenchmarkBase
from brainscore_vision.model_interface import BrainModel
from model_tools.compat.brain_transformation import LayerSelection, ModelCommitment, RegionLayerMap
from model_tools.errors import CheckFailedError

__all__ = ["CHECK_BENCHMARK", "CheckFailedError", "check_base_models", "check_brain_model_processing",
           "check_brain_models", "check_processing"]

CHECK_BENCHMARK = "Kriegeskorte2008.hIT-rdm"
CHECK_STIMULI = "Kriegeskorte2008"
SUCCESS = "Test successful, you are ready to submit!"


def _module(module: str | ModuleType) -> ModuleType:
    return module if isinstance(module, ModuleType) else importlib.import_module(module)


def _model_names(module: ModuleType) -> list[str]:
    if hasattr(module, "get_model_list"):
        return list(module.get_model_list())
    import brainscore_vision

    name = getattr(getattr(module, "__spec__", None), "name", None) or module.__name__
    package = name.rsplit(".", 1)[0] if "." in name else name
    names = [info.identifier for info in brainscore_vision.list_plugins("model")
             if info.module and (info.module == package or info.module.startswith(package + "."))]
    if not names:
        raise CheckFailedError(f"module {name!r} has no get_model_list() and its package {package!r} registers no model")
    return names


def _require(condition: bool, message: str) -> None:
    if not condition:
        raise CheckFailedError(message)


class _MockBenchmark(BenchmarkBase):
    """``Kriegeskorte2008.hIT-rdm``, plus (``do_behavior=True``) the ``probabilities`` task fitted and answered on the
    same 92 images."""

    def __init__(self):
        from brainscore_vision import load_benchmark

        self._benchmark = load_benchmark(CHECK_BENCHMARK)
        super().__init__(f"{CHECK_BENCHMARK}-check_models", lambda: self._benchmark.ceiling, version=1)

    def __call__(self, candidate: BrainModel, do_behavior: bool = False):
        score = self._benchmark(candidate)
        _require(np.isfinite(float(score)), f"model {candidate.identifier!r}: {CHECK_BENCHMARK} gave {float(score)}")
        if do_behavior:
            from brainscore_vision import load_stimulus_set
            from brainscore_vision.benchmark_helpers.screen import place_on_screen

            stimuli = load_stimulus_set(CHECK_STIMULI)
            stimuli = stimuli.assign(image_label=stimuli["category"].values)
            stimuli = place_on_screen(stimuli, target_visual_degrees=candidate.visual_degrees(), source_visual_degrees=8)
            candidate.start_task(BrainModel.Task.probabilities, stimuli)
            probabilities = candidate.look_at(stimuli)
            values = np.asarray(probabilities.transpose("presentation", "choice").values, dtype=float)
            _require(values.shape == (len(stimuli), stimuli["image_label"].nunique()) and np.allclose(values.sum(1), 1),
                     f"model {candidate.identifier!r}: the probabilities task gave values of shape {values.shape} that "
                     f"do not sum to 1 per image")
            candidate.start_task(BrainModel.Task.passive)
        return score


def check_brain_model_processing(model: BrainModel):
    """Score a BrainModel on the check benchmark, behaviour included; returns the score."""
    return _MockBenchmark()(model, do_behavior=True)


def check_processing(model_identifier: str, module: str | ModuleType):
    """Commit ``module.get_model(model_identifier)`` over ``module.get_layers(model_identifier)`` (IT selected on the
    check benchmark) and score it, behaviour included; returns the score."""
    module = _module(module)
    activations_model = module.get_model(model_identifier)
    layers = module.get_layers(model_identifier)
    benchmark = _MockBenchmark()
    selection = LayerSelection(model_identifier, activations_model, layers, visual_degrees=8)
    region_layer_map = RegionLayerMap(layer_selection=selection, region_benchmarks={"IT": benchmark})
    brain_model = ModelCommitment(model_identifier, activations_model, layers, region_layer_map=region_layer_map)
    return benchmark(brain_model, do_behavior=True)


def check_base_models(module: str | ModuleType) -> dict[str, Any]:
    """Brain-Score's check of a base-model module (``get_model_list``, ``get_model``, ``get_layers``); returns
    ``{model name: score}`` and prints Brain-Score's success line."""
    module = _module(module)
    scores = {}
    for name in _model_names(module):
        layers = module.get_layers(name)
        _require(isinstance(layers, list) and len(layers) > 0,
                 f"model {name!r}: get_layers must return a non-empty list of layer names, got {layers!r}")
        _require(module.get_model(name) is not None, f"model {name!r}: get_model returned None")
        scores[name] = check_processing(name, module)
        print(SUCCESS, file=sys.stdout)
    return scores


def check_brain_models(module: str | ModuleType) -> dict[str, Any]:
    """Brain-Score's check of a brain-model module (``get_model_list``, ``get_model`` returning a ``BrainModel``);
    returns ``{model name: score}`` and prints Brain-Score's success line."""
    module = _module(module)
    scores = {}
    for name in _model_names(module):
        model = module.get_model(name)
        _require(isinstance(model, BrainModel), f"model {name!r}: get_model must return a BrainModel, got "
                                                f"{type(model).__name__}")
        scores[name] = check_brain_model_processing(model)
    print(SUCCESS, file=sys.stdout)
    return scores
