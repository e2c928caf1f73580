import numpy as np
import pandas as pd
import pytest
import xarray as xr

from brainio import (
    BehavioralAssembly,
    DataAssembly,
    DimensionError,
    MetadataAssembly,
    NeuroidAssembly,
    NeuronRecordingAssembly,
    PropertyAssembly,
    SpikeTimesAssembly,
    array_is_element,
    average_repetition,
    gather_indexes,
    get_levels,
    merge_data_arrays,
    walk_coords,
)
from brainio.coords import flatten_indexes
from brainio.testing import assert_assemblies_equal
from brainio.validation import check_assembly


def test_constructor_coords_form(neuroid_assembly):
    assert neuroid_assembly.dims == ("presentation", "neuroid", "time_bin")
    assert list(neuroid_assembly["stimulus_id"].values) == ["s0", "s1", "s2", "s3"] * 2
    assert neuroid_assembly["region"].dims == ("neuroid",)


@pytest.mark.parametrize("dims", [["presentation", "neuroid"], ["neuroid", "presentation"],
                                  ["time_bin", "neuroid", "presentation"]])
def test_neuroid_dims_any_order(dims):
    a = NeuroidAssembly(np.zeros([2] * len(dims)), dims=dims)
    assert set(a.dims) == set(dims)


@pytest.mark.parametrize("cls, dims", [(NeuroidAssembly, ["presentation"]), (NeuroidAssembly, ["presentation", "x"]),
                                       (NeuronRecordingAssembly, ["presentation", "neuroid", "choice"]),
                                       (SpikeTimesAssembly, ["presentation"])])
def test_wrong_dims_are_refused_at_validation_naming_class_and_dims(cls, dims):
    assembly = cls(np.zeros([2] * len(dims)), dims=dims)  # construction accepts any dims, as the reference does
    with pytest.raises(DimensionError, match=rf"{cls.__name__}.*{dims[-1]}"):
        assembly.validate()
    problems = check_assembly(assembly, cls)  # what packaging and `brainio validate` run
    assert any(cls.__name__ in problem and dims[-1] in problem for problem in problems)


def test_reference_shaped_assemblies_construct():
    # an RDM as the reference's RDM code builds it, and dims named after coordinates
    ids = ["a", "b", "c"]
    with pytest.warns(UserWarning, match="Duplicate dimension names"):  # xarray allows, and warns about, the form
        rdm = DataAssembly(np.eye(3), coords={"stimulus_id": ("presentation", ids)},
                           dims=["presentation", "presentation"])
    assert rdm.dims == ("presentation", "presentation") and rdm.shape == (3, 3)
    square = NeuroidAssembly(np.eye(3), coords={"stimulus_id": ids, "neuroid_id": ["n0", "n1", "n2"]},
                             dims=["stimulus_id", "neuroid_id"])
    assert square.dims == ("stimulus_id", "neuroid_id")
    assert list(square.sel(stimulus_id="b").values) == [0.0, 1.0, 0.0]


def _responses():
    return NeuroidAssembly(np.arange(12.0).reshape(4, 3),
                           coords={"stimulus_id": ("presentation", list("abcd")),
                                   "object_name": ("presentation", ["x", "x", "y", "y"]),
                                   "neuroid_id": ("neuroid", ["n0", "n1", "n2"]),
                                   "region": ("neuroid", ["IT"] * 3)},
                           dims=["presentation", "neuroid"])


def test_rebuilding_from_coords_items_leaves_out_the_coordinates_of_a_dropped_dim():
    """The coordinates rule: Brain-Score's RSM helpers (e.g. Coggan2024's ``RSA``) rebuild an assembly from
    ``assembly.coords.items()`` minus the ``neuroid`` dim. Under the xarray Brain-Score pins, ``neuroid_id`` and
    ``region`` were levels of the ``neuroid`` MultiIndex and went with it; here they are left out too."""
    responses = _responses()
    coords = {name: value for name, value in responses.coords.items() if name != "neuroid"}
    assert {"neuroid_id", "region"} <= set(coords)  # what modern xarray yields, and would refuse
    correlations = np.corrcoef(responses.values)
    with pytest.warns(UserWarning, match="Duplicate dimension names"):  # xarray's own note on the RSM form
        rsm = DataAssembly(correlations, coords=coords, dims=["presentation", "presentation"])
    assert set(rsm.coords) == {"stimulus_id", "object_name"}
    np.testing.assert_array_equal(rsm.values, correlations)
    assert rsm["stimulus_id"].values.tolist() == list("abcd")
    # the same rule for a 2-D rebuild onto another dim name: presentation coordinates stay, neuroid ones go
    means = NeuroidAssembly(responses.values.mean(1, keepdims=True), dims=["presentation", "time_bin"],
                            coords=dict(responses.coords.items()))
    assert set(means.coords) == {"stimulus_id", "object_name"} and means.shape == (4, 1)


