"""The metric identifiers Brain-Score registers for its own families, ported: ``ost``, ``mask_regression``,
``baker_accuracy_delta``, ``factor_dimensionality``, ``confusion_similarity``, ``tasks_consistency``.

Where the expected numbers come from: Brain-Score's own metric code at brain-score/vision commit
c642dbe42aae3ed064bc0b66f70a80b264021164 (``brainscore_vision/metrics/<folder>/metric.py``), run in a throwaway
virtual environment under /tmp (Python 3.11, brainscore-core 2.5.0, xarray 2022.3.0, numpy 1.26.4 and, for ``ost``
and ``mask_regression``, tensorflow-cpu 2.21.0 with Keras 3.15.1), with only the imports it needs from
``brainscore_vision`` stubbed (``load_metric('i1')`` returning its ``I1``). Its inputs were built by the functions of
``_reference_inputs.py`` (imported by that script, so both sides see the same arrays); ``mask_regression`` ran on
the real Cowley 2023 V4 recordings (see its test).
"""

from __future__ import annotations

import numpy as np
import pytest
from _reference_inputs import baker_inputs, dimensionality_inputs, i1_inputs, maniquet_inputs, ost_inputs

from brainio.assemblies import BehavioralAssembly, DataAssembly, NeuroidAssembly
from brainio.skipping import require_path
from brainscore_metrics.errors import BehaviorInputError, MissingCoordinateError
from brainscore_metrics.plugin import METRICS, make_factory


def _metric(identifier, *args, **kwargs):
    return make_factory(*METRICS[identifier])(*args, **kwargs)


# -- baker_accuracy_delta ---------------------------------------------------------------------------------------
def _baker():
    b = baker_inputs()
    source = BehavioralAssembly([b["labels"]], coords={"animal": ("presentation", b["animal"]),
                                                      "image_type": ("presentation", b["image_type"]),
                                                      "choice": ("choice", ["label"])}, dims=["choice", "presentation"])
    target = BehavioralAssembly(b["correct"], coords={"subject": ("presentation", b["subject"]),
                                                     "image_type": ("presentation", b["human_image_type"])},
                                dims=["presentation"])
    return source, target


def test_baker_accuracy_delta_equals_brainscore():
    source, target = _baker()
    metric = _metric("baker_accuracy_delta", image_types=["w", "f"])
    score = metric(source, target)
    # Brain-Score's BakerAccuracyDelta(['w', 'f']) on the same inputs: 0.6347137664319391, error 0.18466148507607294
    assert float(score) == pytest.approx(0.6347137664319391, abs=1e-12)
    assert score.attrs["error"] == pytest.approx(0.18466148507607294, abs=1e-12)
    assert len(score.attrs["raw"]) == 100
    halves = (target.isel(presentation=target["subject"].values <= 6),
              target.isel(presentation=target["subject"].values > 6))
    # Brain-Score's compute_ceiling(subjects 1-6, subjects 7-12, ['w', 'f']): 0.7826086956521742
    assert metric.compute_ceiling(*halves, ["w", "f"]) == pytest.approx(0.7826086956521742, abs=1e-12)


def test_baker_accuracy_delta_model_delta_by_hand():
    from brainscore_metrics.behavior.accuracy_delta import get_model_delta

    labels = BehavioralAssembly(["a", "b", "b", "b", "a", "a", "b", "a"], dims=["presentation"], coords={
        "animal": ("presentation", ["a", "a", "b", "b", "a", "a", "b", "b"]),
        "image_type": ("presentation", ["w"] * 4 + ["f"] * 4)})
    # whole: a 1/2, b 2/2 -> 0.75; Frankenstein: a 2/2, b 1/2 -> 0.75; delta 0
    assert get_model_delta(labels, ["w", "f"]) == 0.0
    with pytest.raises(BehaviorInputError, match=r"\['w', <other image type>\]"):
        get_model_delta(labels, ["f", "w"])


