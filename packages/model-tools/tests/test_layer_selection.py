"""Layer selection on a synthetic benchmark whose best layer is known by construction."""

from __future__ import annotations

import json

import numpy as np
import pytest
import torch

from model_tools.activations import ActivationsExtractor, ImagePreprocessing
from model_tools.brain_transformation import LayerSelection, ModelCommitment
from model_tools.brain_transformation.layer_selection import _selection_root


def rdm(values: np.ndarray) -> np.ndarray:
    return 1 - np.corrcoef(values)


class RDMSimilarity:
    """Pearson r between upper triangles of correlation-distance RDMs (a tiny stand-in metric)."""

    identifier = "test-rdm"

    def __call__(self, source, target):
        upper = np.triu_indices(source.sizes["presentation"], k=1)
        source_values = source.transpose("presentation", "neuroid").values
        return float(np.corrcoef(rdm(source_values)[upper], rdm(target.values)[upper])[0, 1])


def brain_data(tiny_net, stimuli, layer_index: int):
    """'Recordings' that are exactly the activations of one layer (computed directly, no hooks)."""
    from brainio.assemblies import NeuroidAssembly

    inputs = ImagePreprocessing(8)([stimuli.stimulus_paths[s] for s in stimuli["stimulus_id"]])
    with torch.no_grad():
        values = tiny_net[: layer_index + 1](inputs).reshape(len(stimuli), -1).numpy()
    return NeuroidAssembly(values, coords={"stimulus_id": ("presentation", list(stimuli["stimulus_id"])),
                                           "neuroid_id": ("neuroid", [f"n{i}" for i in range(values.shape[1])])},
                           dims=["presentation", "neuroid"])


class SyntheticBenchmark:
    """Records from ``region``, compares the model's RDM with the target's; counts its calls."""

    identifier = "synthetic.IT-rdm"
    version = 1

    def __init__(self, stimuli, target, region="IT"):
        self.stimuli, self.target, self.region, self.calls = stimuli, target, region, 0

    def __call__(self, candidate):
        self.calls += 1
        candidate.start_recording(self.region, [(70, 170)])
        return RDMSimilarity()(candidate.look_at(self.stimuli), self.target)


def test_assembly_and_metric_pick_the_layer_the_data_came_from(tiny_net, small_stimulus_set):
    target = brain_data(tiny_net, small_stimulus_set, layer_index=2)  # layer "2"
    selection = LayerSelection("tiny", ActivationsExtractor(tiny_net, "tiny", ImagePreprocessing(8)),
                               ["0", "1", "2", "logits"])
    best = selection.select("IT", assembly=target, metric=RDMSimilarity(), stimuli=small_stimulus_set)
    assert best == "2"
    scores = selection.layer_scores_["IT"]
    assert set(scores) == {"0", "1", "2", "logits"}
    np.testing.assert_allclose(scores["2"], 1.0, atol=1e-5)  # identical RDMs
    assert max(value for layer, value in scores.items() if layer != "2") < 0.999


def test_benchmark_selection_is_committed_profiled_and_cached(tiny_net, small_stimulus_set):
    target = brain_data(tiny_net, small_stimulus_set, layer_index=1)  # layer "1"
    benchmark = SyntheticBenchmark(small_stimulus_set, target)
    extractor = ActivationsExtractor(tiny_net, "tiny", ImagePreprocessing(8))
    model = ModelCommitment("tiny", extractor, ["0", "1", "2"], region_benchmarks={"IT": benchmark})
    model.start_recording("IT", [(70, 170)])
    assert model.layer_map == {"IT": "1"}
    assert benchmark.calls == 3 and set(model.layer_scores["IT"]) == {"0", "1", "2"}
    np.testing.assert_allclose(model.layer_scores["IT"]["1"], 1.0, atol=1e-5)
    assert model.look_at(small_stimulus_set).sizes["neuroid"] == 256

    stored = [json.loads(path.read_text())["content"] for path in _selection_root().glob("*.json")]
    assert [entry["best"] for entry in stored] == ["1"]
    # a damaged record is a miss (recomputed, with a warning), never a wrong choice
    path = next(_selection_root().glob("*.json"))
    path.write_text(path.read_text().replace('"best": "1"', '"best": "0"'))
    damaged = ModelCommitment("tiny", extractor, ["0", "1", "2"], region_benchmarks={"IT": benchmark})
    damaged.start_recording("IT", [(70, 170)])
    assert damaged.layer_map == {"IT": "1"} and benchmark.calls == 6
    benchmark.calls = 3

    again = ModelCommitment("tiny", extractor, ["0", "1", "2"], region_benchmarks={"IT": lambda: benchmark})
    again.start_recording("IT", [(70, 170)])
    assert again.layer_map == {"IT": "1"} and benchmark.calls == 3  # the choice came from the cache

    with torch.no_grad():
        tiny_net[0].weight.mul_(-1)  # changed weights: the cached choice no longer applies
    third = ModelCommitment("tiny", extractor, ["0", "1", "2"], region_benchmarks={"IT": benchmark})
    third.start_recording("IT", [(70, 170)])
    assert benchmark.calls == 6


