"""The newest benchmark helpers against Brain-Score's own code on the same inputs.

Expected numbers: ``tests/data/reference_newest_helpers.json``, written by ``benchmarks/reference_newest_helpers.py``
run with brainscore-vision 2.4.2 (byte-identical helper files to brain-score/vision c642dbe4): its
``neuroid_wise_explained_var``, ``flatten_timebins_into_neuroids``, ``time_align`` / ``assembly_time_align``,
``bootstrap_error``, ``MultiSubjectNeuralBenchmark`` and ``KFoldNeuralBenchmark`` (children with fixed scores).
"""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import numpy as np
import pytest

from brainio.assemblies import NeuroidAssembly
from brainscore_core.metrics import Score
from brainscore_vision.benchmark_helpers._timebins import assembly_time_align, time_align
from brainscore_vision.benchmark_helpers.multi_subject import (
    KFoldNeuralBenchmark,
    MultiSubjectNeuralBenchmark,
    block_diagonal_concat,
)
from brainscore_vision.benchmark_helpers.neural_common import (
    flatten_timebins_into_neuroids,
    neuroid_wise_explained_var,
)
from brainscore_vision.errors import BenchmarkDataError
from brainscore_vision.metric_helpers.bootstrap_error import attach_error, bootstrap_error, declare_no_error

HERE = Path(__file__).resolve().parent
EXPECTED = json.loads((HERE / "data" / "reference_newest_helpers.json").read_text())
_spec = importlib.util.spec_from_file_location("reference_newest_helpers",
                                               HERE.parent / "benchmarks" / "reference_newest_helpers.py")
INPUTS = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(INPUTS)


def _neuroid_wise_pair():
    r, ceilings, subjects = INPUTS.neuroid_wise_inputs()
    coords = {"neuroid_id": ("neuroid", [f"n{i}" for i in range(12)]), "subject": ("neuroid", subjects)}
    score = Score(float(np.nanmedian(r)))
    score.attrs["raw"] = Score(r, coords=coords, dims=["neuroid"])
    ceiling = Score(float(np.mean(np.median(ceilings, axis=1))))
    ceiling.attrs["raw"] = Score(ceilings, coords={"split": [0, 1, 2], **coords}, dims=["split", "neuroid"])
    return score, ceiling


def test_neuroid_wise_explained_var():
    score, ceiling = _neuroid_wise_pair()
    ceiled = neuroid_wise_explained_var(score, ceiling)
    assert float(ceiled) == pytest.approx(EXPECTED["neuroid_wise"]["value"], rel=1e-12)
    np.testing.assert_allclose(ceiled.attrs["ceiled_scores"].values, EXPECTED["neuroid_wise"]["ceiled_scores"],
                               rtol=1e-12)
    assert ceiled.attrs["ceiling"] is ceiling and ceiled.attrs["raw"] is score.attrs["raw"]


def test_neuroid_wise_needs_matching_neuroids():
    score, ceiling = _neuroid_wise_pair()
    with pytest.raises(BenchmarkDataError, match="not the same"):
        neuroid_wise_explained_var(score, ceiling.attrs["raw"].isel(neuroid=slice(0, 6)))
    with pytest.raises(BenchmarkDataError, match="attrs\\['raw'\\]"):
        neuroid_wise_explained_var(Score(0.5), ceiling)