def test_the_coordinates_rule_changes_nothing_else():
    responses = _responses()
    # tuple-form coordinates on a dim the array lacks are still refused, as xarray refuses them
    with pytest.raises(ValueError, match="neuroid_id"):
        NeuroidAssembly(np.zeros(4), coords={"neuroid_id": ("neuroid", list("abcd"))}, dims=["presentation"])
    # a labelled coordinate on one of the array's dims is kept; plain xarray is untouched
    kept = NeuroidAssembly(responses.values, coords=dict(responses.coords.items()), dims=responses.dims)
    assert set(kept.coords) == set(responses.coords)
    with pytest.raises(ValueError, match="neuroid_id"):
        xr.DataArray(np.zeros(4), coords={"neuroid_id": responses["neuroid_id"]}, dims=["presentation"])
    # without dims, xarray infers them as usual
    assert DataAssembly(responses).dims == responses.dims


@pytest.mark.parametrize("cls", [BehavioralAssembly, PropertyAssembly, MetadataAssembly, DataAssembly])
def test_free_dims(cls):
    assert cls(np.zeros((2, 3)), dims=["presentation", "choice"]).dims == ("presentation", "choice")


def test_spike_times_on_event():
    a = SpikeTimesAssembly(np.arange(5.0), coords={"neuroid_id": ("event", list("abcde"))}, dims=["event"])
    assert a.sel(neuroid_id="c").values.tolist() == [2.0]


def test_sel_by_non_index_coordinate_keeps_dim(neuroid_assembly):
    it = neuroid_assembly.sel(region="IT")
    assert isinstance(it, NeuroidAssembly)
    assert it["neuroid_id"].values.tolist() == ["n0", "n2"]
    assert it.sizes["neuroid"] == 2
    one = neuroid_assembly.sel(neuroid_id="n1")
    assert one.sizes["neuroid"] == 1


def test_sel_by_boolean_mask_and_combined(neuroid_assembly):
    a = neuroid_assembly
    by_mask = a.sel(neuroid=a["region"] == "IT")
    assert by_mask["neuroid_id"].values.tolist() == ["n0", "n2"]
    both = a.sel(region="IT", stimulus_id="s1")
    # hand-worked: presentations 1 and 5 (s1), neuroids 0 and 2; value = 3 * presentation + neuroid
    assert both.values[:, :, 0].tolist() == [[3.0, 5.0], [15.0, 17.0]]


def test_sel_list_keeps_order_on_unique_and_mask_on_repeated(neuroid_assembly):
    a = neuroid_assembly
    assert a.sel(neuroid_id=["n2", "n0"])["neuroid_id"].values.tolist() == ["n2", "n0"]
    assert a.sel(stimulus_id=["s3", "s0"])["stimulus_id"].values.tolist() == ["s0", "s3", "s0", "s3"]


def test_sel_missing_label_names_coordinate(neuroid_assembly):
    with pytest.raises(KeyError, match="region.*V1"):
        neuroid_assembly.sel(region="V1")


def test_loc_and_getitem(neuroid_assembly):
    assert neuroid_assembly["stimulus_id"].values[0] == "s0"
    assert neuroid_assembly.loc[{"region": "V4"}].sizes["neuroid"] == 1


_OPERATIONS = {
    "sel": lambda a: a.sel(region="IT"),
    "isel": lambda a: a.isel(presentation=[0, 1]),
    "mean": lambda a: a.mean("presentation"),
    "groupby mean": lambda a: a.groupby("stimulus_id").mean(),
    "add": lambda a: a + a,
    "scalar arithmetic": lambda a: 2 * a - 1,
    "ufunc": lambda a: np.sqrt(a),
    "astype": lambda a: a.astype(np.float32),
    "where": lambda a: a.where(a > 3),
    "transpose": lambda a: a.transpose("neuroid", "time_bin", "presentation"),
    "squeeze": lambda a: a.squeeze("time_bin"),
    "sortby": lambda a: a.sortby("stimulus_id"),
    "copy": lambda a: a.copy(),
    "concat": lambda a: xr.concat([a, a], "presentation"),
    "multi_groupby": lambda a: a.multi_groupby(["stimulus_id"]).mean(),
}


