"""Slurm jobs for the grid, through dask-jobqueue: one Dask worker per job, owned by the grid that starts them.

:class:`SlurmJobs` checks the scheduler first (``sinfo`` answers, the partition exists and is up: one line and
:class:`~brainscore_core.errors.ClusterUnavailableError` in seconds otherwise), then starts ``jobs`` jobs with
dask-jobqueue's ``SLURMCluster`` (the scheduler runs in this process). Each job runs one worker with one thread and the
job's memory as the worker's memory limit, so the grid's preflight (:mod:`brainscore_core.memory_plan`) checks each
pair against what its job has, and Dask's nanny restarts a worker that goes above it. A worker's death cancels its
pair at once (the scheduler's ``allowed-failures`` is 0 here): the grid asks why it died and runs it again
(:mod:`brainscore_core.grid_deaths`). :meth:`SlurmJobs.close` cancels every job the grid submitted and waits until
``squeue`` shows none of them.

Options, first match wins: the arguments (the command line's flags), the ``[cluster.slurm]`` table of the settings
file (:func:`brainscore_core.config.settings_path`), dask-jobqueue's own configuration::

    [cluster.slurm]
    partition = "gpu"                                # Slurm's default partition when absent
    account = "mylab"
    walltime = "04:00:00"                           # the partition's default time limit when absent
    memory = "32GB"                                  # per job; absent: from the memory plan
    cores = 4                                        # CPUs per job (one worker thread uses them), default 1
    job_extra_directives = ["--gres=gpu:1"]          # more #SBATCH lines
    job_script_prologue = ["module load cuda"]       # lines run before the worker starts
    log_directory = "/scratch/me/brainscore-logs"     # default $BRAINSCORE_HOME/slurm-logs
    scheduler_host = "10.0.0.5"                      # where jobs reach the scheduler (default: dask-jobqueue's)
    interface = "ib0"                                # or a network interface (dask-jobqueue's option)

Needs the ``slurm`` extra (``dask-jobqueue``) and Slurm's commands on ``PATH``.
"""

from __future__ import annotations

import contextlib
import re
import shlex
import shutil
import subprocess
import sys
import time
import uuid
from collections.abc import Mapping
from typing import Any

from brainscore_core.errors import ClusterUnavailableError, SettingsError
from brainscore_core.failure_kinds import slurm_state_kind
from brainscore_core.memory_plan import format_bytes, parse_size

__all__ = ["COMMAND_TIMEOUT_S", "SLURM_KEYS", "SlurmJobs", "check_slurm", "slurm_settings"]

COMMAND_TIMEOUT_S = 10.0
"""Seconds a Slurm command may take before the controller counts as not answering."""
SLURM_KEYS: dict[str, type] = {"partition": str, "account": str, "walltime": str, "memory": str, "cores": int,
                               "job_extra_directives": list, "job_script_prologue": list, "log_directory": str,
                               "scheduler_host": str, "interface": str}
INSTALL = "pip install -c constraints.txt './packages/brainscore-core[slurm]' (from the repository root)"
_CLOSE_TIMEOUT_S = 60.0


def _checked(options: Mapping[str, Any], where: str) -> dict[str, Any]:
    checked = {}
    for key, value in options.items():
        kind = SLURM_KEYS.get(key)
        if kind is None:
            raise SettingsError(f"{where} has no key {key!r}; known: {', '.join(SLURM_KEYS)}")
        if key == "memory" and isinstance(value, int) and not isinstance(value, bool):
            checked[key] = value  # bytes
            continue
        if not isinstance(value, kind) or (kind is list and not all(isinstance(item, str) for item in value)):
            wanted = "a list of strings" if kind is list else f"a {kind.__name__}"
            raise SettingsError(f"{where}: {key} must be {wanted}, got {value!r}")
        checked[key] = value
    if isinstance(checked.get("memory"), str):
        try:
            checked["memory"] = parse_size(checked["memory"])
        except ValueError as error:
            raise SettingsError(f"{where}: memory: {error}") from None
    return checked


def slurm_settings(overrides: Mapping[str, Any] | None = None, *, path: Any = None) -> dict[str, Any]:
    """The ``[cluster.slurm]`` table of the settings file, checked, with ``overrides`` (None values ignored) on top;
    ``memory`` in bytes (given as bytes or as ``'32GB'``).

    Raises
    ------
    SettingsError
        An unknown key or a value of the wrong kind; the message names the file (or the arguments), the key and the
        known keys.
    """
    from brainscore_core.config import read_settings, settings_path

    where = path if path is not None else settings_path()
    table = read_settings(where).get("cluster", {})
    table = table.get("slurm", {}) if isinstance(table, dict) else {}
    if not isinstance(table, dict):
        raise SettingsError(f"{where}: [cluster.slurm] must be a table, got {table!r}")
    given = {key: value for key, value in (overrides or {}).items() if value is not None}
    return {**_checked(table, f"{where} [cluster.slurm]"), **_checked(given, "the Slurm options given")}


