"""Fixed-alpha ridge in kernel (dual) form: a saddle-point system over the globally centred Gram matrix.

Ridge with an unpenalised intercept, fitted on the training rows T of a source whose Gram matrix ``K`` is taken over
features centred on *all* its rows (training and test), solves ::

    [[K_TT + alpha I, 1], [1', 0]] [c; b] = [y_T; 0]

and predicts ``K_RT c + b`` for any rows R. An intercept absorbs any common shift of the features, so how ``K`` was
centred does not matter: ``c`` is the solution of the kernel re-centred on the training rows,
``(H K_TT H + alpha I) c = H y_T`` (``H``: the training rows' centring matrix), whose ``1'c = 0`` it satisfies, and
both give the same predictions. With ``A = K_TT + alpha I`` (positive definite for alpha > 0, ``K_TT`` being a
principal block of a Gram matrix): ``b = 1'A^-1 y / 1'A^-1 1`` and ``c = A^-1 y - b A^-1 1``, from one Cholesky
factorisation of ``A`` and one solve with one more right-hand column than there are targets.

Against re-centring the kernel on the training rows (the previous way, still the one of RidgeCV's eigendecomposition:
a pass over the whole Gram matrix for its row means, a copy of the training block and three passes over it), nothing
is formed but ``A``; and where the caller no longer needs the Gram matrix (``overwrite``: a fixed split's stacked
Gram matrix, or a fit on all rows of a source), ``A`` is formed in the Gram matrix's own memory: the training rows
come first, so their block is moved to the front of the buffer, row after row, leaving the test rows' block ``K_RT``
where it was. On the issue-43 large input (2,880 training and 320 test stimuli of 10,000 float32 features, 200
targets; the 2-core machine at load 1.0-1.4, 2026-11-29, ``compare_commits.py`` against aa63082, median of 7
alternating calls): ``arrays.ridge_predict`` 0.639 s against 0.722 s (0.89), ``RidgeRegression.fit(...).predict``
0.704 against 0.765 s (0.92), the predictions equal to 3.3e-15 and 6.5e-15 of their largest, and one 66 MB array
fewer at the peak (the training block's copy, whose fresh pages the kernel must zero: the slower calls of the
previous way spent 0.09-0.17 s of system time).
"""

from __future__ import annotations

import numpy as np

__all__ = ["COMPACT_ROWS", "as_range", "kernel_rows", "saddle_point_dual", "saddle_point_predictions", "train_block"]

#: rows of the training block moved to the front of the Gram matrix's buffer per copy
COMPACT_ROWS = 64


def as_range(rows) -> slice | None:
    """``rows`` as a slice when they are consecutive and increasing, else None."""
    rows = np.asarray(rows)
    if len(rows) == 0 or rows[-1] - rows[0] != len(rows) - 1 or (len(rows) > 1 and not np.all(np.diff(rows) == 1)):
        return None
    return slice(int(rows[0]), int(rows[-1]) + 1)


def _leading_block_in_place(gram: np.ndarray, m: int) -> np.ndarray:
    """The leading m x m block of a C-ordered square ``gram``, moved to the front of its buffer (C-ordered, m x m).

    Row i goes from offset ``i n`` to ``i m``: below every row not moved yet (``(i + 1) m <= (i + 1) n``), so moving
    the rows in increasing order never overwrites one still to be read; numpy copies through a buffer where a block
    of rows overlaps its own destination. Rows m and beyond (from offset ``m n >= m m``) keep their place and values.
    """
    n = gram.shape[0]
    if m == n:
        return gram
    flat = gram.reshape(-1)
    width = flat.itemsize
    for start in range(1, m, COMPACT_ROWS):
        stop = min(start + COMPACT_ROWS, m)
        source = np.lib.stride_tricks.as_strided(flat[start * n:], shape=(stop - start, m), strides=(n * width, width))
        flat[start * m:stop * m].reshape(stop - start, m)[...] = source
    return flat[:m * m].reshape(m, m)


def train_block(xp, gram, train, *, overwrite: bool = False):
    """``K[train, train]`` as an array that may be factorised in place.

    Parameters
    ----------
    xp : backend module
    gram : array of shape (n, n)
    train : int array of shape (m,)
    overwrite : bool, default=False
        Form it in ``gram``'s own memory when ``gram`` is a C-ordered numpy array and ``train`` its first m rows
        (module docstring); ``gram``'s rows before m are then garbage, rows m and beyond keep their values (a fixed
        split's test rows, ``gram[m:, :m]``). Else a copy.

    Returns
    -------
    array of shape (m, m), C-ordered
    """
    m = len(train)
    if overwrite and isinstance(gram, np.ndarray) and gram.flags.c_contiguous and as_range(train) == slice(0, m):
        return _leading_block_in_place(gram, m)
    return kernel_rows(xp, gram, train, train)


def kernel_rows(xp, gram, train, rows):
    """``K[rows, train]``, a new array (one copy of a contiguous block where both are ranges)."""
    row_range, train_range = as_range(rows), as_range(train)
    if row_range is not None and train_range is not None:
        return xp.copy(gram[row_range, train_range])
    return xp.take(xp.take(gram, xp.index(rows, gram), 0), xp.index(train, gram), 1)


def saddle_point_dual(xp, plan, factor, y_centred):
    """Dual coefficients ``c`` and intercept ``b`` of the saddle-point system (module docstring).

    Parameters
    ----------
    xp : backend module
    plan : ComputePlan
    factor : array of shape (m, m)
        Lower Cholesky factor of ``A = K_TT + alpha I`` (:func:`xp.cholesky`).
    y_centred : array of shape (m, n_neuroids), float64
        The training targets less their mean (``b`` then holds only the features' share of the intercept).

    Returns
    -------
    (c of shape (m, n_neuroids), b of shape (n_neuroids,))
    """
    m = y_centred.shape[0]
    solved = xp.factor_solve(plan, factor, xp.concatenate([y_centred, xp.ones((m, 1), like=y_centred)], axis=1))
    ones_solved, targets_solved = solved[:, -1], solved[:, :-1]
    intercept = xp.sum(targets_solved, axis=0) / xp.sum(ones_solved)
    return targets_solved - ones_solved[:, None] * intercept[None, :], intercept


def saddle_point_predictions(xp, gram, fitted: dict, rows):
    """``K[rows, train] c + (b + y_mean)`` of a :func:`~brainscore_metrics._ridge.ridge_fit` dual fit on ``gram``."""
    return kernel_rows(xp, gram, fitted["train"], rows) @ fitted["dual"] + (fitted["dual_intercept"] +
                                                                             fitted["y_mean"])