# -- i1 (Brain-Score registers its unnormalised I1 as 'i1'; I1n is 'i1n') ----------------------------------------
@pytest.mark.parametrize(("identifier", "expected"), [
    # Brain-Score's I1() and I1n() on the same inputs: score, error, ceiling, ceiling error
    ("i1", [0.1354882314515659, 0.10008997364421912, 0.4660139963475112, 0.08495341051871128]),
    ("i1n", [0.26032505062775785, 0.07061202772024572, 0.5197409007708463, 0.026645092799775894]),
])
def test_i1_and_i1n_equal_brainscore(identifier, expected):
    d = i1_inputs()
    source = BehavioralAssembly(d["probabilities"], dims=["presentation", "choice"], coords={
        "stimulus_id": ("presentation", d["ids"]), "choice": ("choice", d["objects"])})
    target = BehavioralAssembly(d["trial_choice"], dims=["presentation"], coords={
        "stimulus_id": ("presentation", d["trial_image"]), "truth": ("presentation", d["trial_truth"]),
        "sample_obj": ("presentation", d["trial_truth"]), "dist_obj": ("presentation", d["trial_distractor"])})
    metric = _metric(identifier)
    with np.errstate(all="ignore"):
        score, ceiling = metric(source, target), metric.ceiling(target)
    np.testing.assert_allclose([float(score), float(score.attrs["error"]), float(ceiling),
                                float(ceiling.attrs["error"])], expected, atol=1e-12)


# -- factor_dimensionality --------------------------------------------------------------------------------------
def test_factor_dimensionality_equals_brainscore():
    d = dimensionality_inputs()
    first = DataAssembly(d["values1"], coords={"factor": ("sample", d["factor"])}, dims=["sample", "neuron"])
    second = DataAssembly(d["values2"], coords={"factor": ("sample", d["factor"])}, dims=["sample", "neuron"])
    # Brain-Score's Dimensionality(factor) on the same inputs: color 0.35, shape 0.175, residual 0.475 (of 40 dims)
    expected = {"color": 0.35, "shape": 0.175, "residual": 0.475}
    for factor, value in expected.items():
        score = _metric("factor_dimensionality", factor)(first, second)
        assert float(score) == pytest.approx(value, abs=1e-12)
        assert score.attrs["dimensions"] == pytest.approx(expected)
    with pytest.raises(BehaviorInputError, match="'size' is not among"):
        _metric("factor_dimensionality", "size")(first, second)
    with pytest.raises(BehaviorInputError, match="factor 'color': assembly1 has 12 samples and assembly2 11"):
        _metric("factor_dimensionality", "color")(first, second.isel(sample=slice(1, None)))


def test_factor_dimensionality_reads_blocks_of_neurons_alike(monkeypatch):
    """The responses are read a block of neurons at a time: 7-element blocks (one or two neurons) give the shares of
    one block (Brain-Score's single pass)."""
    import brainscore_metrics.dimensionality as dimensionality

    d = dimensionality_inputs()
    whole = dimensionality.factor_dimensions(d["values1"], d["values2"], np.asarray(d["factor"]),
                                             np.asarray(d["factor"]), n_dimensions=40)
    monkeypatch.setattr(dimensionality, "_BLOCK_ELEMENTS", 7)
    assert dimensionality.factor_dimensions(d["values1"].astype(np.float32), d["values2"], np.asarray(d["factor"]),
                                            np.asarray(d["factor"]), n_dimensions=40) == pytest.approx(whole)
    assert whole == pytest.approx({"color": 0.35, "shape": 0.175, "residual": 0.475})


