"""Score: selection applied to raw attrs, reductions keep them, merge, the legacy aggregation form."""

from __future__ import annotations

import numpy as np
import pytest
import xarray as xr

from brainscore_core.metrics import Score
from brainscore_core.score import score_center_error


def _region_score():
    raw = Score(np.arange(6.0).reshape(2, 3), coords={"region": ["V4", "IT"], "split": [0, 1, 2]},
                dims=["region", "split"])
    ceiling = Score([0.8, 0.9], coords={"region": ["V4", "IT"]}, dims=["region"])
    return Score([1.0, 2.0], coords={"region": ["V4", "IT"]}, dims=["region"],
                 attrs={"raw": raw, "raw_per_neuroid": raw.copy(), "ceiling": ceiling, "error": 0.1})


def test_zero_dimensional_by_default():
    score = Score(0.5, attrs={"error": 0.01})
    assert score.ndim == 0 and float(score) == 0.5 and score.attrs["error"] == 0.01


def test_sel_applies_to_every_raw_attr_but_not_to_others():
    selected = _region_score().sel(region="IT")
    assert float(selected) == 2.0
    np.testing.assert_array_equal(selected.attrs["raw"].values, [3.0, 4.0, 5.0])  # row IT of arange(6)
    np.testing.assert_array_equal(selected.attrs["raw_per_neuroid"].values, [3.0, 4.0, 5.0])
    assert selected.attrs["ceiling"].shape == (2,)  # 'ceiling' does not contain 'raw'
    assert selected.attrs["error"] == 0.1


def test_isel_applies_to_raw():
    selected = _region_score().isel(region=0)
    np.testing.assert_array_equal(selected.attrs["raw"].values, [0.0, 1.0, 2.0])


def test_selection_that_does_not_apply_leaves_raw_unchanged():
    score = _region_score()
    score.attrs["raw"] = Score([7.0, 8.0], coords={"neuroid": [0, 1]}, dims=["neuroid"])
    selected = score.sel(region="V4")
    np.testing.assert_array_equal(selected.attrs["raw"].values, [7.0, 8.0])
    np.testing.assert_array_equal(score.attrs["raw"].values, [7.0, 8.0])  # original untouched


def test_squeeze_applies_to_raw_once():
    raw = Score([[1.0, 2.0]], coords={"region": ["IT"], "a": [0, 1]}, dims=["region", "a"])
    score = Score([[0.5]], coords={"region": ["IT"], "a": [0]}, dims=["region", "a"], attrs={"raw": raw})
    squeezed = score.squeeze()
    assert squeezed.ndim == 0
    # raw.squeeze() drops region (size 1) and keeps a (size 2); had xarray's internal isel(a=0) also been
    # applied, a would be gone
    assert squeezed.attrs["raw"].dims == ("a",)


def test_expand_dims_applies_to_raw():
    score = Score(0.5, attrs={"raw": Score([1.0, 2.0], coords={"split": [0, 1]}, dims=["split"])})
    expanded = score.expand_dims("region")
    assert expanded.dims == ("region",) and expanded.attrs["raw"].dims == ("region", "split")


def test_item_assignment_applies_to_raw():
    score = _region_score()
    score[{"region": 0}] = 10.0
    assert float(score.sel(region="V4")) == 10.0
    np.testing.assert_array_equal(score.attrs["raw"].values[0], [10.0, 10.0, 10.0])


def test_reductions_keep_raw_untouched():
    score = _region_score()
    mean = score.mean("region")
    assert float(mean) == 1.5 and isinstance(mean, Score)
    assert mean.attrs["raw"].shape == (2, 3)


def test_merge_merges_values_and_raw():
    v4 = _region_score().sel(region=["V4"])
    it = _region_score().sel(region=["IT"])
    merged = Score.merge(v4, it)
    assert isinstance(merged, Score)
    assert merged.sel(region="IT").item() == 2.0 and merged.sel(region="V4").item() == 1.0
    assert merged.attrs["raw"].sel(region="IT").values.tolist() == [3.0, 4.0, 5.0]


def test_merge_needs_a_score():
    with pytest.raises(ValueError, match="at least one"):
        Score.merge()


def test_center_error_of_current_form():
    assert score_center_error(Score(0.4, attrs={"error": 0.02})) == (0.4, 0.02)
    assert score_center_error(Score(0.4)) == (0.4, None)


def test_center_error_of_legacy_aggregation_form():
    legacy = Score([0.4, 0.02], coords={"aggregation": ["center", "error"]}, dims=["aggregation"])
    assert score_center_error(legacy) == (0.4, 0.02)
    legacy_with_raw = Score([[0.4, 0.02], [0.6, 0.03]], coords={"region": ["V4", "IT"],
                            "aggregation": ["center", "error"]}, dims=["region", "aggregation"])
    center, error = score_center_error(legacy_with_raw)
    assert isinstance(center, xr.DataArray)
    np.testing.assert_array_equal(center.values, [0.4, 0.6])
    np.testing.assert_array_equal(error.values, [0.02, 0.03])
