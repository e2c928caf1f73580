"""Psychometric fits remembered by content inside a ``remembering_psychometric_fits`` block (issue 38, performance):
a second fit of the same arrays is not run and gives the same numbers, bit for bit; other arrays (values, dtype,
starting points) are fitted on their own; outside a block nothing is remembered."""

import numpy as np
import pytest
from test_threshold import responses

from brainscore_metrics.behavior import threshold
from brainscore_metrics.behavior.psychometric_memo import (
    PsychometricFits,
    fits_key,
    remembered_fits,
    remembering_psychometric_fits,
)
from brainscore_metrics.behavior.threshold import Threshold, ThresholdElevation, fit_psychometric

X = np.array([1.0, 1.5, 2.0, 2.5, 3.0, 3.5, 4.0])
Y = threshold.psychometric_cum_gauss(X, 2.0, 3.0, 0.05)
ALPHAS = np.logspace(-3, 1, 6)  # a small grid: the tests stay fast


@pytest.fixture
def grids(monkeypatch):
    """The grid searches run (a spy on ``threshold._grid``, the fit's whole work)."""
    calls = []
    original = threshold._grid

    def counted(*args):
        calls.append(1)
        return original(*args)

    monkeypatch.setattr(threshold, "_grid", counted)
    return calls


def test_a_second_fit_of_the_same_arrays_is_not_run_and_gives_the_same_numbers(grids):
    unremembered = fit_psychometric(X, Y, ALPHAS)
    fits = PsychometricFits()
    with remembering_psychometric_fits(fits):
        first = fit_psychometric(X, Y, ALPHAS)
        again = fit_psychometric(X.copy(), Y.copy(), ALPHAS.copy())  # other objects, the same bytes
    assert len(grids) == 2 and len(fits) == 1
    assert first == again == unremembered  # bit for bit: tuples of floats compared with ==
    with remembering_psychometric_fits(fits):  # the memory outlives the block, which only chooses it
        assert fit_psychometric(X, Y, ALPHAS) == unremembered
    assert len(grids) == 2


def test_other_arrays_are_fitted_on_their_own(grids):
    with remembering_psychometric_fits(PsychometricFits()):
        fit_psychometric(X, Y, ALPHAS)
        fit_psychometric(X, np.nextafter(Y, 1.0), ALPHAS)  # one ulp apart
        fit_psychometric(X.astype(np.float32), Y, ALPHAS)  # another dtype
        fit_psychometric(X, Y, ALPHAS[:-1])  # other starting slopes
        fit_psychometric(X, Y, ALPHAS, X[::2])  # other starting means
    assert len(grids) == 5
    assert fits_key(X, Y) != fits_key(Y, X) and fits_key(X.reshape(7, 1)) != fits_key(X)


def test_outside_a_block_nothing_is_remembered(grids):
    assert remembered_fits() is None
    fit_psychometric(X, Y, ALPHAS)
    fit_psychometric(X, Y, ALPHAS)
    with remembering_psychometric_fits(None):
        fit_psychometric(X, Y, ALPHAS)
    with remembering_psychometric_fits(PsychometricFits(max_fits=0)):
        fit_psychometric(X, Y, ALPHAS)
        fit_psychometric(X, Y, ALPHAS)
    assert len(grids) == 5 and remembered_fits() is None


def test_a_failed_fit_is_remembered_too(grids, monkeypatch):
    monkeypatch.setattr(threshold, "LOCKSTEP_AVAILABLE", False)  # the per-start minimize, which can raise
    monkeypatch.setattr(threshold, "minimize", lambda *a, **k: (_ for _ in ()).throw(RuntimeError("no")))
    with remembering_psychometric_fits(PsychometricFits()):
        assert fit_psychometric(X, Y, ALPHAS)[0] is None
        params, r2 = fit_psychometric(X, Y, ALPHAS)
    assert params is None and np.isnan(r2) and len(grids) == 1


def test_the_memory_is_bounded():
    fits = PsychometricFits(max_fits=2)
    for key in ("a", "b", "c"):
        fits.put(key, ((1.0, 2.0, 0.1), 0.9))
    assert len(fits) == 2 and fits.get("a") is None
    fits.get("b")
    fits.put("d", ((1.0, 2.0, 0.1), 0.9))
    assert fits.get("c") is None and fits.get("b") is not None


def test_an_elevation_and_a_threshold_share_the_baseline_fit(grids):
    # the Malania pattern: the elevation benchmark fits baseline and condition, the acuity benchmark the baseline again
    offsets = np.arange(1.0, 5.01, 0.5)
    baseline = responses(lambda x: threshold.psychometric_cum_gauss(x, 2.0, 3.0, 0.05), offsets, trials=200)
    condition = responses(lambda x: threshold.psychometric_cum_gauss(x, 1.5, 3.5, 0.05), offsets, trials=200)
    elevation = ThresholdElevation("vernier_offset", "base", "test", threshold_accuracy=0.75)
    acuity = Threshold("vernier_offset", threshold_accuracy=0.75)
    unremembered = (float(elevation({"base": baseline, "test": condition}, [1.2, 1.4])),
                    float(acuity(baseline, [3.0, 2.8])))
    assert len(grids) == 3
    with remembering_psychometric_fits(PsychometricFits()):
        remembered = (float(elevation({"base": baseline, "test": condition}, [1.2, 1.4])),
                      float(acuity(baseline, [3.0, 2.8])))
    assert len(grids) == 3 + 2 and remembered == unremembered
