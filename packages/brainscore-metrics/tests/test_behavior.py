"""Behavioural metrics: hand-worked toys (spec section 10 oracles) and an independent I2n in plain loops."""

from __future__ import annotations

import itertools
import math
from collections import Counter

import numpy as np
import pytest
import scipy.stats

from brainio.assemblies import BehavioralAssembly, DataAssembly
from brainscore_metrics.behavior.accuracy import Accuracy
from brainscore_metrics.behavior.accuracy_distance import AccuracyDistance
from brainscore_metrics.behavior.error_consistency import ErrorConsistency
from brainscore_metrics.behavior.i2n import I1n, I2n, ceil_per_repetition, dprime_matrix
from brainscore_metrics.behavior.value_delta import ValueDelta
from brainscore_metrics.errors import BehaviorInputError, MissingCoordinateError


def trials(labels, **coords):
    return BehavioralAssembly(list(labels), coords={name: ("presentation", list(values))
                                                    for name, values in coords.items()}, dims=["presentation"])


# ------------------------------------------------------------------------------------------ accuracy
def test_accuracy_hand_worked_and_aligned_on_stimulus_id():
    # 3 of 4 labels match: mean 0.75, population std of (1, 1, 0, 1) = sqrt(0.75 * 0.25) = 0.4330
    source = trials(["dog", "cat", "car", "cup"], stimulus_id=["s1", "s2", "s3", "s4"])
    target = trials(["cup", "bus", "cat", "dog"], stimulus_id=["s4", "s3", "s2", "s1"])  # shuffled order
    score = Accuracy()(source, target)
    assert score.item() == pytest.approx(0.75)
    assert score.attrs["error"] == pytest.approx(math.sqrt(0.75 * 0.25))
    assert Accuracy()(np.array(["a", "b"]), ["a", "c"]).item() == 0.5  # positional for plain arrays


def test_accuracy_bad_input():
    with pytest.raises(BehaviorInputError, match="trials"):
        Accuracy()(np.array(["a", "b"]), np.array(["a"]))
    source = trials(["a", "b"], stimulus_id=["s1", "s2"])
    with pytest.raises(BehaviorInputError, match="s9"):
        Accuracy()(source, trials(["a", "b"], stimulus_id=["s1", "s9"]))


def test_accuracy_bootstrap():
    source = trials(list("abcdefghij"), stimulus_id=[f"s{i}" for i in range(10)])
    target = trials(list("abcdexxxxx"), stimulus_id=[f"s{i}" for i in range(10)])
    score = Accuracy(bootstrap=500)(source, target)
    assert score.attrs["ci_low"] < 0.5 < score.attrs["ci_high"]


# -------------------------------------------------------------------------------- error consistency
def correctness_assembly(patterns: dict, truth=("cat", "dog", "cat", "dog")):
    """Trials from per-subject, per-condition correctness patterns (wrong = the other label)."""
    labels, coords = [], {"stimulus_id": [], "truth": [], "condition": [], "subject": []}
    for subject, conditions in patterns.items():
        for condition, pattern in conditions.items():
            labels += [t if ok else ("dog" if t == "cat" else "cat") for t, ok in zip(truth, pattern)]
            coords["stimulus_id"] += [f"{condition}_{i}" for i in range(len(pattern))]
            coords["truth"] += list(truth)
            coords["condition"] += [condition] * len(pattern)
            coords["subject"] += [subject] * len(pattern)
    return trials(labels, **coords)


MODEL = {"c1": [1, 1, 1, 1], "c2": [1, 1, 0, 0], "c3": [1, 1, 1, 0]}
SUBJECTS = {"X": MODEL,
            "Y": {"c1": [1, 1, 1, 1], "c2": [1, 0, 1, 0], "c3": [1, 1, 1, 1]},
            "Z": {"c1": [1, 1, 1, 1], "c2": [0, 0, 1, 1], "c3": [1, 0, 0, 0]}}


