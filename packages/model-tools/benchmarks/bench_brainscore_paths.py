"""What wrapping a model through Brain-Score's paths costs, against wrapping it through model_tools directly.

The same network (randomnet's architecture, seed 0, 224 px) on the same images, recorded from one layer through a
ModelCommitment, built three ways:

* direct: ``model_tools.activations.ActivationsExtractor(model, id, ImagePreprocessing(224))`` +
  ``model_tools.brain_transformation.ModelCommitment``;
* Brain-Score paths: ``brainscore_vision.model_helpers.activations.pytorch.PytorchWrapper(model,
  functools.partial(load_preprocess_images, image_size=224))`` + ``...brain_transformation.ModelCommitment``, as a
  Brain-Score plugin writes it (the same extraction path: the partial becomes the threaded preprocessing);
* Brain-Score's ``ActivationsExtractorHelper`` with a ``get_activations`` that hooks the same network per batch (a
  different path: the function runs inside :class:`~model_tools.activations.function_model.FunctionModel`).

Each is timed with the activations cache off (a full extraction) and, for the first two, with a warm cache (the
cache entry loaded); every timing is the median of ``BENCH_CALLS`` calls (default 5), the variants interleaved in
every round so that a busy machine slows them alike. Prints seconds and the ratios to the direct wrapping.
Stimuli: the first ``BENCH_IMAGES`` (default 256) Cowley 2023 images of session 210325, or generated JPEGs.
"""

from __future__ import annotations

import functools
import os
import statistics
import sys
import tempfile
import time
from collections import OrderedDict
from pathlib import Path

import numpy as np
import torch

sys.path.insert(0, str(Path(__file__).parent))
from bench_extraction import stimulus_paths  # the same images as the extraction benchmark

from model_tools.zoo.randomnet import build_randomnet

os.environ.setdefault("BRAINSCORE_PROGRESS", "0")
CALLS = int(os.environ.get("BENCH_CALLS", 5))
IMAGES = int(os.environ.get("BENCH_IMAGES", 256))
LAYER = "block3"


def _direct(model, cache: bool, root: str):
    from model_tools.activations import ActivationsExtractor, ImagePreprocessing
    from model_tools.brain_transformation import ModelCommitment

    extractor = ActivationsExtractor(model, "bench-direct", ImagePreprocessing(224), cache=cache, cache_root=root,
                                     progress=False)
    return ModelCommitment("bench-direct", extractor, [LAYER], region_layer_map={"V4": LAYER})


def _brainscore(model, cache: bool, root: str):
    from brainscore_vision.model_helpers.activations.pytorch import PytorchWrapper, load_preprocess_images
    from brainscore_vision.model_helpers.brain_transformation import ModelCommitment

    wrapper = PytorchWrapper(identifier="bench-bs", model=model,
                             preprocessing=functools.partial(load_preprocess_images, image_size=224), cache=cache,
                             cache_root=root, progress=False)
    wrapper.image_size = 224
    return ModelCommitment(identifier="bench-bs", activations_model=wrapper, layers=[LAYER],
                           region_layer_map={"V4": LAYER})


def _helper(model, cache: bool, root: str):
    from brainscore_vision.model_helpers.activations.core import ActivationsExtractorHelper
    from brainscore_vision.model_helpers.activations.pytorch import load_preprocess_images
    from brainscore_vision.model_helpers.brain_transformation import ModelCommitment

    modules = dict(model.named_modules())

    def get_activations(images, layer_names):
        outputs = OrderedDict()
        hooks = [modules[name].register_forward_hook(lambda _m, _i, out, name=name: outputs.__setitem__(
            name, out.numpy())) for name in layer_names]
        with torch.no_grad():
            model(torch.from_numpy(images))
        for hook in hooks:
            hook.remove()
        return outputs

    class HelperModel:
        def __init__(self):
            self._extractor = ActivationsExtractorHelper(get_activations, functools.partial(
                load_preprocess_images, image_size=224), identifier="bench-helper")

        def __call__(self, *args, **kwargs):
            return self._extractor(*args, **kwargs)

    return ModelCommitment("bench-helper", HelperModel(), [LAYER], region_layer_map={"V4": LAYER})


def _median_seconds(build, model, paths, cache: bool, root: str, rounds: list) -> None:
    commitment = build(model, cache, root)
    commitment.start_recording("V4", [(70, 170)])
    started = time.perf_counter()
    values = commitment.look_at(paths).values
    rounds.append((time.perf_counter() - started, float(np.asarray(values[:2, :5], dtype=np.float64).sum())))


def main() -> None:
    torch.manual_seed(0)
    model = build_randomnet()
    with tempfile.TemporaryDirectory() as scratch:
        paths, description = stimulus_paths(Path(scratch))
        paths = paths[:IMAGES]
        variants = {"direct": _direct, "Brain-Score paths": _brainscore, "ActivationsExtractorHelper": _helper}
        cold: dict[str, list] = {name: [] for name in variants}
        warm: dict[str, list] = {name: [] for name in ("direct", "Brain-Score paths")}
        root = os.path.join(scratch, "cache")
        for build in variants.values():  # warm-up: kernels, allocator, imports
            _median_seconds(build, model, paths[:8], False, root, [])
        for _ in range(CALLS):
            for name, build in variants.items():
                _median_seconds(build, model, paths, False, root, cold[name])
        for name in warm:  # fill the cache once, then time the loads
            _median_seconds(variants[name], model, paths, True, root, [])
        for _ in range(CALLS):
            for name in warm:
                _median_seconds(variants[name], model, paths, True, root, warm[name])
    sums = {name: [round(check, 3) for _, check in rows] for name, rows in cold.items()}
    assert len({tuple(s) for s in sums.values()}) == 1, f"the variants' values differ: {sums}"
    print(f"bench_brainscore_paths: randomnet architecture, layer {LAYER}, {len(paths)} of {description}; median of "
          f"{CALLS} calls each, interleaved; torch threads {torch.get_num_threads()}")
    base = statistics.median(seconds for seconds, _ in cold["direct"])
    for name, rows in cold.items():
        seconds = statistics.median(s for s, _ in rows)
        print(f"  extraction (cache off)  {name:28s} {seconds:7.3f} s   ratio to direct {seconds / base:5.2f}")
    base = statistics.median(seconds for seconds, _ in warm["direct"])
    for name, rows in warm.items():
        seconds = statistics.median(s for s, _ in rows)
        print(f"  warm cache load         {name:28s} {seconds:7.3f} s   ratio to direct {seconds / base:5.2f}")


if __name__ == "__main__":
    main()
