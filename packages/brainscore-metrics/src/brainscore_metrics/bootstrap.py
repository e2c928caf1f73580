"""Bootstrap confidence intervals over stimuli.

The reference reports only the standard error over cross-validation splits. Every metric here can
additionally report a percentile bootstrap interval: stimuli are resampled with replacement and the
metric's statistic is recomputed on each resample. For cross-validated regression metrics the fitted
predictions of each split stay fixed and the *test* stimuli of each split are resampled (no refit), so
the interval reflects stimulus sampling of the evaluation, not refitting variance.

The resampling *error* of an aggregated score (Brain-Score's ``metric_helpers.bootstrap_error``; a benchmark made of
per-subject or per-fold children reports it) lives here too: :func:`bootstrap_error` is the standard deviation
(``ddof=1``) of the aggregate over ``n_bootstrap`` resamples of the units along ``over`` (drawn with replacement, each
dim independently, from ``numpy.random.default_rng(seed)`` in Brain-Score's order: one ``integers(0, n, n)`` per dim
per resample); non-finite draws are dropped and fewer than two finite draws give NaN. The default aggregate, the
NaN-mean over all values, is computed for all resamples at once from the bincounts of the drawn indices (one matrix
product) instead of one ``isel`` per resample; a custom ``aggregate`` is called per resample, as Brain-Score calls it.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence

import numpy as np

from brainscore_core.metrics import Score
from brainscore_metrics.errors import DimensionError

__all__ = ["ERROR_KEY", "ERROR_NAN_REASON_KEY", "ERROR_OVER_KEY", "N_BOOTSTRAP_KEY", "attach_error",
           "bootstrap_confidence_interval", "bootstrap_error", "bootstrap_indices", "declare_no_error",
           "percentile_interval"]

_logger = logging.getLogger(__name__)

#: Score attrs written by :func:`attach_error` and :func:`declare_no_error` (Brain-Score's names)
ERROR_KEY = "error"
ERROR_OVER_KEY = "error_over"
N_BOOTSTRAP_KEY = "n_bootstrap"
ERROR_NAN_REASON_KEY = "error_nan_reason"


def bootstrap_indices(n_stimuli: int, n_bootstrap: int, random_state: int = 0) -> np.ndarray:
    """Resampled stimulus indices.

    Returns
    -------
    ndarray of shape (n_bootstrap, n_stimuli), integers in ``[0, n_stimuli)``.
    """
    if n_stimuli < 1:
        raise ValueError(f"n_stimuli must be >= 1, got {n_stimuli}")
    if n_bootstrap < 1:
        raise ValueError(f"n_bootstrap must be >= 1, got {n_bootstrap}")
    rng = np.random.default_rng(random_state)
    return rng.integers(0, n_stimuli, size=(n_bootstrap, n_stimuli))


def bootstrap_confidence_interval(compute: Callable[[np.ndarray], float], n_stimuli: int, *,
                                  n_bootstrap: int = 1000, confidence: float = 0.95,
                                  random_state: int = 0) -> tuple[float, float, np.ndarray]:
    """Percentile bootstrap interval of a statistic over stimuli.

    Parameters
    ----------
    compute : callable
        ``compute(indices) -> float`` where ``indices`` is an int array of shape (n_stimuli,) of
        resampled stimulus positions.
    n_stimuli : int
        Number of stimuli to resample.
    n_bootstrap : int, default=1000
        Number of resamples.
    confidence : float, default=0.95
        Coverage of the two-sided interval.
    random_state : int, default=0
        Seed of ``numpy.random.default_rng``.

    Returns
    -------
    ci_low, ci_high : float
        NaN-skipping percentiles ``(1 - confidence) / 2`` and ``(1 + confidence) / 2`` of the samples.
    samples : ndarray of shape (n_bootstrap,)
        The statistic on every resample.
    """
    if not 0 < confidence < 1:
        raise ValueError(f"confidence must lie in (0, 1), got {confidence}")
    indices = bootstrap_indices(n_stimuli, n_bootstrap, random_state)
    samples = np.array([compute(row) for row in indices], dtype=float)
    return (*percentile_interval(samples, confidence), samples)


def percentile_interval(samples: np.ndarray, confidence: float = 0.95) -> tuple[float, float]:
    """NaN-skipping two-sided percentile interval of bootstrap ``samples``."""
    samples = np.asarray(samples, dtype=float)
    if np.all(np.isnan(samples)):
        return float("nan"), float("nan")
    tail = (1 - confidence) / 2
    low, high = np.nanquantile(samples, [tail, 1 - tail])
    return float(low), float(high)


def _draws(values, over: Sequence[str], n_bootstrap: int, seed: int) -> list[dict[str, np.ndarray]]:
    rng = np.random.default_rng(seed)
    return [{dim: rng.integers(0, values.sizes[dim], values.sizes[dim]) for dim in over} for _ in range(n_bootstrap)]


def _nanmean_draws(values, over: Sequence[str], draws) -> np.ndarray:
    """The NaN-mean of every resample: the bincounts of the drawn indices (one weight matrix per dim) contracted
    with the per-unit sums and counts of non-NaN values, for all resamples at once."""
    sizes = [values.sizes[dim] for dim in over]
    data = np.asarray(values.transpose(*over, ...).values, dtype=float).reshape(*sizes, -1)
    present = ~np.isnan(data)
    sums, counts = np.where(present, data, 0.0).sum(axis=-1), present.sum(axis=-1).astype(float)
    weights = [np.stack([np.bincount(draw[dim], minlength=size) for draw in draws]).astype(float)
               for dim, size in zip(over, sizes, strict=True)]
    totals, numbers = weights[0] @ sums.reshape(sizes[0], -1), weights[0] @ counts.reshape(sizes[0], -1)
    for weight, size in zip(weights[1:], sizes[1:], strict=True):  # one resampled dim at a time
        totals = np.einsum("bi,bir->br", weight, totals.reshape(len(draws), size, -1))
        numbers = np.einsum("bi,bir->br", weight, numbers.reshape(len(draws), size, -1))
    totals, numbers = totals.reshape(len(draws)), numbers.reshape(len(draws))
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(numbers > 0, totals / np.where(numbers > 0, numbers, 1), np.nan)


def bootstrap_error(values: Score, over: Sequence[str], aggregate: Callable | None = None, n_bootstrap: int = 1000,
                    seed: int = 0) -> float:
    """Standard error of the aggregated score from resampling the units along ``over``.

    Parameters
    ----------
    values : Score
        Per-unit scores with every dim of ``over``.
    over : sequence of str
        Dims resampled with replacement (independently: a crossed design).
    aggregate : callable or None, default=None
        ``aggregate(resampled values) -> float``; None is the NaN-mean over all values.
    n_bootstrap : int, default=1000
    seed : int, default=0

    Raises
    ------
    DimensionError
        When a dim of ``over`` is not a dim of ``values`` (a ``ValueError``, as Brain-Score's).
    """
    missing = [dim for dim in over if dim not in values.dims]
    if missing:
        raise DimensionError(f"resample dims {missing} not in values.dims {list(values.dims)}")
    draws = _draws(values, over, n_bootstrap, seed)
    if aggregate is None:
        samples = _nanmean_draws(values, over, draws)
    else:
        samples = np.array([aggregate(values.isel(draw)) for draw in draws], dtype=float)
    samples = samples[np.isfinite(samples)]
    if len(samples) < 2:
        _logger.warning("bootstrap produced <2 finite draws; returning nan error")
        return float("nan")
    return float(np.std(samples, ddof=1))


def attach_error(score: Score, values: Score, over: Sequence[str], aggregate: Callable | None = None,
                 n_bootstrap: int = 1000, seed: int = 0) -> Score:
    """Set ``score.attrs['error']`` to :func:`bootstrap_error`, with ``error_over`` and ``n_bootstrap``; keep
    ``values`` as ``attrs['raw']`` unless a raw is already set. Returns ``score``."""
    score.attrs[ERROR_KEY] = bootstrap_error(values, over, aggregate, n_bootstrap, seed)
    score.attrs[ERROR_OVER_KEY] = list(over)
    score.attrs[N_BOOTSTRAP_KEY] = int(n_bootstrap)
    score.attrs.setdefault(Score.RAW_VALUES_KEY, values)
    return score


def declare_no_error(score: Score, reason: str) -> Score:
    """Mark ``score`` as having no resampling error: ``error`` NaN and ``error_nan_reason``. Returns ``score``."""
    score.attrs[ERROR_KEY] = float("nan")
    score.attrs[ERROR_NAN_REASON_KEY] = reason
    return score
