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

SECONDS_PER_ENTRY = 1e-7
"""Seconds per (split x training stimulus x feature) of a 25-component PLS fit on 2 cores, float32 source:
measured 15.7 s for 10 splits x 576 x 30,000 (9.1e-8) on the CI machine kind, rounded up."""


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
