"""Issue 41, findings 4, 12 and 13: netCDF files that refer to other files, direct reads of files no SHA-1 vouches
for, and what ``brainio validate`` / ``read_netcdf`` must refuse."""

from __future__ import annotations

import os
import subprocess
import sys
import time

import h5netcdf
import h5py
import numpy as np
import pytest
import xarray as xr

from brainio import (
    DataAssembly,
    LocalStore,
    NeuroidAssembly,
    load_assembly,
    read_netcdf,
    sha1_hash,
    write_netcdf,
)
from brainio.cli import main
from brainio.errors import ExternalDataError, NetCDFReadError

pytestmark = pytest.mark.security


# -- finding 4: references to other files -------------------------------------------------------------------------
def _external_storage_nc(path, outside):
    """An assembly file whose ``data`` variable keeps its 6 values in ``outside`` (HDF5 external storage)."""
    np.arange(6, dtype="float64").tofile(outside)
    with h5netcdf.File(path, "w") as file:
        file.dimensions = {"presentation": 2, "neuroid": 3}
        stimuli = file.create_variable("stimulus_id", ("presentation",), dtype=h5py.string_dtype())
        stimuli[:] = ["s0", "s1"]
        neuroids = file.create_variable("neuroid_id", ("neuroid",), dtype=h5py.string_dtype())
        neuroids[:] = ["n0", "n1", "n2"]
        data = file.create_variable("data", ("presentation", "neuroid"), dtype="float64",
                                    external=[(os.fspath(outside), 0, 48)])
        data.attrs["coordinates"] = "stimulus_id neuroid_id"
    return path


def test_external_storage_is_refused_by_read_netcdf_validate_and_load_assembly(tmp_path, capsys):
    """Before: all three read the 6 values from the outside file (the SHA-1 covers only the .nc)."""
    outside = tmp_path / "outside.bin"
    path = _external_storage_nc(tmp_path / "assy_Lab_ext.nc", outside)
    with h5py.File(path) as file:  # the file really reads the outside bytes
        assert file["data"][:].ravel().tolist() == [0, 1, 2, 3, 4, 5]
    for verified in (False, True):
        with pytest.raises(ExternalDataError, match=rf"{path}.*variable 'data'.*{outside}"):
            read_netcdf(path, verified=verified)
    assert main(["validate", "--nc", str(path)]) == 1
    assert f"{path}" in capsys.readouterr().err
    with pytest.raises(ExternalDataError, match="assy_Lab_ext.nc"):
        load_assembly("Lab.ext", LocalStore(tmp_path), sha1=sha1_hash(path))


@pytest.mark.parametrize("kind", ["external link", "virtual dataset"])
def test_links_and_virtual_datasets_to_other_files_are_refused(tmp_path, neuroid_assembly, kind):
    outside = tmp_path / "outside.h5"
    with h5py.File(outside, "w") as file:
        file["secret"] = np.arange(4.0)
    path = tmp_path / "a.nc"
    write_netcdf(neuroid_assembly, path)
    with h5py.File(path, "a") as file:
        if kind == "external link":
            file["group/leak"] = h5py.ExternalLink(str(outside), "/secret")
        else:
            layout = h5py.VirtualLayout(shape=(4,), dtype="f8")
            layout[:] = h5py.VirtualSource(str(outside), "secret", shape=(4,))
            file.create_virtual_dataset("leak", layout)
    with pytest.raises(ExternalDataError, match=rf"{kind}.*outside.h5"):
        read_netcdf(path)


# -- finding 12: a direct read of a file no SHA-1 vouches for ---------------------------------------------------------
def test_a_direct_read_of_a_file_that_blocks_hdf5_ends_with_a_typed_error(tmp_path):
    """Before: ``read_netcdf(path)`` opened the file in-process; a named pipe blocks HDF5's open() in C for ever (the
    harness's zeroed-range file spun the same way). The read runs in a subprocess, so this test ends either way."""
    fifo = tmp_path / "stuck.nc"
    os.mkfifo(fifo)
    code = ("import sys\nfrom brainio import read_netcdf\nfrom brainio.errors import NetCDFReadError\n"
            "try:\n    read_netcdf(sys.argv[1])\nexcept NetCDFReadError as error:\n    print('typed:', error)\n")
    try:
        result = subprocess.run([sys.executable, "-c", code, str(fifo)], capture_output=True, text=True, timeout=60)
    except subprocess.TimeoutExpired:
        pytest.fail("read_netcdf of a named pipe did not end within 60 s")
    assert result.stdout.startswith("typed:") and "stuck.nc" in result.stdout


