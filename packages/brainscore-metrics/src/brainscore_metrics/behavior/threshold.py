"""``threshold`` and ``threshold_elevation``: psychometric thresholds compared with human thresholds (the Malania
2007 family of Brain-Score).

A model's responses (choice probabilities per stimulus, with the stimulus's ``image_label`` and the value of an
``independent_variable`` such as a vernier offset) become a correctness rate per value of the variable; a
cumulative-Gaussian psychometric function (Wichmann & Hill 2001, eq. 1; guess rate 0.5, lapse rate in [0.03, 0.5])
is fitted by maximum likelihood from a grid of starting points; the threshold is where the fit crosses the
threshold accuracy (default: halfway between the fit's values at the smallest and the largest measured value, the
"inflection"). A fit fails, and the score is 0, when mean accuracy is below ``required_accuracy`` (0.6), when
fewer than a third of the measured values precede the point after which performance only falls, when R^2 < 0.4, or
when the threshold lies outside the measured range.

Score against human thresholds ``t_i``: the mean over subjects of ``max(0, 1 - |t_i - model| / t_i)`` (0 when the
model is off by 100 % or more); ``attrs['raw']`` per subject, ``attrs['error']`` their std. Ceiling: each subject
in turn (chosen by ``RandomState(i).choice``, as Brain-Score draws them) scored against the others; mean and std.
``threshold_elevation`` scores ``threshold(test condition) / threshold(baseline condition)`` the same way.
"""

from __future__ import annotations

import numpy as np
import xarray as xr
from scipy.optimize import minimize
from scipy.special import ndtr, ndtri

from brainscore_core.metrics import Metric, Score
from brainscore_metrics.backend import compute_plan
from brainscore_metrics.behavior.lockstep_lbfgsb import LOCKSTEP_AVAILABLE, minimize_lockstep
from brainscore_metrics.behavior.psychometric_memo import fits_key, remembered_fits
from brainscore_metrics.errors import InputTypeError
from brainscore_metrics.validation import (
    check_input_type,
    check_numeric,
    require_coord,
    require_dims,
    require_keys,
)

__all__ = ["Threshold", "ThresholdElevation", "fit_psychometric", "inverse_psychometric_cum_gauss",
           "psychometric_cum_gauss", "threshold_score"]

FIT_FAIL = "fit_fail"
# scipy.stats.norm's cdf, pdf and ppf are these special functions (the same values) behind a per-call overhead that
# is most of a fit's time: the grid of starting points calls them tens of thousands of times
_SQRT_2PI = np.sqrt(2 * np.pi)
LAPSE_BOUNDS = (0.03, 0.5)


def psychometric_cum_gauss(x, alpha: float, beta: float, lambda_: float, gamma: float = 0.5):
    """``gamma + (1 - gamma - lambda_) * Phi(alpha * (x - beta))`` (slope ``alpha``, mean ``beta``, lapse
    ``lambda_``, guess rate ``gamma``)."""
    return gamma + (1 - gamma - lambda_) * ndtr(alpha * (np.asarray(x, dtype=float) - beta))


def inverse_psychometric_cum_gauss(y, alpha: float, beta: float, lambda_: float, gamma: float = 0.5):
    """The ``x`` at which :func:`psychometric_cum_gauss` equals ``y``."""
    return beta + ndtri((np.asarray(y, dtype=float) - gamma) / (1 - gamma - lambda_)) / alpha


def _negative_log_likelihood(params, x, y) -> float:
    p = psychometric_cum_gauss(x, *params)
    with np.errstate(divide="ignore", invalid="ignore"):
        return float(-np.sum(y * np.log(p) + (1 - y) * np.log(1 - p)))


def _likelihoods_and_gradients(points, x, y, not_y, gamma: float = 0.5):
    """The negative log likelihood and its gradient in (alpha, beta, lapse) at each row of ``points`` (shape (k, 3)):
    values of shape (k,) and gradients of shape (k, 3) (the optimiser needs a few evaluations instead of finite
    differences), with ``not_y = 1 - y`` given, inside the caller's ``np.errstate``. Each common subexpression is
    formed once, element by element, and each row is summed along its own contiguous row: a row's bits do not depend
    on the other rows (the lockstep grid's requirement)."""
    alpha, beta, lapse = points[:, 0:1], points[:, 1:2], points[:, 2:3]
    offset = x - beta
    z = alpha * offset
    cdf, pdf = ndtr(z), np.exp(-z ** 2 / 2.0) / _SQRT_2PI
    scale = 1 - gamma - lapse
    p = gamma + scale * cdf
    q = 1 - p
    values = -(y * np.log(p) + not_y * np.log(q)).sum(axis=1)
    d_p = -(y / p - not_y / q)
    gradients = np.stack([(d_p * scale * pdf * offset).sum(axis=1), (d_p * -scale * pdf * alpha).sum(axis=1),
                          (d_p * -cdf).sum(axis=1)], axis=1)
    return values, gradients


