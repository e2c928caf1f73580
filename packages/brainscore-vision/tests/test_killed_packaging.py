"""A data plugin's packaging killed with SIGKILL at each phase, on the real recordings: the next run of the plugin
packages again and leaves no temporary in the data store (issue 34, item 2).

The child process packages Kriegeskorte 2008 (92 images, two RDM assemblies) or Marques 2020's blank stimulus set
into a fresh data store and kills itself at one phase: in the middle of the stimulus ZIP, after a netCDF data
variable was written, just before the store's manifest is renamed into place, and (Marques) while rendering the
grating PNGs into the store's render folder. Each phase leaves temporaries (checked); after the next run, none is
left and the packaged stimulus files have the SHA-1s the plugin records.
"""

from __future__ import annotations

import signal
import textwrap

import pytest

CHILD = textwrap.dedent("""
    import os, pathlib, signal, sys, zipfile

    phase, plugin = sys.argv[1:3]


    def die():
        os.kill(os.getpid(), signal.SIGKILL)


    if phase == "zip-entry":
        real_writestr, count = zipfile.ZipFile.writestr, []

        def writestr(self, *args, **kwargs):
            count.append(1)
            if len(count) == 40:
                die()
            return real_writestr(self, *args, **kwargs)

        zipfile.ZipFile.writestr = writestr
    elif phase == "netcdf-data":
        import xarray as xr

        real_to_netcdf = xr.Dataset.to_netcdf

        def to_netcdf(self, *args, **kwargs):
            real_to_netcdf(self, *args, **kwargs)
            die()

        xr.Dataset.to_netcdf = to_netcdf
    elif phase == "manifest":
        real_replace = os.replace

        def replace(source, target, *args, **kwargs):
            if os.path.basename(target) == "manifest.json":
                die()
            return real_replace(source, target, *args, **kwargs)

        os.replace = replace
    elif phase == "render":
        real_write_bytes = pathlib.Path.write_bytes

        def write_bytes(self, data):
            written = real_write_bytes(self, data)
            if self.suffix == ".png":
                die()
            return written

        pathlib.Path.write_bytes = write_bytes

    if plugin == "kriegeskorte2008":
        from brainscore_vision.data.kriegeskorte2008 import packaged
    else:
        from brainscore_vision.data.marques2020 import stimuli_packaged

        packaged = stimuli_packaged["blank"]
    packaged.prepare()
""")


def _packaged(plugin: str):
    if plugin == "kriegeskorte2008":
        from brainscore_vision.data.kriegeskorte2008 import PACKAGED_SHA1, packaged

        return packaged, PACKAGED_SHA1
    from brainscore_vision.data.marques2020 import stimuli_packaged

    return stimuli_packaged["blank"], None


@pytest.mark.parametrize(("plugin", "phase"), [("kriegeskorte2008", "zip-entry"), ("kriegeskorte2008", "netcdf-data"),
                                               ("kriegeskorte2008", "manifest"), ("marques2020", "render")])
def test_next_run_leaves_no_temporary_after_a_kill(plugin, phase, raw_data_dir, tmp_path, monkeypatch):
    from brainscore_core.children import run_child

    monkeypatch.setenv("BRAINSCORE_DATA_STORE", str(tmp_path / "store"))
    monkeypatch.setenv("BRAINIO_HOME", str(tmp_path / "cache"))
    killed = run_child(["-c", CHILD, phase, plugin], timeout=300, capture_output=True, text=True)
    assert killed.returncode == -signal.SIGKILL, killed.stderr[-2000:]
    packaged, recorded = _packaged(plugin)
    left = sorted(path.name for path in packaged.directory.rglob("*.part"))
    assert left, f"the kill at {phase} left no temporary in {packaged.directory}: the phase was not reached"
    manifest = packaged.prepare()  # the next run
    assert sorted(str(path) for path in packaged.directory.rglob("*.part")) == []
    for identifier, entry in (recorded or {}).get("stimulus_sets", {}).items():
        assert manifest["stimulus_sets"][identifier]["zip_sha1"] == entry["zip_sha1"]
        assert manifest["stimulus_sets"][identifier]["csv_sha1"] == entry["csv_sha1"]
    for identifier in manifest["stimulus_sets"]:
        stimuli = packaged.load_stimulus_set(identifier)
        assert len(stimuli) == (92 if plugin == "kriegeskorte2008" else 1)