@pytest.mark.parametrize("operation", list(_OPERATIONS))
def test_class_and_attrs_survive(neuroid_assembly, operation):
    result = _OPERATIONS[operation](neuroid_assembly)
    assert isinstance(result, NeuroidAssembly)
    assert result.attrs["note"] == "test"


def test_stack_idiom_keeps_class_and_selects_by_tuple():
    a = BehavioralAssembly(np.arange(6.0).reshape(3, 2), coords={"stimulus_id": ["a", "b", "c"], "choice": ["x", "y"]},
                           dims=["stimulus_id", "choice"])
    stacked = a.stack(presentation=("stimulus_id",))
    assert isinstance(stacked, BehavioralAssembly)
    assert "presentation" in stacked.dims
    assert stacked.sel(presentation=("b",)).values.tolist() == [[2.0], [3.0]] or \
        stacked.sel(presentation=("b",)).values.ravel().tolist() == [2.0, 3.0]
    assert stacked.sel(stimulus_id="c").values.ravel().tolist() == [4.0, 5.0]


def test_walk_coords_same_on_plain_and_multiindex(neuroid_assembly):
    plain = {name: (dims, values.tolist()) for name, dims, values in walk_coords(neuroid_assembly)}
    gathered = gather_indexes(neuroid_assembly)
    assert isinstance(gathered.indexes["presentation"], pd.MultiIndex)
    multi = {name: (dims, values.tolist()) for name, dims, values in walk_coords(gathered)}
    assert plain == multi
    assert set(get_levels(neuroid_assembly)) == set(get_levels(gathered)) == {
        "stimulus_id", "repetition", "neuroid_id", "region", "time_bin_start", "time_bin_end"}
    assert gathered.sel(region="IT").sizes["neuroid"] == 2
    flat = flatten_indexes(gathered)
    assert not flat.xindexes


def test_array_is_element():
    assert array_is_element(("presentation",), "presentation")
    assert not array_is_element(("presentation", "neuroid"), "presentation")
    assert not array_is_element(("neuroid",), "presentation")


def test_merge_data_arrays_combines_parts(neuroid_assembly):
    a = neuroid_assembly
    parts = [a.isel(neuroid=[0], presentation=slice(0, 4)), a.isel(neuroid=[0], presentation=slice(4, 8)),
             a.isel(neuroid=[1, 2])]
    merged = merge_data_arrays(parts)
    assert isinstance(merged, NeuroidAssembly)
    assert merged.dims == a.dims
    # compare entry by entry through the labels, independent of order
    for p in range(8):
        for n in ["n0", "n1", "n2"]:
            sid, rep = a["stimulus_id"].values[p], a["repetition"].values[p]
            got = merged.sel(stimulus_id=sid, repetition=rep, neuroid_id=n).values.item()
            assert got == a.values[p, ["n0", "n1", "n2"].index(n), 0]


def test_multi_groupby_matches_pandas():
    rng = np.random.default_rng(0)
    n = 60
    values = rng.normal(size=(n, 4))
    a = NeuroidAssembly(values, coords={"stimulus_id": ("presentation", rng.choice(["a", "b", "c"], n)),
                                        "object": ("presentation", rng.choice([1, 2], n)),
                                        "trial": ("presentation", np.arange(n)),
                                        "neuroid_id": ("neuroid", list("wxyz"))}, dims=["presentation", "neuroid"])
    result = a.multi_groupby(["stimulus_id", "object"]).mean()
    frame = pd.DataFrame(values).assign(stimulus_id=a["stimulus_id"].values, object=a["object"].values)
    expected = frame.groupby(["stimulus_id", "object"]).mean()  # independent computation, sorted keys
    assert list(zip(result["stimulus_id"].values, result["object"].values)) == list(expected.index)
    np.testing.assert_allclose(result.values, expected.values, rtol=1e-12)
    assert "trial" not in result.coords
    std = a.multi_groupby(["stimulus_id"]).std()
    np.testing.assert_allclose(std.values, frame.drop(columns="object").groupby("stimulus_id").std(ddof=0).values,
                               rtol=1e-10)
    single_int = a.multi_groupby("object").mean()
    assert single_int["object"].values.tolist() == [1, 2]


