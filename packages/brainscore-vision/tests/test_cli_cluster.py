"""``brainscore score`` with a Dask cluster and as a dry run: a scheduler that cannot be reached, or no Slurm for
``--cluster slurm``, is one line (exit status 2); ``--workers`` shows each pair's progress from the start and shuts
down quietly; ``--dry-run`` downloads nothing, marks the pairs whose model needs weights and shows each pair's memory
estimate. The grid on a real Slurm is ``test_grid_slurm.py``."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import textwrap

import dask.base

from brainscore_vision.cli import EXIT_USAGE, main


def _closed_port() -> int:
    with socket.socket() as probe:  # bound, never listening, then closed: nothing answers there
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def test_unreachable_scheduler_is_one_line_with_exit_status_2(capsys):
    address = f"tcp://127.0.0.1:{_closed_port()}"
    status = main(["score", "--model", "pixels", "--benchmark", "Kriegeskorte2008.hIT-rdm", "--no-store",
                   "--scheduler", address])
    err = capsys.readouterr().err
    assert status == EXIT_USAGE
    problems = [line for line in err.splitlines() if line.startswith("brainscore score:")]
    assert problems == [f"brainscore score: cannot reach the Dask scheduler at {address}: connection refused within "
                        "5 s (is `dask scheduler` running there? check host and port)"]
    assert "Traceback" not in err


def test_no_slurm_here_is_one_line_with_exit_status_2_in_seconds(capsys, monkeypatch, tmp_path):
    import time

    monkeypatch.setenv("PATH", str(tmp_path))  # no sbatch, no sinfo
    start = time.perf_counter()
    status = main(["score", "--model", "pixels", "--benchmark", "Kriegeskorte2008.hIT-rdm", "--no-store",
                   "--cluster", "slurm", "--jobs", "2"])
    err = capsys.readouterr().err
    assert status == EXIT_USAGE and time.perf_counter() - start < 10
    problems = [line for line in err.splitlines() if line.startswith("brainscore score:")]
    assert problems == ["brainscore score: no Slurm here: 'sbatch' is not on PATH (run on a Slurm cluster's login "
                        "node, or install Slurm)"]


def test_slurm_flags_need_the_cluster_and_one_cluster_at_a_time(capsys):
    base = ["score", "--model", "pixels", "--benchmark", "Kriegeskorte2008.hIT-rdm", "--no-store"]
    assert main([*base, "--jobs", "2"]) == EXIT_USAGE
    assert capsys.readouterr().err.strip().endswith("--jobs needs --cluster slurm")
    assert main([*base, "--cluster", "slurm", "--workers", "2"]) == EXIT_USAGE
    assert capsys.readouterr().err.strip().endswith("give --cluster, --workers or --scheduler, not two of them")


def test_malformed_scheduler_address_is_one_line(capsys):
    for address, expected in (("tcp://127.0.0.1:notaport", "not an address of the form tcp://HOST:PORT"),
                              ("foo://somewhere:1", "unknown address scheme 'foo'")):
        status = main(["score", "--model", "pixels", "--benchmark", "Kriegeskorte2008.hIT-rdm", "--no-store",
                       "--scheduler", address])
        err = capsys.readouterr().err
        assert status == EXIT_USAGE and expected in err and "Traceback" not in err
        # the failed client is not left as this process's dask scheduler (xarray's netCDF writer would use it)
        assert dask.base.get_scheduler() is None, address


def test_a_server_speaking_another_protocol_is_one_line_not_an_allocation(capsys, monkeypatch):
    # issue 42: an SSH-like service answered with its banner, which distributed read as a frame length ("Unable to
    # allocate 3.07 EiB"); a service that waits for its client hung the command
    import contextlib
    import threading

    from distributed import LocalCluster

    import brainscore_vision._cli_cluster as cluster

    monkeypatch.setattr(cluster, "CONNECT_TIMEOUT_S", 1.0)
    servers = []

    def serve(greeting):
        server = socket.socket()
        server.bind(("127.0.0.1", 0))
        server.listen()
        servers.append(server)

        def answer():
            try:
                connection, _ = server.accept()
            except OSError:
                return
            with connection, contextlib.suppress(OSError):  # the client hangs up first
                if greeting:
                    connection.sendall(greeting)
                connection.recv(1)  # then wait for the client, as such services do

        threading.Thread(target=answer, daemon=True).start()
        return f"tcp://127.0.0.1:{server.getsockname()[1]}"

    try:
        for greeting, expected in ((b"SSH-2.0-OpenSSH_9.2\r\n", "it opened with 'SSH-2.0-', not a Dask handshake"),
                                   (b"", "it sent nothing within 1 s")):
            address = serve(greeting)
            status = main(["score", "--model", "pixels", "--benchmark", "Kriegeskorte2008.hIT-rdm", "--no-store",
                           "--scheduler", address])
            err = capsys.readouterr().err
            problems = [line for line in err.splitlines() if line.startswith("brainscore score:")]
            assert status == EXIT_USAGE and len(problems) == 1 and "Traceback" not in err
            assert problems[0].startswith(f"brainscore score: the server at {address} is not a Dask scheduler: "
                                          f"{expected}")
    finally:
        for server in servers:
            server.close()
    with LocalCluster(n_workers=0, processes=False, protocol="tcp://", dashboard_address=None,
                      host="127.0.0.1") as real:
        cluster._probe(real.scheduler_address)  # a real scheduler's handshake passes


def _run(code: str, tmp_path, **environment) -> subprocess.CompletedProcess:
    env = {**os.environ, "HOME": str(tmp_path / "home"), "TORCH_HOME": str(tmp_path / "torch"),
           "BRAINSCORE_HOME": str(tmp_path / "brainscore_home"), **environment}
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code)], env=env, capture_output=True, text=True,
                          timeout=300, check=False, cwd=tmp_path)


def test_dry_run_offline_marks_models_needing_weights_and_estimates_the_ready_ones(tmp_path, kriegeskorte_raw):
    """alexnet needs downloaded weights; offline (every connection refused) the dry run still plans it and marks it,
    without building it (no estimate) or writing a weights file. pixels is ready: built for its shapes, its memory
    estimate is shown against this process's limit."""
    result = _run("""
        import socket, sys
        def offline(*args, **kwargs):
            raise OSError("network disabled in this test")
        socket.socket.connect = offline
        socket.create_connection = offline
        from brainscore_vision.cli import main
        status = main(["score", "--model", "alexnet", "--model", "pixels", "--benchmark", "Kriegeskorte2008.hIT-rdm",
                       "--no-store", "--dry-run"])
        sys.exit(status)
    """, tmp_path)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0] == "dry run of 2 pair(s): 2 model(s) x 1 benchmark(s); nothing is downloaded or scored"
    assert lines[1].startswith("memory preflight: each pair's estimated peak against ") and "this process" in lines[1]
    alexnet = next(line for line in lines if line.startswith("  alexnet on"))
    assert "model NEEDS WEIGHTS: downloaded on first use from https://download.pytorch.org/models/alexnet" in alexnet
    assert "memory" not in alexnet  # not built: no shapes
    pixels = next(line for line in lines if line.startswith("  pixels on"))
    # the 92 images; model-tools' pixels model records each image at 64 x 64 RGB: 12,288 features
    assert ": score; data [shipped]; memory estimated peak " in pixels and "(92 stimuli x 12,288 features" in pixels, pixels
    assert "REFUSED" not in pixels
    assert "1 pair(s) need something before they can run here" in result.stdout
    assert not list((tmp_path / "brainscore_home").rglob("*.pth")) and not (tmp_path / "torch").exists()


