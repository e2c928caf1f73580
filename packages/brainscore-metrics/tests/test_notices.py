"""The notice before fitting a wide source (issue 19, item 2)."""

import logging

import numpy as np

from brainscore_metrics.notices import (
    SECONDS_PER_ENTRY,
    SECONDS_PER_GRAM_ENTRY,
    WIDE_FEATURES,
    notice_wide_source,
)


def test_notice_names_the_reductions_and_the_expected_time(caplog):
    with caplog.at_level(logging.WARNING, logger="brainscore_metrics"):
        assert not notice_wide_source(WIDE_FEATURES, 576, 10)
        assert caplog.text == ""
        assert notice_wide_source(93_312, 576, 10, "pls regression")
    # expected time by hand: 3e-8 s x 10 splits x 576 stimuli x 93,312 features = 16.1 s
    assert SECONDS_PER_ENTRY == 3e-8
    assert "93,312 features" in caplog.text and "about 16 s" in caplog.text
    assert "RandomProjection" in caplog.text and "PCAReduction" in caplog.text


def test_a_wide_cross_validated_fit_logs_the_notice_once(caplog):
    from brainscore_metrics.regression_correlation import CrossRegressedCorrelation

    metric = CrossRegressedCorrelation("linear", crossvalidation_kwargs={"stratification_coord": None, "splits": 2})
    with caplog.at_level(logging.WARNING, logger="brainscore_metrics"):
        metric(*_wide_pair())
    assert caplog.text.count("fitting linear regression on 20,001 features (2 splits of") == 1


def test_ridge_and_least_squares_are_estimated_from_their_one_gram_product(caplog):
    with caplog.at_level(logging.WARNING, logger="brainscore_metrics"):
        assert notice_wide_source(37_632, 576, 10, "ridge regression", n_stimuli=640)
    # by hand: 4e-11 s x 640 x 640 stimuli x 37,632 features = 0.62 s (the PLS figure would say 3e-8 x 10 x 576 x
    # 37,632 = 6.5 s, ten times what the fit takes)
    assert SECONDS_PER_GRAM_ENTRY == 4e-11
    assert "37,632 features" in caplog.text and "expect under 1 s" in caplog.text


def test_a_wide_ridge_fit_announces_the_gram_estimate(caplog):
    from brainscore_metrics.regression_correlation import CrossRegressedCorrelation

    metric = CrossRegressedCorrelation("ridge", crossvalidation_kwargs={"stratification_coord": None, "splits": 2})
    with caplog.at_level(logging.WARNING, logger="brainscore_metrics"):
        metric(*_wide_pair())
    # 4e-11 x 40 x 40 x 20,001 = 1.3e-3 s; the PLS figure would be 3e-8 x 2 x 20 x 20,001 = 0.024 s (also under 1 s)
    assert caplog.text.count("fitting ridge regression on 20,001 features") == 1 and "under 1 s" in caplog.text


def _wide_pair(n: int = 40):
    """A float32 source one feature wider than ``WIDE_FEATURES`` and a 3-neuroid target, ``n`` stimuli."""
    from brainio import NeuroidAssembly

    rng = np.random.default_rng(0)

    def assembly(values):
        return NeuroidAssembly(values, dims=["presentation", "neuroid"], coords={
            "stimulus_id": ("presentation", [f"s{i}" for i in range(n)]),
            "neuroid_id": ("neuroid", [f"n{i}" for i in range(values.shape[1])])})

    return assembly(rng.normal(size=(n, WIDE_FEATURES + 1)).astype(np.float32)), assembly(rng.normal(size=(n, 3)))
