"""Why a Dask worker died while it ran a pair: its memory, or something else.

A worker can die three ways while it scores a pair, and the grid must tell them apart (``oom`` pairs are run again
with more memory, the others on another worker; :mod:`brainscore_core.failure_kinds`):

* Dask's nanny restarts a worker above 95 % of its memory limit and says so in the scheduler's event log (topic
  ``worker-restart-memory``, Dask's own);
* the kernel's OOM killer (or a cgroup memory limit, Slurm's) sends the worker ``SIGKILL``: the nanny sees its child
  killed by signal 9 while the machine's ``oom_kill`` counter (``/proc/vmstat``) went up; :class:`ReportWorkerExit`,
  a nanny plugin, logs every exit of its worker with both (topic :data:`EXIT_TOPIC`);
* the whole job ends (``scancel``, preemption, its time limit): nanny and worker go together and nothing is
  reported; the scheduler (Slurm's job state) tells why.

:func:`death_report` reads the first two from the scheduler's event log. The plugin wraps the nanny's exit callback
(``Nanny._on_worker_exit_sync``, which distributed's nanny hands to each worker process it starts); a test checks
that distributed still calls it, so an upgrade that changes it fails there, not silently.
"""

from __future__ import annotations

import signal
import time
from typing import Any

try:
    from distributed.diagnostics.plugin import NannyPlugin
except ImportError:  # without the dask extra the module imports; nothing can die then
    NannyPlugin = object  # type: ignore[assignment,misc]

__all__ = ["EXIT_TOPIC", "MEMORY_TOPIC", "ReportWorkerExit", "death_report", "oom_kill_count"]

EXIT_TOPIC = "brainscore-worker-exit"
MEMORY_TOPIC = "worker-restart-memory"  # distributed's nanny logs it before restarting a worker for its memory


def oom_kill_count() -> int | None:
    """How many processes the kernel's OOM killer has killed on this machine since it started (``/proc/vmstat``
    ``oom_kill``); None where the kernel does not say."""
    try:
        with open("/proc/vmstat") as file:
            for line in file:
                if line.startswith("oom_kill "):
                    return int(line.split()[1])
    except (OSError, ValueError):
        return None
    return None


class ReportWorkerExit(NannyPlugin):
    """Nanny plugin: log each exit of the nanny's worker process to the scheduler (topic :data:`EXIT_TOPIC`): its
    address, pid, exit code, and how many processes the kernel's OOM killer killed on this machine meanwhile."""

    name = "brainscore-report-worker-exit"

    def setup(self, nanny: Any) -> None:
        self._baseline = oom_kill_count()
        original = nanny._on_worker_exit_sync
        if getattr(original, "_brainscore_reports", False):
            return

        def on_exit(exitcode: int) -> None:
            try:
                counted = oom_kill_count()
                kills = (counted - self._baseline) if counted is not None and self._baseline is not None else None
                self._baseline = counted
                nanny.log_event(EXIT_TOPIC, {"worker": nanny.worker_address, "exitcode": int(exitcode),
                                             "oom_kills": kills})
            finally:
                original(exitcode)

        on_exit._brainscore_reports = True  # type: ignore[attr-defined]
        nanny._on_worker_exit_sync = on_exit  # the next worker process the nanny starts reports too
        if nanny.process is not None:
            nanny.process.on_exit = on_exit  # the running one


def _events(client: Any, topic: str, worker: str) -> list[dict]:
    try:
        return [message for _, message in client.get_events(topic)
                if isinstance(message, dict) and message.get("worker") == worker]
    except Exception:  # the scheduler went away: nothing more to learn from it
        return []


def death_report(client: Any, worker: str, *, wait_s: float = 5.0) -> tuple[str, str] | None:
    """``(kind, reason)`` of the death of ``worker`` (its address) from what its nanny reported: ``('oom', ...)`` for
    a restart at its memory limit or the kernel's OOM killer, ``('transient', ...)`` for any other exit its nanny saw;
    None when nothing was reported within ``wait_s`` seconds (the nanny died with it: the whole job ended)."""
    deadline = time.monotonic() + wait_s
    while True:
        restarts = _events(client, MEMORY_TOPIC, worker)
        if restarts:
            rss = restarts[-1].get("rss")
            size = f" at {rss / 2**20:,.0f} MB" if isinstance(rss, (int, float)) else ""
            return "oom", f"its worker exceeded its memory limit{size} and was restarted by Dask's nanny"
        exits = _events(client, EXIT_TOPIC, worker)
        if exits:
            code, kills = exits[-1].get("exitcode"), exits[-1].get("oom_kills")
            if code == -signal.SIGKILL and kills:
                return "oom", "its worker was killed by the kernel's OOM killer (SIGKILL; oom_kill counted)"
            return "transient", f"its worker process ended ({_describe(code)})"
        if time.monotonic() >= deadline:
            return None
        time.sleep(0.2)


def _describe(code: Any) -> str:
    if not isinstance(code, int):
        return "exit status unknown"
    if code >= 0:
        return f"exit status {code}"
    try:
        return f"killed by {signal.Signals(-code).name}"
    except ValueError:
        return f"killed by signal {-code}"
