"""Bad input to the regression metrics: clear typed errors or the documented NaN behaviour."""

import numpy as np
import pytest
from _regression_helpers import neuroid_assembly, synthetic_pair

from brainscore_metrics.errors import (
    DimensionError,
    DuplicateStimulusError,
    MissingCoordinateError,
    NonFiniteValuesError,
    StimulusMismatchError,
    TooFewFeaturesError,
    UnknownRegressionError,
)
from brainscore_metrics.regression_correlation import CrossRegressedCorrelation


def test_misaligned_stimulus_ids_are_named():
    source, target, *_ = synthetic_pair(n=60, p=30, q=3)
    ids = source["stimulus_id"].values.astype(object)
    ids[0] = "not-in-target"
    source = source.assign_coords(stimulus_id=("presentation", ids))
    with pytest.raises(StimulusMismatchError, match="not-in-target"):
        CrossRegressedCorrelation("ridge")(source, target)


def test_duplicate_stimulus_ids_are_named():
    source, target, *_ = synthetic_pair(n=60, p=30, q=3)
    ids = target["stimulus_id"].values.astype(object)
    ids[1] = ids[0]
    target = target.assign_coords(stimulus_id=("presentation", ids))
    with pytest.raises(DuplicateStimulusError, match=str(ids[0])):
        CrossRegressedCorrelation("ridge")(source, target)


def test_pls_needs_25_features():
    source, target, *_ = synthetic_pair(n=60, p=24, q=3)
    with pytest.raises(TooFewFeaturesError, match="limited by the 24 source features.*allow_fewer_features"):
        CrossRegressedCorrelation("pls")(source, target)


def test_pls_names_training_stimuli_when_they_are_the_limit():
    # 40 stimuli, half for training = 20 training stimuli < 25 components, with plenty of features: the advice is
    # about stimuli, not allow_fewer_features
    source, target, *_ = synthetic_pair(n=40, p=100, q=3)
    with pytest.raises(TooFewFeaturesError, match="limited by the 20 training stimuli.*n_components=20") as raised:
        CrossRegressedCorrelation("pls", crossvalidation_kwargs={"train_size": 0.5})(source, target)
    assert "allow_fewer_features" not in str(raised.value)


def test_constant_neuroid_gives_nan_raw_and_is_skipped_by_the_median():
    source, target, *_ = synthetic_pair(n=80, p=30, q=5)
    values = target.values.copy()
    values[:, 2] = 7.0
    constant = target.copy(data=values)
    score = CrossRegressedCorrelation("ridge")(source, constant)
    raw = score.attrs["raw"].values
    assert np.all(np.isnan(raw[:, 2])) and np.all(np.isfinite(np.delete(raw, 2, axis=1)))
    # the median skips the NaN column: equal to the median of the other neuroids per split
    expected = np.mean(np.median(np.delete(raw, 2, axis=1), axis=1))
    assert float(score) == pytest.approx(expected)


def test_all_constant_target_gives_nan():
    source, target, *_ = synthetic_pair(n=60, p=30, q=2)
    constant = target.copy(data=np.ones(target.shape))
    score = CrossRegressedCorrelation("ridge")(source, constant)
    assert np.isnan(float(score))


@pytest.mark.parametrize("which", ["source", "target"])
def test_nan_values_raise(which):
    source, target, *_ = synthetic_pair(n=60, p=30, q=3)
    victim = source if which == "source" else target
    values = victim.values.copy()
    values[4, 1] = np.nan
    bad_id = victim["stimulus_id"].values[4]
    victim = victim.copy(data=values)
    pair = (victim, target) if which == "source" else (source, victim)
    with pytest.raises(NonFiniteValuesError, match=f"{which}.*{bad_id}"):
        CrossRegressedCorrelation("ridge")(*pair)


def _drop_target_stimulus_ids(source, target):
    return source, target.drop_vars("stimulus_id")


def _add_time_bins(source, target):
    return source, target.expand_dims(time_bin=2).transpose("presentation", "neuroid", "time_bin")


def _rename_presentation_dim(source, target):
    return source, neuroid_assembly(target.values, target["stimulus_id"].values).rename(presentation="image")


@pytest.mark.parametrize("regression, break_inputs, error, match", [
    ("ridge", _drop_target_stimulus_ids, MissingCoordinateError, "stimulus_id"),
    ("ridge", _add_time_bins, DimensionError, "spantime"),  # several time bins need a temporal metric
    ("plss", None, UnknownRegressionError, "plss"),
    ("ridge", _rename_presentation_dim, DimensionError, "presentation"),
], ids=["missing_stimulus_id", "time_bins", "unknown_regression", "missing_presentation_dim"])
def test_bad_input_raises_a_typed_error_naming_it(regression, break_inputs, error, match):
    source, target, *_ = synthetic_pair(n=30, p=30, q=2)
    if break_inputs is not None:
        source, target = break_inputs(source, target)
    with pytest.raises(error, match=match):
        CrossRegressedCorrelation(regression)(source, target)
