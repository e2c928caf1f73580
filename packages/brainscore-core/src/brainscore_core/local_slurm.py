"""A one-node Slurm cluster of its own, on this machine, for tests of the grid on a real batch scheduler.

:func:`local_slurm` follows the recipe of the machines' notes (Debian's ``slurm-wlm`` and ``munge``): it writes a
``slurm.conf`` for this host into a temporary folder, starts ``munged`` with its own key and socket there, then
``slurmctld`` and ``slurmd`` in the foreground on free ports, each a child of the calling thread bound to it through
:mod:`brainscore_core.children` (so they stop with the caller, even after ``kill -9``); it waits until the node takes jobs,
and on exit cancels every job, waits for the jobs to end, stops the daemons and removes the folder. Clients find the
cluster through ``SLURM_CONF`` (the caller exports :attr:`LocalSlurm.conf`; ``sbatch``, ``squeue``, ``scancel`` and
dask-jobqueue read it).

Needs root (``slurmd`` starts jobs as their user) and the Debian packages: ``apt-get install -y slurm-wlm munge``.
:func:`slurm_missing` says in one line why a cluster cannot start here (a test's fixture turns it into a skip).
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

__all__ = ["INSTALL", "LocalSlurm", "local_slurm", "slurm_missing"]

INSTALL = "apt-get install -y slurm-wlm munge (as root)"
_DAEMONS = {"munged": "/usr/sbin/munged", "slurmctld": "/usr/sbin/slurmctld", "slurmd": "/usr/sbin/slurmd"}
_CLIENTS = ("sbatch", "squeue", "scancel", "sinfo", "scontrol")
_START_TIMEOUT_S = 60
_STOP_TIMEOUT_S = 30

# Run by brainio's child script (bound to the caller): replace this process by the daemon, which keeps the
# parent-death signal across exec (the daemons are not set-user-id programs).
_EXEC = "import os, sys; os.execv(sys.argv[1], sys.argv[1:])"


@dataclass(frozen=True)
class LocalSlurm:
    """A running one-node cluster: its configuration file (export it as ``SLURM_CONF``), partition, node size."""

    conf: Path
    partition: str
    node: str
    cpus: int
    memory_mb: int

    def environment(self) -> dict[str, str]:
        """The variables a client process needs to reach this cluster."""
        return {"SLURM_CONF": str(self.conf)}


def slurm_missing() -> str | None:
    """Why no local cluster can start here (one line with the remedy), or None when one can."""
    missing = [name for name, path in _DAEMONS.items() if not os.access(path, os.X_OK)]
    missing += [name for name in _CLIENTS if shutil.which(name) is None]
    if missing:
        return f"Slurm is not installed here (missing {', '.join(missing)}): {INSTALL}"
    if os.geteuid() != 0:
        return "a local Slurm cluster needs root (slurmd starts each job as its user)"
    return None


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _write_conf(folder: Path, node: str, cpus: int, memory_mb: int, partition: str) -> Path:
    conf = folder / "slurm.conf"
    lines = [
        "ClusterName=brainscore-local", f"SlurmctldHost={node}", f"SlurmctldPort={_free_port()}",
        f"SlurmdPort={_free_port()}", "AuthType=auth/munge", f"AuthInfo=socket={folder / 'munge.socket'}",
        "CredType=cred/munge", "ProctrackType=proctrack/linuxproc", "TaskPlugin=task/none",
        "SelectType=select/cons_tres", "SelectTypeParameters=CR_Core_Memory", "SlurmUser=root", "ReturnToService=2",
        "JobAcctGatherType=jobacct_gather/none", "PropagateResourceLimits=NONE", "MinJobAge=600",
        "SchedulerType=sched/backfill", "SchedulerParameters=sched_interval=2", "KillWait=5",
        f"StateSaveLocation={folder / 'state'}", f"SlurmdSpoolDir={folder / 'spool'}",
        f"SlurmctldPidFile={folder / 'slurmctld.pid'}", f"SlurmdPidFile={folder / 'slurmd.pid'}",
        f"SlurmctldLogFile={folder / 'slurmctld.log'}", f"SlurmdLogFile={folder / 'slurmd.log'}",
        f"NodeName={node} CPUs={cpus} RealMemory={memory_mb} State=UNKNOWN",
        f"PartitionName={partition} Nodes={node} Default=YES MaxTime=INFINITE State=UP",
    ]
    conf.write_text("\n".join(lines) + "\n")
    return conf


def _start_daemon(name: str, arguments: list[str], folder: Path) -> subprocess.Popen:
    from brainscore_core.children import start_child

    with open(folder / f"{name}.out", "wb") as output:  # no CPU bound: jobs would inherit it
        return start_child(["-c", _EXEC, _DAEMONS[name], *arguments], cpu_seconds=None, cwd=folder,
                           stdout=output, stderr=subprocess.STDOUT)


def _client(command: list[str], conf: Path, timeout: float = 10) -> subprocess.CompletedProcess:
    from brainscore_core.config import child_environment

    return subprocess.run(command, env=child_environment(SLURM_CONF=str(conf)), capture_output=True, text=True,
                          timeout=timeout, check=False)


def _log_tail(folder: Path) -> str:
    tails = []
    for name in ("munged.out", "slurmctld.log", "slurmd.log"):
        path = folder / name
        if path.is_file():
            tails.append(f"{name}: {path.read_text(errors='replace')[-600:]}")
    return " | ".join(tails)


def _wait_until_ready(conf: Path, node: str, processes: dict[str, subprocess.Popen], folder: Path) -> None:
    deadline = time.monotonic() + _START_TIMEOUT_S
    while True:
        ended = [name for name, process in processes.items() if process.poll() is not None]
        if ended:
            raise RuntimeError(f"the local Slurm daemon(s) {ended} ended at start: {_log_tail(folder)}")
        state = _client(["sinfo", "-h", "-n", node, "-o", "%t"], conf).stdout.strip()
        if state in ("idle", "mix", "alloc"):
            return
        if time.monotonic() > deadline:
            raise RuntimeError(f"the local Slurm node {node} is {state or 'unknown'!r} after {_START_TIMEOUT_S} s: "
                               f"{_log_tail(folder)}")
        time.sleep(0.3)


def _cancel_every_job(conf: Path) -> None:
    """Cancel every job of the cluster and wait (bounded) until none is left, so that no worker outlives it."""
    with contextlib.suppress(OSError, subprocess.TimeoutExpired):
        _client(["scancel", "--quiet", "--user", "root"], conf)
        deadline = time.monotonic() + _STOP_TIMEOUT_S
        while time.monotonic() < deadline and _client(["squeue", "-h", "-o", "%i"], conf).stdout.strip():
            time.sleep(0.5)


def _stop(process: subprocess.Popen) -> None:
    if process.poll() is None:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(_STOP_TIMEOUT_S)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


@contextlib.contextmanager
def local_slurm(*, cpus: int = 2, memory_mb: int = 4096, partition: str = "debug") -> Iterator[LocalSlurm]:
    """Start a one-node Slurm cluster (see the module docstring); yield it; stop it and remove its folder.

    Parameters
    ----------
    cpus : int, default=2
        CPUs of the node (each job takes at least one).
    memory_mb : int, default=4096
        Memory of the node in MB: jobs asking for more wait forever, so keep the tests' jobs below it (a shared
        machine).
    partition : str, default='debug'
        The only partition, the default one.

    Raises
    ------
    RuntimeError
        Slurm cannot start here (:func:`slurm_missing`'s reason) or a daemon failed (with the ends of its logs).
    """
    missing = slurm_missing()
    if missing:
        raise RuntimeError(missing)
    folder = Path(tempfile.mkdtemp(prefix="brainscore-slurm-"))
    processes: dict[str, subprocess.Popen] = {}
    node = socket.gethostname().split(".")[0]
    try:
        folder.chmod(0o755)  # munged wants its socket reachable; the key itself is private
        (folder / "state").mkdir()
        (folder / "spool").mkdir()
        key = folder / "munge.key"
        key.write_bytes(os.urandom(1024))
        key.chmod(0o400)
        conf = _write_conf(folder, node, cpus, memory_mb, partition)
        processes["munged"] = _start_daemon("munged", [
            "-F", "-f", f"--key-file={key}", f"--socket={folder / 'munge.socket'}",
            f"--log-file={folder / 'munged.log'}", f"--pid-file={folder / 'munged.pid'}",
            f"--seed-file={folder / 'munged.seed'}"], folder)
        for _ in range(100):  # the daemons authenticate through munge: its socket first
            if (folder / "munge.socket").exists():
                break
            time.sleep(0.05)
        processes["slurmctld"] = _start_daemon("slurmctld", ["-D", "-c", "-f", str(conf)], folder)
        processes["slurmd"] = _start_daemon("slurmd", ["-D", "-f", str(conf)], folder)
        _wait_until_ready(conf, node, processes, folder)
        yield LocalSlurm(conf, partition, node, cpus, memory_mb)
    finally:
        if "slurmctld" in processes:
            _cancel_every_job(folder / "slurm.conf")
        for name in ("slurmd", "slurmctld", "munged"):
            if name in processes:
                _stop(processes[name])
        shutil.rmtree(folder, ignore_errors=True)
