"""The Dask cluster behind ``brainscore score --workers N`` / ``--scheduler ADDRESS`` / ``--cluster slurm --jobs N``:
opened with a line saying so, a scheduler (or Slurm, or its partition) that cannot be used as one line in seconds
(exit status 2), and a quiet shutdown (the local cluster's workers exit in time:
:mod:`brainscore_vision._dask_quick_exit`; the grid cancels its own Slurm jobs).
"""

from __future__ import annotations

import socket
import time
from collections.abc import Callable
from typing import Any
from urllib.parse import urlsplit

from brainscore_vision.errors import EXIT_USAGE, CommandError

__all__ = ["CONNECT_TIMEOUT_S", "add_cluster_arguments", "close_quietly", "open_client", "slurm_request"]

CONNECT_TIMEOUT_S = 5.0
"""Seconds to wait for a scheduler's port to answer, and again for the Dask handshake."""
DASK_INSTALL = "pip install -c constraints.txt './packages/brainscore-vision[dask]' (from the repository root)"


def add_cluster_arguments(score: Any) -> None:
    """``--cluster slurm``, ``--jobs N`` and the Slurm job options of ``brainscore score``."""
    score.add_argument("--cluster", choices=("slurm",), default=None,
                       help="run the pairs as batch jobs of this scheduler (Slurm, through dask-jobqueue), one Dask "
                            "worker per job; options also from the [cluster.slurm] table of the settings file "
                            "($BRAINSCORE_HOME/settings.toml)")
    score.add_argument("--jobs", type=int, default=None, metavar="N", help="number of Slurm jobs (default 1)")
    score.add_argument("--partition", default=None, help="Slurm partition (default: the settings file, else "
                                                         "Slurm's default partition)")
    score.add_argument("--walltime", default=None, metavar="HH:MM:SS",
                       help="time limit of each job (default: the settings file, else the partition's)")
    score.add_argument("--job-memory", default=None, metavar="SIZE",
                       help="memory of each job, e.g. 16GB (default: the settings file, else the memory plan: the "
                            "largest pair's estimate plus headroom)")


def slurm_request(args: Any) -> dict[str, Any]:
    """``score_many``'s ``cluster``, ``jobs`` and ``cluster_options`` for the command line's flags (``{}`` without
    ``--cluster``), with Slurm and its partition checked now: one line, exit status 2, in seconds."""
    if args.cluster is None:
        for flag in ("jobs", "partition", "walltime", "job_memory"):
            if getattr(args, flag) is not None:
                raise CommandError(f"--{flag.replace('_', '-')} needs --cluster slurm", EXIT_USAGE)
        return {}
    if args.workers is not None or args.scheduler is not None:
        raise CommandError("give --cluster, --workers or --scheduler, not two of them", EXIT_USAGE)
    if args.jobs is not None and args.jobs < 1:
        raise CommandError(f"--jobs {args.jobs}: give at least 1 job", EXIT_USAGE)
    from brainscore_core.errors import ClusterUnavailableError, SettingsError
    from brainscore_core.memory_plan import parse_size
    from brainscore_core.slurm_cluster import check_slurm, slurm_settings

    try:
        memory = parse_size(args.job_memory) if args.job_memory is not None else None
    except ValueError as error:
        raise CommandError(f"--job-memory: {error}", EXIT_USAGE) from None
    try:
        options = slurm_settings({"partition": args.partition, "walltime": args.walltime, "memory": memory})
        check_slurm(options.get("partition"))
    except (ClusterUnavailableError, SettingsError) as error:
        raise CommandError(str(error), EXIT_USAGE) from None
    return {"cluster": "slurm", "jobs": args.jobs or 1, "cluster_options": options}


def _host_port(address: str) -> tuple[str, int] | None:
    """``(host, port)`` of a ``tcp://host:port`` or ``host:port`` address, None for other schemes."""
    parts = urlsplit(address if "://" in address else f"tcp://{address}")
    if parts.scheme != "tcp":
        return None
    try:
        port = parts.port
    except ValueError:
        raise CommandError(f"--scheduler {address}: not an address of the form tcp://HOST:PORT", EXIT_USAGE) from None
    if not parts.hostname or port is None:
        raise CommandError(f"--scheduler {address}: not an address of the form tcp://HOST:PORT", EXIT_USAGE)
    return parts.hostname, port


