"""A public battery of checks for metrics (plugin authors run it in their own repository)."""

from __future__ import annotations

import math

import numpy as np

from brainscore_metrics.errors import MetricCheckError

__all__ = ["MetricCheckError", "check_metric"]


def _value(score) -> np.ndarray:
    return np.asarray(score.values, dtype=float)


def check_metric(metric, source, target, *, expected_dims: tuple[str, ...] = (), rtol: float = 1e-9,
                 permute: tuple[str, ...] = ("source",), permutation_seed: int = 0):
    """Run the metric battery on one (source, target) pair and return the metric's Score.

    Checks: the result is a Score with dims ``expected_dims`` (0-d by default) whose values are finite;
    ``attrs`` has ``error`` and ``raw``; two calls give the same value (determinism); permuting the
    presentation order of each assembly named in ``permute`` does not change the value. Cross-validated
    metrics draw their splits from the target's presentation order (the reference rule), so by default
    only the source is permuted.

    Parameters
    ----------
    metric : callable ``(source, target) -> Score``
    source, target : assemblies with a ``presentation`` dim
    expected_dims : tuple of str, default=()
    rtol : float, default=1e-9
    permute : tuple of {'source', 'target'}, default=('source',)
    permutation_seed : int, default=0

    Raises
    ------
    MetricCheckError naming the failed check.
    """
    from brainscore_core.metrics import Score

    score = metric(source, target)
    if not isinstance(score, Score):
        raise MetricCheckError(f"returns {type(score).__name__}, not a Score")
    if tuple(score.dims) != tuple(expected_dims):
        raise MetricCheckError(f"Score dims {tuple(score.dims)} != expected {tuple(expected_dims)}")
    values = _value(score)
    if not np.all(np.isfinite(values)):
        raise MetricCheckError(f"Score is not finite: {values}")
    for key in ("error", "raw"):
        if key not in score.attrs:
            raise MetricCheckError(f"Score lacks attrs[{key!r}] (has {sorted(score.attrs)})")
    again = _value(metric(source, target))
    if not np.allclose(again, values, rtol=rtol, atol=0):
        raise MetricCheckError(f"not deterministic: {values} then {again}")
    rng = np.random.default_rng(permutation_seed)
    for which in permute:
        pair = {"source": source, "target": target}
        pair[which] = pair[which].isel(presentation=rng.permutation(pair[which].sizes["presentation"]))
        permuted = _value(metric(pair["source"], pair["target"]))
        if not np.allclose(permuted, values, rtol=max(rtol, 1e-9), atol=1e-12):
            raise MetricCheckError(f"{which} presentation order changes the value: {values} vs {permuted}")
    if math.prod(values.shape) == 0:
        raise MetricCheckError("Score is empty")
    return score