def test_direct_reads_go_through_the_time_limited_child_and_verified_reads_do_not(tmp_path, monkeypatch,
                                                                                   neuroid_assembly):
    import brainio.netcdf as netcdf

    path = tmp_path / "a.nc"
    write_netcdf(neuroid_assembly, path)
    monkeypatch.setattr(netcdf, "_PROBE", "import time; time.sleep(600)")  # stands in for a spinning HDF5
    monkeypatch.setattr(netcdf, "UNTRUSTED_TIMEOUT_S", 1.0)
    start = time.monotonic()
    with pytest.raises(NetCDFReadError, match=r"a.nc: opening it did not finish within 1 s"):
        read_netcdf(path)
    assert time.monotonic() - start < 30
    assert read_netcdf(path, verified=True).sizes == neuroid_assembly.sizes  # the sha1-verified fast path


# -- finding 13: read_netcdf and validate ------------------------------------------------------------------------
def test_an_unknown_brainio_class_attribute_is_refused_even_when_a_class_is_asked_for(tmp_path, neuroid_assembly):
    path = tmp_path / "a.nc"
    write_netcdf(neuroid_assembly, path)
    with h5py.File(path, "a") as file:
        file.attrs["brainio_class"] = "EvilAssembly"
    for cls in (None, NeuroidAssembly):
        with pytest.raises(NetCDFReadError, match=r"a.nc: its attribute 'brainio_class' names no assembly class: "
                                                  r"'EvilAssembly'"):
            read_netcdf(path, cls=cls)


def _text_values():
    return DataAssembly(xr.DataArray(np.array([["a", "b"], ["c", "d"]]), dims=["presentation", "neuroid"],
                                     coords={"stimulus_id": ("presentation", ["s0", "s1"]),
                                             "neuroid_id": ("neuroid", ["n0", "n1"])}))


def _words_among_numbers():
    return DataAssembly(xr.DataArray(np.zeros((4, 1)), dims=["presentation", "neuroid"],
                                     coords={"stimulus_id": ("presentation", ["s0", "s1", "s2", "s3"]),
                                             "repetition": ("presentation", ["0", "1", "2", "x"]),
                                             "neuroid_id": ("neuroid", ["n0"])}))


def _nan_ids():
    return DataAssembly(xr.DataArray(np.zeros((2, 2)), dims=["presentation", "neuroid"],
                                     coords={"stimulus_id": ("presentation", np.array(["s0", np.nan], dtype=object)),
                                             "neuroid_id": ("neuroid", [np.nan, 1.0])}))


CASES = {
    "zero-size": (lambda: NeuroidAssembly(np.zeros((0, 2)), dims=["presentation", "neuroid"],
                                          coords={"stimulus_id": ("presentation", np.array([], dtype=str)),
                                                  "neuroid_id": ("neuroid", ["n0", "n1"])}), "NeuroidAssembly",
                  ["the assembly holds no values: dim 'presentation' has 0 entries"]),
    "text values": (_text_values, "NeuroidAssembly",
                    ["values of a NeuroidAssembly must be numbers, found <U1 (e.g. 'a' at presentation 0, neuroid 0)"]),
    "words among numbers": (_words_among_numbers, "DataAssembly",
                            ["coordinate 'repetition' holds numbers in 3 rows, but not in row 3 (counted from 0): 'x'"]),
    "three unknown dims": (lambda: DataAssembly(np.zeros((2, 3, 4)), dims=["x", "y", "z"]), "DataAssembly",
                           [f"dim '{dim}' has no coordinate: nothing names its {size} entries" for dim, size in
                            (("x", 2), ("y", 3), ("z", 4))]),
    "NaN ids": (_nan_ids, "DataAssembly",
                ["coordinate 'stimulus_id': missing value (empty, NaN or a word pandas reads as NaN, such as 'NA') in "
                 "row 1 (counted from 0)",
                 "coordinate 'neuroid_id': missing value (empty, NaN or a word pandas reads as NaN, such as 'NA') in "
                 "row 0 (counted from 0)"]),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_validate_refuses_naming_the_file_the_coordinate_and_the_row(tmp_path, capsys, case):
    """Before: ``brainio validate --nc`` printed ``ok`` and exited 0 for each of these files."""
    build, cls, expected = CASES[case]
    path = tmp_path / f"{case.replace(' ', '_')}.nc"
    write_netcdf(build(), path)
    assert main(["validate", "--nc", str(path), "--class", cls]) == 1
    printed = capsys.readouterr().out.splitlines()
    for line in expected:
        assert any(printed_line.startswith(f"assembly ({path}): {line}") for printed_line in printed), (line, printed)


def test_real_assemblies_still_validate(neuroid_assembly, tmp_path, capsys):
    path = tmp_path / "good.nc"
    write_netcdf(neuroid_assembly, path)
    assert main(["validate", "--nc", str(path)]) == 0
    assert capsys.readouterr().out.strip() == "ok"
