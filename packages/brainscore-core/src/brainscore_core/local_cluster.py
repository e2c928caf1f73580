"""A Dask cluster of worker processes on this machine whose workers die with their caller.

Dask's own link between a worker process and its caller is a pipe watched by a thread of the worker; a worker busy
in C code that holds the GIL (a damaged HDF5 file, a regular expression that backtracks forever) never lets that
thread run, and outlives a caller killed by Slurm or ``kill -9`` at 100 % of a core. :func:`start_local_cluster`
binds every worker process, as soon as it starts (and again after a restart), through
:func:`brainscore_core.children.bind_to_parent`: the parent-death signal, a CPU-time bound and a watchdog thread.

Needs the ``dask`` extra (``distributed``) to start a cluster; the module imports without it.
"""

from __future__ import annotations

import math
import os
from typing import Any

try:
    from distributed import WorkerPlugin
except ImportError:  # without the dask extra the module imports; start_local_cluster then says what is missing
    WorkerPlugin = object  # type: ignore[assignment,misc]

__all__ = ["BindWorkerToCaller", "default_worker_cpu_seconds", "start_local_cluster"]


def default_worker_cpu_seconds() -> float:
    """A day of every core of this machine: a bound no scoring task reaches (a worker over it is restarted by its
    nanny and its task retried), and that still stops an orphan."""
    return 24 * 3600.0 * (os.cpu_count() or 1)


class BindWorkerToCaller(WorkerPlugin):
    """Dask worker plugin: binds the worker's process to the process that started it (see the module docstring).

    Parameters
    ----------
    caller_pid : int
        The process that starts the workers (the one holding the ``LocalCluster``). A worker whose parent is
        another process (a remote or separately started worker) is left alone.
    cpu_seconds : float, optional
        CPU time each worker process may use, default=None meaning no bound.
    """

    name = "brainscore-bind-worker-to-caller"

    def __init__(self, caller_pid: int, cpu_seconds: float | None = None):
        self.caller_pid = caller_pid
        self.cpu_seconds = cpu_seconds

    def setup(self, worker: Any) -> None:
        if os.getppid() != self.caller_pid:
            return  # not a child of the caller: never bind (nor exit) a process we did not start
        from brainscore_core.children import bind_to_parent

        bind_to_parent(self.caller_pid, self.cpu_seconds)

    def teardown(self, worker: Any) -> None:
        return None


def start_local_cluster(n_workers: int, *, worker_cpu_seconds: float | None = None,
                        **cluster_kwargs: Any) -> tuple[Any, Any]:
    """Start ``n_workers`` worker processes on 127.0.0.1 (one thread each) and a client, workers bound to this
    process. The scheduler's ``allowed-failures`` is 0: a task whose worker dies fails at once (``KilledWorker``), and
    the grid decides what to do with its pair.

    Parameters
    ----------
    n_workers : int
    worker_cpu_seconds : float, optional
        CPU-time bound of each worker process, default=None meaning :func:`default_worker_cpu_seconds`;
        ``math.inf`` for no bound.
    **cluster_kwargs
        Passed to ``distributed.LocalCluster`` (defaults: ``threads_per_worker=1``, ``processes=True``,
        ``dashboard_address=None``, ``host='127.0.0.1'``).

    Returns
    -------
    (distributed.Client, distributed.LocalCluster)
        Close both (client first) when done.
    """
    from distributed import Client, LocalCluster

    if worker_cpu_seconds is None:
        worker_cpu_seconds = default_worker_cpu_seconds()
    bound = None if math.isinf(worker_cpu_seconds) else float(worker_cpu_seconds)
    options = {"threads_per_worker": 1, "processes": True, "dashboard_address": None, "host": "127.0.0.1",
               **cluster_kwargs}
    import dask

    # a worker's death fails its task at once: the grid asks why it died (its memory or not) and runs it again
    # itself (brainscore_core.grid_dask), instead of Dask trying it on up to three more workers
    with dask.config.set({"distributed.scheduler.allowed-failures": 0}):
        cluster = LocalCluster(n_workers=n_workers, **options)
    try:
        client = Client(cluster)
        client.register_plugin(BindWorkerToCaller(os.getpid(), bound))
    except BaseException:
        cluster.close()
        raise
    return client, cluster