def _command(arguments: list[str]) -> str:
    """Run a Slurm command; its standard output, or ClusterUnavailableError in one line."""
    if shutil.which(arguments[0]) is None:
        raise ClusterUnavailableError(f"no Slurm here: {arguments[0]!r} is not on PATH (run on a Slurm cluster's "
                                      "login node, or install Slurm)")
    try:
        done = subprocess.run(arguments, capture_output=True, text=True, timeout=COMMAND_TIMEOUT_S, check=False)
    except subprocess.TimeoutExpired:
        raise ClusterUnavailableError(f"the Slurm controller does not answer: {arguments[0]} took more than "
                                      f"{COMMAND_TIMEOUT_S:.0f} s") from None
    if done.returncode != 0:
        reason = (done.stderr or done.stdout).strip().splitlines()
        raise ClusterUnavailableError(f"{' '.join(arguments[:2])} failed: {reason[0] if reason else done.returncode}")
    return done.stdout


def check_slurm(partition: str | None = None) -> dict[str, Any]:
    """The partition the jobs go to (default: Slurm's default partition), checked in seconds:
    ``{'partition', 'memory_bytes' (the largest node's memory), 'cpus'}``.

    Raises
    ------
    ClusterUnavailableError
        No dask-jobqueue, no Slurm commands, a controller that does not answer, an unknown or down partition.
    """
    for command in ("sbatch", "sinfo"):
        if shutil.which(command) is None:
            raise ClusterUnavailableError(f"no Slurm here: {command!r} is not on PATH (run on a Slurm cluster's login "
                                          "node, or install Slurm)")
    try:
        import dask_jobqueue  # noqa: F401
    except ImportError:
        raise ClusterUnavailableError(f"--cluster slurm needs dask-jobqueue: {INSTALL}") from None
    found: dict[str, dict[str, Any]] = {}
    default = None
    for line in _command(["sinfo", "-h", "-o", "%P|%m|%c|%a"]).splitlines():
        name, memory, cpus, state = (line.split("|") + ["", "", "", ""])[:4]
        if name.endswith("*"):
            name = default = name[:-1]
        entry = found.setdefault(name, {"partition": name, "memory_bytes": 0, "cpus": 0, "up": False})
        entry["memory_bytes"] = max(entry["memory_bytes"], _megabytes(memory))
        entry["cpus"] = max(entry["cpus"], int(re.sub(r"\D", "", cpus) or 0))
        entry["up"] = entry["up"] or state.strip() == "up"
    names = ", ".join(f"{name} (default)" if name == default else name for name in found) or "none"
    chosen = partition or default
    if chosen is None:
        raise ClusterUnavailableError(f"Slurm has no default partition here; name one with --partition ({names})")
    if chosen not in found:
        raise ClusterUnavailableError(f"unknown Slurm partition {chosen!r}; partitions here: {names}")
    if not found[chosen]["up"]:
        raise ClusterUnavailableError(f"Slurm partition {chosen!r} is not up (sinfo); partitions here: {names}")
    return found[chosen]


def _megabytes(text: str) -> int:
    digits = re.match(r"\d+", text.strip())
    return int(digits.group()) * 2**20 if digits else 0


