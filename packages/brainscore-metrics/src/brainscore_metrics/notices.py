"""One-line notices before long fits, so that a wide model layer never runs minutes in silence.

:func:`notice_wide_source` logs (logger ``brainscore_metrics``, level WARNING, printed to stderr without any
logging set up) before a cross-validated regression fits more than :data:`WIDE_FEATURES` features: it names
the feature reductions of model-tools and gives the expected time from :data:`SECONDS_PER_ENTRY` (or, for ridge and
least squares, which form one stimulus Gram matrix for all splits, :data:`SECONDS_PER_GRAM_ENTRY`).
"""

from __future__ import annotations

import logging

__all__ = ["SECONDS_PER_ENTRY", "SECONDS_PER_GRAM_ENTRY", "WIDE_FEATURES", "expected_fit_seconds",
           "notice_wide_source"]

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


SECONDS_PER_GRAM_ENTRY = 4e-11
"""Seconds per (stimulus x stimulus x feature) of the one stimulus Gram product that serves every split of a wide
ridge or least-squares fit (issue 31's hard inputs on 2 cores, load 2.5-3.8: ridge on 640 x 37,632 float32 pixels
0.365 s, 2.4e-11; least squares' float64 product at 3,200 x 10,000 3.48 s, 3.4e-11; rounded up). PLS's per-entry
figure announced 7 s for that 0.37 s ridge fit."""


def expected_fit_seconds(n_features: int, n_train: int, n_splits: int, n_stimuli: int | None = None) -> float:
    """The expected time of a cross-validated fit: :data:`SECONDS_PER_ENTRY` per split x training stimulus x feature,
    or, given ``n_stimuli`` (a fit that forms one stimulus Gram matrix for all splits), :data:`SECONDS_PER_GRAM_ENTRY`
    per stimulus^2 x feature."""
    if n_stimuli is not None:
        return SECONDS_PER_GRAM_ENTRY * n_stimuli * n_stimuli * n_features
    return SECONDS_PER_ENTRY * n_splits * n_train * n_features


def notice_wide_source(n_features: int, n_train: int, n_splits: int, what: str = "regression", *,
                       n_stimuli: int | None = None) -> bool:
    """Log the notice when ``n_features > WIDE_FEATURES``; returns whether it was logged. ``n_stimuli``: all the
    stimuli, for a fit whose cost is one stimulus Gram product (ridge, least squares)."""
    if n_features <= WIDE_FEATURES:
        return False
    seconds = expected_fit_seconds(n_features, n_train, n_splits, n_stimuli)
    _logger.warning(
        "fitting %s on %s features (%d splits of %d stimuli): expect %s on 2 cores; reduce the layer first "
        "with model_tools.activations.RandomProjection or PCAReduction (e.g. to 5,000 features) to cut this",
        what, f"{n_features:,}", n_splits, n_train, _duration(seconds))
    return True


def _duration(seconds: float) -> str:
    if seconds < 1:
        return "under 1 s"
    return f"about {seconds:.0f} s" if seconds < 90 else f"about {seconds / 60:.1f} min"
