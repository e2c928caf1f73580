"""``threshold`` / ``threshold_elevation`` against closed forms and hand-worked examples."""

import numpy as np
import pytest
from scipy.stats import norm

from brainio.assemblies import BehavioralAssembly, PropertyAssembly
from brainscore_metrics.behavior.threshold import (
    Threshold,
    ThresholdElevation,
    psychometric_cum_gauss,
    threshold_score,
)
from brainscore_metrics.plugin import METRICS, make_factory


def responses(rates_of, offsets, trials=1000):
    """Choice probabilities whose correctness rate at each offset is ``rates_of(offset)`` (to 1/trials)."""
    rows, offset_of, label_of = [], [], []
    for offset in offsets:
        n_correct = int(round(rates_of(offset) * trials))
        for k in range(trials):
            rows.append([0.9, 0.1] if k < n_correct else [0.1, 0.9])
            offset_of.append(offset)
            label_of.append("left")
    return BehavioralAssembly(np.array(rows), coords={
        "stimulus_id": ("presentation", [f"s{i}" for i in range(len(rows))]),
        "image_label": ("presentation", label_of), "vernier_offset": ("presentation", offset_of),
        "choice": ("choice", ["left", "right"])}, dims=["presentation", "choice"])


def test_the_psychometric_function_is_wichmann_and_hill():
    # gamma + (1 - gamma - lambda) * Phi(alpha (x - beta)), at x = beta: 0.5 + (0.5 - 0.05) / 2
    assert psychometric_cum_gauss(3.0, 2.0, 3.0, 0.05) == pytest.approx(0.5 + 0.45 * norm.cdf(0))


def test_threshold_recovers_the_mean_of_a_known_psychometric_function():
    # offsets symmetric around beta = 3: the inflection accuracy is the fit's value at 3, so the threshold is 3
    offsets = np.arange(1.0, 5.01, 0.5)
    model = responses(lambda x: psychometric_cum_gauss(x, 2.0, 3.0, 0.05), offsets)
    threshold = Threshold("vernier_offset").compute_threshold(model)
    assert threshold == pytest.approx(3.0, abs=0.02)


def test_score_is_the_mean_relative_closeness_to_each_subject():
    # model 2 against subjects 2, 4, 1: 1 - 0/2 = 1, 1 - 2/4 = 0.5, max(0, 1 - 1/1) = 0 -> mean 0.5
    score = threshold_score(2.0, [2.0, 4.0, 1.0])
    assert float(score) == pytest.approx(0.5) and score.attrs["raw"] == [1.0, 0.5, 0.0]
    assert score.attrs["error"] == pytest.approx(np.std([1.0, 0.5, 0.0]))
    assert float(Threshold("vernier_offset")(2.0, [2.0, 4.0, 1.0])) == pytest.approx(0.5)


def test_ceiling_scores_each_subject_against_the_others():
    humans = [1.0, 2.0, 4.0]
    expected = []
    pool = list(humans)
    for i in range(3):  # Brain-Score's draw: RandomState(i).choice of the remaining pool
        held = np.random.RandomState(i).choice(pool, replace=False)
        pool.remove(held)
        expected.append(np.mean([max(0.0, 1 - abs(h - held) / h) for h in pool]))
        pool.append(held)
    ceiling = Threshold("vernier_offset").ceiling(np.array(humans))
    assert float(ceiling) == pytest.approx(np.mean(expected)) and ceiling.attrs["error"] == pytest.approx(np.std(expected))


def test_chance_responses_fail_the_fit_and_score_zero():
    model = responses(lambda x: 0.5, np.arange(1.0, 5.01, 0.5), trials=200)
    score = Threshold("vernier_offset")(model, [2.0, 3.0])
    assert float(score) == 0.0 and score.attrs["fit"] == "fit_fail"


def test_threshold_elevation():
    # human elevations from thresholds: condition / baseline = 4/2, 3/1 -> [2, 3]; model elevation 2.5:
    # 1 - 0.5/2 = 0.75 and 1 - 0.5/3 = 0.8333 -> mean 0.79167
    target = {"baseline_assembly": np.array([2.0, 1.0]), "condition_assembly": np.array([4.0, 3.0])}

    class Values:  # PropertyAssembly-like: .values
        def __init__(self, values):
            self.values = values

    target = {key: Values(value) for key, value in target.items()}
    metric = make_factory(*METRICS["threshold_elevation"])("vernier_offset", "short-2", "equal-16")
    assert float(metric(2.5, target)) == pytest.approx((0.75 + 1 - 0.5 / 3) / 2)
    offsets = np.arange(1.0, 5.01, 0.5)
    baseline = responses(lambda x: psychometric_cum_gauss(x, 2.0, 2.0, 0.05), offsets)
    test = responses(lambda x: psychometric_cum_gauss(x, 2.0, 3.0, 0.05), offsets)
    elevation = metric({"short-2": baseline, "equal-16": test}, [1.5])
    # thresholds near 2 and 3 at the baseline's inflection accuracy: elevation about 1.5, so the score is near 1
    assert float(elevation) == pytest.approx(1.0, abs=0.05)


def test_brainscore_unit_values():
    """Brain-Score's metrics/threshold/test.py (c642dbe4): subject A against the four subjects' thresholds and
    elevations; the values are also worked by hand in the comments."""
    subjects = {"subject": ("subject", ["A", "B", "C", "D"])}
    thresholds = PropertyAssembly([10.0, 20.0, 40.0, 20.0], coords=subjects, dims=["subject"])
    # 10 against 10, 20, 40, 20: 1, 1 - 10/20, 1 - 30/40, 1 - 10/20 -> mean 0.5625 (Brain-Score's expected value)
    score = Threshold("placeholder")(float(thresholds.sel(subject="A").values), thresholds)
    assert float(score) == pytest.approx(0.5625) and "error" in score.attrs and "raw" in score.attrs
    elevations = PropertyAssembly([3.0, 2.0, 1.5, 5.0], coords=subjects, dims=["subject"])
    # 3 against 3, 2, 1.5, 5: 1, 1 - 1/2, max(0, 1 - 1.5/1.5), 1 - 2/5 -> mean 0.525 (Brain-Score's expected value)
    score = ThresholdElevation("placeholder", "placeholder", "placeholder")(
        float(elevations.sel(subject="A").values), elevations)
    assert float(score) == pytest.approx(0.525) and "error" in score.attrs and "raw" in score.attrs


def test_a_non_numeric_independent_variable_is_named():
    """Brain-Score's Malania2007 fits over 'image_label'; where those are words and the model is accurate enough to be
    fitted, the fit cannot run (Brain-Score: TypeError): ours says which coordinate, with its values."""
    from brainscore_metrics.errors import InputTypeError

    model = responses(lambda x: 0.9, np.arange(1.0, 5.01, 0.5), trials=20)
    model = model.assign_coords(image_label=("presentation", np.where(np.arange(model.sizes["presentation"]) % 2,
                                                                      "left", "right")))
    model = model.assign_coords(choice=("choice", ["left", "right"]))
    with pytest.raises(InputTypeError, match=r"independent variable 'image_label' holds values that are not numbers "
                                             r"\(\['left', 'right'\]\)") as raised:
        Threshold("image_label", required_accuracy=0.0)(model, [2.0, 3.0])
    assert isinstance(raised.value, TypeError)