def test_error_consistency_toy_is_02():
    # kappa = (obs - exp) / (1 - exp), exp = a b + (1 - a)(1 - b); model accuracies c1 1, c2 1/2, c3 3/4.
    # c1: every subject is all correct -> exp = 1 -> undefined (NaN, skipped).
    # X (= model): c2 a = b = 1/2, exp 1/2, obs 1 -> 1; c3 a = b = 3/4, exp 5/8, obs 1 -> 1.   mean  1
    # Y: c2 [1,0,1,0] vs [1,1,0,0]: exp 1/2, obs 1/2 -> 0; c3 b = 1: exp 3/4, obs 3/4 -> 0.     mean  0
    # Z: c2 [0,0,1,1]: obs 0 -> (0 - 1/2) / (1/2) = -1; c3 [1,0,0,0]: b = 1/4,
    #    exp = 3/4 * 1/4 + 1/4 * 3/4 = 3/8, obs 1/2 -> (1/8) / (5/8) = 0.2.                       mean -0.4
    # value = |(1 + 0 - 0.4) / 3| = 0.2; error = population std of (1, 1, 0, 0, -1, 0.2) = sqrt(2.8 / 6)
    score = ErrorConsistency()(correctness_assembly({"model": MODEL}), correctness_assembly(SUBJECTS))
    assert score.item() == pytest.approx(0.2)
    assert score.attrs["error"] == pytest.approx(math.sqrt(2.8 / 6))
    raw = score.attrs["raw"]
    assert raw.dims == ("subject", "condition")
    assert np.isnan(raw.sel(subject="Y", condition="c1").item())
    assert raw.sel(subject="Z", condition="c3").item() == pytest.approx(0.2)


def test_error_consistency_ceiling_over_subject_pairs():
    # pairs: (X, Y) = 0 and (X, Z) = -0.4 as above; (Y, Z): c2 [1,0,1,0] vs [0,0,1,1]: exp 1/2, obs 1/2 -> 0,
    # c3 [1,1,1,1] vs [1,0,0,0]: a = 1, b = 1/4, exp 1/4, obs 1/4 -> 0.  ceiling = |(0 - 0.4 + 0) / 3| = 0.1333
    ceiling = ErrorConsistency().ceiling(correctness_assembly(SUBJECTS))
    assert ceiling.item() == pytest.approx(0.4 / 3)
    assert list(ceiling.attrs["raw"]["subject_left"].values) == ["X", "X", "Y"]


def test_error_consistency_missing_stimulus_is_named():
    model = correctness_assembly({"model": {"c1": [1, 1, 1]}}, truth=("cat", "dog", "cat"))
    subjects = correctness_assembly({"X": {"c1": [1, 1, 1, 0]}})
    with pytest.raises(BehaviorInputError, match="c1_3"):
        ErrorConsistency()(model, subjects)


def test_error_consistency_missing_coordinate_is_named():
    with pytest.raises(MissingCoordinateError, match="condition"):
        ErrorConsistency()(trials(["a"], stimulus_id=["s"], truth=["a"]), trials(["a"], stimulus_id=["s"]))


# -------------------------------------------------------------------------------- accuracy distance
def distance_assembly():
    # 3 subjects x 3 conditions x 3 stimuli; correctness per condition (low, mid, high):
    # S1 (1,1,1 | 1,1,0 | 0,0,0) = 5/9, S2 (1,1,0 | 1,0,0 | 0,0,0) = 3/9, S3 all correct = 9/9
    patterns = {"S1": {"low": [1, 1, 1], "mid": [1, 1, 0], "high": [0, 0, 0]},
                "S2": {"low": [1, 1, 0], "mid": [1, 0, 0], "high": [0, 0, 0]},
                "S3": {"low": [1, 1, 1], "mid": [1, 1, 1], "high": [1, 1, 1]}}
    return correctness_assembly(patterns, truth=("car", "tree", "car"))


