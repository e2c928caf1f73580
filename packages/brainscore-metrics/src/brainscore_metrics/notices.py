"""One-line notices before long fits, so that a wide model layer never runs minutes in silence.

:func:`notice_wide_source` logs (logger ``brainscore_metrics``, level WARNING, printed to stderr without any
logging set up) before a cross-validated regression fits more than :data:`WIDE_FEATURES` features: it names
the feature reductions of model-tools and gives the expected time from :data:`SECONDS_PER_ENTRY`.
"""

from __future__ import annotations

import logging

__all__ = ["SECONDS_PER_ENTRY", "WIDE_FEATURES", "expected_fit_seconds", "notice_wide_source"]

_logger = logging.getLogger("brainscore_metrics")

WIDE_FEATURES = 20_000
"""Sources wider than this get a notice before a cross-validated fit."""

SECONDS_PER_ENTRY = 3e-8
"""Seconds per (split x training stimulus x feature) of a 25-component cross-validated PLS fit on 2 cores, float32
source, stimulus-space path with the splits in lockstep (README, "Float32, wide sources"): 3.08 s for 10 splits x
576 x 37,632 (1.4e-8) and 9.29 s for 10 x 2,880 x 10,000 (3.2e-8) on the CI machine kind, rounded up; 7.5 s for
10 x 576 x 25,088 (5.2e-8) with the machine shared by five other jobs (load 11). Before the stimulus-space path it
was 9.1e-8 (15.7 s for 10 x 576 x 30,000), which the notice said until issue 33: it announced 14 s for a fit of
2-3 s."""


def expected_fit_seconds(n_features: int, n_train: int, n_splits: int) -> float:
    """The expected time of a cross-validated fit (an upper estimate: ridge and linear fits are faster)."""
    return SECONDS_PER_ENTRY * n_splits * n_train * n_features


def notice_wide_source(n_features: int, n_train: int, n_splits: int, what: str = "regression") -> bool:
    """Log the notice when ``n_features > WIDE_FEATURES``; returns whether it was logged."""
    if n_features <= WIDE_FEATURES:
        return False
    seconds = expected_fit_seconds(n_features, n_train, n_splits)
    _logger.warning(
        "fitting %s on %s features (%d splits of %d stimuli): expect about %s on 2 cores; reduce the layer first "
        "with model_tools.activations.RandomProjection or PCAReduction (e.g. to 5,000 features) to cut this",
        what, f"{n_features:,}", n_splits, n_train, _duration(seconds))
    return True


def _duration(seconds: float) -> str:
    return f"{seconds:.0f} s" if seconds < 90 else f"{seconds / 60:.1f} min"
