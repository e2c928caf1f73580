"""Bind a child process to its caller, then run code as ``python -c`` / ``python -m`` / ``python script.py`` would.

Run as a script (by path, so a child starts without importing brainscore_core, brainio, numpy or xarray)::

    python _child.py --parent PID [--cpu-seconds N] [--no-death-signal] (-c CODE | -m MODULE | SCRIPT) [ARG ...]

Before the code runs, the child

1. asks Linux to send it ``SIGKILL`` when the thread that started it ends (``prctl(PR_SET_PDEATHSIG)``), which
   works even while the child loops in C code that holds the GIL (a damaged HDF5 file);
2. exits at once if its parent is no longer ``--parent`` (the caller died before step 1: the child was already
   handed to another process);
3. bounds its own CPU time (``RLIMIT_CPU``: ``SIGXCPU`` at ``--cpu-seconds``, ``SIGKILL`` one second later) and
   allows no core file (so a killed child leaves nothing on disk);
4. starts a daemon thread that exits the process when its parent changes: the fallback where step 1 is not
   available (macOS, or ``--no-death-signal``); it needs the GIL, which step 3 does not.

Only the standard library is imported here.
"""

from __future__ import annotations

import contextlib
import ctypes
import math
import os
import runpy
import signal
import sys
import threading
import time

try:
    import resource
except ImportError:  # not on Windows; nothing to bound there
    resource = None  # type: ignore[assignment]

__all__ = ["EXIT_ORPHANED", "bind_to_parent"]

PR_SET_PDEATHSIG = 1
EXIT_ORPHANED = 125
"""Exit status of a child that found its caller gone."""
WATCH_INTERVAL_S = 0.2


def _set_death_signal() -> bool:
    """``prctl(PR_SET_PDEATHSIG, SIGKILL)``; False where Linux's prctl is not available."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        return libc.prctl(PR_SET_PDEATHSIG, int(signal.SIGKILL), 0, 0, 0) == 0
    except (OSError, AttributeError):
        return False


def _limit_cpu(seconds: float) -> None:
    if resource is None:
        return
    soft = max(1, math.ceil(seconds))
    hard = soft + 1
    _, current_hard = resource.getrlimit(resource.RLIMIT_CPU)
    if current_hard != resource.RLIM_INFINITY:  # an unprivileged process may only lower it
        hard = min(hard, current_hard)
        soft = min(soft, hard)
    resource.setrlimit(resource.RLIMIT_CPU, (soft, hard))


def _forbid_core_files() -> None:
    if resource is not None:
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_CORE, (0, 0))


def _watch_parent(parent_pid: int) -> None:
    while True:
        if os.getppid() != parent_pid:
            os._exit(EXIT_ORPHANED)
        time.sleep(WATCH_INTERVAL_S)


def bind_to_parent(parent_pid: int, cpu_seconds: float | None = None, *, death_signal: bool = True) -> None:
    """Make this process die with ``parent_pid`` and bound its CPU time (see the module docstring).

    Parameters
    ----------
    parent_pid : int
        The process that started this one (its caller). When it is already gone, this process exits with
        :data:`EXIT_ORPHANED`.
    cpu_seconds : float, optional
        CPU time this process may use in all, default=None meaning no bound.
    death_signal : bool, default=True
        Use Linux's parent-death signal; False leaves only the watchdog thread (used to test it).
    """
    if death_signal:
        _set_death_signal()
    if os.getppid() != parent_pid:
        os._exit(EXIT_ORPHANED)
    _forbid_core_files()
    if cpu_seconds is not None:
        _limit_cpu(cpu_seconds)
    threading.Thread(target=_watch_parent, args=(parent_pid,), name="parent-watchdog", daemon=True).start()


def _main(argv: list[str]) -> None:
    parent, cpu_seconds, death_signal = None, None, True
    while argv and argv[0].startswith("--"):
        option = argv.pop(0)
        if option == "--parent" and argv:
            parent = int(argv.pop(0))
        elif option == "--cpu-seconds" and argv:
            cpu_seconds = float(argv.pop(0))
        elif option == "--no-death-signal":
            death_signal = False
        else:
            raise SystemExit(f"_child.py: unknown option {option!r}")
    if parent is None or not argv or (argv[0] in ("-c", "-m") and len(argv) < 2):
        raise SystemExit("usage: _child.py --parent PID [--cpu-seconds N] [--no-death-signal] "
                         "(-c CODE | -m MODULE | SCRIPT) [ARG ...]")
    bind_to_parent(parent, cpu_seconds, death_signal=death_signal)
    if argv[0] == "-m":
        sys.argv = [argv[1], *argv[2:]]
        runpy.run_module(argv[1], run_name="__main__", alter_sys=True)
    elif argv[0] == "-c":
        sys.argv = ["-c", *argv[2:]]
        exec(compile(argv[1], "<string>", "exec"), {"__name__": "__main__", "__builtins__": __builtins__})
    else:  # a script: its folder first on sys.path, as python does
        sys.argv = list(argv)
        sys.path.insert(0, os.path.dirname(os.path.abspath(argv[0])))
        runpy.run_path(argv[0], run_name="__main__")

if __name__ == "__main__":
    if sys.path and os.path.abspath(sys.path[0]) == os.path.dirname(os.path.abspath(__file__)):
        del sys.path[0]  # this folder holds brainscore_core's modules; they must not shadow top-level names
    _main(sys.argv[1:])
