"""Stimulus Gram matrices of wide sources, formed once, in float64, at BLAS speed.

The kernel (stimulus-space) paths of the metrics (CKA, RDM, ridge, least squares, PLS) all start from
``G = Z Z'`` where ``Z`` is the source with centred columns (or rows): an n x n matrix whose
product costs n x n x p, the floor of every such metric. It is formed here over blocks of features,
without a centred or float64 copy of the source.

Precision (``precision=``):

* ``'float64'``: each block is centred and converted to float64, then multiplied (float64 products, as
  the reference computes on float64 data).
* ``'mixed'``: a float32 source is centred in float32 block by block (the float64 means split into a
  float32 pair ``hi + lo``, ``x - hi - lo``, so the centred values carry one float32 rounding), each
  block product runs in float32 (BLAS ``ssyrk``, about twice the float64 speed) and the block products
  are summed in float64, so a rounding error stays within one block of :data:`MIXED_BLOCK` features
  instead of growing over all features. A float64 source is always multiplied in float64.

Where the products run: the backend's ``stimulus_gram_blocks`` (numpy, :mod:`brainscore_metrics.backend._numpy_gram`:
a float32 block's ``syrk`` per task up to 2,048 stimuli, summed in block order, else tiles of rows; each one
single-threaded BLAS call on the plan's worker threads, so the bits do not depend on the number of workers; torch: one
product per block). Everything else (precision, blocks, constant columns) is decided here, from the plan and the source.

Constant features: with ``center='columns'`` a feature that is constant over all stimuli centres to zero and adds
exactly nothing to ``G`` (nor to any training block or cross block taken from it), so such columns are found in one
pass (:func:`varying_columns`) and left out of the product. Quantised ReLU activations have many (6,611 of 10,000
features in the issue-31 input): the n x n x p product shrinks by the same factor. Leaving them out means gathering
the others (a strided copy of each block), which pays on a large product only when they are at least
:data:`GATHER_BREAK_EVEN` / n of the columns (a fifth at 640 stimuli; 2,000 of 10,000 at 3,200 are left out, 1,915 of
25,088 at 640 stay in, their centred zeros multiplied). Nothing is copied when every column varies.
"""

from __future__ import annotations

import numpy as np

from brainscore_metrics.backend.plan import (
    PRECISIONS,
    SMALL_PROBLEM_FLOPS,
    ComputePlan,
    check_precision,
    compute_plan,
)

__all__ = ["GATHER_BREAK_EVEN", "MIXED_BLOCK", "PRECISIONS", "check_precision", "gram_plan", "stimulus_gram",
           "stimulus_gram_as_numpy", "varying_columns"]

#: features per block in float32 products (bounds the float32 rounding error of one summand; an accuracy parameter,
#: not a memory one)
MIXED_BLOCK = 2048
#: constant columns are left out of a large product when they are at least this many over n (the stimuli) of its
#: columns: gathering the others costs a pass over them (a strided copy), leaving c of p out saves c / p of the
#: product, whose cost per column grows with n. Measured on the 2-core machine (quiet, 2026-11-29): 640 x 25,088
#: float32 with 1,915 constant columns (below: 20 %), CKA 79 -> 69 ms and the Euclidean RDM 80 -> 75 ms with them in
GATHER_BREAK_EVEN = 128
#: rows read for a first bound on the constant columns (:func:`_too_few_to_matter`)
SAMPLED_ROWS = 32


def varying_columns(xp, X, block: int = MIXED_BLOCK) -> np.ndarray | None:
    """Positions of the columns of ``X`` that are not constant over its rows, or None when every column varies (the
    backend's ``varying_columns``: a column holding a NaN counts as varying).

    Parameters
    ----------
    xp : backend module
    X : array of shape (n_stimuli, n_features)
    block : int, default=2048

    Returns
    -------
    int ndarray of shape (n_varying,), increasing, or None (all n_features vary)
    """
    return xp.varying_columns(X, block)


def _worth_gathering(n: int, p: int, varying: int) -> bool:
    """Whether leaving the ``p - varying`` constant columns out of an n x n x p product pays for gathering the
    others (module docstring): always below :data:`~brainscore_metrics.backend.plan.SMALL_PROBLEM_FLOPS` (the cost
    does not matter there), else when they are at least :data:`GATHER_BREAK_EVEN` / n of the columns."""
    return float(n) * n * p < SMALL_PROBLEM_FLOPS or (p - varying) * n >= GATHER_BREAK_EVEN * p


def _too_few_to_matter(xp, X, mixed_min_features_per_stimulus: float) -> bool:
    """Whether the constant columns of a numpy source are known, from :data:`SAMPLED_ROWS` of its rows, to be too few
    to change the product: the columns constant over the sampled rows include every constant column, so when even
    that many would neither pay for gathering (:func:`_worth_gathering`) nor leave fewer varying features than
    ``mixed_min_features_per_stimulus`` per stimulus, the full scan (a pass over the whole source) decides nothing and
    is skipped: the same blocks, the same bits. The real input's 640 x 25,088 activations (1,915 dead units, 8 %):
    one scan of 64 MB saved per Gram matrix."""
    n, p = X.shape
    if xp.name != "numpy" or not isinstance(X, np.ndarray) or n <= 2 * SAMPLED_ROWS:
        return False
    rows = np.linspace(0, n - 1, SAMPLED_ROWS).round().astype(np.intp)  # distinct rows, spread over the source
    varying_in_sample = xp.varying_columns(X[rows], MIXED_BLOCK)
    at_least_varying = p if varying_in_sample is None else len(varying_in_sample)
    return not _worth_gathering(n, p, at_least_varying) and at_least_varying >= mixed_min_features_per_stimulus * n


