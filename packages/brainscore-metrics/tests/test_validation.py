"""The one validation door: each check raises its typed error, naming the coordinate or identifiers at fault."""

from __future__ import annotations

import numpy as np
import pytest
import xarray as xr

from brainio.assemblies import NeuroidAssembly
from brainscore_metrics import validation
from brainscore_metrics.errors import (
    BehaviorInputError,
    DimensionError,
    DuplicateStimulusError,
    MissingCoordinateError,
    NonFiniteValuesError,
    RDMFormatError,
    StimulusAlignmentError,
    StimulusMismatchError,
)


def _assembly(n=6, q=3, ids=None, **extra):
    ids = np.array([f"im{i}" for i in range(n)]) if ids is None else np.asarray(ids)
    n = len(ids)
    coords = {"stimulus_id": ("presentation", ids), "neuroid_id": ("neuroid", [f"n{j}" for j in range(q)]), **extra}
    return NeuroidAssembly(np.arange(n * q, dtype=float).reshape(n, q), coords=coords, dims=["presentation", "neuroid"])


def test_ids_preview_shows_literals_and_the_count():
    assert validation.ids_preview(np.array(["a", "b"])) == "['a', 'b'] (2 in total)"
    assert validation.ids_preview(range(7), limit=2) == "[0, 1, ...] (7 in total)"


def test_require_dims_names_the_missing_dim():
    with pytest.raises(DimensionError, match="target has no 'time_bin' dim"):
        validation.require_dims(_assembly(), ("presentation", "time_bin"), "target")


def test_matrix_dims_orders_and_squeezes():
    assembly = _assembly().expand_dims(region=1).transpose("neuroid", "region", "presentation")
    assert validation.matrix_dims(assembly) == (["presentation", "neuroid"], ["region"])


def test_matrix_dims_names_unexpected_dims_and_their_sizes():
    assembly = _assembly().expand_dims(subject=2)
    with pytest.raises(DimensionError, match=r"unexpected dims \['subject'\] of sizes \[2\]"):
        validation.matrix_dims(assembly, "source")


def test_matrix_dims_several_time_bins_need_time_or_the_hint():
    assembly = xr.concat([_assembly(), _assembly()], dim="time_bin")
    with pytest.raises(DimensionError, match="source has 2 time bins.*use a temporal metric"):
        validation.matrix_dims(assembly, "source")
    assert validation.matrix_dims(assembly, time=True)[0] == ["presentation", "neuroid", "time_bin"]


def test_matrix_dims_missing_neuroid_dim():
    with pytest.raises(DimensionError, match="'neuroid'"):
        validation.matrix_dims(_assembly().rename(neuroid="unit"))


def test_one_trial_dim_squeezes_length_one_dims_and_rejects_two_trial_dims():
    trials = xr.DataArray(np.zeros((4, 1)), dims=["presentation", "choice"])
    assert validation.one_trial_dim(trials).dims == ("presentation",)
    with pytest.raises(BehaviorInputError, match="expected one trial dim"):
        validation.one_trial_dim(xr.DataArray(np.zeros((4, 2)), dims=["presentation", "choice"]), "source")


def test_coords_on_dim_excludes_the_dims_own_index():
    assembly = _assembly().assign_coords(neuroid=[10, 11, 12], region=("neuroid", ["IT"] * 3))
    coords = validation.coords_on_dim(assembly)
    assert list(coords) == ["neuroid_id", "region"]
    assert coords["region"][0] == "neuroid"


def test_coord_on_dim_reads_multiindex_levels_and_prefixes():
    assembly = _assembly(object_name=("presentation", list("aabbcc"))).set_index(
        presentation=["stimulus_id", "object_name"])
    np.testing.assert_array_equal(validation.coord_on_dim(assembly, "presentation", "object_name"), list("aabbcc"))
    assert validation.coord_on_dim(assembly, "neuroid", "object_name") is None
    rdm = xr.DataArray(np.zeros((2, 2)), dims=["presentation", "presentation_right"],
                       coords={"stimulus_id_right": ("presentation_right", ["x", "y"])})
    assert validation.coord_on_dim(rdm, "presentation_right", "stimulus_id") is None
    assert validation.coord_on_dim(rdm, "presentation_right", "stimulus_id", prefix=True).tolist() == ["x", "y"]