def test_accuracy_distance_toy_is_0740():
    # distance = 1 - |s - t| / max(1 - t, t); source = S1 (5/9):
    # vs S1: 1; vs S2 (3/9): 1 - (2/9) / (6/9) = 2/3; vs S3 (1): 1 - (4/9) / 1 = 5/9 -> mean 20/27 = 0.74074074
    assembly = distance_assembly()
    source = assembly.isel(presentation=np.flatnonzero(assembly["subject"].values == "S1"))
    score = AccuracyDistance()(source, assembly)
    assert score.item() == pytest.approx(0.74074074)
    np.testing.assert_allclose(score.attrs["raw"].values, [1, 2 / 3, 5 / 9])
    assert score.attrs["error"] == pytest.approx(np.std([1, 2 / 3, 5 / 9]))


def test_accuracy_distance_per_condition_is_0556():
    # source = S3 (all correct, 1 per condition); per condition t >= 1/2: 1 - (1 - t) / t, t < 1/2: 0
    # S1 (1, 2/3, 0) -> (1, 1/2, 0), mean 1/2; S2 (2/3, 1/3, 0) -> (1/2, 0, 0), mean 1/6; S3 -> 1
    # mean = (1/2 + 1/6 + 1) / 3 = 5/9 = 0.55555556
    assembly = distance_assembly()
    source = assembly.isel(presentation=np.flatnonzero(assembly["subject"].values == "S3"))
    assert AccuracyDistance()(source, assembly, ("condition",)).item() == pytest.approx(0.55555556)
    assert AccuracyDistance(variables=("condition",))(source, assembly).item() == pytest.approx(0.55555556)


def test_accuracy_distance_ceiling():
    # pairs (S1,S2) = 2/3, (S1,S3) = 5/9, (S2,S3) = 1 - (6/9)/1 = 1/3: mean 14/27
    assert AccuracyDistance().ceiling(distance_assembly()).item() == pytest.approx(14 / 27)


# ---------------------------------------------------------------------------------------- value delta
def test_value_delta_oracles():
    assert ValueDelta()(0.2, 0.7).item() == pytest.approx(0.6065, abs=1e-4)  # exp(-0.5)
    assert ValueDelta()(3.0, 1.0).item() == pytest.approx(0.1353, abs=1e-4)  # exp(-2)
    assert ValueDelta(2.0)(0.0, 0.5).item() == pytest.approx(math.exp(-1))
    score = ValueDelta()(1.0, 1.0)
    assert score.item() == 1.0 and score.attrs["error"] == 0.0 and score.attrs["raw"] == [1.0, 1.0]
    with pytest.raises(ValueError, match="bootstrap"):
        ValueDelta(bootstrap=10)(0.0, 1.0)


def test_value_delta_brainscore_unit_values():
    """Brain-Score's metrics/value_delta/test.py (c642dbe4), values to 0.0005 as it asserts them; exp(-|a - b|)."""
    assert ValueDelta()(1.25, 1.25).item() == 1
    for a, b, expected in ((1.50, 1.00, 0.6065), (1.00, -1.00, 0.1353), (-5.00, 5.00, 0.0)):
        assert ValueDelta()(a, b).item() == pytest.approx(expected, abs=0.0005)
        assert ValueDelta()(b, a).item() == pytest.approx(expected, abs=0.0005)


# ---------------------------------------------------------------------------------------------- i2n
def test_dprime_hand_worked():
    # objects (a, b); model P rows: i1 (a) [.8, .2], i2 (a) [.6, .4], i3 (b) [.3, .7], i4 (b) [.1, .9]
    # p(i, o) = P(o) / (P(o) + P(truth)): p(i1, b) = .2, p(i2, b) = .4, p(i3, a) = .3, p(i4, a) = .1
    # FA(i1, b) = mean over b-images of p(., a) = (.3 + .1) / 2 = .2; FA(i3, a) = (.2 + .4) / 2 = .3
    z = scipy.stats.norm.ppf
    p = np.array([[np.nan, .2], [np.nan, .4], [.3, np.nan], [.1, np.nan]])
    truth = np.array([0, 0, 1, 1])
    expected = np.array([z(.8) - z(.2), z(.6) - z(.2), z(.7) - z(.3), z(.9) - z(.3)])  # 1.683, 1.095, 1.049, 1.806
    raw = dprime_matrix(p, truth, normalize=False)
    np.testing.assert_allclose(raw[[0, 1, 2, 3], [1, 1, 0, 0]], expected)
    normalized = dprime_matrix(p, truth, normalize=True)
    means = [expected[:2].mean()] * 2 + [expected[2:].mean()] * 2  # per (truth, choice)
    np.testing.assert_allclose(normalized[[0, 1, 2, 3], [1, 1, 0, 0]], expected - means)