def test_flatten_timebins_into_neuroids():
    values, starts, ends = INPUTS.flatten_inputs()
    assembly = NeuroidAssembly(values, coords={
        "stimulus_id": ("presentation", [f"s{i}" for i in range(5)]), "repetition": ("presentation", [0] * 5),
        "neuroid_id": ("neuroid", ["a", "b", "c"]), "channel": ("neuroid", ["Fz", "Cz", "Pz"]),
        "time_bin_start": ("time_bin", starts), "time_bin_end": ("time_bin", ends)},
        dims=["presentation", "neuroid", "time_bin"])
    flat = flatten_timebins_into_neuroids(assembly)
    expected = EXPECTED["flatten"]
    np.testing.assert_array_equal(flat.values[:, :, 0], expected["values"])
    assert flat["neuroid_id"].values.tolist() == expected["neuroid_id"]
    assert flat["recording_time"].values.tolist() == expected["recording_time"]
    assert flat["time_bin_start"].values.tolist() == expected["time_bin_start"]
    assert flat["time_bin_end"].values.tolist() == expected["time_bin_end"]
    with pytest.raises(BenchmarkDataError, match="dims"):
        flatten_timebins_into_neuroids(assembly.transpose("neuroid", "presentation", "time_bin"))


def test_time_align_and_assembly_time_align():
    source, target, values = INPUTS.time_align_inputs()
    np.testing.assert_allclose(time_align(source, target), EXPECTED["time_align"]["weights"], rtol=1e-12)
    assembly = NeuroidAssembly(values, coords={
        "stimulus_id": ("presentation", [f"s{i}" for i in range(4)]), "neuroid_id": ("neuroid", ["n0", "n1"]),
        "time_bin_start": ("time_bin", [b[0] for b in source]), "time_bin_end": ("time_bin", [b[1] for b in source])},
        dims=["presentation", "neuroid", "time_bin"])
    expected = EXPECTED["assembly_time_align"]
    aligned = assembly_time_align(assembly, [tuple(b) for b in expected["target"]])
    np.testing.assert_allclose(aligned.transpose("presentation", "neuroid", "time_bin").values, expected["values"],
                               rtol=1e-12)
    with pytest.raises(BenchmarkDataError, match="cover no source"):
        assembly_time_align(assembly, [(40, 45), (200, 210)])


def test_bootstrap_error():
    one, two = INPUTS.bootstrap_inputs()
    assert bootstrap_error(Score(one, coords={"subject": list("abcde")}, dims=["subject"]), ["subject"],
                           n_bootstrap=200) == pytest.approx(EXPECTED["bootstrap"]["one_dim"], rel=1e-12)
    values = Score(two, coords={"subject": list("abcd"), "stimulus": list("uvwxyz")}, dims=["subject", "stimulus"])
    assert bootstrap_error(values, ["subject", "stimulus"], n_bootstrap=300, seed=3) == pytest.approx(
        EXPECTED["bootstrap"]["two_dims"], rel=1e-12)
    # a custom aggregate is called per resample, as Brain-Score does: the NaN-mean gives the same
    custom = bootstrap_error(values, ["subject", "stimulus"], aggregate=lambda v: float(np.nanmean(v.values)),
                             n_bootstrap=300, seed=3)
    assert custom == pytest.approx(EXPECTED["bootstrap"]["two_dims"], rel=1e-12)
    score = attach_error(Score(0.5), values, ["subject"], n_bootstrap=50)
    assert score.attrs["error_over"] == ["subject"] and score.attrs["n_bootstrap"] == 50
    assert np.isnan(declare_no_error(Score(0.5), "one unit").attrs["error"])
    with pytest.raises(ValueError, match="trial"):  # Brain-Score's ValueError; ours brainscore-metrics' DimensionError
        bootstrap_error(values, ["trial"])


class _Child:
    """A child benchmark with the fixed score, raw values and ceiling of the reference script."""

    region, version, bibtex, timebins = "IT", 3, "@article{x}", [(0, 0)]

    def __init__(self, key):
        self.value, self.raw, ceiling = INPUTS.children_inputs()[key if isinstance(key, int) else int(key[-1])]
        self.ceiling = Score(ceiling)

    def __call__(self, candidate):
        score = Score(self.value)
        score.attrs["raw"] = Score(self.raw, coords={"neuroid": [0, 1, 2]}, dims=["neuroid"])
        return score