# -- confusion_similarity, tasks_consistency ---------------------------------------------------------------------
def _maniquet():
    m = maniquet_inputs()
    probabilities = BehavioralAssembly(m["probabilities"], dims=["presentation", "choice"], coords={
        "image_label": ("presentation", m["image_label"]), "manipulation": ("presentation", m["manipulation"]),
        "manipulation_details": ("presentation", m["manipulation_details"]), "choice": ("choice", m["choices"])})
    human = BehavioralAssembly(m["prediction"], dims=["presentation"], coords={
        "image_label": ("presentation", m["human_image_label"]), "prediction": ("presentation", m["prediction"]),
        "task": ("presentation", m["task"]), "subject_id": ("presentation", m["subject_id"])})
    return probabilities, human


def test_confusion_similarity_and_tasks_consistency_equal_brainscore():
    probabilities, human = _maniquet()
    # Brain-Score's ConfusionSimilarity and TasksConsistency on the same inputs
    assert float(_metric("confusion_similarity")(probabilities, human)) == pytest.approx(-0.21600025371528353,
                                                                                       abs=1e-12)
    score = _metric("tasks_consistency")(probabilities, human)
    assert float(score) == pytest.approx(0.7466764493398128, abs=1e-12)
    assert score.attrs["tasks"] == sorted(score.attrs["tasks"]) and len(score.attrs["model_accuracies"]) == 8


def test_task_names_map_to_model_conditions():
    from brainscore_metrics.behavior.confusion import task_condition

    assert task_condition("control") == ("control", "control")
    assert task_condition("occlusion_few_large_partial_viewing_high") == ("occluder", "fewlarge-high")
    assert task_condition("scrambling_lowpass") == ("phasescrambling", "lowpass")
    assert task_condition("clutter_unknown") == ("clutter", "control")


def test_confusion_similarity_refuses_label_sets_that_differ():
    probabilities, human = _maniquet()
    with pytest.raises(BehaviorInputError, match="differ from the humans' image_label"):
        _metric("confusion_similarity")(probabilities, human.isel(presentation=human["image_label"].values != "dog"))
    with pytest.raises(MissingCoordinateError, match="manipulation_details"):
        _metric("tasks_consistency")(probabilities.drop_vars("manipulation_details"), human)


# -- ost ---------------------------------------------------------------------------------------------------------
def _ost():
    d = ost_inputs()
    source = NeuroidAssembly(d["values"], dims=["presentation", "neuroid", "time_bin"], coords={
        "stimulus_id": ("presentation", d["ids"]), "image_label": ("presentation", d["labels"]),
        "truth": ("presentation", d["labels"]), "neuroid_id": ("neuroid", np.arange(d["values"].shape[1])),
        "time_bin_start": ("time_bin", d["starts"]), "time_bin_end": ("time_bin", d["starts"] + 10)})
    target = DataAssembly(d["osts"], dims=["presentation"], coords={"stimulus_id": ("presentation", d["ids"]),
                                                                   "i1": ("presentation", d["thresholds"])})
    return source, target


def test_ost_equals_brainscore():
    source, target = _ost()
    score = _metric("ost")(source, target)
    # Brain-Score's OSTCorrelation (TensorFlow readout) on the same inputs: -0.11757135429323858, standard error
    # 0.10587954838119805, and per split:
    expected_splits = [-0.37868219452030755, -0.03119198780736627, 0.12506107989614448, -0.2537898243342131,
                       -0.3494282789073061, -0.24271195048676716, 0.6377481392176932, 0.10864563540248492,
                       -0.14850701853560508, -0.642857142857143]
    assert float(score) == pytest.approx(-0.11757135429323858, abs=1e-9)
    assert float(score.attrs["error"]) == pytest.approx(0.10587954838119805, abs=1e-9)
    np.testing.assert_allclose(score.attrs["raw"].values, expected_splits, atol=1e-9)
    # its predicted OSTs (ms) of the first split's 18 test images, NaN where the threshold is never reached
    nan = np.nan
    expected = [82.620809, 70.0, nan, 70.0, 70.0, 75.360212, 116.372684, nan, nan, 101.598399, nan, 70.0, 70.0,
                80.741431, 79.824869, 86.070958, nan, 81.720185]
    np.testing.assert_allclose(score.attrs["predicted_osts"][0], expected, atol=1e-3)


