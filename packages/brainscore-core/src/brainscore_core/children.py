"""Child processes that die with their caller and bound their own CPU time (used by every package above brainio).

A child started here runs :mod:`brainscore_core._child` first (by path: it imports only the standard library), which binds
it to the calling process: Linux's parent-death signal (``SIGKILL`` as soon as the caller's thread ends, even while
the child loops in C code holding the GIL), an immediate exit when the caller is already gone, a CPU-time limit
(``RLIMIT_CPU``), no core file, and a watchdog thread where the death signal is not available. So a caller killed
by Slurm's time limit, a Dask worker restart or ``kill -9`` leaves no child behind, and a child orphaned anyway stops
at its CPU bound.

* :func:`run_child` -- like :func:`subprocess.run` on ``python -c CODE`` / ``-m MODULE`` / ``SCRIPT``, with a wall-clock
  ``timeout`` and a CPU bound (default: the timeout);
* :func:`start_child` -- like :class:`subprocess.Popen` (servers in tests and benchmarks);
* :func:`bind_to_parent` -- the same binding for a process Python's ``multiprocessing`` started (Dask workers);
* :func:`describe_exit` -- a child's exit status in words ("used its 60 s of CPU time").

The child's ``sys.path`` is the interpreter's, without the current folder (``python -c`` would add it).
The parent-death signal follows the *thread* that started the child: start long-lived children from a thread that
lives as long as they should (:func:`run_child` blocks its thread until the child ends, so it always does).

brainio, below this package, keeps the one child it needs for itself: the netCDF probe that opens a file no SHA-1
vouches for (:mod:`brainio._probe_child`, the same binding without the watchdog and the ``-m``/script children).
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ._child import EXIT_ORPHANED, bind_to_parent

__all__ = ["CHILD_SCRIPT", "EXIT_ORPHANED", "bind_to_parent", "child_command", "describe_exit", "run_child",
           "start_child"]

CHILD_SCRIPT = Path(__file__).with_name("_child.py")
"""The script every child runs first."""


def _check_arguments(arguments: Sequence[str | os.PathLike]) -> list[str]:
    arguments = [os.fspath(argument) for argument in arguments]
    if not arguments or arguments[0].startswith("--") or (arguments[0] in ("-c", "-m") and len(arguments) < 2) or (
            arguments[0] not in ("-c", "-m") and not os.path.isfile(arguments[0])):
        raise ValueError(f"a child runs ['-c', CODE, *args], ['-m', MODULE, *args] or [SCRIPT, *args] (an existing "
                         f"file), got {arguments[:2]!r}")
    return arguments


def child_command(arguments: Sequence[str | os.PathLike], *, cpu_seconds: float | None = None,
                  death_signal: bool = True) -> list[str]:
    """The command line that runs ``python *arguments`` bound to this process.

    Parameters
    ----------
    arguments : sequence of str
        ``['-c', CODE, *args]``, ``['-m', MODULE, *args]`` or ``[SCRIPT, *args]``.
    cpu_seconds : float, optional
        CPU time the child may use, default=None meaning no bound.
    death_signal : bool, default=True
        False leaves only the watchdog thread (to test it).
    """
    options = ["--parent", str(os.getpid())]
    if cpu_seconds is not None:
        options += ["--cpu-seconds", f"{float(cpu_seconds):g}"]
    if not death_signal:
        options.append("--no-death-signal")
    return [sys.executable, str(CHILD_SCRIPT), *options, *_check_arguments(arguments)]


def run_child(arguments: Sequence[str | os.PathLike], *, timeout: float, cpu_seconds: float | None = None,
              **kwargs: Any) -> subprocess.CompletedProcess:
    """Run ``python *arguments`` in a bound child and wait for it (:func:`subprocess.run`).

    Parameters
    ----------
    arguments : sequence of str
        ``['-c', CODE, *args]``, ``['-m', MODULE, *args]`` or ``[SCRIPT, *args]``.
    timeout : float
        Wall-clock seconds; the child is killed after them and :class:`subprocess.TimeoutExpired` is raised.
    cpu_seconds : float, optional
        CPU-time bound, default=None meaning ``timeout``.
    **kwargs
        Passed to :func:`subprocess.run` (``capture_output``, ``text``, ``env``, ``cwd``, ``check``, ...).
    """
    bound = timeout if cpu_seconds is None else cpu_seconds
    return subprocess.run(child_command(arguments, cpu_seconds=bound), timeout=timeout, **kwargs)


def start_child(arguments: Sequence[str | os.PathLike], *, cpu_seconds: float | None, death_signal: bool = True,
                **kwargs: Any) -> subprocess.Popen:
    """Start ``python *arguments`` in a bound child without waiting (:class:`subprocess.Popen`).

    ``cpu_seconds`` is required (None: no bound, a deliberate choice); the child dies when the *calling thread*
    ends. ``**kwargs`` go to :class:`subprocess.Popen`.
    """
    return subprocess.Popen(child_command(arguments, cpu_seconds=cpu_seconds, death_signal=death_signal), **kwargs)


def describe_exit(returncode: int, cpu_seconds: float | None = None) -> str:
    """A child's exit status in words: ``'exit status 1'``, ``'killed by SIGKILL'``, ``'used its 60 s of CPU
    time'``."""
    if returncode >= 0:
        return "found its caller gone" if returncode == EXIT_ORPHANED else f"exit status {returncode}"
    number = -returncode
    if number == getattr(signal, "SIGXCPU", None):  # the soft CPU limit (Python leaves the default action: exit)
        return f"used its {cpu_seconds:g} s of CPU time" if cpu_seconds is not None else "used its CPU time"
    try:
        return f"killed by {signal.Signals(number).name}"
    except ValueError:
        return f"killed by signal {number}"

