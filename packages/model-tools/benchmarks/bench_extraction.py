"""Extraction throughput of randomnet against its bare forward pass, and warm-cache loading.

Measured in one run on the same images:

* bare forward: the model alone on pre-decoded, preprocessed batches of 64 (no hooks, no copies, no I/O);
* extraction (cold cache): ``ActivationsExtractor`` from image files: decoding in worker threads, forward with
  hooks, copies into preallocated file-backed arrays, atomic cache commit, NeuroidAssembly;
* warm cache: the same call again (key computed, entry mapped, assembly built; values are read when touched);
* warm cache + read: the same call again, then every value summed once (all pages of the entry touched), what a
  consumer that reads every activation pays.

Stimuli: the 640 Cowley 2023 images of session 210325 (``$BRAINSCORE_RAW_DATA``), or 640 generated JPEGs of
the same size when the data are absent. The three measurements are interleaved in every repeat and the best
(minimum) time of each is reported: on a shared machine, other processes only ever add time. Prints images/s
and the ratios.
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import torch

from model_tools.activations import ActivationsExtractor, ImagePreprocessing
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
        for name, layers in LAYER_SETS.items():
            bare, cold, warm, warm_read = [], [], [], []
            for repeat in range(REPEATS):
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
            bare_s, cold_s, warm_s, read_s = min(bare), min(cold), min(warm), min(warm_read)
            count = len(paths)
            print(f"\n[{name}]")
            print(f"  bare forward (pre-decoded batches)  {count / bare_s:8.1f} images/s  ({bare_s:.2f} s)")
            print(f"  extraction, cold cache              {count / cold_s:8.1f} images/s  ({cold_s:.2f} s)"
                  f"  -> {bare_s / cold_s:.0%} of bare forward (target >= 85%)")
            print(f"  warm cache load                     {count / warm_s:8.1f} images/s  ({warm_s:.3f} s)"
                  f"  -> {cold_s / warm_s:.0f}x faster than extracting (target >= 50x)")
            print(f"  warm cache load + read every value  {count / read_s:8.1f} images/s  ({read_s:.3f} s)"
                  f"  -> {cold_s / read_s:.0f}x faster than extracting")
    print(f"\nload average at end (1/5/15 min): {', '.join(f'{load:.2f}' for load in os.getloadavg())}")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
