"""The child process that opens a netCDF file no SHA-1 vouches for (:func:`brainio.netcdf.probe_netcdf`), bound to
its caller.

Why brainio keeps this piece: damaged HDF5 can make the library loop forever in C code that holds the GIL (Ctrl-C is
ignored), and only a process can be stopped from that, so brainio opens an unverified file in a child first. brainio
sits below brainscore-core, which supervises every other child process of the project (:mod:`brainscore_core.children`:
``run_child``, ``start_child``, ``bind_to_parent``), and cannot import it. So the probe's child binds itself here, with
the least it needs and nothing else (no ``-m`` or script children, no watchdog thread, no ``multiprocessing``).

Run by path (the standard library only, until the probe's own code runs)::

    python _probe_child.py PARENT_PID CPU_SECONDS CODE [ARG ...]

Before ``CODE`` runs (as ``python -c CODE ARG ...`` would run it), the child

1. asks Linux to send it ``SIGKILL`` when the thread that started it ends (``prctl(PR_SET_PDEATHSIG)``): a signal, so
   it works while the probe is blocked in C code;
2. exits at once with :data:`EXIT_ORPHANED` when its parent is no longer ``PARENT_PID`` (the caller died before step 1);
3. allows no core file and bounds its CPU time (``RLIMIT_CPU``: ``SIGXCPU`` at ``CPU_SECONDS``, ``SIGKILL`` a second
   later), so a probe orphaned anyway stops at that bound.
"""

from __future__ import annotations

import contextlib
import ctypes
import math
import os
import signal
import subprocess
import sys

try:
    import resource
except ImportError:  # not on Windows; nothing to bound there
    resource = None  # type: ignore[assignment]

__all__ = ["EXIT_ORPHANED", "describe_exit", "run_probe"]

EXIT_ORPHANED = 125
"""Exit status of a probe that found its caller gone."""
_PR_SET_PDEATHSIG = 1


def run_probe(code: str, arguments: list[str], *, timeout: float, cpu_seconds: float) -> subprocess.CompletedProcess:
    """Run ``python -c code *arguments`` in a child bound to this process; its standard error is captured as text.

    Raises :class:`subprocess.TimeoutExpired` (the child killed) after ``timeout`` wall-clock seconds.
    """
    command = [sys.executable, __file__, str(os.getpid()), f"{float(cpu_seconds):g}", code, *arguments]
    return subprocess.run(command, timeout=timeout, capture_output=True, text=True, check=False)


def describe_exit(returncode: int, cpu_seconds: float) -> str:
    """How the probe ended, in words (``'used its 60 s of CPU time'``, ``'killed by SIGKILL'``)."""
    if returncode >= 0:
        return "found its caller gone" if returncode == EXIT_ORPHANED else f"exit status {returncode}"
    if -returncode == getattr(signal, "SIGXCPU", None):
        return f"used its {cpu_seconds:g} s of CPU time"
    try:
        return f"killed by {signal.Signals(-returncode).name}"
    except ValueError:
        return f"killed by signal {-returncode}"


def _bind(parent_pid: int, cpu_seconds: float) -> None:
    if sys.platform.startswith("linux"):
        with contextlib.suppress(OSError, AttributeError):
            ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, int(signal.SIGKILL), 0, 0, 0)
    if os.getppid() != parent_pid:
        os._exit(EXIT_ORPHANED)
    if resource is None:
        return
    with contextlib.suppress(ValueError, OSError):
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    soft = max(1, math.ceil(cpu_seconds))
    _, hard = resource.getrlimit(resource.RLIMIT_CPU)
    hard = soft + 1 if hard == resource.RLIM_INFINITY else min(soft + 1, hard)  # an unprivileged process may only lower it
    resource.setrlimit(resource.RLIMIT_CPU, (min(soft, hard), hard))


if __name__ == "__main__":
    if sys.path and os.path.abspath(sys.path[0]) == os.path.dirname(os.path.abspath(__file__)):
        del sys.path[0]  # this folder holds brainio's modules; they must not shadow top-level names
    _bind(int(sys.argv[1]), float(sys.argv[2]))
    _code = sys.argv[3]
    sys.argv = ["-c", *sys.argv[4:]]
    exec(compile(_code, "<string>", "exec"), {"__name__": "__main__", "__builtins__": __builtins__})