def test_average_repetition_keeps_coords_and_groups_nan_metadata(neuroid_assembly):
    a = neuroid_assembly.assign_coords(label=("presentation", [np.nan, "x", np.nan, "y"] * 2))
    averaged = average_repetition(a)
    assert isinstance(averaged, NeuroidAssembly)
    assert averaged.sizes["presentation"] == 4
    assert "repetition" not in averaged.coords and "label" in averaged.coords
    # hand-worked: stimulus s_k is at presentations k and k+4 -> mean value = 3k + 6 + neuroid
    for k in range(4):
        row = averaged.sel(stimulus_id=f"s{k}").values.ravel().tolist()
        assert row == [3 * k + 6.0, 3 * k + 7.0, 3 * k + 8.0]


def test_average_repetition_skips_nan_values(neuroid_assembly):
    a = neuroid_assembly.copy()
    a.values[4, 0, 0] = np.nan  # s0 repetition 1, neuroid n0
    averaged = average_repetition(a)
    assert averaged.sel(stimulus_id="s0", neuroid_id="n0").values.item() == 0.0


def test_multi_dim_apply_subtracts_group_means(neuroid_assembly):
    a = neuroid_assembly.squeeze("time_bin")
    result = a.multi_dim_apply(["stimulus_id", "region"], lambda group, **labels: group - group.mean())
    assert isinstance(result, NeuroidAssembly)
    # hand-worked: group (s0, IT) holds values {0, 2, 12, 14}, mean 7
    cell = result.sel(stimulus_id="s0", region="IT")
    assert sorted(cell.values.ravel().tolist()) == [-7.0, -5.0, 5.0, 7.0]
    labels_seen = []
    a.multi_dim_apply(["stimulus_id", "region"], lambda g, **labels: labels_seen.append(labels) or g)
    assert {"stimulus_id": "s0", "region": "IT"} in labels_seen and len(labels_seen) == 8


def test_large_construction_has_no_per_presentation_work():
    # 268,800 presentations: built from the coords form as plain coordinates (no MultiIndex is gathered)
    n = 268_800
    a = NeuroidAssembly(np.zeros((n, 2), dtype=np.float32),
                        coords={"stimulus_id": ("presentation", np.arange(n).astype(str)),
                                "repetition": ("presentation", np.arange(n) % 50),
                                "neuroid_id": ("neuroid", ["a", "b"])}, dims=["presentation", "neuroid"])
    assert not a.xindexes
    assert a.sel(repetition=3).sizes["presentation"] == n // 50


def test_multi_groupby_mean_over_an_extra_dim(neuroid_assembly):
    result = neuroid_assembly.multi_groupby(["stimulus_id"]).mean(dim=["presentation", "neuroid"])
    assert result.dims == ("stimulus_id", "time_bin")  # one coordinate: grouped like xarray's groupby
    # hand-worked: s_k covers presentations k, k+4 -> values 3k..3k+2 and 3k+12..3k+14, mean 3k + 7
    assert result.values[:, 0].tolist() == [7.0, 10.0, 13.0, 16.0]


def test_mean_over_a_presentation_coordinate_is_the_tutorial_idiom():
    # the tutorials write assembly.mean(dim='repetition'); repetition is a coordinate on presentation
    values = np.array([[1.0, 10.0], [3.0, 30.0], [5.0, 50.0], [np.nan, 70.0]])
    assembly = NeuroidAssembly(values, dims=["presentation", "neuroid"], coords={
        "stimulus_id": ("presentation", ["a", "a", "b", "b"]),
        "repetition": ("presentation", [0, 1, 0, 1]),
        "neuroid_id": ("neuroid", ["n0", "n1"])})
    averaged = assembly.mean(dim="repetition")
    assert isinstance(averaged, NeuroidAssembly)
    assert list(averaged["stimulus_id"].values) == ["a", "b"]
    # by hand: a -> (1+3)/2, (10+30)/2; b -> 5 (NaN skipped), (50+70)/2
    np.testing.assert_allclose(averaged.transpose("presentation", "neuroid").values, [[2.0, 20.0], [5.0, 60.0]])
    assert_assemblies_equal(averaged, average_repetition(assembly))
    # a real dimension still reduces as in xarray
    np.testing.assert_allclose(assembly.mean(dim="neuroid").values, np.nanmean(values, axis=1))