def reference_dprimes(p_of, images, truth_of, objects, normalize=True, collapse=False, cap=5):
    """d' per (image, object) from a dict (image, object) -> p, in loops (NaN where undefined)."""
    z = scipy.stats.norm.ppf
    d = {}
    for image, obj in itertools.product(images, objects):
        p = p_of.get((image, obj), np.nan)
        false_alarms = [p_of.get((other, truth_of[image]), np.nan) for other in images if truth_of[other] == obj]
        fa = np.nanmean(false_alarms) if not all(np.isnan(false_alarms)) else np.nan
        d[image, obj] = float(np.clip(z(1 - p) - z(fa), -cap, cap))
    if normalize:
        means = {}
        for obj_truth, obj in itertools.product(objects, objects):
            group = [d[image, obj] for image in images if truth_of[image] == obj_truth]
            means[obj_truth, obj] = np.nanmean(group) if group and not all(np.isnan(group)) else np.nan
        d = {(image, obj): value - means[truth_of[image], obj] for (image, obj), value in d.items()}
    if collapse:
        return np.array([np.nanmean([d[image, obj] for obj in objects]) for image in images])
    return np.array([[d[image, obj] for obj in objects] for image in images])


def human_p(trial_list, images, objects):
    chosen = Counter((t["image"], t["choice"]) for t in trial_list)
    offered = Counter(itertools.chain(*[[(t["image"], t["sample"]), (t["image"], t["distractor"])]
                                        for t in trial_list]))
    truth_of = {t["image"]: t["sample"] for t in trial_list}
    return {(image, obj): (chosen[image, obj] / offered[image, obj] if offered[image, obj] else np.nan)
            for image in images for obj in objects if truth_of.get(image) != obj}


def reference_i2n(probabilities, trial_list, images, objects, truth_of, collapse=False, repetitions=2):
    model_p = {}
    for image in images:
        for obj in objects:
            if obj != truth_of[image]:
                chosen, target = probabilities[image][obj], probabilities[image][truth_of[image]]
                model_p[image, obj] = chosen / (chosen + target)
    model = reference_dprimes(model_p, images, truth_of, objects, collapse=collapse).ravel()
    state = np.random.RandomState(0)
    scores, ceilings = [], []
    for _ in range(repetitions):
        indices = list(range(len(trial_list)))
        state.shuffle(indices)
        half = len(indices) // 2
        halves = [[trial_list[i] for i in indices[:half]], [trial_list[i] for i in indices[half:]]]
        matrices = [reference_dprimes(human_p(h, images, objects), images, truth_of, objects,
                                      collapse=collapse).ravel() for h in halves]
        mask = ~np.isnan(matrices[0])
        scores.append(scipy.stats.pearsonr(model[mask], matrices[0][mask])[0])
        ceilings.append(scipy.stats.pearsonr(matrices[0][mask], matrices[1][mask])[0])
    return scores, ceilings


@pytest.fixture(scope="module")
def objectome_like():
    rng = np.random.default_rng(5)
    objects = ["bear", "car", "dog", "face"]
    images = [f"im{i:02d}" for i in range(16)]
    truth_of = {image: objects[i % 4] for i, image in enumerate(images)}
    difficulty = rng.uniform(0.5, 3, size=16)
    probabilities = {}
    for i, image in enumerate(images):
        logits = rng.normal(size=4)
        logits[objects.index(truth_of[image])] += difficulty[i]
        probabilities[image] = dict(zip(objects, np.exp(logits) / np.exp(logits).sum()))
    trial_list = []
    for _ in range(1500):
        i = int(rng.integers(16))
        image = images[i]
        distractor = rng.choice([o for o in objects if o != truth_of[image]])
        correct = rng.random() < scipy.stats.norm.cdf(difficulty[i] - 1)
        trial_list.append({"image": image, "sample": truth_of[image], "distractor": str(distractor),
                           "choice": truth_of[image] if correct else str(distractor)})
    source = DataAssembly(np.array([[probabilities[image][o] for o in objects] for image in images]),
                          coords={"stimulus_id": ("presentation", images), "choice": ("choice", objects)},
                          dims=["presentation", "choice"])
    target = trials([t["choice"] for t in trial_list], stimulus_id=[t["image"] for t in trial_list],
                    truth=[t["sample"] for t in trial_list], sample_obj=[t["sample"] for t in trial_list],
                    dist_obj=[t["distractor"] for t in trial_list])
    return probabilities, trial_list, images, objects, truth_of, source, target


