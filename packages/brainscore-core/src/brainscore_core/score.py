"""``Score``: a labelled array (0-d for a single number) that carries its raw values, ceiling and error."""

from __future__ import annotations

import contextlib
import contextvars
from typing import Any

import numpy as np
import xarray as xr

from brainio.assemblies import DataAssembly
from brainio.coords import merge_data_arrays

__all__ = ["Score", "score_center", "score_center_error", "score_value"]

# set while a selection-type method runs, so that xarray calling one such method from another (squeeze
# calls isel) does not apply the selection to the raw attrs twice
_applying_to_raw: contextvars.ContextVar[bool] = contextvars.ContextVar("_applying_to_raw", default=False)
# a selection that does not apply to a raw attr leaves that attr unchanged (reference behaviour)
_SELECTION_ERRORS = (KeyError, ValueError, IndexError, TypeError)


class Score(DataAssembly):
    """A score: normally 0-d, with conventional attrs.

    Attributes (in ``attrs``)
    -------------------------
    raw : Score
        The unceiled score (for ceiled scores), or the per-split / per-neuroid values (for raw scores),
        e.g. of shape (split, neuroid).
    ceiling : Score
        The ceiling the value was normalised by.
    error : float
        Uncertainty of the value (e.g. standard error over splits).

    Notes
    -----
    Selection-type operations (``sel``, ``isel``, ``squeeze``, ``expand_dims``, item assignment) are also
    applied to every attr whose key contains ``'raw'``; where one does not apply to an attr (e.g. the
    dim is absent there), that attr is kept unchanged. Reductions (``mean``, ``sum``, ...) keep the
    attrs but do not touch them.

    Examples
    --------
    >>> score = Score(0.5, attrs={'error': 0.1})
    >>> float(score), score.attrs['error']
    (0.5, 0.1)
    """

    __slots__ = ()
    RAW_VALUES_KEY = "raw"

    def _apply_raw(self, result: Any, method: str, *args: Any, **kwargs: Any) -> Any:
        if not isinstance(result, xr.DataArray):
            return result
        attrs = dict(result.attrs)
        for key, value in attrs.items():
            if self.RAW_VALUES_KEY in key and isinstance(value, xr.DataArray):
                with contextlib.suppress(_SELECTION_ERRORS):
                    attrs[key] = getattr(value, method)(*args, **kwargs)
        result.attrs = attrs
        return result

    def _selection(self, method: str, *args: Any, **kwargs: Any) -> Any:
        if _applying_to_raw.get():
            return getattr(super(), method)(*args, **kwargs)
        token = _applying_to_raw.set(True)
        try:
            result = getattr(super(), method)(*args, **kwargs)
            return self._apply_raw(result, method, *args, **kwargs)
        finally:
            _applying_to_raw.reset(token)

    def sel(self, *args: Any, **kwargs: Any) -> Score:
        return self._selection("sel", *args, **kwargs)

    def isel(self, *args: Any, **kwargs: Any) -> Score:
        return self._selection("isel", *args, **kwargs)

    def squeeze(self, *args: Any, **kwargs: Any) -> Score:
        return self._selection("squeeze", *args, **kwargs)

    def expand_dims(self, *args: Any, **kwargs: Any) -> Score:
        return self._selection("expand_dims", *args, **kwargs)

    def __setitem__(self, key: Any, value: Any) -> None:
        super().__setitem__(key, value)
        if _applying_to_raw.get():
            return
        for attr_key, attr_value in self.attrs.items():
            if self.RAW_VALUES_KEY in attr_key and isinstance(attr_value, xr.DataArray):
                with contextlib.suppress(_SELECTION_ERRORS):
                    attr_value[key] = value

    @classmethod
    def merge(cls, *scores: xr.DataArray) -> Score:
        """Merge scores that differ in their coordinates into one, merging their raw attrs the same way.

        Parameters
        ----------
        *scores : Score
            Scores whose coordinate values do not overlap (e.g. one per region).

        Returns
        -------
        Score
            Values of all ``scores``; ``attrs['raw']`` is the merge of their raw attrs when they have one.
        """
        if not scores:
            raise ValueError("Score.merge needs at least one score")
        merged = merge_data_arrays([_without_attrs(score) for score in scores])
        result = cls(merged)
        raws = [score.attrs[cls.RAW_VALUES_KEY] for score in scores
                if isinstance(score.attrs.get(cls.RAW_VALUES_KEY), xr.DataArray)]
        if raws:
            result.attrs[cls.RAW_VALUES_KEY] = cls.merge(*raws)
        return result


def _without_attrs(array: xr.DataArray) -> xr.DataArray:
    plain = array.copy(deep=False)
    plain.attrs = {}
    return plain


def score_center(score: Any) -> Any:
    """The value of ``score``: its ``center`` entry for the legacy ``aggregation`` form, else itself.

    Returns a float for a single value, a DataArray otherwise, and None for None.
    """
    if score is None:
        return None
    if isinstance(score, xr.DataArray):
        if "aggregation" in score.dims:
            score = score.sel(aggregation="center")
        if score.size == 1:
            return float(np.asarray(score.values).reshape(-1)[0])
        return score
    return float(score)


def score_value(score: Any) -> float:
    """The value of a score as one float: :func:`score_center` (legacy ``aggregation`` form handled), the mean of
    the finite values when it holds several (a per-region or per-time-bin score), NaN for None or no value.

    The one definition every reader uses (CLI tables, layer selection, normalisation, tests).
    """
    center = score_center(score) if isinstance(score, xr.DataArray) or score is None else score
    if center is None:
        return float("nan")
    try:
        values = np.asarray(getattr(center, "values", center), dtype=float).reshape(-1)
    except (TypeError, ValueError):
        return float("nan")
    if values.size == 0:
        return float("nan")
    if values.size == 1:
        return float(values[0])
    finite = values[np.isfinite(values)]
    return float(finite.mean()) if finite.size else float("nan")


def score_center_error(score: Any) -> tuple[Any, Any]:
    """``(center, error)`` of a score in either form.

    Current form: value = the score, error = ``attrs['error']`` (None when absent). Legacy form: a
    score with an ``aggregation`` dim whose ``center`` and ``error`` entries hold both.

    Returns
    -------
    (center, error) : tuple
        Floats where the score holds one value, DataArrays otherwise; error may be None.
    """
    if isinstance(score, xr.DataArray) and "aggregation" in score.dims:
        center = score_center(score)
        aggregations = list(np.asarray(score["aggregation"].values))
        error = score_center(score.sel(aggregation="error")) if "error" in aggregations else None
        return center, error
    error = score.attrs.get("error") if isinstance(score, xr.DataArray) else None
    if isinstance(error, xr.DataArray):
        error = score_center(error)
    elif error is not None:
        error = float(error) if np.ndim(error) == 0 else error
    return score_center(score), error
