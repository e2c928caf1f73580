"""End-to-end time of scoring ``randomnet`` on ``Cowley2023.V4-pls``, with cold and with warm caches.

Each measurement runs in a fresh process whose ``BRAINSCORE_HOME`` / ``BRAINIO_HOME`` /
``RESULTCACHING_HOME`` point into one temporary folder:

* **cold**: empty caches: packages the raw recordings into the store, places the stimuli, extracts the
  activations, computes the ceiling and the metric;
* **warm**: the same call again in a new process (packaged data, ceiling and activations come from disk;
  the metric is recomputed).

Printed as seconds and as ratios to a **baseline** measured in the same run: reading the raw inputs
the score needs (the 640 JPEGs decoded with PIL and the trial array with numpy), i.e. the I/O floor.

Run: ``python packages/brainscore-vision/benchmarks/bench_scoring.py`` (needs model-tools for ``randomnet``
and the raw data under ``$BRAINSCORE_RAW_DATA``, default ``<repo>/../shared/data``).
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
import time
from pathlib import Path

from brainscore_core.children import run_child

MODEL, BENCHMARK = "randomnet", "Cowley2023.V4-pls"
RAW = Path(os.environ.get("BRAINSCORE_RAW_DATA", Path(__file__).resolve().parents[3].parent / "shared" / "data"))


def one_run() -> None:
    """Child process: time the phases of one score and print them as JSON."""
    times = {}
    start = time.perf_counter()
    import brainscore_vision

    benchmark = brainscore_vision.load_benchmark(BENCHMARK)
    model = brainscore_vision.load_model(MODEL)
    times["load"] = time.perf_counter() - start
    phase = time.perf_counter()
    benchmark.assembly  # noqa: B018 - packaging (cold) or store load (warm)
    times["data"] = time.perf_counter() - phase
    phase = time.perf_counter()
    benchmark.ceiling  # noqa: B018
    times["ceiling"] = time.perf_counter() - phase
    phase = time.perf_counter()
    score = benchmark(model)
    times["score"] = time.perf_counter() - phase
    times["total"] = time.perf_counter() - start
    times["value"] = float(score)
    print(json.dumps(times))


def baseline() -> float:
    import numpy as np
    from PIL import Image

    start = time.perf_counter()
    folder = RAW / "cowley2023_v4"
    for path in sorted((folder / "images" / "210325").glob("*.jpg")):
        with Image.open(path) as image:
            np.asarray(image.convert("RGB"))
    np.load(folder / "responses_raw_210325.npy")
    return time.perf_counter() - start


def main() -> None:
    if not (RAW / "cowley2023_v4").is_dir():
        print(f"bench_scoring: raw data not found at {RAW} (set BRAINSCORE_RAW_DATA); skipped")
        return
    floor = min(baseline() for _ in range(3))
    with tempfile.TemporaryDirectory() as home:
        env = dict(os.environ, BRAINSCORE_RAW_DATA=str(RAW))
        for name in ("BRAINSCORE_HOME", "BRAINIO_HOME", "RESULTCACHING_HOME"):
            env[name] = str(Path(home) / name.lower())
        runs = {}
        for label in ("cold", "warm"):
            completed = run_child([__file__, "--one-run"], timeout=3600, env=env, capture_output=True, text=True,
                                  check=True)  # dies with this script
            runs[label] = json.loads(completed.stdout.strip().splitlines()[-1])
    print(f"bench_scoring: {MODEL} on {BENCHMARK} (score {runs['cold']['value']:.4f}); "
          f"baseline = decode 640 JPEGs + load trials = {floor:.3f} s")
    print(f"{'':6}{'total':>9}{'x base':>9}{'data':>8}{'ceiling':>9}{'score':>8}")
    for label, t in runs.items():
        print(f"{label:6}{t['total']:8.2f}s{t['total'] / floor:8.1f}x{t['data']:7.2f}s{t['ceiling']:8.2f}s"
              f"{t['score']:7.2f}s")
    print(f"warm / cold = {runs['warm']['total'] / runs['cold']['total']:.2f}")


if __name__ == "__main__":
    one_run() if "--one-run" in sys.argv else main()