def fit_psychometric(x: np.ndarray, y: np.ndarray, alpha_values: np.ndarray | None = None,
                     beta_values: np.ndarray | None = None) -> tuple[tuple[float, float, float] | None, float]:
    """Maximum-likelihood fit of (alpha, beta, lapse) from every (alpha, beta) starting point of a grid.

    Parameters
    ----------
    x, y : ndarray of shape (n_values,)
        Measured values of the variable and the correctness rate at each.
    alpha_values : ndarray, default=None
        Starting slopes; None means ``logspace(-3, 1, 50)``.
    beta_values : ndarray, default=None
        Starting means; None means the measured ``x``.

    Returns
    -------
    params : (alpha, beta, lapse) or None when every fit failed
    r2 : float
        Coefficient of determination of the best fit on ``y``.

    Inside :func:`~brainscore_metrics.behavior.psychometric_memo.remembering_psychometric_fits`, a fit of the same
    arrays (dtype, shape and bytes) is answered from that block's memory instead of being run again.
    """
    alpha_values = np.logspace(-3, 1, 50) if alpha_values is None else alpha_values
    beta_values = x if beta_values is None else beta_values
    memory = remembered_fits()
    key = fits_key(x, y, alpha_values, beta_values) if memory is not None else None
    found = memory.get(key) if memory is not None else None
    if found is not None:  # the same arrays fitted before in this block's memory: the same fit
        return found
    # a plan on numpy: BLAS on one thread (L-BFGS-B on 3 parameters: BLAS threads only wait for each other, 20x slower)
    with compute_plan("numpy"):
        best, best_value = _grid(x, y, alpha_values, beta_values)
    if best is None:
        fit = None, float("nan")
    else:
        residual = np.sum((y - psychometric_cum_gauss(x, *best)) ** 2)
        total = np.sum((y - np.mean(y)) ** 2)
        fit = best, float(1 - residual / total) if total > 0 else float("nan")
    if memory is not None:
        memory.put(key, fit)
    return fit


def _grid(x: np.ndarray, y: np.ndarray, alpha_values: np.ndarray, beta_values: np.ndarray):
    """The best (alpha, beta, lapse) of one L-BFGS-B fit from each starting point, and its negative log likelihood.

    The starts run in lockstep (:mod:`~brainscore_metrics.behavior.lockstep_lbfgsb`: each start's L-BFGS-B steps as
    ``minimize`` takes them, the objective evaluated for all waiting starts at once, 5-6x faster), else one
    ``minimize`` per start where scipy's routine does not allow it; the same bits either way."""
    starts = np.array([(alpha, beta, 1 - np.max(y)) for alpha in alpha_values for beta in beta_values], dtype=float)
    not_y = 1 - y
    best, best_value = None, np.inf
    with np.errstate(divide="ignore", invalid="ignore"):
        for end in _ends(starts, x, y, not_y):
            if end is None:  # a failed start; the others decide
                continue
            value = _negative_log_likelihood(end, x, y)
            if value < best_value:
                best, best_value = tuple(float(v) for v in end), value
    return best, best_value


def _ends(starts: np.ndarray, x, y, not_y) -> list:
    """Each start's L-BFGS-B end point (None for a start whose minimisation raised), inside the caller's errstate."""
    if LOCKSTEP_AVAILABLE:
        bounds = np.array([(-np.inf, np.inf), (-np.inf, np.inf), LAPSE_BOUNDS])
        return list(minimize_lockstep(lambda points: _likelihoods_and_gradients(points, x, y, not_y), starts, bounds))

    def one(point):
        values, gradients = _likelihoods_and_gradients(point[None, :], x, y, not_y)
        return float(values[0]), gradients[0]

    ends = []
    for start in starts:
        try:
            ends.append(minimize(one, start, jac=True, method="L-BFGS-B",
                                 bounds=((None, None), (None, None), LAPSE_BOUNDS)).x)
        except RuntimeError:
            ends.append(None)
    return ends


