"""Split-half consistency over repetitions, vectorised over neuroids and batches of splits."""

from __future__ import annotations

import numpy as np

from brainscore_metrics._correlation import pearson_columns

__all__ = ["masked_pearson", "spearman_brown", "split_half_from_rows"]


def spearman_brown(xp, r, n: float = 2.0):
    """Spearman-Brown prophecy ``n r / (1 + (n - 1) r)``."""
    return n * r / (1 + (n - 1) * r)


def masked_pearson(xp, a, b):
    """Pearson r over axis 0 using only rows where both ``a`` and ``b`` are finite.

    Parameters
    ----------
    a, b : arrays of shape (n_stimuli, ...)

    Returns
    -------
    array of shape a.shape[1:]; NaN where fewer than 2 rows are valid or either side is constant.
    """
    valid = ~(xp.isnan(a) | xp.isnan(b))
    if bool(xp.to_numpy(xp.all(valid))):  # fast path: nothing missing
        shape = a.shape
        if shape[0] < 2:
            return xp.full(shape[1:], float("nan"), like=a)
        return pearson_columns(xp, a.reshape(shape[0], -1), b.reshape(shape[0], -1)).reshape(shape[1:])
    zero = xp.zeros((), like=a)
    count = xp.sum(xp.asarray(valid, dtype=xp.float64), axis=0)
    a0 = xp.where(valid, a, zero)
    b0 = xp.where(valid, b, zero)
    safe_count = xp.where(count > 0, count, xp.ones(count.shape, like=count))
    a_c = xp.where(valid, a0 - xp.sum(a0, axis=0) / safe_count, zero)
    b_c = xp.where(valid, b0 - xp.sum(b0, axis=0) / safe_count, zero)
    inf = xp.full((), float("inf"), like=a)
    a_max = xp.where(valid, a0, -inf)
    a_min = xp.where(valid, a0, inf)
    b_max = xp.where(valid, b0, -inf)
    b_min = xp.where(valid, b0, inf)
    constant = (_max(xp, a_max) == _min(xp, a_min)) | (_max(xp, b_max) == _min(xp, b_min))
    denominator = xp.sqrt(xp.sum(a_c * a_c, axis=0) * xp.sum(b_c * b_c, axis=0))
    bad = constant | (count < 2)
    r = xp.sum(a_c * b_c, axis=0) / xp.where(bad, xp.ones(denominator.shape, like=denominator), denominator)
    r = xp.clip(r, -1.0, 1.0)
    return xp.where(bad, xp.full(r.shape, float("nan"), like=r), r)


def _max(xp, x):
    return xp.max(x, axis=0)


def _min(xp, x):
    return xp.min(x, axis=0)


def _repetition_rows(xp, rows, slot_row, missing):
    """Rows of one repetition for every stimulus (n_stimuli, n_columns): a view when they are contiguous
    in ``rows``, else gathered; NaN for stimuli without this repetition (``missing``)."""
    n = len(slot_row)
    if not missing.any() and n and slot_row[-1] - slot_row[0] == n - 1 and np.all(np.diff(slot_row) == 1):
        return rows[int(slot_row[0]):int(slot_row[0]) + n]
    out = xp.take(rows, xp.index(np.where(missing, 0, slot_row), rows), 0)
    if missing.any():
        out[xp.index(np.flatnonzero(missing), out)] = float("nan")
    return out


