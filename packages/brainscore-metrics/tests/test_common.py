"""The public check_metric battery over every registered regression-correlation metric."""

import numpy as np
import pytest
from _regression_helpers import synthetic_pair

from brainscore_metrics import plugin
from brainscore_metrics.testing import MetricCheckError, check_metric

CV_IDS = sorted(identifier for identifier, (module, cls, _) in plugin.METRICS.items()
                if module.endswith(("regression_correlation", "reverse_predictivity", "temporal"))
                and not identifier.endswith("_split"))


@pytest.fixture(scope="module")
def pair():
    source, target, *_ = synthetic_pair(n=120, p=30, q=30, seed=4)
    return source, target


@pytest.mark.parametrize("identifier", CV_IDS)
def test_check_metric(identifier, pair):
    metric = plugin.brainscore_metrics()[identifier]()
    source, target = pair
    if identifier.startswith("spantime"):
        bins = [target * (1 + 0.1 * t) for t in range(2)]
        import xarray as xr
        target = xr.concat(bins, dim="time_bin").transpose("presentation", "neuroid", "time_bin")
        score = check_metric(metric, source, target, expected_dims=("time_bin",))
    elif identifier.startswith("reverse_pls"):  # splits come from the source (the swapped target)
        score = check_metric(metric, source, target, permute=("target",))
    elif identifier == "mask_regression":  # reads the source's feature-map layout: here 30 channels of 1 x 1
        layout = {"channel": ("neuroid", np.arange(source.sizes["neuroid"])),
                  "channel_x": ("neuroid", np.zeros(source.sizes["neuroid"], int)),
                  "channel_y": ("neuroid", np.zeros(source.sizes["neuroid"], int))}
        score = check_metric(metric, source.assign_coords(layout), target)
    else:
        score = check_metric(metric, source, target)
    assert score.attrs["raw"].sizes["split"] == 10


def test_check_metric_catches_a_bad_metric(pair):
    from brainscore_core.metrics import Score

    def not_a_score(source, target):
        return 0.5

    def order_dependent(source, target):
        score = Score(np.asarray(float(source.values[0, 0])))
        score.attrs.update(error=0.0, raw=score.copy())
        return score

    with pytest.raises(MetricCheckError, match="not a Score"):
        check_metric(not_a_score, *pair)
    with pytest.raises(MetricCheckError, match="order"):
        check_metric(order_dependent, *pair)