def threshold_score(source: float, targets) -> Score:
    """Mean over targets of ``max(0, 1 - |target - source| / target)``; raw values and std in ``attrs``."""
    targets = np.asarray(list(targets), dtype=float)
    raw = np.maximum(1 - np.abs(targets - source) / targets, 0)
    score = Score(float(raw.mean()))
    score.attrs["raw"] = raw.tolist()
    score.attrs["error"] = float(raw.std())
    return score


def _leave_one_out(values: list, score) -> Score:
    """Each value in turn (drawn as Brain-Score draws it) scored against the others; mean and std."""
    values = list(values)
    scores = []
    for i in range(len(values)):
        held_out = np.random.RandomState(i).choice(values, replace=False)
        values.remove(held_out)
        scores.append(float(score(float(held_out), values)))
        values.append(held_out)
    ceiling = Score(float(np.mean(scores)))
    ceiling.attrs["raw"] = scores
    ceiling.attrs["error"] = float(np.std(scores))
    return ceiling


def _rates(x: np.ndarray, correct: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Correctness rate per unique value of ``x`` (sorted)."""
    values, index = np.unique(x, return_inverse=True)
    return values, np.bincount(index, weights=correct) / np.bincount(index)


def _before_falling_off(x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray, bool]:
    """Drop the values from the first point after the maximum from which every later rate is at least one std below
    the maximum; also whether at least a third remain."""
    spread, peak = np.std(y), int(np.argmax(y))
    cut = None
    for index in range(peak + 1, len(y)):
        if np.all(np.abs(y[index:] - y[peak]) >= spread):
            cut = index
            break
    kept_x, kept_y = (x, y) if cut is None else (x[:cut], y[:cut])
    return kept_x, kept_y, len(kept_y) / len(y) >= 1 / 3


class Threshold(Metric):
    """Psychometric threshold of a model against human thresholds.

    Parameters
    ----------
    independent_variable : str
        Presentation coordinate of the varied quantity (e.g. ``'vernier_offset'``).
    fit_function, fit_inverse_function : callable, default cumulative Gaussian and its inverse
    threshold_accuracy : 'inflection' or float, default='inflection'
    required_accuracy : float, default=0.6

    Attributes
    ----------
    threshold_accuracy_ : float
        The inflection accuracy of the first successful fit when ``threshold_accuracy='inflection'``; later calls
        read their thresholds at it (Brain-Score's behaviour).
    """

    def __init__(self, independent_variable: str, fit_function=psychometric_cum_gauss,
                 fit_inverse_function=inverse_psychometric_cum_gauss, threshold_accuracy="inflection",
                 required_accuracy: float | None = 0.6):
        self.independent_variable = independent_variable
        self.fit_function = fit_function
        self.fit_inverse_function = fit_inverse_function
        self.threshold_accuracy = threshold_accuracy
        self.required_accuracy = required_accuracy

    def __call__(self, source, target) -> Score:
        """``source``: model responses (``presentation x choice`` probabilities with ``image_label`` and the
        independent variable) or a threshold (float); ``target``: human thresholds (list or PropertyAssembly)."""
        check_input_type(source, (float, np.floating, xr.DataArray), "threshold: source",
                         "a BehavioralAssembly of responses or a float threshold")
        if isinstance(source, (float, np.floating)):
            model_threshold = float(source)
        else:
            model_threshold = self.compute_threshold(source)
            if model_threshold == FIT_FAIL:
                score = Score(0.0)
                score.attrs["error"] = 0.0
                score.attrs["fit"] = FIT_FAIL
                return score
        return threshold_score(model_threshold, _values(target))

    def ceiling(self, assembly) -> Score:
        """Each human threshold scored against the others (Brain-Score's draw), mean and std."""
        return _leave_one_out(_values(assembly), threshold_score)

    def correct(self, source) -> np.ndarray:
        """1 where the most probable choice equals the stimulus's ``image_label``, else 0."""
        require_dims(source, ("presentation", "choice"), "responses")
        require_coord(source, "image_label", "responses", dim="presentation")
        probabilities = source.transpose("presentation", "choice")
        chosen = np.asarray(probabilities["choice"].values)[np.argmax(probabilities.values, axis=1)]
        return (chosen == np.asarray(probabilities["image_label"].values)).astype(float)

    def resolved_threshold_accuracy(self):
        """The accuracy a threshold is read at: ``threshold_accuracy``, or once a fit has resolved
        ``'inflection'``, that fit's inflection accuracy (``threshold_accuracy_``). The constructor parameter
        itself is never changed, so ``get_params()`` stays what was passed."""
        return getattr(self, "threshold_accuracy_", self.threshold_accuracy)

    def compute_threshold(self, source):
        """The model's threshold in units of the independent variable, or ``'fit_fail'``."""
        require_coord(source, self.independent_variable, "responses (the independent variable)", dim="presentation")
        correct = self.correct(source)
        if self.required_accuracy is not None and correct.mean() < self.required_accuracy:
            return FIT_FAIL
        x, y = _rates(_numeric_variable(source, self.independent_variable), correct)
        x, y, enough = _before_falling_off(x, y)
        if not enough:
            return FIT_FAIL
        params, r2 = fit_psychometric(x, y)
        if params is None or not r2 >= 0.4:
            return FIT_FAIL
        accuracy = self.resolved_threshold_accuracy()
        if accuracy == "inflection":  # the first fit's inflection accuracy is kept for later calls (Brain-Score's)
            low, high = self.fit_function(np.min(x), *params), self.fit_function(np.max(x), *params)
            accuracy = self.threshold_accuracy_ = float(low + (high - low) / 2)
        threshold = float(self.fit_inverse_function(accuracy, *params))
        if np.isnan(threshold) or threshold > np.max(x):
            return FIT_FAIL
        return threshold


def _numeric_variable(source, name: str) -> np.ndarray:
    """The values of presentation coordinate ``name`` as floats; :class:`InputTypeError` (a TypeError) naming the
    coordinate and some of its values when they are not numbers (a psychometric function is fitted over them)."""
    values = np.asarray(source[name].values)
    try:
        return values.astype(float)
    except (TypeError, ValueError):
        shown = sorted({str(value) for value in values.tolist()})[:5]
        raise InputTypeError(
            f"threshold: the independent variable {name!r} holds values that are not numbers ({shown}); the "
            "psychometric function is fitted over a numeric variable (Brain-Score's fit fails here too, with a "
            "TypeError)") from None


def _values(target, what: str = "target") -> list:
    """The human thresholds (or elevations) of ``target`` (a list or an assembly) as floats; raises DimensionError
    when they are not numbers."""
    values = np.asarray(getattr(target, "values", target))
    check_numeric(values, f"{what} (human thresholds)")
    return list(values.astype(float).ravel())


class ThresholdElevation(Threshold):
    """``threshold(test condition) / threshold(baseline condition)`` of a model against human elevations.

    ``source`` is ``{baseline_condition: responses, test_condition: responses}`` or a float elevation; ``target`` is
    a list of elevations, a PropertyAssembly of them, or ``{'baseline_assembly': ..., 'condition_assembly': ...}``
    of human thresholds.
    """

    def __init__(self, independent_variable: str, baseline_condition: str, test_condition: str,
                 threshold_accuracy="inflection", required_baseline_accuracy: float | None = 0.6,
                 required_test_accuracy: float | None = 0.6):
        super().__init__(independent_variable, threshold_accuracy=threshold_accuracy)
        self.baseline_condition = baseline_condition
        self.test_condition = test_condition
        self.required_baseline_accuracy = required_baseline_accuracy
        self.required_test_accuracy = required_test_accuracy

    def __call__(self, source, target) -> Score:
        check_input_type(source, (float, np.floating, dict), "threshold_elevation: source",
                         "a dict of responses per condition or a float elevation")
        if isinstance(source, (float, np.floating)):
            elevation = float(source)
        else:
            require_keys(source, (self.baseline_condition, self.test_condition), "threshold_elevation: source")
            baseline = Threshold(self.independent_variable, threshold_accuracy=self.threshold_accuracy,
                                 required_accuracy=self.required_baseline_accuracy)
            baseline_threshold = baseline.compute_threshold(source[self.baseline_condition])
            test = Threshold(self.independent_variable, threshold_accuracy=baseline.resolved_threshold_accuracy(),
                             required_accuracy=self.required_test_accuracy)  # the baseline's inflection accuracy
            test_threshold = test.compute_threshold(source[self.test_condition])
            if FIT_FAIL in (baseline_threshold, test_threshold):
                return Score(0.0)
            elevation = test_threshold / baseline_threshold
        return threshold_score(elevation, self._elevations(target))

    def ceiling(self, assemblies) -> Score:
        return _leave_one_out(self._elevations(assemblies), threshold_score)

    @staticmethod
    def _elevations(target) -> list:
        if isinstance(target, dict):
            require_keys(target, ("baseline_assembly", "condition_assembly"), "threshold_elevation: target")
            return list(np.asarray(_values(target["condition_assembly"], "condition_assembly")) /
                        np.asarray(_values(target["baseline_assembly"], "baseline_assembly")))
        return _values(target)
