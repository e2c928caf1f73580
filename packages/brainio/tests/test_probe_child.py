"""The netCDF probe's child dies with its caller and bounds its CPU time (issue 34, item 1; brainio's own piece,
``brainio/_probe_child.py``, since issue 44; every other child process: brainscore-core's ``test_children.py``).

The callers here are real processes killed with ``kill -9`` while their probe child is blocked in the HDF5 library's
``open()`` of a named pipe (a block in C code, as on a damaged file; ``probe_netcdf`` itself refuses to open anything
but a regular file, so the probe's code is replaced by one that opens the pipe) or spins forever; afterwards no
process of theirs may remain. Linux only: the checks read ``/proc``.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time

import pytest

from brainio import NetCDFReadError, read_netcdf
from brainio._probe_child import EXIT_ORPHANED, describe_exit, run_probe
from brainio.skipping import skip_if
from brainio.testing import assert_processes_end, descendants_when_killed

pytestmark = skip_if(not sys.platform.startswith("linux"), "machine", "reads /proc (Linux)")


def test_killed_caller_leaves_no_probe_blocked_on_a_named_pipe(tmp_path):
    os.mkfifo(tmp_path / "stuck")  # HDF5's open() blocks on it forever, in C
    (tmp_path / "a.nc").write_bytes(b"x")
    code = textwrap.dedent("""
        import brainio.netcdf as netcdf
        netcdf._PROBE = "import h5netcdf; h5netcdf.File('stuck', 'r')"
        netcdf.read_netcdf('a.nc', timeout=600)
    """)
    probes = descendants_when_killed(tmp_path, code)
    assert_processes_end(probes)


def test_killed_caller_leaves_no_spinning_probe(tmp_path):
    (tmp_path / "a.nc").write_bytes(b"not read: the probe below spins before opening it")
    code = textwrap.dedent("""
        import brainio.netcdf as netcdf
        netcdf._PROBE = "while True: pass"  # a probe that never returns, as on a damaged file
        netcdf.read_netcdf('a.nc', timeout=600)
    """)
    probes = descendants_when_killed(tmp_path, code)
    assert_processes_end(probes)


def test_probe_names_the_file_when_its_cpu_bound_ends_it(tmp_path, monkeypatch):
    import brainio.netcdf as netcdf

    path = tmp_path / "spins.nc"
    path.write_bytes(b"x")
    monkeypatch.setattr(netcdf, "_PROBE", "while True: pass")
    with pytest.raises(NetCDFReadError, match=r"spins.nc: the process opening it used its 1 s of CPU time"):
        netcdf.probe_netcdf(path, timeout=120, cpu_seconds=1)


def test_a_probe_stops_at_its_cpu_bound():
    start = time.monotonic()
    result = run_probe("while True: pass", [], timeout=120, cpu_seconds=1)
    assert result.returncode == -signal.SIGXCPU
    assert time.monotonic() - start < 60  # far below the wall-clock timeout
    assert describe_exit(result.returncode, 1) == "used its 1 s of CPU time"


def test_a_probe_whose_caller_is_already_gone_does_not_run(tmp_path):
    """The caller died before the probe bound itself: its parent is no longer the caller; it exits at once."""
    import brainio._probe_child as probe_child

    marker = tmp_path / "ran"
    command = [sys.executable, probe_child.__file__, "1", "60", f"open({str(marker)!r}, 'w').close()"]
    assert subprocess.run(command).returncode == EXIT_ORPHANED
    assert not marker.exists()


def test_probe_limits_are_set_and_arguments_passed():
    code = ("import resource, sys; print(resource.getrlimit(resource.RLIMIT_CPU), "
            "resource.getrlimit(resource.RLIMIT_CORE), sys.argv[1:], 'brainscore_core' in sys.modules)")
    result = run_probe(code, ["a b", "c"], timeout=60, cpu_seconds=7.2)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "(8, 9) (0, 0) ['a b', 'c'] False"


def test_read_netcdf_of_a_named_pipe_still_ends_with_a_typed_error(tmp_path):
    os.mkfifo(tmp_path / "pipe.nc")
    with pytest.raises(NetCDFReadError, match="pipe.nc"):
        read_netcdf(tmp_path / "pipe.nc", timeout=1)