def test_multi_subject_and_kfold_aggregate_as_brainscore():
    expected = EXPECTED["multi_subject"]
    wrapper = MultiSubjectNeuralBenchmark("wrapper", ["sub-0", "sub-1", "sub-2", "sub-3"], _Child)
    score = wrapper(None)
    assert float(score) == pytest.approx(expected["value"], rel=1e-12)
    assert float(score.attrs["raw"]) == pytest.approx(expected["raw"], rel=1e-12)
    assert score.attrs["error"] == pytest.approx(expected["error"], rel=1e-12)
    assert score.attrs["sem_subjects"] == pytest.approx(expected["sem_subjects"], rel=1e-12)
    assert float(score.attrs["ceiling"]) == pytest.approx(expected["ceiling"], rel=1e-12)
    assert score.attrs["ceiling"].attrs["error"] == pytest.approx(expected["ceiling_error"], rel=1e-12)
    assert float(wrapper.ceiling) == pytest.approx(expected["ceiling_direct"], rel=1e-12)
    assert float(score.attrs["sub-2"]) == INPUTS.children_inputs()[2][0]
    assert (wrapper.region, wrapper.version, wrapper.parent) == ("IT", 3, "IT")
    expected = EXPECTED["kfold"]
    score = KFoldNeuralBenchmark("wrapper", 4, _Child)(None)
    for key in ("value", "raw", "ceiling"):
        value = float(score) if key == "value" else float(score.attrs[key])
        assert value == pytest.approx(expected[key], rel=1e-12)
    assert score.attrs["error"] == pytest.approx(expected["error"], rel=1e-12)
    assert score.attrs["sem_folds"] == pytest.approx(expected["sem_folds"], rel=1e-12)
    assert len(score.attrs["folds"]) == 4
    single = MultiSubjectNeuralBenchmark("one", ["sub-1"], _Child)(None)
    assert np.isnan(single.attrs["error"]) and "error_nan_reason" in single.attrs
    with pytest.raises(BenchmarkDataError, match="at least one"):
        MultiSubjectNeuralBenchmark("none", [], _Child)


def test_block_diagonal_concat():
    first = NeuroidAssembly(np.ones((2, 3)), coords={"stimulus_id": ("presentation", ["a", "b"]),
                                                      "subject_id": ("neuroid", ["s1"] * 3)},
                            dims=["presentation", "neuroid"])
    second = NeuroidAssembly(2 * np.ones((1, 2)), coords={"stimulus_id": ("presentation", ["c"]),
                                                           "subject_id": ("neuroid", ["s2"] * 2)},
                             dims=["presentation", "neuroid"])
    combined = block_diagonal_concat([first, second])
    expected = np.full((3, 5), np.nan)
    expected[:2, :3], expected[2:, 3:] = 1, 2
    np.testing.assert_array_equal(combined.values, expected)
    assert combined["stimulus_id"].values.tolist() == ["a", "b", "c"]
    assert combined["subject_id"].values.tolist() == ["s1"] * 3 + ["s2"] * 2


def test_brainscores_import_paths_of_the_newest_pieces():
    import importlib

    from brainscore_metrics.predictor_consistency import SplitHalfPredictorConsistency

    ceiling = importlib.import_module("brainscore_vision.metrics.predictor_consistency.ceiling")
    assert ceiling.SplitHalfPredictorConsistency is SplitHalfPredictorConsistency
    neural_common = importlib.import_module("brainscore_vision.benchmark_helpers.neural_common")
    for name in ("RSABenchmark", "TrainTestNeuralBenchmark", "explained_variance", "flatten_timebins_into_neuroids",
                 "neuroid_wise_explained_var", "filter_reliable_neuroids", "average_repetition"):
        assert hasattr(neural_common, name), name
    multi_subject = importlib.import_module("brainscore_vision.benchmark_helpers.multi_subject")
    assert multi_subject.WRAPPER_N_BOOTSTRAP == 200
