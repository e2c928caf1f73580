"""digest, transform.subset, testing.assert_assemblies_equal."""

import hashlib
import warnings

import numpy as np
import pytest

from brainio import (
    BehavioralAssembly,
    NeuroidAssembly,
    StimulusSet,
    assembly_digest,
    assert_assemblies_equal,
    gather_indexes,
    stimulus_set_digest,
    subset,
)
from brainio.assemblies import DataAssembly
from brainio.grouping import average_repetition
from brainio.transform import index_efficient


def test_assembly_digest_is_stable_and_content_based(neuroid_assembly):
    digest = assembly_digest(neuroid_assembly)
    assert len(digest) == 40 and int(digest, 16) >= 0
    assert assembly_digest(neuroid_assembly.copy(deep=True)) == digest
    assert assembly_digest(gather_indexes(neuroid_assembly)) == digest  # storage does not matter
    changed = neuroid_assembly.copy(deep=True)
    changed.values[0, 0, 0] += 1
    assert assembly_digest(changed) != digest
    relabelled = neuroid_assembly.assign_coords(region=("neuroid", ["IT", "IT", "IT"]))
    assert assembly_digest(relabelled) != digest


def test_assembly_digest_same_in_another_process(neuroid_assembly):
    import subprocess
    import sys

    code = ("import numpy as np; from brainio import NeuroidAssembly, assembly_digest; "
            "a = NeuroidAssembly(np.arange(24, dtype=float).reshape(8, 3, 1), coords={"
            "'stimulus_id': ('presentation', [f's{i % 4}' for i in range(8)]),"
            "'repetition': ('presentation', [i // 4 for i in range(8)]),"
            "'neuroid_id': ('neuroid', ['n0', 'n1', 'n2']), 'region': ('neuroid', ['IT', 'V4', 'IT']),"
            "'time_bin_start': ('time_bin', [0]), 'time_bin_end': ('time_bin', [100])},"
            "dims=['presentation', 'neuroid', 'time_bin']); print(assembly_digest(a))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.strip()
    assert out == assembly_digest(neuroid_assembly)


def test_stimulus_set_digest_covers_metadata_and_file_bytes(stimulus_set, tmp_path):
    digest = stimulus_set_digest(stimulus_set)
    assert stimulus_set_digest(stimulus_set.copy()) == digest
    assert stimulus_set_digest(stimulus_set.assign(size=[9.0, 1.0, 2.0, 3.0])) != digest
    other = stimulus_set.copy()
    changed = tmp_path / "changed.png"
    changed.write_bytes(b"different bytes")
    other.stimulus_paths = dict(stimulus_set.stimulus_paths, s0=changed)
    assert stimulus_set_digest(other) != digest
    plain = StimulusSet([{"stimulus_id": "a"}])
    assert stimulus_set_digest(plain) == stimulus_set_digest(StimulusSet([{"stimulus_id": "a"}]))
    assert hashlib.sha1(b"").hexdigest() != stimulus_set_digest(plain)


def _target():
    return BehavioralAssembly(np.zeros(3), coords={"stimulus_id": ("presentation", ["s3", "s0", "s2"])},
                              dims=["presentation"])


def test_subset_keeps_the_source_order_like_the_reference(neuroid_assembly):
    averaged = average_repetition(neuroid_assembly)
    result = subset(averaged, _target(), subset_dims=("presentation",))
    assert isinstance(result, NeuroidAssembly)
    # Brain-Score's subset filters the source: its order (s0, s2, s3), not the target's (s3, s0, s2)
    assert result["stimulus_id"].values.tolist() == ["s0", "s2", "s3"]
    # hand-worked: mean of s_k over the two repetitions = 3k + 6 for neuroid 0
    assert result.values[:, 0, 0].tolist() == [6.0, 12.0, 15.0]


def test_subset_with_repeats(neuroid_assembly):
    # the source has two repetitions of each stimulus: the target's 3 stimuli match 6 presentations
    result = subset(neuroid_assembly, _target(), subset_dims=("presentation",), repeat=True, dims_must_match=False)
    assert result["stimulus_id"].values.tolist() == ["s0", "s0", "s2", "s2", "s3", "s3"]
    assert result["repetition"].values.tolist() == [0, 1, 0, 1, 0, 1]
    with pytest.raises(KeyError, match="6 entries but the target 3"):
        subset(neuroid_assembly, _target(), subset_dims=("presentation",))


def test_subset_missing_entries(neuroid_assembly):
    target = BehavioralAssembly(np.zeros(2), coords={"stimulus_id": ("presentation", ["s0", "zz"])},
                                dims=["presentation"])
    averaged = average_repetition(neuroid_assembly)
    with pytest.raises(KeyError, match="1 entries but the target 2"):
        subset(averaged, target, subset_dims=("presentation",))
    assert subset(averaged, target, subset_dims=("presentation",),
                  dims_must_match=False)["stimulus_id"].values.tolist() == ["s0"]


def test_subset_shifted_order_and_repeated_target():
    values = np.arange(15.0).reshape(5, 3)
    source = NeuroidAssembly(values, coords={"stimulus_id": ("presentation", [1, 2, 3, 4, 0]),
                                             "neuroid_id": ("neuroid", [0, 1, 2])}, dims=["presentation", "neuroid"])
    shifted = subset(source, source.isel(presentation=[4, 0, 1, 2, 3]), subset_dims=("presentation",))
    assert shifted["stimulus_id"].values.tolist() == [1, 2, 3, 4, 0]  # the source's order
    target = NeuroidAssembly(np.zeros((10, 3)), coords={"stimulus_id": ("presentation", np.repeat(range(5), 2)),
                                                        "neuroid_id": ("neuroid", [0, 1, 2])},
                             dims=["presentation", "neuroid"])
    repeated = subset(source, target, subset_dims=("presentation",), repeat=True)
    # each stimulus twice, in sorted order: 0 is source row 4, 1 row 0, ...
    assert repeated["stimulus_id"].values.tolist() == [0, 0, 1, 1, 2, 2, 3, 3, 4, 4]
    np.testing.assert_array_equal(repeated.values, values[[4, 4, 0, 0, 1, 1, 2, 2, 3, 3]])


def test_subset_on_a_repeated_dim_rdm():
    rdm = np.arange(25.0).reshape(5, 5)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # xarray warns about the duplicate dim it nevertheless builds
        source = DataAssembly(rdm, coords={"stimulus_id": ("presentation", [0, 1, 2, 3, 4]), "adjacent": 12},
                              dims=["presentation", "presentation"])
        target = DataAssembly(np.zeros(3), coords={"stimulus_id": ("presentation", [0, 2, 3])}, dims=["presentation"])
        result = subset(source, target, subset_dims=("presentation",), repeat=True)
    assert result.shape == (3, 3)
    np.testing.assert_array_equal(result.values, rdm[np.ix_([0, 2, 3], [0, 2, 3])])
    assert result["stimulus_id"].values.tolist() == [0, 2, 3] and int(result["adjacent"]) == 12


def test_index_efficient_matches_the_list_lookup():
    source, target = np.array([1, 2, 3, 4, 5]), np.array([1, 1, 3, 4, 4, 4, 5])
    # unique source values: the position of each target value, looked up one by one
    assert index_efficient(source, target) == [source.tolist().index(value) for value in target]


def test_subset_over_two_dims(neuroid_assembly):
    target = neuroid_assembly.isel(presentation=[2, 0], neuroid=[2, 1])
    result = subset(neuroid_assembly, target, subset_dims=("presentation", "neuroid"))
    # the matching entries in the source's order: presentations 0, 2 and neuroids 1, 2
    assert_assemblies_equal(result, neuroid_assembly.isel(presentation=[0, 2], neuroid=[1, 2]))


def test_assert_assemblies_equal_lists_differences(neuroid_assembly):
    assert_assemblies_equal(neuroid_assembly, neuroid_assembly.transpose("time_bin", "neuroid", "presentation"))
    other = neuroid_assembly.assign_coords(region=("neuroid", ["IT", "V1", "IT"])).drop_vars("repetition")
    other = other.copy(deep=True)
    other.values[1, 2, 0] = -1
    with pytest.raises(AssertionError) as error:
        assert_assemblies_equal(neuroid_assembly, other)
    message = str(error.value)
    assert "coordinate 'repetition' only in first" in message
    assert "coordinate 'region' ('neuroid',): 1 of 3 values differ; first at (1,): 'V4' != 'V1'" in message
    assert "values: 1 of 24 values differ; first at (1, 2, 0): 5.0 != -1.0" in message


def test_assert_assemblies_equal_tolerance_and_nan(neuroid_assembly):
    a = neuroid_assembly.copy(deep=True)
    a.values[0, 0, 0] = np.nan
    b = a + 1e-9
    assert_assemblies_equal(a, b, atol=1e-6)
    with pytest.raises(AssertionError):
        assert_assemblies_equal(a, b)
