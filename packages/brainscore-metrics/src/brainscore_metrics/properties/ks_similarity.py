"""``ks_similarity``: bootstrapped Kolmogorov-Smirnov similarity of a neuronal property's distribution
(reference section 5.7).

Both samples are clipped into ``[bins[0], bins[-1]]`` (``bins`` from the data's attribute
``<property>_bins``) and histogrammed. The model's values are resampled ``n_samples`` times with
replacement (as many as there are data neurons); per resample, with ``p`` the model and ``q`` the data
histogram (normalised)::

    similarity = 1 - KS(p, q) / max(KS(delta at first bin, q), KS(delta at last bin, q))

where KS is the largest absolute difference of the cumulative sums. Value = NaN-mean over resamples,
error = NaN-std; more than ``n_samples / 10`` NaN resamples give value 0 and error 0. NaN property
values are not counted in a histogram (they still occupy draws).

Deviation from the reference: the reference draws from numpy's global, unseeded generator, so its
score varies from run to run; here the resamples come from ``numpy.random.default_rng(random_state)``
and are reproducible. Over seeds the value follows the same distribution (run-to-run spread of the
reference is about +-0.005 with 1000 resamples).
"""

from __future__ import annotations

import numpy as np

from brainscore_core.metrics import Ceiling, Metric, Score
from brainscore_metrics.bootstrap import bootstrap_confidence_interval
from brainscore_metrics.validation import property_bins, property_column

__all__ = ["KSSimilarity", "PropertyCeiling", "ks_similarity", "property_values"]


def property_values(assembly, property_name: str, what: str = "assembly") -> np.ndarray:
    """Values of one property per neuroid, as float (:func:`brainscore_metrics.validation.property_column`)."""
    return property_column(assembly, property_name, what)


def _histograms(samples: np.ndarray, bins: np.ndarray) -> np.ndarray:
    """Normalised histograms of each row of ``samples`` (values already inside the bin range).

    Same bin rule as ``numpy.histogram``: half-open bins, the last one closed; NaN not counted.
    """
    n_bins = len(bins) - 1
    index = np.searchsorted(bins, samples, side="right") - 1
    index = np.where(samples == bins[-1], n_bins - 1, index)
    valid = ~np.isnan(samples)
    rows = np.broadcast_to(np.arange(samples.shape[0])[:, None], samples.shape)
    counts = np.zeros((samples.shape[0], n_bins))
    np.add.at(counts, (rows[valid], index[valid]), 1)
    with np.errstate(invalid="ignore", divide="ignore"):
        return counts / counts.sum(axis=1, keepdims=True)


def ks_similarity(p: np.ndarray, q: np.ndarray) -> np.ndarray:
    """``1 - KS(p, q) / max(KS(delta first, q), KS(delta last, q))`` for each row of ``p``.

    Parameters
    ----------
    p : ndarray of shape (n_resamples, n_bins) or (n_bins,)
    q : ndarray of shape (n_bins,)
    """
    cumulative_q = np.cumsum(q)
    first = np.max(np.abs(1.0 - cumulative_q))  # cumsum of a delta at the first bin is all ones
    last = np.max(np.abs(np.r_[np.zeros(len(q) - 1), 1.0] - cumulative_q))
    raw = np.max(np.abs(np.cumsum(np.atleast_2d(p), axis=1) - cumulative_q), axis=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        return 1 - raw / max(first, last)


class KSSimilarity(Metric):
    """Bootstrapped KS similarity of one property between model and data neurons.

    Parameters
    ----------
    property_name : str
        Property to compare; the data assembly must carry ``attrs['<property_name>_bins']``.
    n_samples : int, default=1000
        Resamples of the model's values.
    random_state : int, default=0
        Seed of ``numpy.random.default_rng`` for the resamples (the reference is unseeded).
    bootstrap : int or None, default=None
        Bootstrap resamples of the *data* neurons (the units of a property benchmark) for
        ``attrs['ci_low']``/``attrs['ci_high']``; each recomputes the mean similarity against the same
        model resamples.

    Returns (from ``__call__(model_property, data_property)``)
    --------------------------------------------------------
    Score (0-d) with ``attrs['error']`` (NaN-std) and ``attrs['raw']`` (per-resample similarities).
    """

    def __init__(self, property_name: str, *, n_samples: int = 1000, random_state: int = 0,
                 bootstrap: int | None = None):
        self.property_name = property_name
        self.n_samples = n_samples
        self.random_state = random_state
        self.bootstrap = bootstrap

    def __call__(self, model_property, data_property) -> Score:
        bins = property_bins(data_property, self.property_name, "data_property")
        data = np.clip(property_values(data_property, self.property_name, "data_property"), bins[0], bins[-1])
        model = np.clip(property_values(model_property, self.property_name, "model_property"), bins[0], bins[-1])
        rng = np.random.default_rng(self.random_state)
        draws = model[rng.integers(0, len(model), size=(self.n_samples, len(data)))]
        model_histograms = _histograms(draws, bins)
        data_histogram = _histograms(data[None], bins)[0]
        similarities = ks_similarity(model_histograms, data_histogram)
        if np.isnan(similarities).sum() > self.n_samples / 10:
            center, error = 0.0, 0.0
        else:
            center, error = float(np.nanmean(similarities)), float(np.nanstd(similarities))
        score = Score(center)
        score.attrs["error"] = error
        score.attrs["raw"] = similarities
        if self.bootstrap is not None:
            def compute(indices):
                return float(np.nanmean(ks_similarity(model_histograms, _histograms(data[indices][None], bins)[0])))

            low, high, _ = bootstrap_confidence_interval(compute, len(data), n_bootstrap=self.bootstrap,
                                                         random_state=self.random_state)
            score.attrs["ci_low"], score.attrs["ci_high"], score.attrs["ci_confidence"] = low, high, 0.95
        return score


class PropertyCeiling(Ceiling):
    """Ceiling of a property benchmark: the similarity metric applied to the data against itself.

    Parameters
    ----------
    similarity_metric : KSSimilarity or str
        The metric, or a property name (then ``KSSimilarity(property_name)``).
    """

    def __init__(self, similarity_metric):
        self.similarity_metric = similarity_metric

    def __call__(self, assembly) -> Score:
        metric = self.similarity_metric
        if isinstance(metric, str):
            metric = KSSimilarity(metric)
        return metric(assembly, assembly)