class SlurmJobs:
    """``jobs`` Slurm jobs of one Dask worker each (see the module docstring); :meth:`start` returns the client.

    Parameters
    ----------
    jobs : int
    memory_bytes : int
        Memory of each job, the worker's memory limit.
    options : mapping, optional
        :func:`slurm_settings` (partition, account, walltime, cores, ...); its ``memory`` is ignored here.
    partition : mapping, optional
        What :func:`check_slurm` said of the partition (checked again at :meth:`start`).
    """

    def __init__(self, jobs: int, memory_bytes: int, options: Mapping[str, Any] | None = None,
                 partition: Mapping[str, Any] | None = None):
        self.jobs = jobs
        self.memory_bytes = memory_bytes
        self.options = dict(options or {})
        self.client: Any = None
        self.cluster: Any = None
        self.partition: dict[str, Any] = dict(partition or {})
        self.job_name = f"brainscore-{uuid.uuid4().hex[:8]}"
        self._job_of_worker: dict[str, str] = {}

    def describe(self) -> str:
        return (f"{self.jobs} Slurm job(s) of {format_bytes(self.memory_bytes)} on partition "
                f"{self.partition.get('partition', '?')} (jobs named {self.job_name})")

    def start(self) -> Any:
        """Check Slurm, submit the jobs; the ``distributed.Client`` of their scheduler (workers join as jobs start)."""
        import dask
        from dask_jobqueue import SLURMCluster
        from distributed import Client

        self.partition = check_slurm(self.options.get("partition"))
        if self.memory_bytes > self.partition["memory_bytes"] > 0:
            raise ClusterUnavailableError(
                f"a job of {format_bytes(self.memory_bytes)} does not fit partition {self.partition['partition']!r}, "
                f"whose largest node has {format_bytes(self.partition['memory_bytes'])}")
        with dask.config.set({"distributed.scheduler.allowed-failures": 0}):
            self.cluster = SLURMCluster(**self.cluster_arguments())
        try:
            self.cluster.scale(jobs=self.jobs)
            self.client = Client(self.cluster)
        except BaseException:
            self.close()
            raise
        return self.client

    def cluster_arguments(self) -> dict[str, Any]:
        """The arguments of dask-jobqueue's ``SLURMCluster`` for these jobs (after :func:`check_slurm`).

        The worker command starts with ``exec``: the worker replaces the job's shell, so Slurm's signal and its kill
        after ``KillWait`` reach the worker and its nanny's child directly, whatever Slurm's process tracking (with
        ``proctrack/linuxproc`` a worker whose shell died first was no longer the job's and outlived it).
        """
        from brainscore_core.config import brainscore_home

        log_directory = self.options.get("log_directory") or str(brainscore_home() / "slurm-logs")
        scheduler = {"host": self.options["scheduler_host"]} if "scheduler_host" in self.options else {}
        skip = [] if self.options.get("walltime") else ["-t "]  # the partition's default time limit
        return {
            "cores": 1, "job_cpu": int(self.options.get("cores", 1)), "processes": 1,  # one thread: one pair at a time
            "memory": f"{self.memory_bytes // 2**20}MiB", "python": f"exec {shlex.quote(sys.executable)}",
            "queue": self.partition["partition"], "account": self.options.get("account"),
            "walltime": self.options.get("walltime"), "job_name": self.job_name,
            "job_extra_directives": list(self.options.get("job_extra_directives", [])),
            "job_script_prologue": list(self.options.get("job_script_prologue", [])),
            "job_directives_skip": skip, "log_directory": log_directory, "interface": self.options.get("interface"),
            "scheduler_options": scheduler}

    def _remember_jobs(self) -> None:
        for name, job in list(getattr(self.cluster, "workers", {}).items()):
            job_id = getattr(job, "job_id", None)
            if job_id:
                self._job_of_worker[str(name)] = str(job_id)

    def job_states(self) -> dict[str, str]:
        """This grid's jobs that Slurm still lists: job id -> state (``PENDING``, ``RUNNING``, ...)."""
        self._remember_jobs()
        states = {}
        with contextlib.suppress(ClusterUnavailableError):
            for line in _command(["squeue", "-h", "--name", self.job_name, "-o", "%i|%T"]).splitlines():
                job_id, _, state = line.partition("|")
                states[job_id.strip()] = state.strip()
        return states

    def counts(self) -> dict[str, int]:
        """``{'pending': n, 'running': n}`` of this grid's jobs."""
        states = list(self.job_states().values())
        running = sum(state in ("RUNNING", "COMPLETING", "CONFIGURING") for state in states)
        return {"pending": len(states) - running, "running": running}

    def death(self, worker_name: str) -> tuple[str, str] | None:
        """``(kind, reason)`` of a lost worker from its job's state (``scontrol show job``), None when unknown."""
        self._remember_jobs()
        job_id = self._job_of_worker.get(str(worker_name))
        if job_id is None:
            return None
        try:
            text = _command(["scontrol", "show", "job", "-o", job_id])
        except ClusterUnavailableError:
            return None
        match = re.search(r"\bJobState=(\w+)", text)
        reason = re.search(r"\bReason=(\S+)", text)
        if match is None or match.group(1) in ("RUNNING", "PENDING", "COMPLETING", "CONFIGURING"):
            return None
        state = match.group(1)
        why = f", reason {reason.group(1)}" if reason and reason.group(1) != "None" else ""
        return slurm_state_kind(state), f"its Slurm job {job_id} ended ({state}{why})"

    def larger(self, factor: float, jobs: int) -> tuple[SlurmJobs | None, str]:
        """New jobs with ``factor`` times the memory, or None and why the scheduler does not allow it."""
        memory = int(self.memory_bytes * factor)
        largest = self.partition.get("memory_bytes", 0)
        if largest and memory > largest:
            return None, (f"{format_bytes(memory)} per job exceeds the largest node of partition "
                          f"{self.partition.get('partition')!r} ({format_bytes(largest)})")
        return SlurmJobs(min(self.jobs, jobs), memory, self.options, self.partition), f"jobs of {format_bytes(memory)}"

    def close(self) -> None:
        """Close the client and the cluster, cancel every job of this grid, and wait until Slurm lists none."""
        self._remember_jobs()
        for closer in (self.client, self.cluster):
            if closer is not None:
                with contextlib.suppress(Exception):
                    closer.close()
        if shutil.which("scancel") is None:
            return
        deadline = time.monotonic() + _CLOSE_TIMEOUT_S
        while self.job_states() and time.monotonic() < deadline:
            with contextlib.suppress(ClusterUnavailableError):
                _command(["scancel", "--name", self.job_name])
            time.sleep(0.5)
