"""``factor_dimensionality``: the share of a representation's dimensions that encode one factor (Esser et al. 2020).

Two assemblies hold paired samples: row ``k`` of ``assembly1`` and row ``k`` of ``assembly2`` share the value of a
factor (e.g. two images of the same object under different views), labelled by the coordinate ``factor`` on the
sample dim (the first dim). For each factor ``f`` with paired rows ``a_f``, ``b_f`` (in order)::

    m_f      = (mean(a_f) + mean(b_f)) / 2                     per neuron
    score_f  = sum_neurons mean_k (a_f - m_f)(b_f - m_f) / var  var = sum_neurons variance of all rows of both

The scores and a ``residual`` of 1 go through a softmax; the ``N`` dimensions (``N`` = length of the second dim)
are shared out as ``floor(softmax * N)`` per factor, the residual taking the rest; the metric returns the share of
dimensions of ``factor`` (its count / N), as Brain-Score's ``Dimensionality`` does.
"""

from __future__ import annotations

import numpy as np

from brainscore_core.metrics import Metric, Score
from brainscore_metrics.errors import BehaviorInputError
from brainscore_metrics.validation import require_coord

__all__ = ["Dimensionality", "factor_dimensions"]

RESIDUAL = "residual"


#: float64 elements per block of columns (32 MB): the responses are read a block of neurons at a time
_BLOCK_ELEMENTS = 1 << 22


def factor_dimensions(values1: np.ndarray, values2: np.ndarray, factors1: np.ndarray, factors2: np.ndarray,
                      n_dimensions: int) -> dict:
    """Share of the ``n_dimensions`` given to each factor and to the residual (values sum to 1).

    Parameters
    ----------
    values1, values2 : ndarray of shape (n_samples, n_neurons) (more trailing dims are summed over like neurons)
        Any float dtype; read a block of neurons at a time in float64, so memory stays at a few blocks whatever the
        width.
    factors1, factors2 : ndarray of shape (n_samples,)
        The factor of each row.
    n_dimensions : int
        How many dimensions are shared out (Brain-Score: the length of the assemblies' second dim).
    """
    values1 = np.asarray(values1).reshape(len(values1), -1)
    values2 = np.asarray(values2).reshape(len(values2), -1)
    names = sorted(set(factors1.tolist()))
    if RESIDUAL in names:
        raise BehaviorInputError(f"{RESIDUAL!r} is reserved for the residual dimensions; rename that factor")
    rows = {name: (np.flatnonzero(factors1 == name), np.flatnonzero(factors2 == name)) for name in names}
    for name, (rows1, rows2) in rows.items():
        if len(rows1) != len(rows2):
            raise BehaviorInputError(f"factor {name!r}: assembly1 has {len(rows1)} samples and assembly2 {len(rows2)}; "
                                     "the samples of a factor are compared pairwise, in order")
    width = values1.shape[1]
    step = max(1, _BLOCK_ELEMENTS // max(1, len(values1) + len(values2)))
    variance, covariances = 0.0, dict.fromkeys(names, 0.0)
    for start in range(0, width, step):
        block1 = values1[:, start:start + step].astype(float)
        block2 = values2[:, start:start + step].astype(float)
        both = np.concatenate([block1, block2], 0)
        variance += np.sum(np.mean((both - both.mean(0, keepdims=True)) ** 2, 0))
        for name, (rows1, rows2) in rows.items():
            a, b = block1[rows1], block2[rows2]
            middle = 0.5 * (a.mean(0, keepdims=True) + b.mean(0, keepdims=True))
            covariances[name] += np.sum(np.mean((a - middle) * (b - middle), 0))
    scores = {name: covariances[name] / variance for name in names}
    scores[RESIDUAL] = 1.0
    values = np.fromiter(scores.values(), dtype=float)
    softmax = np.exp(values - values.max())
    softmax /= softmax.sum()
    counts = (softmax * n_dimensions).astype(int)  # truncation, as int() does for these non-negative shares
    counts[-1] = n_dimensions - counts[:-1].sum()
    return {name: count / counts.sum() for name, count in zip(scores, counts, strict=True)}


class Dimensionality(Metric):
    """The share of dimensions that encode ``factor``.

    Parameters
    ----------
    factor : str
        The factor whose share is returned (a value of the ``factor`` coordinate, or ``'residual'``).

    Returns (from ``__call__(assembly1, assembly2)``)
    -------------------------------------------------
    Score (0-d), attrs ``dimensions`` (the share of every factor and of the residual).
    """

    def __init__(self, factor):
        self.factor = factor

    def __call__(self, assembly1, assembly2) -> Score:
        factors1 = require_coord(assembly1, "factor", "assembly1")
        factors2 = require_coord(assembly2, "factor", "assembly2")
        shares = factor_dimensions(np.asarray(assembly1.values), np.asarray(assembly2.values), factors1, factors2,
                                   n_dimensions=assembly1.shape[1])
        if self.factor not in shares:
            raise BehaviorInputError(f"factor {self.factor!r} is not among the assemblies' factors "
                                     f"{sorted(map(str, shares))}")
        score = Score(float(shares[self.factor]))
        score.attrs["dimensions"] = {str(name): float(share) for name, share in shares.items()}
        return score
