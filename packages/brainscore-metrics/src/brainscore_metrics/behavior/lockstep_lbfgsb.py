"""Many L-BFGS-B minimisations of one objective, from many starting points, run in lockstep.

A psychometric fit (:mod:`~brainscore_metrics.behavior.threshold`) runs L-BFGS-B from every point of a grid of
starts (Brain-Score's 50 x ``len(x)``, often 500) on a 3-parameter objective over a handful of data points. One
evaluation of that objective costs a few microseconds; ``scipy.optimize.minimize`` wraps each in tens of microseconds
of bookkeeping (its ``ScalarFunction``, option checks, the result object), which was most of the fit's time.

Here every start keeps its own L-BFGS-B state (the arrays scipy's own driver keeps) and scipy's L-BFGS-B step
routine (``scipy.optimize._lbfgsb.setulb``, the compiled code behind ``minimize(method="L-BFGS-B")``) is called for
each start in turn; the starts that ask for the objective are evaluated together, in one vectorised call. The steps,
the stopping rules (``ftol``, ``gtol``, ``maxls``, ``maxiter``, ``maxfun``) and the values handed to the routine are
those of ``minimize``'s driver, so each start ends at the same bits as ``minimize`` would give it, provided the
vectorised objective gives each row the bits the one-start objective gives.

``setulb`` is not public scipy API (its arguments changed when scipy 1.15 moved L-BFGS-B from Fortran to C). So the
module's import checks the lockstep driver against ``minimize`` on a small problem, bit for bit; where the routine
is missing, takes other arguments or gives other bits, :data:`LOCKSTEP_AVAILABLE` is False and callers use
``minimize`` (the same numbers, slower).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

__all__ = ["LOCKSTEP_AVAILABLE", "driver_matches_minimize", "minimize_lockstep"]

#: ``minimize(method="L-BFGS-B")``'s defaults
MAXCOR, FTOL, GTOL, MAXLS, MAXITER, MAXFUN = 10, 2.2204460492503131e-09, 1e-5, 20, 15000, 15000
#: the routine's task codes (scipy >= 1.15): 3 asks for f and g at x, 1 reports a new iterate, others stop
_TASK_EVALUATE, _TASK_NEW_X, _TASK_STOP, _STOP_MAXITER, _STOP_MAXFUN = 3, 1, 5, 504, 502


def _bound_codes(bounds: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(lower, upper, code) per parameter as the routine reads them: 0 none, 1 lower only, 2 both, 3 upper only."""
    lower, upper = bounds[:, 0], bounds[:, 1]
    has_lower, has_upper = np.isfinite(lower), np.isfinite(upper)
    codes = np.where(has_lower & has_upper, 2, np.where(has_lower, 1, np.where(has_upper, 3, 0))).astype(np.int32)
    return np.where(has_lower, lower, 0.0), np.where(has_upper, upper, 0.0), codes


class _Start:
    """One start's L-BFGS-B state: the arrays the routine reads and writes between calls."""

    __slots__ = ("x", "f", "g", "wa", "iwa", "task", "ln_task", "lsave", "isave", "dsave", "iterations",
                 "evaluations", "remembered")

    def __init__(self, x0: np.ndarray):
        n = x0.size
        self.x = np.array(x0, dtype=np.float64)
        self.f = np.array(0.0, dtype=np.float64)
        self.g = np.zeros(n, dtype=np.float64)
        self.wa = np.zeros(2 * MAXCOR * n + 5 * n + 11 * MAXCOR * MAXCOR + 8 * MAXCOR, dtype=np.float64)
        self.iwa = np.zeros(3 * n, dtype=np.int32)
        self.task = np.zeros(2, dtype=np.int32)
        self.ln_task = np.zeros(2, dtype=np.int32)
        self.lsave = np.zeros(4, dtype=np.int32)
        self.isave = np.zeros(44, dtype=np.int32)
        self.dsave = np.zeros(29, dtype=np.float64)
        self.iterations = 0
        self.evaluations = 1  # minimize's driver evaluates at the start before the routine's first call
        self.remembered = None  # (point, value, gradient) of the last evaluation


