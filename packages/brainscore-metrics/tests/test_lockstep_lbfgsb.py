"""The lockstep L-BFGS-B grid against ``scipy.optimize.minimize`` run once per start: the same end points, bit for bit.

The reference is scipy's public ``minimize(method="L-BFGS-B", jac=True)`` on the same objective, one start at a time
(what the psychometric grid did before the lockstep driver, and what it falls back to). Inputs: the real Geirhos
2021 contrast experiment (each subject's accuracy per contrast level: a measured psychometric curve), and random
curves with ties, plateaus and lapses that push the fit onto its bounds.
"""

from __future__ import annotations

import csv

import numpy as np
import pytest
from scipy.optimize import _lbfgsb, minimize

from brainscore_metrics.behavior import lockstep_lbfgsb, threshold
from brainscore_metrics.behavior.lockstep_lbfgsb import (
    LOCKSTEP_AVAILABLE,
    driver_matches_minimize,
    minimize_lockstep,
)
from brainscore_metrics.behavior.threshold import LAPSE_BOUNDS, _likelihoods_and_gradients, fit_psychometric

BOUNDS = np.array([(-np.inf, np.inf), (-np.inf, np.inf), LAPSE_BOUNDS])


def _starts(x: np.ndarray, y: np.ndarray, n_alphas: int = 12) -> np.ndarray:
    return np.array([(alpha, beta, 1 - np.max(y)) for alpha in np.logspace(-3, 1, n_alphas) for beta in x])


def _one_by_one(x, y, starts, **options) -> np.ndarray:
    """The reference: scipy's public minimize from each start in turn, on the same objective."""
    def one(point):
        values, gradients = _likelihoods_and_gradients(point[None, :], x, y, 1 - y)
        return float(values[0]), gradients[0]

    with np.errstate(divide="ignore", invalid="ignore"):
        return np.array([minimize(one, start, jac=True, method="L-BFGS-B", options=options,
                                  bounds=((None, None), (None, None), LAPSE_BOUNDS)).x for start in starts])


def _lockstep(x, y, starts, **options) -> np.ndarray:
    with np.errstate(divide="ignore", invalid="ignore"):
        return minimize_lockstep(lambda points: _likelihoods_and_gradients(points, x, y, 1 - y), starts, BOUNDS,
                                 **options)


def _contrast_curves(raw_data_dir) -> list[tuple[np.ndarray, np.ndarray]]:
    """Per subject of Geirhos 2021's contrast experiment: contrast levels (%) and the accuracy at each."""
    folder = raw_data_dir / "geirhos2021" / "responses" / "contrast"
    curves = []
    for path in sorted(folder.glob("*.csv")):
        with open(path) as file:
            rows = list(csv.DictReader(file))
        levels = np.array([float(row["condition"].lstrip("c")) for row in rows])
        correct = np.array([row["object_response"] == row["category"] for row in rows], dtype=float)
        values, index = np.unique(levels, return_inverse=True)
        curves.append((values, np.bincount(index, weights=correct) / np.bincount(index)))
    assert len(curves) >= 4, f"expected the contrast experiment's subjects in {folder}"
    return curves


def _random_curves(rng, count: int) -> list[tuple[np.ndarray, np.ndarray]]:
    curves = []
    for trial in range(count):
        n = int(rng.integers(4, 11))
        x = np.sort(rng.uniform(0.1, 5.0, n))
        y = np.clip(0.5 + 0.45 / (1 + np.exp(-(x - x.mean()) * rng.uniform(0.3, 4))) + rng.normal(0, 0.06, n), 0, 1)
        if trial % 3 == 0:
            y = np.round(y * 5) / 5  # ties, and rates of exactly 1 (the lapse bound)
        curves.append((x, y))
    return curves


def test_the_driver_matches_minimize_here():
    assert LOCKSTEP_AVAILABLE and driver_matches_minimize()


def test_every_start_ends_where_minimize_ends_it_on_the_real_contrast_curves(raw_data_dir):
    for x, y in _contrast_curves(raw_data_dir):
        starts = _starts(x, y)
        ends = _lockstep(x, y, starts)
        np.testing.assert_array_equal(ends, _one_by_one(x, y, starts))  # bit for bit, start by start


def test_every_start_ends_where_minimize_ends_it_on_random_curves():
    for x, y in _random_curves(np.random.default_rng(7), 8):
        starts = _starts(x, y, n_alphas=8)
        np.testing.assert_array_equal(_lockstep(x, y, starts), _one_by_one(x, y, starts))


@pytest.mark.parametrize("options", [{"maxiter": 2}, {"maxfun": 3}])
def test_the_iteration_and_evaluation_limits_stop_where_minimize_stops(options):
    x, y = _random_curves(np.random.default_rng(3), 1)[0]
    starts = _starts(x, y, n_alphas=6)
    ends = _lockstep(x, y, starts, **options)
    np.testing.assert_array_equal(ends, _one_by_one(x, y, starts, **options))
    assert not np.array_equal(ends, _lockstep(x, y, starts))  # the limits cut the runs short


def test_the_grid_gives_the_fallbacks_fit(raw_data_dir, monkeypatch):
    curves = _contrast_curves(raw_data_dir)[:2] + _random_curves(np.random.default_rng(11), 2)
    lockstep = [fit_psychometric(x, y) for x, y in curves]
    monkeypatch.setattr(threshold, "LOCKSTEP_AVAILABLE", False)
    assert [fit_psychometric(x, y) for x, y in curves] == lockstep


def test_a_routine_with_other_arguments_turns_the_driver_off(monkeypatch):
    def other_signature(*args):
        raise TypeError("setulb() takes 15 positional arguments")

    monkeypatch.setattr(_lbfgsb, "setulb", other_signature)
    assert not driver_matches_minimize()


def test_a_driver_giving_other_bits_is_turned_off(monkeypatch):
    real = minimize_lockstep
    monkeypatch.setattr(lockstep_lbfgsb, "minimize_lockstep", lambda *args, **kwargs: real(*args, **kwargs) + 1e-12)
    assert not driver_matches_minimize()
