"""spantime metrics against a stacked scikit-learn fit; bootstrap intervals of regression metrics."""

import numpy as np
import pytest
import scipy.stats
import xarray as xr
from _regression_helpers import synthetic_pair
from sklearn.linear_model import Ridge as SkRidge
from sklearn.model_selection import StratifiedShuffleSplit

from brainscore_metrics.regression_correlation import CrossRegressedCorrelation, SplitRegressedCorrelation
from brainscore_metrics.temporal import SpanTimeCrossRegressedCorrelation


def test_spantime_ridge_equals_stacked_reference():
    source, target, X, Y, ids, _ = synthetic_pair(n=100, p=20, q=4)
    rng = np.random.default_rng(3)
    extra = rng.normal(size=Y.shape)
    bins = [target, target.copy(data=target.values + extra[[list(ids).index(s) for s in target["stimulus_id"].values]])]
    target_t = xr.concat(bins, dim="time_bin").transpose("presentation", "neuroid", "time_bin")
    score = SpanTimeCrossRegressedCorrelation("ridge")(source, target_t)
    assert score.dims == ("time_bin",)
    # independent: stack (time bin, stimulus) rows, sklearn Ridge per split, scipy per bin and neuroid
    Y_bins = [Y, Y + extra]
    t_ids = target["stimulus_id"].values
    splits = StratifiedShuffleSplit(10, train_size=0.9, random_state=1).split(np.zeros(100),
                                                                           target["object_name"].values)
    per_split = []
    position = {s: i for i, s in enumerate(ids)}
    for train, test in splits:
        tr = np.array([position[s] for s in sorted(t_ids[train])])
        te = np.array([position[s] for s in sorted(t_ids[test])])
        model = SkRidge(alpha=1.0).fit(np.concatenate([X[tr], X[tr]]), np.concatenate([Yb[tr] for Yb in Y_bins]))
        prediction = model.predict(X[te])
        per_split.append([np.median([scipy.stats.pearsonr(prediction[:, j], Yb[te, j])[0] for j in range(4)])
                          for Yb in Y_bins])
    np.testing.assert_allclose(score.values, np.mean(per_split, axis=0), rtol=1e-6)


def test_cv_bootstrap_interval():
    source, target, *_ = synthetic_pair(n=150, p=30, q=8)
    plain = CrossRegressedCorrelation("ridge")(source, target)
    score = CrossRegressedCorrelation("ridge", bootstrap=200)(source, target)
    assert float(score) == float(plain)  # the interval does not change the score
    assert score.attrs["ci_low"] < float(score) < score.attrs["ci_high"]
    assert score.attrs["confidence"] == 0.95
    # reproducible with the same seed, different with another
    again = CrossRegressedCorrelation("ridge", bootstrap=200)(source, target)
    assert again.attrs["ci_low"] == score.attrs["ci_low"]
    other = CrossRegressedCorrelation("ridge", bootstrap=200, bootstrap_random_state=5)(source, target)
    assert other.attrs["ci_low"] != score.attrs["ci_low"]


def test_split_bootstrap_matches_manual_resampling():
    source, target, X, Y, ids, _ = synthetic_pair(n=120, p=30, q=5, shuffle=False)
    train, test = slice(0, 100), slice(100, 120)
    score = SplitRegressedCorrelation("ridge", bootstrap=100, bootstrap_random_state=2)(
        source.isel(presentation=train), source.isel(presentation=test),
        target.isel(presentation=train), target.isel(presentation=test))
    prediction = SkRidge(alpha=1.0).fit(X[:100], Y[:100]).predict(X[100:])
    draws = np.random.default_rng(2).integers(0, 20, size=(100, 20))
    samples = []
    for rows in draws:
        rs = [scipy.stats.pearsonr(prediction[rows, j], Y[100:][rows, j])[0] for j in range(5)]
        samples.append(np.nanmedian(rs))
    assert score.attrs["ci_low"] == pytest.approx(np.nanpercentile(samples, 2.5), rel=1e-6)
    assert score.attrs["ci_high"] == pytest.approx(np.nanpercentile(samples, 97.5), rel=1e-6)


# -- renamed keywords (name table in CONTRIBUTING.md): the old names warn and give the same numbers ----------------
def test_deprecated_bootstrap_seed_and_stimulus_coord_give_the_same_score():
    source, target, *_ = synthetic_pair(n=150, p=30, q=8)
    new = CrossRegressedCorrelation("ridge", bootstrap=50, bootstrap_random_state=5,
                                    comparison_coord="stimulus_id")(source, target)
    with pytest.warns(DeprecationWarning) as caught:
        old = CrossRegressedCorrelation("ridge", bootstrap=50, bootstrap_seed=5, stimulus_coord="stimulus_id")
    assert {str(w.message).split("'")[1] for w in caught} == {"bootstrap_seed", "stimulus_coord"}
    old = old(source, target)
    assert float(old) == float(new)
    assert (old.attrs["ci_low"], old.attrs["ci_high"]) == (new.attrs["ci_low"], new.attrs["ci_high"])
    assert new.attrs["ci_confidence"] == new.attrs["confidence"] == 0.95
    assert "bootstrap_random_state" in CrossRegressedCorrelation().get_params()


def test_deprecated_bootstrap_seed_of_internal_consistency():
    from brainscore_metrics.internal_consistency import InternalConsistency

    with pytest.warns(DeprecationWarning, match="'bootstrap_seed' is deprecated, use 'bootstrap_random_state'"):
        ceiling = InternalConsistency(bootstrap=20, bootstrap_seed=3)
    assert ceiling.bootstrap_random_state == InternalConsistency(bootstrap_random_state=3).bootstrap_random_state == 3