@pytest.mark.parametrize("caching", [True, False], ids=["cache on", "cache off"])
def test_every_candidate_layer_comes_from_one_pass_per_stimulus_set(tiny_net, small_stimulus_set, monkeypatch,
                                                                    caching):
    # issue 42: check_models (and layer selection on a benchmark) ran one forward pass per candidate layer: about 30
    # minutes for grcnn's 40 layers on 2 cores. With the activations cache, the first candidate extracts them all.
    if not caching:
        monkeypatch.setenv("RESULTCACHING_DISABLE", "1")
    target = brain_data(tiny_net, small_stimulus_set, layer_index=2)
    passes = []
    tiny_net.register_forward_pre_hook(lambda module, inputs: passes.append(len(inputs[0])))
    benchmark = SyntheticBenchmark(small_stimulus_set, target)
    extractor = ActivationsExtractor(tiny_net, "tiny", ImagePreprocessing(8), batch_size=4)
    model = ModelCommitment("tiny", extractor, ["0", "1", "2", "4"], region_benchmarks={"IT": benchmark})
    model.start_recording("IT", [(70, 170)])
    assert model.layer_map == {"IT": "2"} and benchmark.calls == 4
    # 10 stimuli in batches of 4: 3 forward passes for all layers with the cache (one entry), 3 per layer without
    assert passes == [4, 4, 2] * (1 if caching else 4)


def test_two_configurations_of_one_metric_are_two_cache_entries(tiny_net, small_stimulus_set):
    # the cache key names the metric's parameters (get_params), not only its class: two PLS configurations
    # used to share one cached layer choice
    from brainscore_metrics.regression_correlation import CrossRegressedCorrelation

    target = brain_data(tiny_net, small_stimulus_set, layer_index=2)
    selection = LayerSelection("tiny", ActivationsExtractor(tiny_net, "tiny", ImagePreprocessing(8)),
                               ["1", "2"])
    before = set(_selection_root().glob("*.json")) if _selection_root().exists() else set()
    for components in (2, 3):
        metric = CrossRegressedCorrelation(regression="pls", regression_kwargs={"n_components": components},
                                           crossvalidation_kwargs={"splits": 2})
        selection.select("IT", assembly=target, metric=metric, stimuli=small_stimulus_set)
    again = CrossRegressedCorrelation(regression="pls", regression_kwargs={"n_components": 2},
                                      crossvalidation_kwargs={"splits": 2})
    assert again.get_params()["regression_kwargs"] == {"n_components": 2}
    selection.select("IT", assembly=target, metric=again, stimuli=small_stimulus_set)  # a cache hit, no new entry
    assert len(set(_selection_root().glob("*.json")) - before) == 2


def test_benchmark_selection_needs_a_candidate_factory(tiny_net, small_stimulus_set):
    # layer selection no longer builds ModelCommitments itself (they call it): the candidates come from the
    # injected factory, and without one the benchmark path says what to pass
    target = brain_data(tiny_net, small_stimulus_set, layer_index=1)
    benchmark = SyntheticBenchmark(small_stimulus_set, target)
    extractor = ActivationsExtractor(tiny_net, "tiny-nofactory", ImagePreprocessing(8))
    with pytest.raises(ValueError, match="needs candidate_factory"):
        LayerSelection("tiny-nofactory", extractor, ["0", "1"], cache=False).select("IT", benchmark)
    model = ModelCommitment("tiny-nofactory", extractor, ["0", "1", "2"])
    built = []

    def factory(region, layer):
        built.append((region, layer))
        return model.single_layer_candidate(region, layer)

    selection = LayerSelection("tiny-nofactory", extractor, ["0", "1", "2"], cache=False, candidate_factory=factory)
    assert selection.select("IT", benchmark) == "1"
    assert built == [("IT", "0"), ("IT", "1"), ("IT", "2")]


def test_metric_parameters_enter_the_key_in_a_run_independent_form():
    # functions and nested metrics are named by import path and parameters, never by a repr holding a memory
    # address (which would give a new key, and a new cache entry, in every run)
    from brainscore_metrics.behavior.threshold import Threshold
    from brainscore_metrics.properties.ks_similarity import KSSimilarity, PropertyCeiling
    from model_tools.digest import parameters_document

    document = parameters_document({"threshold": Threshold("vernier_offset").get_params(),
                                    "ceiling": PropertyCeiling(KSSimilarity("surround_suppression")).get_params(),
                                    "array": np.arange(3), "scalar": np.float32(0.5)})
    assert "0x" not in json.dumps(document)
    assert document["threshold"]["fit_function"] == "brainscore_metrics.behavior.threshold.psychometric_cum_gauss"
    assert document["ceiling"]["similarity_metric"]["params"]["property_name"] == "surround_suppression"
    assert document["array"] == [0, 1, 2] and document["scalar"] == 0.5
