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
    # one row per group: the within-group variance is 0 everywhere, averaged over b stays 0
    assert grouped.var(...).values.tolist() == [0.0, 0.0, 0.0]
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