def test_solution_times_by_hand():
    from brainscore_metrics.behavior.ost import solution_times

    i1 = np.array([[0.0, 0.5, 2.0],    # image 0: below, below (higher), hit -> interpolate 0.5 -> 2.0
                   [3.0, 3.0, 3.0],    # image 1: hit in the first bin -> its start
                   [0.2, 0.1, 0.3],    # image 2: never -> NaN
                   [1.0, 0.4, 1.2]])   # image 3: the highest value below (1.0 at 70) is the start
    thresholds = np.array([1.0, 1.0, 1.0, 1.1])
    times = solution_times(lambda k: i1[:, k], [70, 80, 90], thresholds)
    expected = [80 + (1.0 - 0.5) * 10 / 1.5, 70.0, np.nan, 70 + (1.1 - 1.0) * 20 / 0.2]
    np.testing.assert_allclose(times, expected)


def test_tensorflow_initial_weights_are_reproduced():
    from brainscore_metrics._tf_random import keras_variance_scaling, stateless_truncated_normal

    # tf.random.stateless_truncated_normal([7, 5], seed=[0, 0]) and of [301, 10], drawn by TensorFlow 2.21.0
    np.testing.assert_allclose(stateless_truncated_normal((7, 5)).ravel()[:8],
                               [-1.6970340013504028, -0.4813767075538635, -0.6622369289398193, 0.0870111882686615,
                                -0.2657979428768158, 0.09044945985078812, -0.8529002070426941, 0.7217522263526917],
                               atol=3e-7)
    np.testing.assert_allclose(stateless_truncated_normal((301, 10)).ravel()[[0, 1000, 2000, 3009]],
                               [-1.6970340013504028, -0.5566622614860535, 1.0405946969985962, 0.28022444248199463],
                               atol=3e-7)
    # Keras 3's VarianceScaling(seed=0) of shape (7, 5), first row
    np.testing.assert_allclose(keras_variance_scaling(7, 5)[0], [-0.7291948795318604, -0.20684172213077545,
                                                                 -0.2845551669597626, 0.037387650460004807,
                                                                 -0.11421015113592148], atol=3e-7)


def test_tf1_adam_first_step_by_hand():
    from brainscore_metrics._adam import TF1Adam

    weights = np.array([1.0, -2.0], dtype=np.float32)
    optimiser = TF1Adam([weights])
    optimiser.update([weights], [np.array([0.5, -0.1], dtype=np.float32)], learning_rate=0.1)
    # step 1: m = 0.1 g, v = 0.001 g^2, rate = 0.1 sqrt(0.001) / 0.1 -> update = 0.1 * sign(g) (up to eps)
    np.testing.assert_allclose(weights, [0.9, -1.9], atol=1e-6)


def test_ost_names_what_is_missing():
    source, target = _ost()
    with pytest.raises(MissingCoordinateError, match="'i1'"):
        _metric("ost")(source, target.drop_vars("i1"))
    with pytest.raises(BehaviorInputError, match="time_bin"):
        _metric("ost")(source.isel(time_bin=0), target)


# -- mask_regression (real data) ---------------------------------------------------------------------------------
#: the Cowley 2023 V4 units (session 210325, indices into its 50) of the comparison; the others' fitted masks
#: collapse to near-constant predictions in some split (TensorFlow's as ours), whose Pearson r is then float32 noise
MASK_UNITS = [0, 2, 4, 7, 8, 9, 11, 12, 13, 14, 16, 17, 22, 23, 24, 25, 26, 27, 29, 30, 31, 33, 37, 40, 41, 42, 44]


