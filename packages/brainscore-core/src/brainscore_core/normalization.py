"""Normalising a raw score by a ceiling.

Every function returns a :class:`~brainscore_core.metrics.Score` whose ``attrs`` keep ``raw`` (the raw
Score), ``ceiling`` (the ceiling Score) and ``error``. None clamps except :func:`bound_score`, which keeps
the unclamped value in ``attrs['unbounded']``: an overshoot above 1 is never hidden.
"""

from __future__ import annotations

from typing import Any, Literal

import numpy as np
import xarray as xr

from brainscore_core.score import Score, score_center_error

__all__ = ["EXPLAINED_VARIANCE_RULES", "bound_score", "ceil_score", "explained_variance"]

EXPLAINED_VARIANCE_RULES = ("r2_over_ceiling", "legacy_squared")


def _as_score(value: Any) -> Score:
    return value if isinstance(value, Score) else Score(value)


def _center(score: Score) -> xr.DataArray:
    """Plain DataArray of the score's values (``center`` of the legacy aggregation form), no attrs."""
    if "aggregation" in score.dims:
        score = score.sel(aggregation="center", drop=True)
    plain = xr.DataArray(score.variable.copy(deep=False), coords=score.coords, name=None)
    plain.attrs = {}
    return plain


def explained_variance(raw: Any, ceiling: Any, *,
                       rule: Literal["r2_over_ceiling", "legacy_squared"] = "r2_over_ceiling") -> Score:
    """Fraction of the explainable variance a raw correlation explains.

    Parameters
    ----------
    raw : Score or float
        Raw score, a correlation r; 0-d or with dims (e.g. time_bin).
    ceiling : Score or float
        Ceiling (a Spearman-Brown reliability, already a variance ratio); broadcast against ``raw``.
    rule : {'r2_over_ceiling', 'legacy_squared'}, default='r2_over_ceiling'
        ``'r2_over_ceiling'``: raw^2 / ceiling, the rule since 2026-01. ``'legacy_squared'``:
        (raw / ceiling)^2, the pre-2026 rule, for reproducing old leaderboards.

    Returns
    -------
    Score
        Same dims as ``raw``; attrs ``raw``, ``ceiling`` and ``error`` (the raw error, copied unchanged,
        as the reference does). Not clamped: a value above 1 stays visible.

    Examples
    --------
    >>> score = explained_variance(Score(0.6, attrs={'error': 0.02}), Score(0.8))
    >>> round(float(score), 6), score.attrs['error']   # 0.36 / 0.8
    (0.45, 0.02)
    """
    if rule not in EXPLAINED_VARIANCE_RULES:
        raise ValueError(f"unknown explained_variance rule {rule!r}; choose one of {EXPLAINED_VARIANCE_RULES}")
    raw, ceiling = _as_score(raw), _as_score(ceiling)
    r, c = _center(raw), _center(ceiling)
    value = r ** 2 / c if rule == "r2_over_ceiling" else (r / c) ** 2
    result = Score(value)
    result.attrs = {Score.RAW_VALUES_KEY: raw, "ceiling": ceiling,
                    "normalization": "raw² / ceiling" if rule == "r2_over_ceiling" else "(raw / ceiling)²"}
    _, error = score_center_error(raw)
    if error is not None:
        result.attrs["error"] = error
    return result


def ceil_score(raw: Any, ceiling: Any) -> Score:
    """Raw score divided by the ceiling.

    Parameters
    ----------
    raw : Score or float
        Raw score; 0-d or with dims.
    ceiling : Score or float
        Ceiling; broadcast against ``raw``.

    Returns
    -------
    Score
        raw / ceiling with attrs ``raw``, ``ceiling`` and ``error`` = raw error / ceiling (the ceiling
        taken as exact, so the error is in the ceiled units). Not clamped.

    Examples
    --------
    >>> round(float(ceil_score(Score(0.3), Score(0.6))), 6)
    0.5
    """
    raw, ceiling = _as_score(raw), _as_score(ceiling)
    c = _center(ceiling)
    result = Score(_center(raw) / c)
    result.attrs = {Score.RAW_VALUES_KEY: raw, "ceiling": ceiling, "normalization": "raw / ceiling"}
    _, error = score_center_error(raw)
    if error is not None:
        scaled = error / c
        result.attrs["error"] = float(scaled) if np.ndim(scaled) == 0 or scaled.size == 1 else scaled
    return result


def bound_score(score: Score) -> Score:
    """Clamp ``score`` to [0, 1] in place (and return it).

    NaN stays NaN. The values before clamping are kept in ``attrs['unbounded']`` (a float for a 0-d
    score, a DataArray otherwise), so an overshoot stays visible.

    Parameters
    ----------
    score : Score
        Score to clamp, any shape.

    Returns
    -------
    Score
        The same object, clamped.

    Examples
    --------
    >>> score = bound_score(Score(1.2))
    >>> float(score), score.attrs['unbounded']
    (1.0, 1.2)
    """
    unbounded = score.variable.values.copy()
    score.attrs["unbounded"] = (float(unbounded) if unbounded.ndim == 0
                                else xr.DataArray(unbounded, coords=score.coords, dims=score.dims))
    score.values = np.clip(unbounded, 0, 1)
    return score
