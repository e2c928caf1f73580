"""Extraction throughput of randomnet against its bare forward pass, and warm-cache loading.

Measured in one run on the same images:

* bare forward: the model alone on pre-decoded, preprocessed batches of 64 (no hooks, no copies, no I/O), twice:
  - with the C library's malloc as a fresh process has it (what a plain loop over the model gets), measured
    first, before any extraction has run;
  - inside ``freed_memory_reused()``, the allocator setting the extractor itself runs the model under (like for
    like: the ratio against it is the cost of the extraction machinery alone);
* extraction (cold cache): ``ActivationsExtractor`` from image files: decoding in worker threads into reused
  batch buffers, forward with hooks, rows written into a new netCDF cache entry, atomic commit, NeuroidAssembly;
* warm cache: the same call again (key computed, entry mapped, assembly built; values are read when touched);
* warm cache + read: the same call again, then every value summed once (all pages of the entry touched), what a
  consumer that reads every activation pays.

Stimuli: the 640 Cowley 2023 images of session 210325 (``$BRAINSCORE_RAW_DATA``), or 640 generated JPEGs of
the same size when the data are absent. The measurements after the first are interleaved in every repeat and
the best (minimum) time of each is reported: on a shared machine, other processes only ever add time. Each
repeat's cache entry is deleted after it, so every repeat starts from the same state. Prints images/s and the
ratios, first with torch on its default thread count, then (in a fresh process) with one core left to the
decoding and writing threads (``BENCH_TORCH_THREADS`` sets the count; ``BENCH_SECOND_RUN=0`` skips that run).
"""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import torch

from brainscore_core.children import run_child
from model_tools.activations import ActivationsExtractor, ImagePreprocessing
from model_tools.activations.allocator import freed_memory_reused
from model_tools.zoo.randomnet import build_randomnet

REPEATS = int(os.environ.get("BENCH_REPEATS", 5))
LAYER_SETS = {"V4+IT layers (block3, block4)": ["block3", "block4"],
              "every region layer (block1-4)": ["block1", "block2", "block3", "block4"]}


def stimulus_paths(scratch: Path) -> tuple[list[str], str]:
    root = Path(os.environ.get("BRAINSCORE_RAW_DATA", Path(__file__).resolve().parents[3] / ".." / "shared" / "data"))
    folder = root / "cowley2023_v4" / "images" / "210325"
    paths = sorted(str(path) for path in folder.glob("*.jpg"))
    if len(paths) == 640:
        return paths, f"640 Cowley 2023 images ({folder})"
    from PIL import Image

    rng = np.random.default_rng(0)
    paths = []
    for index in range(640):
        path = scratch / f"generated{index:03d}.jpg"
        Image.fromarray(rng.integers(0, 256, (112, 112, 3), dtype=np.uint8)).save(path, quality=90)
        paths.append(str(path))
    return paths, "640 generated 112 px JPEGs (real data absent)"


def bare_forward_seconds(model, batches) -> float:
    with torch.no_grad():
        started = time.perf_counter()
        for batch in batches:
            model(batch)
        return time.perf_counter() - started


def main() -> None:
    if os.environ.get("BENCH_TORCH_THREADS"):
        torch.set_num_threads(int(os.environ["BENCH_TORCH_THREADS"]))
    torch.manual_seed(0)
    model = build_randomnet()
    preprocessing = ImagePreprocessing(224)
    with tempfile.TemporaryDirectory() as scratch:
        paths, description = stimulus_paths(Path(scratch))
        batches = [preprocessing(paths[start:start + 64]) for start in range(0, len(paths), 64)]
        bare_forward_seconds(model, batches[:1])  # warm-up (allocator, kernels)
        print(f"model-tools extraction benchmark: randomnet at 224 px on {description}, "
              f"torch {torch.__version__}, {torch.get_num_threads()} threads, {os.cpu_count()} cores, "
              f"best of {REPEATS}, load average at start {os.getloadavg()[0]:.2f}")
        plain = min(bare_forward_seconds(model, batches) for _ in range(REPEATS))  # before anything tunes malloc
        for name, layers in LAYER_SETS.items():
            bare, cold, warm, warm_read = [], [], [], []
            for repeat in range(REPEATS):
                with freed_memory_reused() as tuned:
                    bare.append(bare_forward_seconds(model, batches))
                cache_root = Path(scratch) / f"cache-{name[:2]}-{repeat}"
                extractor = ActivationsExtractor(model, "randomnet", preprocessing, cache=True, cache_root=cache_root,
                                                 progress=False)
                started = time.perf_counter()
                extractor(paths, layers)
                cold.append(time.perf_counter() - started)
                started = time.perf_counter()
                extractor(paths, layers)
                warm.append(time.perf_counter() - started)
                started = time.perf_counter()
                float(np.add.reduce(extractor(paths, layers).values, axis=None))
                warm_read.append(time.perf_counter() - started)
                shutil.rmtree(cache_root)  # every repeat starts from the same state (no page cache growth)
            bare_s, cold_s, warm_s, read_s = min(bare), min(cold), min(warm), min(warm_read)
            count = len(paths)
            print(f"\n[{name}]")
            print(f"  bare forward, fresh-process malloc      {count / plain:8.1f} images/s  ({plain:.2f} s)")
            label = "extractor's malloc" if tuned else "extractor's malloc (n/a)"
            print(f"  bare forward, {label:<26}{count / bare_s:8.1f} images/s"
                  f"  ({bare_s:.2f} s)")
            print(f"  extraction, cold cache                  {count / cold_s:8.1f} images/s  ({cold_s:.2f} s)"
                  f"  -> {plain / cold_s:.0%} of the plain bare forward, {bare_s / cold_s:.0%} of the like-for-like"
                  f" one (target >= 85%)")
            print(f"  warm cache load                         {count / warm_s:8.1f} images/s  ({warm_s:.3f} s)"
                  f"  -> {cold_s / warm_s:.0f}x faster than extracting (target >= 50x)")
            print(f"  warm cache load + read every value      {count / read_s:8.1f} images/s  ({read_s:.3f} s)"
                  f"  -> {cold_s / read_s:.0f}x faster than extracting")
    print(f"\nload average at end (1/5/15 min): {', '.join(f'{load:.2f}' for load in os.getloadavg())}")
    sys.stdout.flush()
    cores = os.cpu_count() or 1
    if os.environ.get("BENCH_SECOND_RUN", "1") != "0" and not os.environ.get("BENCH_TORCH_THREADS") and cores > 1:
        print(f"\n--- again in a fresh process, torch on {cores - 1} of {cores} cores "
              "(one left to decoding and writing)\n")
        run_child([__file__], timeout=3600, check=True,  # dies with this script
                  env={**os.environ, "BENCH_TORCH_THREADS": str(cores - 1)})


if __name__ == "__main__":
    main()
