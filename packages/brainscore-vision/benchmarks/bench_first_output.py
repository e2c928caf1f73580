"""Time to the first line of every ``brainscore`` command, and the import time of each package.

Each figure is the median of ``BENCH_REPEATS`` (default 5) fresh processes, timed from start to the first byte on
stdout or stderr (or to the end, for ``python -c 'import X'``), next to the baseline measured in the same run the
same way: a bare interpreter (``python -c pass``). The target is a first line within 2 s. For each package the
script also lists the heavy modules its import brings in (torch, xarray, pandas, scipy, scikit-learn, dask,
SQLAlchemy, matplotlib) and its own cumulative time from ``python -X importtime``.

Run: ``python packages/brainscore-vision/benchmarks/bench_first_output.py`` (needs the five packages installed and
``$BRAINSCORE_RAW_DATA`` for the scoring commands). Caches and the results store go to a temporary home. With
``BENCH_BASELINE_SRC=DIR`` (a copy of another revision, e.g. ``git archive e1cb118 | tar -x -C DIR``) every command
is also timed with that revision's sources first on ``PYTHONPATH`` (same installed entry points), in the same run.
"""

from __future__ import annotations

import atexit
import os
import selectors
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPEATS = int(os.environ.get("BENCH_REPEATS", "5"))
PACKAGES = ("brainio", "brainscore_core", "brainscore_metrics", "brainscore_vision", "model_tools")
HEAVY = ("torch", "xarray", "pandas", "scipy", "sklearn", "dask", "sqlalchemy", "matplotlib")


def first_output(argv: list[str], env: dict[str, str]) -> tuple[float, float]:
    """(seconds to the first byte on stdout or stderr, seconds to the end) of one fresh process."""
    start = time.perf_counter()
    process = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL,
                               env=env)
    selector = selectors.DefaultSelector()
    for stream in (process.stdout, process.stderr):
        selector.register(stream, selectors.EVENT_READ)
    first, open_streams = None, 2
    while open_streams:
        for key, _ in selector.select():
            data = os.read(key.fileobj.fileno(), 65536)
            if not data:
                selector.unregister(key.fileobj)
                open_streams -= 1
            elif first is None:
                first = time.perf_counter() - start
    process.wait()
    end = time.perf_counter() - start
    return (first if first is not None else end), end


def median_of(argv: list[str], env: dict[str, str]) -> tuple[float, float]:
    runs = [first_output(argv, env) for _ in range(REPEATS)]
    return statistics.median(r[0] for r in runs), statistics.median(r[1] for r in runs)


def heavy_modules(package: str, env: dict[str, str]) -> str:
    code = f"import sys, {package}; print(','.join(m for m in {HEAVY!r} if m in sys.modules))"
    found = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True)
    return found.stdout.strip() or "none"


def importtime_ms(package: str, env: dict[str, str]) -> float:
    """The package's cumulative import time (ms) as ``python -X importtime`` reports it (median)."""
    values = []
    for _ in range(REPEATS):
        report = subprocess.run([sys.executable, "-X", "importtime", "-c", f"import {package}"], capture_output=True,
                                text=True, env=env, check=True).stderr
        line = next(line for line in reversed(report.splitlines()) if line.rstrip().endswith(f"| {package}"))
        values.append(int(line.split("|")[1]) / 1000)
    return statistics.median(values)


def main() -> None:
    home = Path(tempfile.mkdtemp(prefix="bench-first-output-"))
    atexit.register(shutil.rmtree, home, ignore_errors=True)  # scratch runs to GBs
    env = {**os.environ, "BRAINSCORE_HOME": str(home / "home"), "BRAINIO_HOME": str(home / "brainio"),
           "BRAINSCORE_PROGRESS": "0"}
    brainscore = [sys.executable, "-m", "brainscore_vision.cli"]
    with socket.socket() as probe:  # a port nothing listens on
        probe.bind(("127.0.0.1", 0))
        closed = probe.getsockname()[1]
    subprocess.run([*brainscore, "score", "--model", "pixels", "--benchmark", "Kiani2007.mIT-rdm"], env=env,
                   capture_output=True, check=False)  # packages the data once: later runs measure start-up only
    base_first, _ = median_of([sys.executable, "-c", "print()"], env)
    print(f"bench_first_output: median of {REPEATS} fresh processes; baseline = bare interpreter printing one line "
          f"= {base_first:.3f} s (load average {os.getloadavg()[0]:.1f})")
    print(f"{'package':20s} {'import':>8s} {'x base':>7s} {'-X importtime':>14s}  heavy modules imported")
    for package in PACKAGES:
        _, whole = median_of([sys.executable, "-c", f"import {package}"], env)
        print(f"{package:20s} {whole:7.3f}s {whole / base_first:6.1f}x {importtime_ms(package, env):11.0f} ms  "
              f"{heavy_modules(package, env)}")
    commands = {
        "brainscore --help": ["--help"],
        "brainscore list models": ["list", "models"],
        "brainscore list benchmarks": ["list", "benchmarks"],
        "brainscore results list": ["results", "list"],
        "brainscore cache": ["cache"],
        "brainscore score --dry-run (alexnet x Kiani2007)": ["score", "--model", "alexnet", "--benchmark",
                                                               "Kiani2007.mIT-rdm", "--dry-run"],
        "brainscore score (pixels x Kiani2007)": ["score", "--model", "pixels", "--benchmark", "Kiani2007.mIT-rdm",
                                                  "--rescore"],
        f"brainscore score --scheduler tcp://127.0.0.1:{closed}": ["score", "--model", "pixels", "--benchmark",
                                                                   "Kiani2007.mIT-rdm", "--scheduler",
                                                                   f"tcp://127.0.0.1:{closed}"],
    }
    other = os.environ.get("BENCH_BASELINE_SRC")
    other_env = None
    if other:
        sources = [str(path) for path in sorted(Path(other).glob("packages/*/src"))]
        other_env = {**env, "PYTHONPATH": os.pathsep.join(sources + [env.get("PYTHONPATH", "")]).rstrip(os.pathsep)}
    print(f"{'command':58s} {'first line':>10s} {'x base':>7s} {'whole run':>10s}"
          + (f" {'revision at BENCH_BASELINE_SRC: first line, whole run':>40s}" if other_env else ""))
    for label, arguments in commands.items():
        first, whole = median_of([*brainscore, *arguments], env)
        line = f"{label:58s} {first:9.3f}s {first / base_first:6.1f}x {whole:9.3f}s"
        if other_env is not None:
            before_first, before_whole = median_of([*brainscore, *arguments], other_env)
            line += f"   {before_first:9.3f}s ({before_first / first:.1f}x ours) {before_whole:9.3f}s"
        print(line)


if __name__ == "__main__":
    main()
