"""KS similarity of neuronal property distributions: loop reference, seeding deviation, ceiling."""

from __future__ import annotations

import numpy as np
import pytest

from brainio.assemblies import PropertyAssembly
from brainscore_metrics.errors import UnknownPropertyError
from brainscore_metrics.properties.ks_similarity import (
    KSSimilarity,
    PropertyCeiling,
    ks_similarity,
)

BINS = np.linspace(-2, 2, 11)


def properties(values, name="surround_suppression_index", bins=BINS):
    values = np.asarray(values, dtype=float)
    return PropertyAssembly(values[:, None], coords={"neuroid_id": ("neuroid", np.arange(len(values))),
                                                     "neuronal_property": ("neuronal_property", [name])},
                            dims=["neuroid", "neuronal_property"], attrs={f"{name}_bins": bins})


def loop_reference(model, data, bins, draws):
    """The reference algorithm in loops on given resample indices (np.histogram, cumsum KS)."""
    data = np.clip(data, bins[0], bins[-1])
    model = np.clip(model, bins[0], bins[-1])
    q = np.histogram(data, bins=bins)[0]
    q = q / q.sum()
    out = []
    for indices in draws:
        p = np.histogram(model[indices], bins=bins)[0]
        p = p / p.sum()
        first, last = np.zeros_like(q), np.zeros_like(q)
        first[0], last[-1] = 1, 1
        ks = np.max(np.abs(np.cumsum(p) - np.cumsum(q)))
        maximum = max(np.max(np.abs(np.cumsum(first) - np.cumsum(q))), np.max(np.abs(np.cumsum(last) - np.cumsum(q))))
        out.append(1 - ks / maximum)
    return np.array(out)


@pytest.fixture
def samples():
    rng = np.random.default_rng(0)
    # values beyond the bin range are clipped into the first / last bin; some lie exactly on edges
    data = np.r_[rng.normal(size=120), [-3.0, 2.5, 0.4, 2.0]]
    model = np.r_[rng.normal(0.4, 1.3, size=300), [-2.0, 0.0]]
    return model, data


def test_equals_loop_reference_on_the_same_draws(samples):
    model, data = samples
    score = KSSimilarity("surround_suppression_index", n_samples=200, random_state=3)(properties(model),
                                                                                        properties(data))
    draws = np.random.default_rng(3).integers(0, len(model), size=(200, len(data)))  # the metric's documented draws
    expected = loop_reference(model, data, BINS, draws)
    np.testing.assert_allclose(score.attrs["raw"], expected, atol=1e-12)
    assert score.item() == pytest.approx(expected.mean())
    assert score.attrs["error"] == pytest.approx(expected.std())


def test_ks_similarity_closed_forms():
    q = np.array([0.25, 0.25, 0.25, 0.25])
    # p = q -> KS 0 -> similarity 1; p = delta at the last bin -> KS = max(|cumsum(delta) - cumsum(q)|)
    # = 0.75, and the normaliser max(KS(first), KS(last)) = max(0.75, 0.75) -> similarity 0
    assert ks_similarity(q, q)[0] == pytest.approx(1)
    assert ks_similarity(np.array([0, 0, 0, 1.0]), q)[0] == pytest.approx(0)


def test_seeded_value_lies_within_the_unseeded_spread(samples):
    # the reference draws unseeded; our seed must give a value inside the distribution over seeds
    model, data = samples
    metric_values = [KSSimilarity("surround_suppression_index", random_state=seed)(properties(model),
                                                                                   properties(data)).item()
                     for seed in range(8)]
    assert max(metric_values) - min(metric_values) < 0.01
    assert metric_values[0] == pytest.approx(np.mean(metric_values[1:]), abs=0.005)


def test_ceiling_data_against_itself_is_near_one(samples):
    _, data = samples
    ceiling = PropertyCeiling(KSSimilarity("surround_suppression_index"))(properties(data))
    assert ceiling.item() == pytest.approx(1, abs=0.1)
    assert PropertyCeiling("surround_suppression_index")(properties(data)).item() == ceiling.item()


def test_all_nan_model_gives_zero(samples):
    _, data = samples
    score = KSSimilarity("surround_suppression_index")(properties(np.full(20, np.nan)), properties(data))
    assert score.item() == 0 and score.attrs["error"] == 0


def test_missing_bins_and_property_are_named(samples):
    model, data = samples
    with pytest.raises(UnknownPropertyError, match="circular_variance_bins"):
        KSSimilarity("circular_variance")(properties(model), properties(data))
    no_property = properties(data, name="other", bins=BINS)
    no_property.attrs["circular_variance_bins"] = BINS
    with pytest.raises(UnknownPropertyError, match="circular_variance"):
        KSSimilarity("circular_variance")(properties(model), no_property)


def test_bootstrap_over_data_neurons(samples):
    model, data = samples
    score = KSSimilarity("surround_suppression_index", bootstrap=200)(properties(model), properties(data))
    assert score.attrs["ci_low"] < score.attrs["ci_high"]
    assert score.attrs["ci_low"] < score.item() + 0.05