def split_half_from_rows(xp, rows, slots, halves, *, max_batch_bytes: int | None = None,
                         keep_halves: bool = False):
    """Spearman-Brown corrected split-half r per split and column, without a dense repetition array.

    Half means are accumulated repetition by repetition for a batch of splits at a time, so the scratch
    memory is the half sums of one batch (plus counts when values are missing) and never a copy of the data;
    when a repetition's rows are contiguous in ``rows`` (e.g. presentations stored repetition-major) they
    are used in place. Without missing values half B is the total minus half A.

    Parameters
    ----------
    rows : array of shape (n_presentations, n_columns), float64
        Responses, one row per presentation; NaN counts as missing.
    slots : int ndarray of shape (n_repetitions, n_stimuli)
        Row of ``rows`` holding each stimulus' repetition; -1 where the stimulus lacks it.
    halves : bool ndarray of shape (n_splits, n_repetitions)
        True for half A (the rest is half B).
    max_batch_bytes : int or None, default=None
        Scratch memory for one batch of splits (default: half the size of ``rows``; at least one split).
    keep_halves : bool, default=False
        Also return the half means (n_splits, n_stimuli, n_columns) of both halves.

    Returns
    -------
    ndarray of shape (n_splits, n_columns) [, (half_a, half_b)]
    """
    n_repetitions, n_stimuli = slots.shape
    n_columns = rows.shape[1]
    n_splits = halves.shape[0]
    absent = slots < 0
    has_missing = bool(absent.any()) or bool(xp.to_numpy(xp.any(xp.isnan(rows))))
    per_split_bytes = (4 if has_missing else 2) * n_stimuli * n_columns * 8
    budget = max_batch_bytes if max_batch_bytes is not None else rows.shape[0] * n_columns * 8 // 2
    batch = int(max(1, min(n_splits, budget // max(per_split_bytes, 1))))
    half_means = _half_means_with_missing if has_missing else _half_means_complete
    out = np.empty((n_splits, n_columns))
    kept_a, kept_b = [], []
    from brainscore_core.progress import progress

    for split, mean_a, mean_b in progress(half_means(xp, rows, slots, absent, halves, batch), total=n_splits,
                                          desc="split-half ceiling", unit="split", leave=False):
        out[split] = xp.to_numpy(spearman_brown(xp, masked_pearson(xp, mean_a, mean_b)))
        if keep_halves:  # copies: the buffers are reused for the next batch
            kept_a.append(np.array(xp.to_numpy(mean_a), copy=True))
            kept_b.append(np.array(xp.to_numpy(mean_b), copy=True))
    if keep_halves:
        return out, (np.stack(kept_a), np.stack(kept_b))
    return out


def _half_means_complete(xp, rows, slots, absent, halves, batch: int):
    """Yield (split, half A mean, half B mean) when nothing is missing.

    Half B's sum is the total over all repetitions minus half A's, so each batch adds only half A's
    repetitions; the buffers (total + two per split of a batch) are allocated once and reused.
    """
    n_repetitions, n_stimuli = slots.shape
    shape = (n_stimuli, rows.shape[1])
    total = xp.zeros(shape, like=rows)
    for repetition in range(n_repetitions):
        total += _repetition_rows(xp, rows, slots[repetition], absent[repetition])
    sums_a = [xp.zeros(shape, like=rows) for _ in range(batch)]
    means_b = [xp.zeros(shape, like=rows) for _ in range(batch)]
    for start in range(0, halves.shape[0], batch):
        chosen = halves[start:start + batch]
        for j in range(len(chosen)):
            sums_a[j][...] = 0.0
        for repetition in np.flatnonzero(chosen.any(axis=0)):
            values = _repetition_rows(xp, rows, slots[repetition], absent[repetition])
            for j in np.flatnonzero(chosen[:, repetition]):
                sums_a[j] += values
        for j, in_a in enumerate(chosen):
            means_b[j][...] = total
            means_b[j] -= sums_a[j]
            means_b[j] /= int((~in_a).sum())
            sums_a[j] /= int(in_a.sum())
            yield start + j, sums_a[j], means_b[j]


def _half_means_with_missing(xp, rows, slots, absent, halves, batch: int):
    """Yield (split, half A mean, half B mean), NaN-skipping: sums and counts of present values per half;
    NaN where a stimulus has no present value in a half."""
    n_repetitions, n_stimuli = slots.shape
    shape = (n_stimuli, rows.shape[1])
    for start in range(0, halves.shape[0], batch):
        chosen = halves[start:start + batch]
        sums = [[xp.zeros(shape, like=rows) for _ in chosen] for _ in range(2)]  # [half][split]
        counts = [[xp.zeros(shape, like=rows) for _ in chosen] for _ in range(2)]
        for repetition in range(n_repetitions):
            values = _repetition_rows(xp, rows, slots[repetition], absent[repetition])
            present = ~xp.isnan(values)
            values = xp.where(present, values, xp.zeros((), like=values))
            present = xp.asarray(present, dtype=xp.float64)
            for j, in_a in enumerate(chosen[:, repetition]):
                half = 0 if in_a else 1
                sums[half][j] += values
                counts[half][j] += present
        nan = xp.full((), float("nan"), like=rows)
        for j in range(len(chosen)):
            means = [sums[h][j] / xp.where(counts[h][j] > 0, counts[h][j], nan) for h in range(2)]
            sums[0][j] = sums[1][j] = counts[0][j] = counts[1][j] = None  # release this split's buffers
            yield start + j, means[0], means[1]
