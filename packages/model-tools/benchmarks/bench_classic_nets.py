"""Extraction throughput of the classic networks (plain torch, random weights) against their bare forward pass.

For each of AlexNet, VGG-16, ResNet-18, ResNet-50, CORnet-Z and CORnet-S, on the 640 Cowley 2023 images of
session 210325 (224 px, ImageNet normalisation), measured in one run:

* bare forward: the network alone on the pre-decoded, preprocessed images in batches of 64 (no hooks, no I/O);
* extraction: ``ActivationsExtractor`` from the image files, recording the model's committed IT layer, cache off
  (decoding, forward with hooks, the assembly).

Prints images/s of both and their ratio (the cost of the extraction machinery on top of the network). Set
``BENCH_IMAGES`` to use fewer images (default 640). No GPU here: CUDA figures need a machine with one.
"""

from __future__ import annotations

import os
import time
from pathlib import Path


def _images(count: int) -> list[str]:
    raw = Path(os.environ.get("BRAINSCORE_RAW_DATA", Path(__file__).resolve().parents[3] / ".." / "shared" / "data"))
    folder = raw / "cowley2023_v4" / "images"
    files = sorted(str(path) for path in folder.rglob("*") if path.suffix.lower() in (".png", ".jpg", ".jpeg"))
    if len(files) < count:
        raise SystemExit(f"need {count} Cowley images under {folder} (set BRAINSCORE_RAW_DATA)")
    return files[:count]


def main() -> None:
    import torch

    from model_tools.activations import ActivationsExtractor, ImagePreprocessing
    from model_tools.zoo.classic_models import SPECS, build_module

    count = int(os.environ.get("BENCH_IMAGES", "640"))
    files = _images(count)
    preprocessing = ImagePreprocessing(224)
    inputs = preprocessing(files[:64])  # one decoded, normalised batch of 64, reused for the bare forward pass
    print(f"{count} Cowley images, 224 px, CPU ({torch.get_num_threads()} threads), random weights")
    print(f"{'network':10s} {'bare img/s':>11s} {'extract img/s':>14s} {'extract/bare':>13s}")
    for name, spec in SPECS.items():
        module = build_module(name, pretrained=False)
        with torch.no_grad():
            module(inputs[:8])  # warm-up: first-call allocations and kernel selection are not timed
        start = time.perf_counter()
        with torch.no_grad():
            for _ in range(0, count, 64):
                module(inputs)
        bare = count / (time.perf_counter() - start)
        extractor = ActivationsExtractor(module, f"bench-{name}", preprocessing, cache=False, progress=False)
        start = time.perf_counter()
        extractor(files, [spec.region_layer_map["IT"]])
        extraction = count / (time.perf_counter() - start)
        print(f"{name:10s} {bare:11.1f} {extraction:14.1f} {extraction / bare:12.2f}x")


if __name__ == "__main__":
    main()
