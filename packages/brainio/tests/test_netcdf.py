import h5py
import numpy as np
import pytest

from brainio import (
    BehavioralAssembly,
    DataAssembly,
    MetadataAssembly,
    NeuroidAssembly,
    NeuronRecordingAssembly,
    PropertyAssembly,
    SpikeTimesAssembly,
    assert_assemblies_equal,
    gather_indexes,
    read_netcdf,
    sha1_hash,
    write_netcdf,
)


def _example(cls):
    rng = np.random.default_rng(1)
    if cls is SpikeTimesAssembly:
        return cls(rng.random(7), coords={"neuroid_id": ("event", list("abcdefg")),
                                          "stimulus_id": ("event", ["x"] * 7)}, dims=["event"])
    if cls in (NeuroidAssembly, NeuronRecordingAssembly):
        return cls(rng.random((3, 2, 4)).astype(np.float32),
                   coords={"stimulus_id": ("presentation", list("abcd")), "repetition": ("presentation", [0, 1, 0, 1]),
                           "neuroid_id": ("neuroid", ["n1", "n2", "n3"]), "region": ("neuroid", ["IT"] * 3),
                           "time_bin_start": ("time_bin", [0, 50]), "time_bin_end": ("time_bin", [50, 100])},
                   dims=["neuroid", "time_bin", "presentation"])
    return cls(rng.random((4, 2)), coords={"stimulus_id": ("presentation", list("abcd")),
                                            "truth": ("presentation", [1.5, np.nan, 2.0, 3.0]),
                                            "choice": ("choice", ["dog", "cat"])}, dims=["presentation", "choice"])


CLASSES = [DataAssembly, NeuroidAssembly, NeuronRecordingAssembly, BehavioralAssembly, PropertyAssembly,
           MetadataAssembly, SpikeTimesAssembly]


@pytest.mark.parametrize("cls", CLASSES, ids=lambda c: c.__name__)
def test_round_trip_every_class(tmp_path, cls):
    assembly = _example(cls)
    assembly.attrs.update(stimulus_set_identifier="Test.stimuli", identifier="Test", number=3, flag=True)
    sha1 = write_netcdf(assembly, tmp_path / "a.nc")
    assert sha1 == sha1_hash(tmp_path / "a.nc")
    loaded = read_netcdf(tmp_path / "a.nc")
    assert type(loaded) is cls
    assert loaded.dims == assembly.dims
    assert loaded.dtype == assembly.dtype
    assert_assemblies_equal(assembly, loaded, check_class=True)
    assert loaded.attrs["stimulus_set_identifier"] == "Test.stimuli"
    assert loaded.attrs["number"] == 3 and loaded.attrs["flag"] == 1


def test_layout_matches_brainscore(tmp_path, neuroid_assembly):
    gathered = gather_indexes(neuroid_assembly)  # MultiIndexes are flattened on write
    gathered.attrs.update(stimulus_set_identifier="S", stimulus_set=object())
    write_netcdf(gathered, tmp_path / "a.nc")
    with h5py.File(tmp_path / "a.nc", "r") as file:
        variables = {name for name, obj in file.items() if isinstance(obj, h5py.Dataset)}
        data_like = [n for n in variables if "coordinates" in file[n].attrs]
        assert data_like == ["data"]
        assert file["data"].shape == (8, 3, 1)
        assert {"stimulus_id", "repetition", "neuroid_id", "region"} <= variables
        assert file["stimulus_id"].dtype.kind == "O"  # variable-length (netCDF) strings
        assert file.attrs["stimulus_set_identifier"] == "S"
        # dims labelled by several coordinates have no dimension variable with values
        assert file["presentation"].attrs["NAME"].startswith(b"This is a netCDF dimension but not a netCDF variable")
        assert not any("date" in key.lower() or "history" in key.lower() for key in file.attrs)


def test_write_is_deterministic(tmp_path, neuroid_assembly):
    first = write_netcdf(neuroid_assembly, tmp_path / "a.nc")
    second = write_netcdf(neuroid_assembly.copy(deep=True), tmp_path / "b.nc")
    assert first == second
    assert (tmp_path / "a.nc").read_bytes() == (tmp_path / "b.nc").read_bytes()


def test_uncompressed_round_trip(tmp_path, neuroid_assembly):
    write_netcdf(neuroid_assembly, tmp_path / "a.nc", compress=False)
    assert_assemblies_equal(neuroid_assembly, read_netcdf(tmp_path / "a.nc", cls="NeuroidAssembly"))


def test_extras_as_groups(tmp_path):
    spikes = _example(SpikeTimesAssembly)
    spikes.attrs["trials"] = MetadataAssembly(np.arange(3.0), coords={"stimulus_id": ("event", list("xyz"))},
                                              dims=["event"])
    write_netcdf(spikes, tmp_path / "s.nc")
    loaded = read_netcdf(tmp_path / "s.nc")
    assert isinstance(loaded.attrs["trials"], MetadataAssembly)
    assert loaded.attrs["trials"]["stimulus_id"].values.tolist() == ["x", "y", "z"]