def test_require_coord_missing():
    with pytest.raises(MissingCoordinateError, match="target has no coordinate 'object_name'") as raised:
        validation.require_coord(_assembly(), "object_name", "target")
    assert raised.value.coord == "object_name"
    with pytest.raises(MissingCoordinateError, match="'condition'"):
        validation.require_coord(np.zeros(3), "condition")


def test_require_coord_on_the_wrong_dim():
    with pytest.raises(StimulusAlignmentError, match="'neuroid_id' lives on dims \\('neuroid',\\)"):
        validation.require_coord(_assembly(), "neuroid_id", dim="presentation", error=StimulusAlignmentError)
    with pytest.raises(MissingCoordinateError, match="'neuroid_id'") as raised:
        validation.require_coord(_assembly(), "neuroid_id", dim="presentation")
    assert raised.value.coord == "neuroid_id"


def test_check_numeric():
    validation.check_numeric(np.zeros(2, dtype=np.int32))
    with pytest.raises(RDMFormatError, match="source values are not numeric"):
        validation.check_numeric(np.array(["a"]), "source", error=RDMFormatError)


def test_check_finite_rows_names_the_stimuli_in_every_block():
    values = np.zeros((10, 2, 3))
    values[1, 0, 2] = np.nan
    values[8, 1, 0] = np.inf
    ids = np.array([f"im{i}" for i in range(10)])
    with pytest.raises(NonFiniteValuesError, match=r"target holds NaN or infinite values for 2 stimuli \['im1', 'im8'\]"):
        validation.check_finite_rows(values, ids, "target", block=3)


def test_check_unique_names_the_duplicates():
    with pytest.raises(DuplicateStimulusError, match=r"source has 1 duplicate 'stimulus_id' values \['b'\]"):
        validation.check_unique(np.array(["a", "b", "b"]), "stimulus_id", "source")
    with pytest.raises(StimulusAlignmentError, match="average repetitions"):
        validation.check_unique(np.array([1, 1]), error=StimulusAlignmentError)


def test_check_same_ids_names_both_sides():
    validation.check_same_ids(np.array(["a", "b"]), np.array(["a", "b"]))
    with pytest.raises(StimulusMismatchError, match=r"only in source \['c'\].*only in target \['d'\]"):
        validation.check_same_ids(np.array(["a", "c"]), np.array(["a", "d"]))
    with pytest.raises(StimulusAlignmentError, match=r"\(2 vs 1 stimuli\)"):
        validation.check_same_ids(np.array(["a", "b"]), np.array(["a"]), error=StimulusAlignmentError)


def test_repetition_index_groups_stimuli_and_repetitions():
    assembly = _assembly(ids=["b", "a", "b", "a"], repetition=("presentation", [0, 0, 1, 1]))
    stimulus, repetition, repetitions = validation.repetition_index(assembly)
    assert stimulus.tolist() == [1, 0, 1, 0]
    assert repetition.tolist() == [0, 0, 1, 1]
    assert repetitions.tolist() == [0, 1]


def test_repetition_index_missing_repetition_coordinate():
    with pytest.raises(MissingCoordinateError, match="'repetition_id'"):
        validation.repetition_index(_assembly(), "repetition_id")


def test_repetition_index_needs_a_stimulus_coordinate():
    assembly = _assembly(repetition=("presentation", range(6))).drop_vars("stimulus_id")
    with pytest.raises(MissingCoordinateError, match="'stimulus_id'"):
        validation.repetition_index(assembly)


def test_repetition_index_duplicate_repetition_names_the_stimulus():
    assembly = _assembly(ids=["a", "a", "b"], repetition=("presentation", [0, 0, 0]))
    with pytest.raises(DuplicateStimulusError, match="stimulus_id 'a' occurs more than once with repetition=0"):
        validation.repetition_index(assembly)
