"""Worker processes of a local Dask cluster die with their caller (issue 34, item 1).

Dask's own link (a pipe watched by a worker thread) needs the GIL; a task stuck in C code that holds it (here a
regular expression that backtracks for hours) kept both workers at 100 % after ``kill -9`` of the caller before
:func:`~brainscore_core.local_cluster.start_local_cluster` bound them. Linux only (reads ``/proc``).
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time

from brainio.skipping import import_or_skip, skip_if
from brainio.testing import assert_processes_end, running_descendants

import_or_skip("distributed", extra="brainscore-core[test]")
pytestmark = skip_if(not sys.platform.startswith("linux"), "machine", "reads /proc (Linux)")

CALLER = textwrap.dedent("""
    import sys
    import time

    from brainscore_core.local_cluster import start_local_cluster


    def stuck_in_c(_):
        import re
        return re.match(r"(a+)+$", "a" * 64 + "b")  # backtracks for ages, holding the GIL


    if __name__ == "__main__":
        client, cluster = start_local_cluster(2)
        futures = client.map(stuck_in_c, range(2), pure=False)
        while sum(len(tasks) for tasks in client.processing().values()) < 2:
            time.sleep(0.05)
        print("running", flush=True)
        time.sleep(600)
""")


def test_workers_stuck_in_c_die_with_their_killed_caller(tmp_path):
    script = tmp_path / "caller.py"
    script.write_text(CALLER)
    caller = subprocess.Popen([sys.executable, str(script)], cwd=tmp_path, stdout=subprocess.PIPE, text=True,
                              stderr=subprocess.DEVNULL)
    try:
        assert caller.stdout.readline().strip() == "running"
        time.sleep(0.5)  # both tasks are inside the regular expression
        workers = running_descendants(caller.pid)
        assert len(workers) >= 2
    finally:
        os.kill(caller.pid, signal.SIGKILL)
        caller.wait()
    assert_processes_end(workers, timeout=10)


def test_worker_processes_carry_the_cpu_bound():
    import resource

    from brainscore_core.local_cluster import start_local_cluster

    client, cluster = start_local_cluster(1, worker_cpu_seconds=1234)
    try:
        limits = client.run(lambda: (resource.getrlimit(resource.RLIMIT_CPU), os.getppid()))
    finally:
        client.close()
        cluster.close()
    ((cpu, parent),) = limits.values()
    assert cpu == (1234, 1235) and parent == os.getpid()


def test_the_plugin_leaves_processes_it_did_not_start_alone():
    """A worker whose parent is not the caller (a remote worker) is neither bound nor ended."""
    from brainscore_core.local_cluster import BindWorkerToCaller

    before = os.getppid()
    BindWorkerToCaller(caller_pid=-1, cpu_seconds=1).setup(worker=None)  # this process's parent is not -1
    import resource

    assert resource.getrlimit(resource.RLIMIT_CPU)[0] != 1 and os.getppid() == before