def _cowley_feature_maps(raw_data_dir):
    """Cowley 2023 V4 (session 210325) sorted by stimulus_id: each image as an 8 x 8 x RGB feature map (14 x 14 pixel
    block means / 255, channel-major) and the repeat-averaged responses of :data:`MASK_UNITS` (float32)."""
    import csv

    from PIL import Image

    folder = require_path(raw_data_dir / "cowley2023_v4", "Cowley 2023 raw data")
    with open(folder / "stimuli_210325.csv", newline="") as handle:
        rows = list(csv.DictReader(handle))
    order = np.argsort([row["stimulus_id"] for row in rows], kind="stable")
    images = np.stack([np.asarray(Image.open(folder / rows[i]["filename"]).convert("RGB"), dtype=np.float64)
                       for i in order])
    maps = images.reshape(len(images), 8, 14, 8, 14, 3).mean(axis=(2, 4)) / 255.0
    values = maps.transpose(0, 3, 1, 2).reshape(len(images), -1).astype(np.float32)
    responses = np.nanmean(np.load(folder / "responses_raw_210325.npy"), axis=2)[:, order].T[:, MASK_UNITS]
    ids = [rows[i]["stimulus_id"] for i in order]
    source = NeuroidAssembly(values, dims=["presentation", "neuroid"], coords={
        "stimulus_id": ("presentation", ids), "neuroid_id": ("neuroid", np.arange(values.shape[1])),
        "channel": ("neuroid", np.repeat(np.arange(3), 64)), "channel_x": ("neuroid", np.tile(np.repeat(np.arange(8), 8), 3)),
        "channel_y": ("neuroid", np.tile(np.arange(8), 24))})
    target = NeuroidAssembly(responses.astype(np.float32), dims=["presentation", "neuroid"], coords={
        "stimulus_id": ("presentation", ids), "neuroid_id": ("neuroid", MASK_UNITS)})
    return source, target


def test_mask_regression_on_real_v4_data_equals_brainscore(raw_data_dir):
    """``mask_regression`` = Brain-Score's ``CrossRegressedCorrelation(mask_regression(), pearsonr_correlation())``:
    10 shuffle splits (train 0.9, seed 1) of the 640 images, the factorised mask regression (TensorFlow's Adam, 40
    epochs) fitted on each, Pearson r per unit, median over units, mean over splits. Brain-Score's numbers: its
    ``MaskRegression`` (TensorFlow) after ``numpy.random.seed(0)`` on the same arrays, per split (its predictions equal
    ours to 2e-5 of values near 9)."""
    source, target = _cowley_feature_maps(raw_data_dir)
    score = _metric("mask_regression")(source, target)
    expected_splits = [0.09212561601691237, 0.09791211132816414, 0.1639367629262392, 0.13148305373243777,
                       0.06064566741680002, 0.21632789500229066, 0.08643141319860753, 0.1678056017255752,
                       0.002073451618020236, 0.11867452427012055]
    np.testing.assert_allclose(score.attrs["splits"], expected_splits, atol=1e-5)
    assert float(score) == pytest.approx(0.11374160972351677, abs=1e-6)
    assert float(score.attrs["error"]) == pytest.approx(0.018181896135084794, abs=1e-6)


def test_mask_regression_needs_a_feature_map_layout():
    from brainscore_metrics.mask_regression import MaskRegression

    source, target = _ost()[0].isel(time_bin=0), None
    values = np.random.default_rng(0).normal(size=(source.sizes["presentation"], 2))
    target = NeuroidAssembly(values, dims=["presentation", "neuroid"], coords={
        "stimulus_id": ("presentation", source["stimulus_id"].values), "neuroid_id": ("neuroid", [0, 1])})
    with pytest.raises(MissingCoordinateError, match=r"\['channel', 'channel_x', 'channel_y'\]"):
        _metric("mask_regression")(source, target)
    with pytest.raises(ValueError, match=r"\(2, 2, 2\) does not match the source's 20 features"):
        MaskRegression(channel_shape=(2, 2, 2)).fit(source.values, values)
