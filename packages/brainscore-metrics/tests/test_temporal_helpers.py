"""Brain-Score's time-resolved helpers (brainscore_metrics.temporal_helpers, its ``metric_helpers.temporal``): a
callable applied per time bin, or on the time bins folded into presentations; expected values by numpy by hand."""

import numpy as np
import pytest
import xarray as xr

from brainscore_metrics.temporal_helpers import PerOps, PerTime, SpanTime


def _assembly(seed=0, n=5, q=3, bins=((70, 80), (80, 90))):
    values = np.random.default_rng(seed).standard_normal((n, q, len(bins)))
    return xr.DataArray(values, dims=["presentation", "neuroid", "time_bin"], coords={
        "stimulus_id": ("presentation", [f"s{i}" for i in range(n)]),
        "neuroid_id": ("neuroid", [f"n{i}" for i in range(q)]),
        "time_bin_start": ("time_bin", [start for start, _ in bins]),
        "time_bin_end": ("time_bin", [end for _, end in bins])})


def test_per_time_applies_the_callable_to_each_bin_and_stacks_along_time_bin():
    a, b = _assembly(0), _assembly(1)
    result = PerTime(lambda x, y: float((x.values * y.values).sum()))(a, b)
    expected = (a.values * b.values).sum(axis=(0, 1))
    np.testing.assert_allclose(result.values, expected, rtol=1e-12)
    assert list(result["time_bin_start"].values) == [70, 80]


def test_span_time_folds_the_bins_into_presentations_bin_major():
    seen = []
    SpanTime(lambda x: seen.append(x))(_assembly(2))
    folded = seen[0]
    assert folded.dims == ("presentation", "neuroid") and folded.sizes["presentation"] == 10
    values = _assembly(2).values
    np.testing.assert_array_equal(folded.values, np.concatenate([values[:, :, 0], values[:, :, 1]]))
    assert list(folded["stimulus_id"].values) == [f"s{i}" for i in range(5)] * 2
    assert list(folded["time_bin_start"].values) == [70] * 5 + [80] * 5


def test_per_ops_refuses_differing_check_coordinates_and_several_dims():
    other = _assembly(1).assign_coords(time_bin_start=("time_bin", [70, 85]))
    with pytest.raises(ValueError, match="time_bin_start"):
        PerTime(lambda x, y: 0.0)(_assembly(0), other)
    with pytest.raises(ValueError, match="one dim"):
        PerOps(lambda x: 0.0, dims=["time_bin", "neuroid"])