def test_no_partial_file_when_writing_fails(tmp_path):
    bad = DataAssembly(np.zeros(2), dims=["x"], attrs={"unwritable": {1, 2}})
    with pytest.raises((TypeError, ValueError), match="unwritable|Invalid value"):
        write_netcdf(bad, tmp_path / "bad.nc")
    assert list(tmp_path.iterdir()) == []


def test_reference_test_me(reference_dir):
    a = read_netcdf(reference_dir / "assy_test_TestMe.nc", cls=NeuroidAssembly)
    assert isinstance(a, NeuroidAssembly) and a.dims == ("presentation", "neuroid") and a.shape == (6, 3)
    assert {"stimulus_id", "repetition", "neuroid_id", "foo"} <= set(a.coords)
    assert a["stimulus_id"].dtype.kind == "U"
    # values as written by the reference test suite
    assert a["stimulus_id"].values.tolist() == ["n0", "n1", "n1", "n0", "n4", "n9"]
    assert a["repetition"].values.tolist() == [1, 1, 2, 1, 1, 1]
    assert a.values[:, 0].tolist() == [1, 4, 7, 10, 13, 16]
    assert a.sel(repetition=2).values.tolist() == [[7, 8, 9]]


def test_reference_legacy_image_id_and_variable_name(reference_dir):
    a = read_netcdf(reference_dir / "assy_test_package_assembly.nc", cls="NeuroidAssembly")
    assert a.dims == ("presentation", "neuroid", "time_bin") and a.shape == (6, 3, 1)
    assert a["stimulus_id"].values.tolist() == a["image_id"].values.tolist()
    assert {"image_type", "neuroid_type", "time_bin_start", "time_bin_end"} <= set(a.coords)


def test_reference_spike_times_with_group(reference_dir):
    a = read_netcdf(reference_dir / "assy_test_package_assembly_extras.nc", cls=SpikeTimesAssembly)
    assert a.dims == ("event",) and a.shape == (1000,)
    assert a["datetime"].dtype.kind == "M"
    test = a.attrs["test"]
    assert isinstance(test, MetadataAssembly) and test.shape == (40,)
    assert "stimulus_id" in test.coords and "eye_h_degrees" in test.coords


@pytest.mark.parametrize("name", ["assy_test_TestMe.nc", "assy_test_package_assembly.nc",
                                  "assy_test_package_assembly_extras.nc"])
def test_reference_files_rewrite_and_reload(reference_dir, tmp_path, name):
    original = read_netcdf(reference_dir / name)
    write_netcdf(original, tmp_path / name)
    reloaded = read_netcdf(tmp_path / name)
    assert_assemblies_equal(original, reloaded)


def test_from_files_joins_stimulus_set(tmp_path, neuroid_assembly, stimulus_set):
    write_netcdf(neuroid_assembly, tmp_path / "a.nc")
    loaded = NeuroidAssembly.from_files(tmp_path / "a.nc", stimulus_set_identifier="Test.stimuli",
                                        stimulus_set=stimulus_set)
    assert isinstance(loaded, NeuroidAssembly)
    assert loaded.attrs["stimulus_set_identifier"] == "Test.stimuli"
    assert loaded.stimulus_set is stimulus_set
    assert loaded["category"].values.tolist() == ["face", "face", "car", "car"] * 2


def test_spike_times_from_files(reference_dir):
    a = SpikeTimesAssembly.from_files(reference_dir / "assy_test_package_assembly_extras.nc")
    assert isinstance(a, SpikeTimesAssembly) and isinstance(a.attrs["test"], MetadataAssembly)


def test_reference_extras_file_loads_with_its_stimulus_set(reference_dir):
    # Brain-Score's own test files: a spike-times assembly whose extra netCDF group 'test' is a metadata assembly
    from brainio.assemblies import DataAssembly, MetadataAssembly, SpikeTimesAssembly
    from brainio.stimuli import StimulusSet

    stimuli = StimulusSet.from_files(reference_dir / "image_test_ten_images.csv", reference_dir)
    assembly = SpikeTimesAssembly.from_files(reference_dir / "assy_test_package_assembly_extras.nc",
                                             stimulus_set_identifier="test_ten_images", stimulus_set=stimuli)
    assert isinstance(assembly, SpikeTimesAssembly) and assembly.shape == (1000,)
    extra = assembly.attrs["test"]
    assert isinstance(extra, MetadataAssembly) and extra.shape == (40,)
    assert extra.attrs["stimulus_set"] is stimuli and assembly.attrs["stimulus_set"] is stimuli
    assert extra.attrs["stimulus_set_identifier"] == "test_ten_images"
    plain = DataAssembly.from_files(reference_dir / "assy_test_TestMe.nc", stimulus_set_identifier="test_ten_images",
                                    stimulus_set=stimuli)
    assert plain.shape == (6, 3)  # the shape Brain-Score's own from_files test asserts