def test_workers_show_progress_from_the_start_and_shut_down_quietly(tmp_path, kriegeskorte_raw):
    result = subprocess.run([sys.executable, "-m", "brainscore_vision.cli", "score", "--model", "pixels",
                             "--benchmark", "Kriegeskorte2008.hIT-rdm", "--no-store", "--workers", "1"],
                            env={**os.environ, "BRAINSCORE_PROGRESS": "0"}, capture_output=True, text=True,
                            timeout=300, check=False, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    lines = result.stderr.splitlines()
    pair = "pixels on Kriegeskorte2008.hIT-rdm"
    assert lines[0] == "scoring 1 pair(s): 1 model(s) x 1 benchmark(s)"
    assert lines[2] == "starting a local Dask cluster of 1 worker process(es)" and lines[3].startswith("cluster ready")
    assert lines[4].startswith(f"{pair}: started on tcp://127.0.0.1:")
    assert f"{pair}: loading the benchmark" in lines and f"{pair}: scoring" in lines
    assert lines.index(f"{pair}: scoring") < next(i for i, line in enumerate(lines) if " ceiled (ok)" in line)
    for noise in ("Traceback", "still alive", "ERROR", "WARNING", "killing"):
        assert noise not in result.stderr, result.stderr
    assert result.stdout.splitlines()[2].split()[:2] == ["pixels", "Kriegeskorte2008.hIT-rdm"]
