"""``multi_groupby`` in the call forms Brain-Score's plugins use: a single coordinate (grouped like xarray's
``groupby``, the dim named after the coordinate), ``...`` to reduce every other dim, and ``dim`` honoured by every
reduction. Expected values are worked by hand in the comments."""

import numpy as np
import pytest

from brainio.assemblies import DataAssembly


@pytest.fixture
def grid():
    # rows alpha, beta, gamma; columns 0..6: row means 3, 10, 17
    return DataAssembly(np.arange(21).reshape(3, 7),
                        coords={"greek": ("a", ["alpha", "beta", "gamma"]), "colors": ("a", ["r", "g", "b"]),
                                "integer": ("b", list(range(7)))}, dims=("a", "b"))


def test_single_dimension_coordinate_with_ellipsis():
    d = DataAssembly([[1, 2, 3], [4, 5, 6]], coords={"a": ["a", "b"], "b": ["x", "y", "z"]}, dims=["a", "b"])
    result = d.multi_groupby(["a"]).mean(...)
    assert result.dims == ("a",)
    assert result.values.tolist() == [2.0, 5.0]  # (1+2+3)/3, (4+5+6)/3
    assert result["a"].values.tolist() == ["a", "b"]


def test_single_coordinate_names_the_dimension(grid):
    result = grid.multi_groupby(["greek"]).mean(...)
    assert result.dims == ("greek",) and result["greek"].values.tolist() == ["alpha", "beta", "gamma"]
    assert result.values.tolist() == [3.0, 10.0, 17.0]
    assert "colors" not in result.coords  # other coordinates of the grouped dim are dropped, as in xarray
    same = grid.multi_groupby("greek").mean("b")  # a bare string and an explicit dim give the same
    assert same.values.tolist() == [3.0, 10.0, 17.0]


def test_every_reduction_honours_dim(grid):
    grouped = grid.multi_groupby(["greek"])
    assert grouped.max(...).values.tolist() == [6, 13, 20]
    assert grouped.min("b").values.tolist() == [0, 7, 14]
    assert grouped.sum(...).values.tolist() == [21, 70, 119]
    assert grouped.count(...).values.tolist() == [7, 7, 7]
    # one row per group, reduced jointly with b: each group's variance is that of 7 consecutive integers,
    # ((-3)^2 + (-2)^2 + (-1)^2 + 0 + 1 + 4 + 9) / 7 = 4 (it was an average of per-column variances, 0, before)
    assert grouped.var(...).values.tolist() == [4.0, 4.0, 4.0]
    assert grouped.std("b").values.tolist() == [2.0, 2.0, 2.0]
    assert grouped.median(...).values.tolist() == [3.0, 10.0, 17.0]


def test_two_coordinates_keep_the_dimension():
    assy = DataAssembly(np.arange(1, 19).reshape(6, 3),
                        coords={"up": ("a", ["alpha", "alpha", "beta", "beta", "beta", "beta"]),
                                "down": ("a", [1, 1, 1, 1, 2, 2]), "sideways": ("b", ["x", "y", "z"])},
                        dims=["a", "b"])
    result = assy.multi_groupby(["up", "down"]).mean(dim="a")
    # groups (alpha, 1): rows 0-1; (beta, 1): rows 2-3; (beta, 2): rows 4-5
    assert result.dims == ("a", "b")
    assert result.values.tolist() == [[2.5, 3.5, 4.5], [8.5, 9.5, 10.5], [14.5, 15.5, 16.5]]
    assert result["up"].values.tolist() == ["alpha", "beta", "beta"]
    assert result["down"].values.tolist() == [1, 1, 2]


@pytest.mark.parametrize("reduction", ["mean", "sum", "count", "var", "std", "max", "min", "median"])
@pytest.mark.parametrize("dim", [None, ..., "a", ["a", "b"], "b"])
def test_reductions_match_xarray_groupby(reduction, dim):
    # several rows per group and NaN values: ``dim`` reduces the named dims jointly with the grouped one, as
    # xarray's groupby(coord).<reduction>([grouped dim, *dims]) does (not a mean of per-column results)
    import warnings

    import xarray as xr

    values = np.random.default_rng(0).normal(size=(6, 4))
    values[1, 2] = values[4, 0] = np.nan
    coords = {"greek": ("a", ["x", "y", "x", "z", "y", "x"]), "b": ("b", list(range(4))),
              "colors": ("b", list("rgbk"))}
    ours = getattr(DataAssembly(values, coords=coords, dims=("a", "b")).multi_groupby(["greek"]), reduction)
    result = ours() if dim is None else ours(dim)
    joint = ["a", "b"] if dim in (..., "b", ["a", "b"]) else None
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # all-NaN slices are none here; numpy's median warns anyway
        plain = getattr(xr.DataArray(values, coords=coords, dims=("a", "b")).groupby("greek"), reduction)
        expected = plain(joint) if joint else plain()
    assert result.dims == expected.dims
    np.testing.assert_allclose(result.values, expected.values, rtol=1e-12)
    assert result["greek"].values.tolist() == expected["greek"].values.tolist()
    assert ("colors" in result.coords) == ("colors" in expected.coords)


def test_an_unknown_dim_is_an_error(grid):
    with pytest.raises(ValueError, match="not in the assembly's dims"):
        grid.multi_groupby(["greek"]).std("presentation")