@pytest.mark.parametrize("metric_class, collapse", [(I2n, False), (I1n, True)])
def test_i2n_and_i1n_equal_loop_reference(objectome_like, metric_class, collapse):
    probabilities, trial_list, images, objects, truth_of, source, target = objectome_like
    scores, ceilings = reference_i2n(probabilities, trial_list, images, objects, truth_of, collapse=collapse)
    score = metric_class()(source, target)
    np.testing.assert_allclose(score.attrs["raw"].values, scores, atol=1e-10)
    assert score.item() == pytest.approx(np.mean(scores))
    assert score.attrs["error"] == pytest.approx(np.std(scores))
    ceiling = metric_class().ceiling(target)
    np.testing.assert_allclose(ceiling.attrs["raw"].values, ceilings, atol=1e-10)
    ceiled = ceil_per_repetition(score, ceiling)
    expected = np.array(scores) / np.sqrt(ceilings)
    assert ceiled.item() == pytest.approx(expected.mean())
    assert ceiled.attrs["error"] == pytest.approx(expected.std())
    assert ceiled.attrs["raw"] is score and ceiled.attrs["ceiling"] is ceiling


def test_i2n_unknown_image_named(objectome_like):
    *_, source, target = objectome_like
    ids = source["stimulus_id"].values.astype(object)
    ids[0] = "never_shown"
    renamed = source.assign_coords(stimulus_id=("presentation", ids))
    with pytest.raises(BehaviorInputError, match="never_shown"):
        I2n()(renamed, target)


def test_i2n_bootstrap(objectome_like):
    *_, source, target = objectome_like
    score = I2n(bootstrap=100)(source, target)
    assert score.attrs["ci_low"] < score.item() < score.attrs["ci_high"]


def test_i2n_on_the_legacy_tutorials_small_example_stops_where_brainscore_stops():
    """The 1.x tutorial's I2n benchmark on a small trial set scored NaN here; Brain-Score's code gives no NaN: its
    ceiling stops with an assertion (a first half without d' where the second has one). Ours stops there too, in one
    line; the raw score and the ``skipna`` ceiling equal Brain-Score's (values and provenance in the data file)."""
    import json
    from pathlib import Path

    from brainio.assemblies import BehavioralAssembly
    from brainscore_metrics.behavior.i2n import I2n
    from brainscore_metrics.errors import BehaviorInputError

    data = json.loads((Path(__file__).parent / "data" / "i2n_small_trials.json").read_text())
    probabilities = BehavioralAssembly(np.asarray(data["prob_values"]), coords={
        "stimulus_id": ("presentation", data["prob_ids"]), "choice": ("choice", data["choices"])},
        dims=["presentation", "choice"])
    humans = BehavioralAssembly(data["human_values"], coords={name: ("presentation", values) for name, values in
                                                              data["human"].items()}, dims=["presentation"])
    metric = I2n()
    assert float(metric(probabilities, humans)) == pytest.approx(data["reference"]["raw"], abs=1e-12)
    assert float(metric.ceiling(humans, skipna=True)) == pytest.approx(data["reference"]["ceiling_skipna"], abs=1e-12)
    with pytest.raises(BehaviorInputError, match="first half of the human trials has no d' for 5 of the 143") as raised:
        metric.ceiling(humans)
    assert "\n" not in str(raised.value) and "skipna=True" in str(raised.value)