def _probe(address: str) -> None:
    """Fail in seconds, in one line, when nothing listens at the scheduler's address, or when what listens there does
    not open with a Dask handshake (another protocol: its first bytes, read as a frame length, made distributed try to
    allocate 3.07 EiB; a server that waits for its client hung the command)."""
    target = _host_port(address)
    if target is None:
        return
    try:
        with socket.create_connection(target, timeout=CONNECT_TIMEOUT_S) as connection:
            opening = _first_bytes(connection, 8)
    except OSError as error:
        reason = "timed out" if isinstance(error, TimeoutError) else (error.strerror or type(error).__name__).lower()
        raise CommandError(f"cannot reach the Dask scheduler at {address}: {reason} within {CONNECT_TIMEOUT_S:.0f} s "
                           "(is `dask scheduler` running there? check host and port)", EXIT_USAGE) from None
    problem = _not_a_dask_handshake(opening)
    if problem is not None:
        raise CommandError(f"the server at {address} is not a Dask scheduler: {problem} (another service on that port? "
                           "check the port `dask scheduler` printed)", EXIT_USAGE)


def _first_bytes(connection: socket.socket, count: int) -> bytes | None:
    """The first ``count`` bytes the server sends unasked (a Dask scheduler sends its handshake at once), fewer when
    it closes; None when it sends nothing within the timeout."""
    received = b""
    try:
        while len(received) < count:
            chunk = connection.recv(count - len(received))
            if not chunk:
                break
            received += chunk
    except TimeoutError:
        return received or None
    return received


_MAX_HANDSHAKE = 64 * 2 ** 20  # a Dask handshake (comm options, versions) is a few hundred bytes


def _not_a_dask_handshake(opening: bytes | None) -> str | None:
    """Why ``opening`` (a server's first bytes) is no Dask TCP frame header (8 bytes, little-endian total length of a
    small message), else None."""
    import struct

    if opening is None:
        return f"it sent nothing within {CONNECT_TIMEOUT_S:.0f} s (a Dask scheduler sends its handshake at once)"
    if len(opening) < 8:
        return "it closed the connection without a handshake"
    (length,) = struct.unpack("<Q", opening)
    if 0 < length <= _MAX_HANDSHAKE:
        return None
    shown = opening.decode("ascii", "replace") if all(32 <= b < 127 or b in (9, 10, 13) for b in opening) else \
        opening.hex()
    return f"it opened with {shown!r}, not a Dask handshake"


def _forget_failed_client() -> None:
    """Undo what a ``Client`` that failed to connect left behind: distributed makes it this process's default
    scheduler before connecting and keeps it there, so later dask work here (xarray writing a netCDF file) would
    try its address. Closing a client that never connected returns at once and restores the dask configuration."""
    from distributed import default_client

    try:
        failed = default_client()
    except ValueError:  # none was registered
        return
    if failed.status != "running":
        failed.close(timeout=1)


def open_client(workers: int | None, scheduler: str | None, say: Callable[[str], None]) -> tuple[Any, list]:
    """The Dask client of ``--workers`` / ``--scheduler`` (None, [] for neither) and what to close afterwards."""
    if workers is None and scheduler is None:
        return None, []
    if workers is not None and scheduler is not None:
        raise CommandError("give --workers or --scheduler, not both", EXIT_USAGE)
    if workers is not None and workers < 1:
        raise CommandError(f"--workers {workers}: give at least 1 worker", EXIT_USAGE)
    try:
        from distributed import Client
    except ImportError:
        raise CommandError(f"--workers / --scheduler need Dask: {DASK_INSTALL}", EXIT_USAGE) from None
    start = time.perf_counter()
    if scheduler is not None:
        say(f"connecting to the Dask scheduler at {scheduler}")
        _probe(scheduler)
        try:
            client = Client(scheduler, timeout=f"{CONNECT_TIMEOUT_S}s")
        except Exception as error:  # an unknown scheme, a port that is not a scheduler, a refused handshake
            _forget_failed_client()
            first = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
            raise CommandError(f"cannot use the Dask scheduler at {scheduler}: {first}", EXIT_USAGE) from None
        count = len(client.scheduler_info().get("workers", {}))
        say(f"connected in {time.perf_counter() - start:.1f} s; {count} worker(s)")
        return client, [client]
    say(f"starting a local Dask cluster of {workers} worker process(es)")
    from brainscore_core.local_cluster import start_local_cluster

    client, cluster = start_local_cluster(workers)  # workers die with this process, CPU time bounded
    from brainscore_vision._dask_quick_exit import QuickExit

    client.register_plugin(QuickExit())
    say(f"cluster ready in {time.perf_counter() - start:.1f} s")
    return client, [client, cluster]


def close_quietly(closers: list) -> None:
    """Close the client, then the local cluster it ran on (workers exit without being killed, see QuickExit)."""
    for closer in closers:
        closer.close()
