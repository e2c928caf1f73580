"""``accuracy_distance`` computed on matrices (every source-subject and subject-subject pair at once) against a plain
loop over pairs and conditions, on unbalanced designs: subjects who saw different subsets of the stimuli, repeated
trials, conditions a source lacks, and bootstrap weights."""

from __future__ import annotations

import itertools
import warnings

import numpy as np
import pytest

from brainio.assemblies import BehavioralAssembly
from brainscore_metrics.behavior.accuracy_distance import AccuracyDistance

LABELS = np.array(["cat", "dog", "car"])


def _design(seed: int, n_subjects: int = 7, n_stimuli: int = 18):
    rng = np.random.default_rng(seed)
    ids = np.array([f"im{i:02d}" for i in range(n_stimuli)])
    truth = LABELS[np.arange(n_stimuli) % 3]
    condition = np.array(["low", "mid", "high"])[np.arange(n_stimuli) // 6]
    rows = []
    for subject in range(n_subjects):
        seen = rng.random(n_stimuli) < (1.0 if subject < 2 else 0.6)  # two saw every stimulus, the others a subset
        for i in np.flatnonzero(seen):
            for _ in range(1 + int(rng.random() < 0.3)):  # some stimuli twice
                answer = truth[i] if rng.random() < 0.4 + 0.08 * subject else LABELS[(np.arange(3) != 0).argmax()]
                rows.append((f"s{subject}", ids[i], truth[i], condition[i], answer))
    subjects, stimulus_ids, truths, conditions, answers = map(np.array, zip(*rows, strict=True))
    humans = BehavioralAssembly(answers, coords={"subject": ("presentation", subjects),
                                                 "stimulus_id": ("presentation", stimulus_ids),
                                                 "truth": ("presentation", truths),
                                                 "condition": ("presentation", conditions)}, dims=["presentation"])
    keep = np.flatnonzero(condition != "high") if seed % 2 else np.arange(n_stimuli)  # a source without "high"
    model = BehavioralAssembly(np.where(rng.random(len(keep)) < 0.6, truth[keep], "car"),
                               coords={"stimulus_id": ("presentation", ids[keep]), "truth": ("presentation", truth[keep]),
                                       "condition": ("presentation", condition[keep])}, dims=["presentation"])
    return model, humans


def _loop_distance(first, second, variables, weights=None) -> float:
    """The definition, one pair at a time: restrict the source to the second's stimuli when it saw them all; per
    condition of the second, ``1 - |a - b| / max(1 - b, b)``; the mean over conditions the source has."""
    def arrays(assembly):
        out = {name: np.asarray(assembly[name].values) for name in ("stimulus_id", "truth", *variables)}
        out["correct"] = (np.asarray(assembly.values) == out["truth"]).astype(float)
        out["key"] = np.array(["|".join(map(str, parts)) for parts in zip(*(out[v] for v in variables), strict=True)]) \
            if variables else np.full(len(out["correct"]), "")
        out["weight"] = np.ones(len(out["correct"])) if weights is None else np.array(
            [weights[s] for s in out["stimulus_id"]])
        return out
    a, b = arrays(first), arrays(second)
    if set(b["stimulus_id"]) <= set(a["stimulus_id"]):
        keep = np.isin(a["stimulus_id"], b["stimulus_id"])
        a = {name: values[keep] for name, values in a.items()}
    values = []
    for key in sorted(set(b["key"])):
        in_a, in_b = a["key"] == key, b["key"] == key
        if not in_a.any() or a["weight"][in_a].sum() == 0 or b["weight"][in_b].sum() == 0:
            continue
        source = np.average(a["correct"][in_a], weights=a["weight"][in_a])
        subject = np.average(b["correct"][in_b], weights=b["weight"][in_b])
        values.append(1 - abs(source - subject) / max(1 - subject, subject))
    return float(np.mean(values)) if values else float("nan")


def _subject(assembly, name):
    return assembly.isel(presentation=np.flatnonzero(assembly["subject"].values == name))


@pytest.mark.parametrize("seed", [1, 2, 3])
@pytest.mark.parametrize("variables", [(), ("condition",)])
def test_source_and_ceiling_equal_the_loop_over_pairs(seed, variables):
    model, humans = _design(seed)
    metric = AccuracyDistance(variables=variables)
    subjects = sorted(set(humans["subject"].values))
    expected = [_loop_distance(model, _subject(humans, s), variables) for s in subjects]
    score = metric(model, humans)
    np.testing.assert_allclose(score.attrs["raw"].values, expected, rtol=0, atol=1e-12)
    assert float(score) == pytest.approx(abs(np.mean(expected)), abs=1e-12)
    pairs = list(itertools.combinations(subjects, 2))
    expected = [_loop_distance(_subject(humans, a), _subject(humans, b), variables) for a, b in pairs]
    ceiling = metric.ceiling(humans)
    np.testing.assert_allclose(ceiling.attrs["raw"].values, expected, rtol=0, atol=1e-12)
    assert list(ceiling.attrs["raw"]["subject_left"].values) == [a for a, _ in pairs]
    assert float(ceiling) == pytest.approx(abs(np.mean(expected)), abs=1e-12)
    assert ceiling.attrs["error"] == pytest.approx(np.std(expected), abs=1e-12)


def test_bootstrap_draws_weigh_stimuli_as_the_loop_does():
    model, humans = _design(4)
    ids = np.unique(np.concatenate([model["stimulus_id"].values, humans["stimulus_id"].values]))
    metric = AccuracyDistance(variables=("condition",), bootstrap=25, random_state=3)
    score = metric(model, humans)
    # the same draws by hand (the metric's bootstrap draws stimulus indices with numpy's default_rng(random_state))
    from brainscore_metrics.bootstrap import bootstrap_confidence_interval

    def by_loop(draw):
        counts = np.bincount(draw, minlength=len(ids)).astype(float)
        weights = dict(zip(ids, counts, strict=True))
        subjects = sorted(set(humans["subject"].values))
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            return abs(float(np.nanmean([_loop_distance(model, _subject(humans, s), ("condition",), weights)
                                         for s in subjects])))
    low, high, _ = bootstrap_confidence_interval(by_loop, len(ids), n_bootstrap=25, random_state=3)
    assert score.attrs["ci_low"] == pytest.approx(low, abs=1e-12)
    assert score.attrs["ci_high"] == pytest.approx(high, abs=1e-12)
