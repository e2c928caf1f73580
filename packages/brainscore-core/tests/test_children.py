"""Child processes die with their caller and bound their CPU time (issue 34, item 1; moved from brainio in issue 44:
brainio keeps only the netCDF probe's child, tested in its ``test_probe_child.py``).

The callers here are real processes killed with ``kill -9`` while their child spins forever; afterwards no process of
theirs may remain. Linux only: the checks read ``/proc``.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time

import pytest

from brainio.skipping import skip_if
from brainio.testing import assert_processes_end, descendants_when_killed
from brainscore_core.children import EXIT_ORPHANED, child_command, describe_exit, run_child, start_child

pytestmark = skip_if(not sys.platform.startswith("linux"), "machine", "reads /proc (Linux)")


def test_watchdog_ends_an_orphan_where_the_death_signal_is_not_used(tmp_path):
    """The fallback (macOS has no parent-death signal): a thread that sees the parent change."""
    code = textwrap.dedent("""
        import subprocess, sys
        from brainscore_core.children import child_command
        subprocess.run(child_command(["-c", "while True: pass"], cpu_seconds=600, death_signal=False))
    """)
    children = descendants_when_killed(tmp_path, code)
    assert_processes_end(children)


def test_killed_caller_leaves_no_spinning_child(tmp_path):
    code = textwrap.dedent("""
        from brainscore_core.children import run_child
        run_child(["-c", "while True: pass"], timeout=600)
    """)
    children = descendants_when_killed(tmp_path, code)
    assert_processes_end(children)


def test_a_child_stops_at_its_cpu_bound():
    start = time.monotonic()
    result = run_child(["-c", "while True: pass"], timeout=120, cpu_seconds=1)
    assert result.returncode == -signal.SIGXCPU
    assert time.monotonic() - start < 60  # far below the wall-clock timeout
    assert describe_exit(result.returncode, 1) == "used its 1 s of CPU time"


def test_a_child_whose_caller_is_already_gone_does_not_run(tmp_path):
    """The caller died before the child bound itself: the child's parent is no longer the caller; it exits."""
    marker = tmp_path / "ran"
    command = child_command(["-c", f"open({str(marker)!r}, 'w').close()"])
    command[command.index("--parent") + 1] = "1"  # not this child's parent
    assert subprocess.run(command).returncode == EXIT_ORPHANED
    assert not marker.exists()


def test_child_limits_are_set_and_arguments_passed():
    code = ("import resource, sys; print(resource.getrlimit(resource.RLIMIT_CPU), "
            "resource.getrlimit(resource.RLIMIT_CORE), sys.argv[1:])")
    result = run_child(["-c", code, "a b", "c"], timeout=60, cpu_seconds=7.2, capture_output=True, text=True,
                       check=True)
    assert result.stdout.strip() == "(8, 9) (0, 0) ['a b', 'c']"


def test_module_children_run_as_main_and_die_with_their_thread(tmp_path):
    (tmp_path / "server.py").write_text("import time\nwhile True: time.sleep(1)\n")
    child = start_child(["-m", "server"], cpu_seconds=60, cwd=tmp_path, env={**os.environ, "PYTHONPATH": str(tmp_path)})
    try:
        time.sleep(0.5)
        assert child.poll() is None  # runs as __main__
    finally:
        child.kill()
        child.wait()


def test_script_children_get_their_arguments_and_folder(tmp_path):
    (tmp_path / "helper.py").write_text("VALUE = 'from the script folder'\n")
    (tmp_path / "script.py").write_text("import sys, helper\nprint(sys.argv[1:], helper.VALUE)\n")
    result = run_child([tmp_path / "script.py", "x"], timeout=60, capture_output=True, text=True, check=True)
    assert result.stdout.strip() == "['x'] from the script folder"


@pytest.mark.parametrize("arguments", [["no-such-script.py"], ["-c"], ["--parent", "1", "-c", "pass"], []])
def test_bad_child_arguments_are_refused(arguments):
    with pytest.raises(ValueError, match=r"\['-c', CODE, \*args\]"):
        child_command(arguments)