def minimize_lockstep(objective: Callable[[np.ndarray], tuple[np.ndarray, np.ndarray]], starts: np.ndarray, bounds: np.ndarray, *,
                      maxiter: int = MAXITER, maxfun: int = MAXFUN) -> np.ndarray:
    """The end point of an L-BFGS-B minimisation of ``objective`` from each start, as ``minimize`` gives it.

    Parameters
    ----------
    objective : callable
        ``objective(points)`` with ``points`` of shape (k, n_params) returns the values, shape (k,), and the
        gradients, shape (k, n_params), at each row; each row's values must not depend on the other rows.
    starts : ndarray of shape (n_starts, n_params)
        Starting points (clipped into the bounds, as ``minimize`` does).
    bounds : ndarray of shape (n_params, 2)
        Lower and upper bound per parameter; ``-inf`` / ``inf`` for none.
    maxiter, maxfun : int, default=15000
        ``minimize``'s options of those names: a start stops after this many iterations, or after the iteration
        during which its evaluations passed ``maxfun``.

    Returns
    -------
    ndarray of shape (n_starts, n_params)
        Each start's end point, float64.

    Only available where :data:`LOCKSTEP_AVAILABLE` is True.
    """
    from scipy.optimize import _lbfgsb

    bounds = np.asarray(bounds, dtype=np.float64)
    lower, upper, codes = _bound_codes(bounds)
    starts = np.clip(np.asarray(starts, dtype=np.float64), bounds[:, 0], bounds[:, 1])
    factr = FTOL / np.finfo(float).eps
    states = [_Start(start) for start in starts]
    # minimize evaluates every start once before its first step: the routine's first request is then answered
    first_values, first_gradients = objective(starts)
    for state, value, gradient in zip(states, first_values, first_gradients):
        state.remembered = state.x.tolist(), value, gradient
    setulb = _lbfgsb.setulb
    running = states
    while running:
        asking = []
        still_running = []
        for state in running:
            while True:
                setulb(MAXCOR, state.x, lower, upper, codes, state.f, state.g, factr, GTOL, state.wa, state.iwa,
                       state.task, state.lsave, state.isave, state.dsave, MAXLS, state.ln_task)
                task = state.task[0]
                if task == _TASK_EVALUATE:
                    point, value, gradient = state.remembered
                    if state.x.tolist() == point:  # minimize's ScalarFunction answers from its memory (float ==)
                        state.f, state.g = value, np.array(gradient, dtype=np.float64)
                        continue
                    asking.append(state)
                    still_running.append(state)
                    break
                if task == _TASK_NEW_X:
                    state.iterations += 1
                    if state.iterations >= maxiter:
                        state.task[:] = (_TASK_STOP, _STOP_MAXITER)
                    elif state.evaluations > maxfun:
                        state.task[:] = (_TASK_STOP, _STOP_MAXFUN)
                    continue
                break  # converged or stopped
        if asking:
            points = np.array([state.x for state in asking])
            values, gradients = objective(points)
            for state, point, value, gradient in zip(asking, points.tolist(), values, gradients):
                state.remembered, state.evaluations = (point, value, gradient), state.evaluations + 1
                state.f, state.g = value, np.array(gradient, dtype=np.float64)
        running = still_running
    return np.array([state.x for state in states])


def _check_objective(points: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """A small bounded problem with a curved valley (Rosenbrock in the first two, a bounded quadratic in the third)."""
    a, b, c = points[:, 0], points[:, 1], points[:, 2]
    values = (1 - a) ** 2 + 10 * (b - a ** 2) ** 2 + (c - 0.7) ** 2
    gradients = np.stack([-2 * (1 - a) - 40 * a * (b - a ** 2), 20 * (b - a ** 2), 2 * (c - 0.7)], axis=1)
    return values, gradients


def driver_matches_minimize() -> bool:
    """Whether :func:`minimize_lockstep` gives ``minimize``'s bits here, on a small problem from four starts (about
    5 ms); False where scipy's routine is missing or takes other arguments."""
    from scipy.optimize import minimize

    starts = np.array([[-1.2, 1.0, 0.1], [0.5, -0.3, 0.9], [2.0, 2.0, 0.4], [0.0, 0.0, 0.0]])
    bounds = np.array([[-np.inf, np.inf], [-np.inf, 1.5], [0.2, 0.6]])
    try:
        ends = minimize_lockstep(_check_objective, starts, bounds)
    except Exception:  # any failure of the private routine means: use minimize
        return False

    def one(point):
        values, gradients = _check_objective(point[None, :])
        return float(values[0]), gradients[0]

    scipy_bounds = [(None if np.isinf(low) else low, None if np.isinf(high) else high) for low, high in bounds]
    expected = [minimize(one, start, jac=True, method="L-BFGS-B", bounds=scipy_bounds).x for start in starts]
    return bool(np.array_equal(ends, np.array(expected)))


#: :func:`driver_matches_minimize`, checked once when the module is imported
LOCKSTEP_AVAILABLE = driver_matches_minimize()
