"""Packaging killed with SIGKILL at each phase leaves temporaries that the next packaging removes (issue 34, item 2).

A child process packages a stimulus set (CSV + ZIP) and an assembly with an extra netCDF group, and kills itself
(``SIGKILL``, as ``kill -9`` would) at one phase: in the middle of the ZIP, with both stimulus temporaries complete
just before a rename, after the netCDF data variable was written but before its group, and just before the netCDF
rename. Each phase leaves ``.part`` files (checked, so no case passes vacuously); the next packaging of the same
targets, under their locks, removes them and writes the files a clean packaging writes (same SHA-1s).
"""

from __future__ import annotations

import signal
import subprocess
import sys
import textwrap

import pytest

from brainio import StimulusSet, package_stimulus_set_locally

IDENTIFIER = "Lab.v1"

CHILD = textwrap.dedent("""
    import os, signal, sys, zipfile

    phase, out, images = sys.argv[1:4]


    def die():
        os.kill(os.getpid(), signal.SIGKILL)


    if phase.startswith("replace:"):  # just before the temporary of this file is renamed into place
        real_replace = os.replace

        def replace(source, target, *args, **kwargs):
            if os.path.basename(target) == phase.split(":", 1)[1]:
                die()
            return real_replace(source, target, *args, **kwargs)

        os.replace = replace
    elif phase == "zip-entry":  # in the middle of the ZIP (the CSV temporary is complete)
        real_writestr, count = zipfile.ZipFile.writestr, []

        def writestr(self, *args, **kwargs):
            count.append(1)
            if len(count) == 3:
                die()
            return real_writestr(self, *args, **kwargs)

        zipfile.ZipFile.writestr = writestr
    elif phase == "netcdf-group":  # the data variable is written, its extra group not yet
        import xarray as xr

        real_to_netcdf = xr.Dataset.to_netcdf

        def to_netcdf(self, *args, mode="w", **kwargs):
            if mode == "a":
                die()
            return real_to_netcdf(self, *args, mode=mode, **kwargs)

        xr.Dataset.to_netcdf = to_netcdf

    sys.path.insert(0, os.path.dirname(out))
    from packaging_inputs import package

    package(out, images)
""")

INPUTS = textwrap.dedent("""
    import numpy as np
    import xarray as xr

    from brainio import NeuroidAssembly, StimulusSet, package_data_assembly_locally, package_stimulus_set_locally


    def package(out, images):
        ids = [f"s{i}" for i in range(4)]
        stimuli = StimulusSet({"stimulus_id": ids, "category": ["a", "b", "a", "b"]})
        stimuli.stimulus_paths = {sid: f"{images}/im{i}.png" for i, sid in enumerate(ids)}
        stimulus_result = package_stimulus_set_locally(stimuli, "Lab.v1", downloads_path=out)
        assembly = NeuroidAssembly(
            np.arange(12.0).reshape(4, 3),
            coords={"stimulus_id": ("presentation", ids), "neuroid_id": ("neuroid", ["n0", "n1", "n2"]),
                    "region": ("neuroid", ["IT"] * 3)},
            dims=["presentation", "neuroid"])
        extra = xr.DataArray(np.arange(3.0), dims=["neuroid"], coords={"neuroid_id": ("neuroid", ["n0", "n1", "n2"])})
        assembly_result = package_data_assembly_locally(assembly, "Lab.v1", "Lab.v1", downloads_path=out,
                                                        extras={"meta": extra})
        return stimulus_result, assembly_result
""")


def _package(tmp_path, out, images):
    import importlib
    import sys

    (tmp_path / "packaging_inputs.py").write_text(INPUTS)
    sys.path.insert(0, str(tmp_path))
    try:
        module = importlib.import_module("packaging_inputs")
        return importlib.reload(module).package(str(out), str(images))
    finally:
        sys.path.remove(str(tmp_path))


PHASES = ["zip-entry", "replace:stimulus_Lab_v1.zip", "replace:stimulus_Lab_v1.csv", "netcdf-group",
          "replace:assy_Lab_v1.nc"]


@pytest.mark.parametrize("phase", PHASES)
def test_next_packaging_removes_what_a_killed_one_left(phase, tmp_path, image_dir):
    (tmp_path / "packaging_inputs.py").write_text(INPUTS)
    out = tmp_path / "out"
    out.mkdir()
    killed = subprocess.run([sys.executable, "-c", CHILD, phase, str(out), str(image_dir)], timeout=120, cwd=tmp_path,
                            capture_output=True, text=True)  # it kills itself; the timeout ends it otherwise
    assert killed.returncode == -signal.SIGKILL, killed.stderr[-2000:]
    left = sorted(path.name for path in out.rglob("*.part"))
    assert left, f"the kill at {phase} left no temporary: the phase was not reached"
    stimuli, assembly = _package(tmp_path, out, image_dir)
    assert sorted(path.name for path in out.rglob("*.part")) == []
    clean_stimuli, clean_assembly = _package(tmp_path, tmp_path / "clean", image_dir)
    assert (stimuli["csv_sha1"], stimuli["zip_sha1"]) == (clean_stimuli["csv_sha1"], clean_stimuli["zip_sha1"])
    assert assembly["sha1"] == clean_assembly["sha1"]


def test_temporaries_of_other_targets_and_live_writers_are_left_alone(tmp_path, image_dir):
    """Only the temporaries of the targets being written go; another target's (maybe a live writer's) stay."""
    out = tmp_path / "out"
    out.mkdir()
    other = out / ".stimulus_Other.csv.abcd1234.part"
    other.write_text("another packaging's temporary")
    marker = out / ".stimulus_Lab_v1.csv.verified.abcd1234.part"  # not a temporary of stimulus_Lab_v1.csv
    marker.write_text("x")
    stimulus_set = StimulusSet({"stimulus_id": ["s0"]})
    stimulus_set.stimulus_paths = {"s0": image_dir / "im0.png"}
    stale = out / ".stimulus_Lab_v1.csv.zz99yy88.part"
    stale.write_text("left by a killed run")
    package_stimulus_set_locally(stimulus_set, IDENTIFIER, downloads_path=out)
    assert other.exists() and marker.exists() and not stale.exists()


def test_upload_to_a_local_store_removes_a_killed_upload_s_temporary(tmp_path):
    from brainio import LocalStore

    store = LocalStore(tmp_path / "store")
    (tmp_path / "store").mkdir()
    stale = tmp_path / "store" / ".file.bin.k1ll3d00.part"
    stale.write_bytes(b"half")
    source = tmp_path / "file.bin"
    source.write_bytes(b"whole")
    store.upload(source, "file.bin")
    assert not stale.exists() and (tmp_path / "store" / "file.bin").read_bytes() == b"whole"


def test_packaging_writes_under_the_target_lock(tmp_path, image_dir):
    """A second writer of the same file waits for the lock (it would otherwise remove the first one's temporary)."""
    import threading

    from brainio.files import target_lock

    ids = ["s0", "s1"]
    stimulus_set = StimulusSet({"stimulus_id": ids})
    stimulus_set.stimulus_paths = {sid: image_dir / f"im{i}.png" for i, sid in enumerate(ids)}
    out = tmp_path / "out"
    done = threading.Event()
    with target_lock(out / "stimulus_Lab_v1.csv"):
        writer = threading.Thread(target=lambda: (package_stimulus_set_locally(stimulus_set, IDENTIFIER,
                                                                               downloads_path=out), done.set()))
        writer.start()
        assert not done.wait(1.0)  # blocked on the lock held here
    writer.join(60)
    assert done.is_set() and (out / "stimulus_Lab_v1.zip").is_file()