def _column_blocks(xp, X, kept, p: int, block: int) -> list:
    """Column selectors of equal blocks of at most ``block`` columns: slices of all p columns, or index arrays of
    the ``kept`` ones."""
    count = p if kept is None else len(kept)
    if count == 0:
        return []
    block = -(-count // -(-count // block))  # equal blocks
    if kept is None:
        return [slice(start, start + block) for start in range(0, count, block)]
    return [xp.index(kept[start:start + block], X) for start in range(0, count, block)]


def stimulus_gram(plan: ComputePlan, X, *, center: str = "columns", mixed_min_features_per_stimulus: float = 0.0):
    """Gram matrix ``Z Z'`` of the centred source, float64, accumulated over feature blocks.

    Parameters
    ----------
    plan : ComputePlan
        Its backend, its ``precision`` (module docstring; only matters for a float32 source) and its workers.
    X : array of shape (n_stimuli, n_features), float32 or float64
        Not modified and not copied whole (blocks of columns are converted).
    center : {'columns', 'rows', 'none'}, default='columns'
        Subtract each feature's mean over stimuli (CKA, regressions), each stimulus' mean over features
        (pattern correlations), or nothing. With 'columns' and 'rows', constant features are left out of the product
        (module docstring).
    mixed_min_features_per_stimulus : float, default=0.0
        Under ``'mixed'``, float64 products instead when fewer than this many features per stimulus vary (with
        column centring: constant features do not count).

    Returns
    -------
    array of shape (n_stimuli, n_stimuli), float64, symmetric, on the plan's backend.
    """
    if center not in ("columns", "rows", "none"):
        raise ValueError(f"center must be 'rows', 'columns' or 'none', got {center!r}")
    xp = plan.xp
    n, p = X.shape
    float32 = plan.float32_products(X)
    kept = None
    if center in ("columns", "rows") and not _too_few_to_matter(xp, X, mixed_min_features_per_stimulus):
        kept = xp.varying_columns(X, MIXED_BLOCK, plan.map)
    if float32 and (p if kept is None else len(kept)) < mixed_min_features_per_stimulus * n:
        float32 = False
    if kept is not None and not _worth_gathering(n, p, len(kept)):
        kept = None  # the constant columns stay in: their centred zeros cost less than gathering the others
    block = MIXED_BLOCK if float32 else max(1, plan.block_bytes // (8 * max(n, 1)))
    gram = xp.stimulus_gram_blocks(plan, X, _column_blocks(xp, X, kept, p, block), center, float32)
    if center == "rows" and kept is not None:
        _add_constant_columns(xp, gram, X, kept, xp.row_means(X)[:, 0])
    return gram


def _add_constant_columns(xp, gram, X, kept, row_means) -> None:
    """Add the constant columns' share of a row-centred Gram matrix formed over the ``kept`` (varying) columns only.

    A column with the value ``c_k`` on every row adds ``(c_k - m_i)(c_k - m_j)`` to ``G_ij`` (``m``: the row means
    over all columns); over the constant columns that is ``S + n_c (cbar - m_i)(cbar - m_j)`` with ``cbar`` their mean
    value and ``S`` their sum of squared deviations from it (no cancellation when the values are large). Dead units
    of an activation matrix are such columns: the product runs over the others only.
    """
    constant = np.setdiff1d(np.arange(X.shape[1]), kept)
    if len(constant) == 0:
        return
    first_row = X[:1]
    values = np.asarray(xp.to_numpy(xp.take(first_row, xp.index(constant, first_row), 1)), dtype=np.float64)[0]
    mean = values.mean()
    spread = float(np.sum((values - mean) ** 2))
    offsets = mean - np.asarray(xp.to_numpy(row_means), dtype=np.float64)  # (n,)
    gram += xp.asarray(spread + len(constant) * (offsets[:, None] * offsets[None, :]))


def stimulus_gram_as_numpy(plan: ComputePlan, X, *, center: str = "columns") -> np.ndarray:
    """:func:`stimulus_gram` formed on the plan's backend and returned as a numpy array.

    The n x n x p product is the whole cost of CKA and of an RDM on wide sources; everything after it works on the
    n x n result. A torch plan forms it with torch's CPU kernels (``'torch'``) or on the GPU (``'torch_cuda'``: the
    source is moved there once, as float32 when it is float32).

    Parameters
    ----------
    plan : ComputePlan
    X : array of shape (n_stimuli, n_features), float32 or float64 (numpy array or torch tensor)
    center : {'columns', 'rows', 'none'}, default='columns'

    Returns
    -------
    ndarray of shape (n_stimuli, n_stimuli), float64.
    """
    xp = plan.xp
    return np.asarray(xp.to_numpy(stimulus_gram(plan, xp.as_source(xp.asarray(X)), center=center)))


def gram_plan(backend, *arrays, precision: str = "mixed"):
    """The plan of a call whose cost is stimulus Gram matrices (CKA, RSA; :func:`~brainscore_metrics.backend.plan.
    compute_plan`): those products on ``backend`` (when None: torch for a torch tensor, else numpy whatever the
    context's default, since the n x n results are numpy either way), worker threads from the largest n x n x p product among ``arrays`` (anything with a
    ``shape``: arrays, assemblies).

    Returns
    -------
    context manager yielding a :class:`~brainscore_metrics.backend.plan.ComputePlan`
    """
    flops = max((float(np.prod(array.shape)) * max(array.shape) for array in arrays), default=0.0)
    if backend is None:  # torch for a torch tensor (on its device), else numpy
        torch_input = any(type(array).__module__.startswith("torch") for array in arrays)
        return compute_plan(None, *arrays, precision=precision, flops=flops) if torch_input else \
            compute_plan("numpy", precision=precision, flops=flops)
    return compute_plan(backend, precision=precision, flops=flops)
